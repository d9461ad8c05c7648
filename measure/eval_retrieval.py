"""Issue 27's retrieval measure: how often a ranking of passages puts one that answers a question
in its first k (recall@k) and how high (MRR), per language, over fixtures/retrieval/questions.yaml
(written from the source texts by someone who had not read the matcher).

A passage answers when its text holds one of the question's gold snippets (words copied from
the passage, compared with spacing folded). Questions the texts do not answer are counted apart:
a ranking that returns passages for them is pretending.

    python -m measure.eval_retrieval          # the baseline: the passages Navod's answers cite

The baseline ranks, for each question, the evidence its answer cites (primary card first): what
Navod can show today, before an article index exists.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
import yaml

from engine.contract import ChatRequest
from engine.service import AnswerService
from engine.store.guardrails.guards import load_guards
from engine.store.knowledge.memory import MemoryRepository
from engine.store.knowledge.packs import load_packs, pack_paths

GOLD = Path(__file__).resolve().parents[1] / "fixtures" / "retrieval" / "questions.yaml"
TODAY = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)
K = 3


@dataclass(frozen=True, slots=True)
class RetrievalQuestion:
    id: str
    language: str
    question: str
    snippets: tuple[str, ...]  # () when the texts do not answer it


# The passages a ranker returns for a question, best first, as their texts.
Ranker = Callable[[RetrievalQuestion], Sequence[str]]


def load_questions(path: Path = GOLD) -> list[RetrievalQuestion]:
    entries: list[dict[str, Any]] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return [
        RetrievalQuestion(
            e["id"], e["language"], e["question"], tuple(a["snippet"] for a in e["answers"])
        )
        for e in entries
    ]


def _folded(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def hit_rank(question: RetrievalQuestion, passages: Sequence[str]) -> int | None:
    """The 1-based rank of the first passage holding one of the question's snippets."""
    snippets = [_folded(s) for s in question.snippets]
    for rank, passage in enumerate(passages, start=1):
        text = _folded(passage)
        if any(snippet in text for snippet in snippets):
            return rank
    return None


def score(questions: Iterable[RetrievalQuestion], ranker: Ranker, k: int = K) -> dict[str, Any]:
    """Per language and overall: answerable questions, recall@k, MRR (ranks beyond k count
    0), and how many unanswerable questions got passages anyway."""
    rows: dict[str, dict[str, float]] = {}
    for question in questions:
        passages = list(ranker(question))
        for group in (question.language, "all"):
            row = rows.setdefault(group, {"answerable": 0, "hits": 0, "rr": 0.0, "pretended": 0})
            if not question.snippets:
                row["pretended"] += 1 if passages else 0
                continue
            rank = hit_rank(question, passages[:k])
            row["answerable"] += 1
            if rank is not None:
                row["hits"] += 1
                row["rr"] += 1 / rank
    return {
        group: {
            "answerable": int(row["answerable"]),
            f"recall_at_{k}": round(row["hits"] / row["answerable"], 3) if row["answerable"] else 0,
            "mrr": round(row["rr"] / row["answerable"], 3) if row["answerable"] else 0,
            "unanswerable_with_passages": int(row["pretended"]),
        }
        for group, row in sorted(rows.items())
    }


def cited_ranker(clock: datetime = TODAY) -> Ranker:
    """The baseline: the evidence texts an in-process answer cites, primary first (none for a
    refusal)."""
    repository = MemoryRepository()
    load_packs(repository, pack_paths([]))
    service = AnswerService(repository, clock=lambda: clock, guards=load_guards())

    def ranked(question: RetrievalQuestion) -> list[str]:
        request = ChatRequest.model_validate({"query": question.question})
        response = service.answer(request)
        citations = response.get("citations") or {}
        cards = [citations.get("primary"), *citations.get("supporting", [])]
        cards += response.get("additionalCitations") or []
        evidence = service.snapshot().evidence
        ids = dict.fromkeys(card["evidenceId"] for card in cards if card)
        return [evidence[i].text for i in ids if i in evidence]

    return ranked


def main() -> None:
    report = score(load_questions(), cited_ranker())
    sys.stdout.write(orjson.dumps(report, option=orjson.OPT_INDENT_2).decode() + "\n")


if __name__ == "__main__":
    main()
