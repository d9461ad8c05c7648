"""What a detector reports and how overlapping reports are settled: a type and a span, never
the value itself."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

PiiType = Literal["OIB", "IBAN", "BSN", "SSN", "CARD", "EMAIL", "PHONE"]

VALIDATED = 1.0  # a checksum (or the SSN issuing rules) confirmed the number
PATTERN_ONLY = 0.8  # the shape alone: e-mail addresses and phone numbers

_TYPE_RANK: dict[PiiType, int] = {
    "IBAN": 0,
    "CARD": 1,
    "OIB": 2,
    "BSN": 3,
    "SSN": 4,
    "EMAIL": 5,
    "PHONE": 6,
}


@dataclass(frozen=True, slots=True)
class PiiFinding:
    """One piece of personal data: its type and where it sits in the original text."""

    type: PiiType
    start: int
    end: int
    confidence: float


@dataclass(frozen=True, slots=True)
class Candidate:
    """A finding before overlaps are settled. `doubt` orders equal spans: 0 for a validated
    identifier, 1 for a phone number, 2 for a bare nine-digit number (a phone reading of the
    same digits is the likelier one)."""

    finding: PiiFinding
    doubt: int = 0


class Spans:
    """Non-overlapping spans kept sorted, so each overlap test is a binary search."""

    def __init__(self) -> None:
        self._starts: list[int] = []
        self._ends: list[int] = []

    def add_if_free(self, start: int, end: int) -> bool:
        at = bisect_right(self._starts, start)
        if at > 0 and self._ends[at - 1] > start:
            return False
        if at < len(self._starts) and self._starts[at] < end:
            return False
        self._starts.insert(at, start)
        self._ends.insert(at, end)
        return True


def settle(candidates: Iterable[Candidate], spans: Spans) -> list[PiiFinding]:
    """The candidates that win their overlaps: the longer span, then the less doubtful reading,
    then the validated one, then the more specific type (so no part of a larger identifier is
    left behind)."""
    ordered = sorted(
        candidates,
        key=lambda c: (
            -(c.finding.end - c.finding.start),
            c.doubt,
            -c.finding.confidence,
            _TYPE_RANK[c.finding.type],
            c.finding.start,
        ),
    )
    return [c.finding for c in ordered if spans.add_if_free(c.finding.start, c.finding.end)]


def redact(text: str, findings: Sequence[PiiFinding]) -> str:
    """`text` with each finding's span replaced by its typed placeholder, such as "[OIB]"."""
    pieces: list[str] = []
    position = 0
    for finding in sorted(findings, key=lambda f: f.start):
        if finding.start < position:  # overlapping input: the earlier span already covers it
            continue
        pieces.append(text[position : finding.start])
        pieces.append(f"[{finding.type}]")
        position = finding.end
    pieces.append(text[position:])
    return "".join(pieces)
