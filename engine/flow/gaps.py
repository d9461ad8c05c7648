"""What askers miss: the refused turns of stored conversations, grouped for a pack author.

A refused turn is counted under its refusal reason and the subject it named: the concepts the
question matched when it matched any (a rule missing at that date, a fact the asker must give),
else its own content words. A stored turn keeps no list of the words the reading did not know,
so those are derived from the redacted question: folded words (engine/text/tokens.py) without
the language's stopwords, numbers or the placeholders redaction left, each once, sorted, so
"dog tax" and "tax for a dog" meet. Each group keeps the first and last day it was seen (UTC)
and one example question, redacted once more here: a pack author reads it, and it must hold
nothing personal even if an older version of Navod stored it unredacted.

Pure: the events in, the groups out; the order of the events does not change the result.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal, get_args

from engine.dossier.model import Event, TurnRecord
from engine.guardrails.pii import PiiType, detect_pii, redact
from engine.text.stopwords import STOPWORDS
from engine.text.tokens import tokenize
from engine.types import Language

REFUSAL = "REFUSAL"
NamedBy = Literal["concepts", "words"]
# "[IBAN]", "[OIB]": what redaction put where an identifier was; not a word the asker used.
_PLACEHOLDER = re.compile(r"\[(?:" + "|".join(get_args(PiiType)) + r")\]")


@dataclass(frozen=True, slots=True)
class Gap:
    """Refused questions with one reason and one subject: how many, when, and one example."""

    reason: str  # the refusal reason (NO_CITABLE_RULES, OUT_OF_SCOPE, …)
    subject: str  # concept ids joined by " + ", or content words joined by spaces ("" if none)
    named_by: NamedBy
    count: int
    first_seen: date
    last_seen: date
    example: str  # the earliest question of the group, redacted


@dataclass(frozen=True, slots=True)
class GapReport:
    refused: int  # refused turns read
    groups: int  # groups found, before the limit
    gaps: tuple[Gap, ...]  # the largest groups, at most `limit`


def refusal_gaps(events: Iterable[Event], limit: int | None = None) -> GapReport:
    """The refused turns among `events`, grouped by reason and subject; the largest groups
    first, then by reason, subject and how it was named; at most `limit` of them."""
    grouped: dict[tuple[str, str, NamedBy], list[tuple[datetime, str]]] = {}
    for event in events:
        turn = event.record
        if not isinstance(turn, TurnRecord) or turn.kind != REFUSAL:
            continue
        subject, named_by = subject_of(turn)
        key = (turn.refusal_reason or "", subject, named_by)
        grouped.setdefault(key, []).append((event.at, turn.question))
    gaps = sorted(
        (
            _gap(reason, subject, named_by, seen)
            for (reason, subject, named_by), seen in grouped.items()
        ),
        key=lambda gap: (-gap.count, gap.reason, gap.subject, gap.named_by),
    )
    refused = sum(gap.count for gap in gaps)
    return GapReport(refused, len(gaps), tuple(gaps if limit is None else gaps[: max(limit, 0)]))


def subject_of(turn: TurnRecord) -> tuple[str, NamedBy]:
    """The concepts the turn matched, else the content words of its question."""
    if turn.concepts:
        return " + ".join(sorted(set(turn.concepts))), "concepts"
    return " ".join(content_words(redacted(turn.question), turn.language)), "words"


def content_words(question: str, language: Language) -> tuple[str, ...]:
    """The distinct folded words of `question` that are not stopwords of `language`, numbers,
    single letters or redaction placeholders, sorted."""
    stopwords = STOPWORDS.get(language, frozenset())
    words = tokenize(_PLACEHOLDER.sub(" ", question))
    return tuple(
        sorted({w for w in words if len(w) > 1 and not w.isdigit() and w not in stopwords})
    )


def _gap(reason: str, subject: str, named_by: NamedBy, seen: list[tuple[datetime, str]]) -> Gap:
    first_at, example = min(seen)  # the earliest; at the same moment, the first text
    return Gap(
        reason=reason,
        subject=subject,
        named_by=named_by,
        count=len(seen),
        first_seen=first_at.date(),
        last_seen=max(at for at, _ in seen).date(),
        example=redacted(example),
    )


def redacted(text: str) -> str:
    """`text` with every identifier the input guardrail finds replaced by its placeholder."""
    findings = detect_pii(text)
    return redact(text, findings) if findings else text
