"""`navod eval`: run the gold questions (fixtures/gold/*.yaml) and judge every response.

Questions run in process (the bundled packs in a memory store, a fixed clock) or against a
server (`--url`). The gold shape lives in measure/eval_gold.py, the verdicts in
measure/eval_judge.py, and the report (measure/eval_report.py) turns the outcomes into numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, Protocol
from urllib.parse import quote

import httpx

from engine.contract import ChatRequest
from engine.service import AnswerService, quote_checker
from engine.store.dossiers.memory import MemoryDossierRepository
from engine.store.guardrails.guards import load_guards
from engine.store.knowledge.memory import MemoryRepository
from engine.store.knowledge.packs import load_packs, pack_paths
from engine.validation import validate_response
from measure.eval_gold import (
    GOLD_DIR,
    Expectation,
    GoldError,
    GoldQuestion,
    gold_files,
    load_gold,
    parse_entry,
)
from measure.eval_judge import NO_RESPONSE, Observed, Verdict, judge, observe, same_value

__all__ = [
    "GOLD_DIR",
    "TODAY",
    "Expectation",
    "GoldError",
    "GoldQuestion",
    "Observed",
    "Outcome",
    "evaluate",
    "gold_files",
    "http_answerer",
    "http_asker",
    "in_process_answerer",
    "in_process_asker",
    "judge",
    "load_gold",
    "parse_entry",
    "run_gold",
    "same_value",
]

TODAY: Final = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)  # the gold set's fixed "now"
HTTP_TIMEOUT: Final = httpx.Timeout(10.0, connect=5.0)


@dataclass(frozen=True, slots=True)
class Outcome:
    question: GoldQuestion
    observed: Observed
    verdict: Verdict
    # An answerable question that was refused: whether one of the related questions the
    # refusal offered, asked as it is in the same conversation, was answered right (None
    # when not applicable).
    recovered: bool | None = None


class Reply(Protocol):
    @property
    def status_code(self) -> int: ...

    @property
    def text(self) -> str: ...

    def json(self) -> Any: ...


class HttpClient(Protocol):
    """What http_answerer needs: an httpx.Client, or a test client built on one."""

    @property
    def base_url(self) -> Any: ...

    def get(self, url: str) -> Reply: ...

    def post(self, url: str, *, json: Any) -> Reply: ...


Answerer = Callable[[GoldQuestion], Observed]
# Ask `text` in the conversation `session` (None: on its own), as the answerer asks `question`.
FollowUp = Callable[[GoldQuestion, str, str | None], Observed]


# ---- Asking


def request_body(question: GoldQuestion) -> dict[str, Any]:
    """The chat request for a gold question (the wire field names)."""
    body: dict[str, Any] = {"query": question.query, "surface": question.surface}
    if question.as_of is not None:
        body["asOfDate"] = question.as_of.isoformat()
    if question.client_context:
        body["clientContext"] = dict(question.client_context)
    return body


def in_process_answerer(clock: datetime = TODAY, conversation: bool = False) -> Answerer:
    """Answer through AnswerService over the bundled packs in a memory store, at a fixed clock;
    with `conversation`, each question opens a conversation of its own (as `/chat` without a
    sessionId does), so the conversation's steps (facts noted, follow-ups) read it too."""
    return in_process_asker(clock, conversation)[0]


def in_process_asker(
    clock: datetime = TODAY, conversation: bool = False
) -> tuple[Answerer, FollowUp]:
    """The in-process answerer, and how to ask another text in a question's conversation."""
    repository = MemoryRepository()
    load_packs(repository, pack_paths([]))
    dossiers = MemoryDossierRepository() if conversation else None
    service = AnswerService(
        repository, clock=lambda: clock, guards=load_guards(), dossiers=dossiers
    )

    def ask(question: GoldQuestion, text: str, session: str | None) -> Observed:
        body = {**request_body(question), "query": text}
        if session is not None:
            body["sessionId"] = session
        response = service.answer(ChatRequest.model_validate(body))
        snapshot = service.snapshot()

        def facts(rule_id: str) -> tuple[str, str] | None:
            rule = snapshot.rules.get(rule_id)
            return (rule.concept, rule.value) if rule else None

        return observe(response, facts, validate_response(response, quote_checker(snapshot)))

    return (lambda question: ask(question, question.query, None)), ask


def http_answerer(client: HttpClient) -> Answerer:
    return http_asker(client)[0]


def http_asker(client: HttpClient) -> tuple[Answerer, FollowUp]:
    """POST each question to the server; look each cited rule up once (GET /api/kb/rules/{id}).
    The server keeps its own clock: entries without `as_of` are answered for the server's today."""
    rules: dict[str, tuple[str, str] | None] = {}

    def facts(rule_id: str) -> tuple[str, str] | None:
        if rule_id not in rules:
            reply = client.get(f"/api/kb/rules/{quote(rule_id, safe='')}")
            body = reply.json() if reply.status_code == 200 else None
            concept, value = (body.get("concept"), body.get("value")) if body else (None, None)
            rules[rule_id] = (str(concept), str(value)) if concept and value is not None else None
        return rules[rule_id]

    def ask(question: GoldQuestion, text: str, session: str | None) -> Observed:
        body = {**request_body(question), "query": text}
        if session is not None:
            body["sessionId"] = session
        try:
            reply = client.post("/api/assistant/chat", json=body)
            response = reply.json() if reply.status_code == 200 else None
            if not isinstance(response, Mapping):
                return Observed(
                    NO_RESPONSE, errors=(f"HTTP {reply.status_code}: {reply.text[:200]}",)
                )
            return observe(response, facts, validate_response(response))
        except httpx.ConnectError as exc:  # nothing to judge when the server is not there
            raise GoldError(f"cannot reach {client.base_url}: {exc}") from exc
        except (httpx.HTTPError, ValueError) as exc:
            return Observed(NO_RESPONSE, errors=(f"{type(exc).__name__}: {exc}",))

    return (lambda question: ask(question, question.query, None)), ask


def run_gold(
    questions: Iterable[GoldQuestion], answer: Answerer, follow: FollowUp | None = None
) -> tuple[Outcome, ...]:
    """Ask every question and judge its response, in gold order. With `follow`, an answerable
    question that was refused is asked again through each related question its refusal
    offered, in the same conversation: *recovered in one click* when one is answered right."""
    outcomes = []
    for question in questions:
        observed = answer(question)
        verdict = judge(question.expect, observed, question.shape is not None)
        recovered = None
        if follow is not None and question.expect.kind == "ANSWER" and verdict == "refused":
            recovered = any(
                judge(question.expect, follow(question, text, observed.session)) == "correct"
                for text in observed.related
            )
        outcomes.append(Outcome(question, observed, verdict, recovered))
    return tuple(outcomes)


def evaluate(
    gold: Path | None = None, url: str | None = None, conversation: bool = False
) -> tuple[Sequence[Path], tuple[Outcome, ...]]:
    """Load the gold set and run it in process (each question on its own, or with
    `conversation` as the first message of a conversation), or against the server at `url`
    (whose `/chat` opens a conversation per question)."""
    files, questions = gold_files(gold), load_gold(gold)
    if url is None:
        return files, run_gold(questions, *in_process_asker(conversation=conversation))
    with httpx.Client(base_url=url.rstrip("/"), timeout=HTTP_TIMEOUT) as client:
        return files, run_gold(questions, *http_asker(client))
