"""detect_pii: every detector's candidates, settled into non-overlapping findings."""

from __future__ import annotations

from collections.abc import Iterator

from engine.guardrails.pii.contacts import find_emails, find_phones
from engine.guardrails.pii.findings import (
    PATTERN_ONLY,
    VALIDATED,
    Candidate,
    PiiFinding,
    Spans,
    settle,
)
from engine.guardrails.pii.ibans import find_ibans
from engine.guardrails.pii.numbers import NumberCandidate, find_numbers
from engine.guardrails.pii.spelling import MANY, skeleton, written_out
from engine.text.language import detect_language


def detect_pii(text: str) -> tuple[PiiFinding, ...]:
    """Every piece of personal data in `text`, sorted by start, spans never overlapping.

    Where candidates overlap the longer span wins (so no part of a larger identifier is left
    behind), then the less doubtful reading, then the validated one, then the more specific
    type. A value found once is personal data wherever it appears again, in any spelling, even
    where its context alone would not say so ("… 102030406 £" reads as money, but that BSN was
    already seen).

    A character worth several digits ("⑩") is read with its digits written out, and each
    finding mapped back to the characters it came from.
    """
    shadow = skeleton(text)
    if MANY not in shadow:
        return _detect(text, shadow)
    longer = written_out(text, shadow)
    found: list[PiiFinding] = []
    for f in _detect(longer.text, skeleton(longer.text)):
        start, end = longer.origin(f.start), longer.origin(f.end - 1) + 1
        if found and start < found[-1].end:  # both read digits of one character
            start = found[-1].end
        if start < end:
            found.append(PiiFinding(f.type, start, end, f.confidence))
    return tuple(found)


def _detect(text: str, shadow: str) -> tuple[PiiFinding, ...]:
    language: list[str] = []

    def dutch() -> bool:
        if not language:
            language.append(detect_language(text)[0])
        return language[0] == "nl"

    numbers = list(find_numbers(text, shadow, dutch))
    spans = Spans()
    kept = settle(_candidates(text, shadow, numbers), spans)
    where = {(f.start, f.end) for f in kept}
    seen = {n.digits for n in numbers if not n.other_reading and (n.start, n.end) in where}
    again = [
        PiiFinding(n.type, n.start, n.end, VALIDATED)
        for n in numbers
        if n.other_reading and n.digits in seen
    ]
    kept += [f for f in again if spans.add_if_free(f.start, f.end)]
    kept += _repeated(text, kept, spans)
    return tuple(sorted(kept, key=lambda f: f.start))


def _candidates(text: str, shadow: str, numbers: list[NumberCandidate]) -> Iterator[Candidate]:
    for start, end in find_emails(text):
        yield Candidate(PiiFinding("EMAIL", start, end, PATTERN_ONLY))
    for start, end in find_ibans(shadow):
        yield Candidate(PiiFinding("IBAN", start, end, VALIDATED))
    for start, end in find_phones(text):
        yield Candidate(PiiFinding("PHONE", start, end, PATTERN_ONLY), doubt=1)
    for n in numbers:
        if not n.other_reading:
            doubt = 2 if n.bare and len(n.digits) == 9 else 0
            yield Candidate(PiiFinding(n.type, n.start, n.end, VALIDATED), doubt)


def _repeated(text: str, kept: list[PiiFinding], spans: Spans) -> list[PiiFinding]:
    """An e-mail address or a phone number written again where its context alone would not
    say so (identifiers are matched again by their digits, in find_numbers' candidates)."""
    found: list[PiiFinding] = []
    contacts = {text[f.start : f.end]: f for f in kept if f.type in ("EMAIL", "PHONE")}
    for value, finding in contacts.items():
        start = text.find(value)
        while start != -1:
            end = start + len(value)
            if spans.add_if_free(start, end):
                found.append(PiiFinding(finding.type, start, end, finding.confidence))
            start = text.find(value, start + 1)
    return found
