"""Personal data in a question: find it by pattern, confirm it by checksum, replace it by type.

Candidates come from regexes; identifiers are kept only when python-stdnum accepts them (OIB mod
11,10, IBAN mod 97, BSN elfproef, SSN area/group/serial rules, cards Luhn), so an invoice number
or an amount is not mistaken for an identifier. E-mail and phone numbers have no checksum and get
a lower confidence. A finding holds a type and a span, never the value itself.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from stdnum import iban, luhn
from stdnum.hr import oib
from stdnum.nl import bsn
from stdnum.us import ssn

PiiType = Literal["OIB", "IBAN", "BSN", "SSN", "CARD", "EMAIL", "PHONE"]

VALIDATED = 1.0  # a checksum (or the SSN issuing rules) confirmed the number
PATTERN_ONLY = 0.8  # the shape alone: e-mail addresses and phone numbers


@dataclass(frozen=True, slots=True)
class PiiFinding:
    """One piece of personal data: its type and where it sits in the original text."""

    type: PiiType
    start: int
    end: int
    confidence: float


# A number glued to a currency or a percent sign is an amount, never an identifier.
_AMOUNT_BEFORE = re.compile(r"(?:[€$£]|\b(?:eur|usd|hrk|kn))\s?$", re.IGNORECASE)
_AMOUNT_AFTER = re.compile(
    r"^\s?(?:%|€|\$|£|(?:kn|kuna|eur|eura|euro|eure|usd|dollars?|hrk|posto|procent)\b)",
    re.IGNORECASE,
)
# "01-01-2025" has the digits of a Zagreb number; a day-month-year shape is a date.
_DATE_SHAPE = re.compile(r"\d{1,2}([./-])\d{1,2}\1\d{2,4}")
_SSN_CONTEXT = re.compile(r"\b(?:ssn|ss#|social security|soc\.? sec\.?)\b", re.IGNORECASE)

_NOT_DIGIT_BEFORE = r"(?<![\d.,/-])"
_NOT_DIGIT_AFTER = r"(?!\d|[.,/-]\d)"
_EMAIL = re.compile(
    r"(?<![\w.%+-])[A-Za-z0-9](?:[A-Za-z0-9._%+-]{0,62}[A-Za-z0-9_%+-])?"
    r"@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}(?![\w-])"
)
# Country code, check digits, then groups; may swallow a following word, trimmed below.
_IBAN = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]{2}\d{2}(?:[ ]?[A-Za-z0-9]){11,30}(?![A-Za-z0-9])")
_CARD = re.compile(_NOT_DIGIT_BEFORE + r"\d(?:[ -]?\d){12,18}" + _NOT_DIGIT_AFTER)
_OIB = re.compile(_NOT_DIGIT_BEFORE + r"\d{11}" + _NOT_DIGIT_AFTER)
# Nine digits: a BSN (also written 1112.22.333), or an SSN when "SSN" stands just before.
_NINE_DIGITS = re.compile(_NOT_DIGIT_BEFORE + r"(?:\d{9}|\d{4}\.\d{2}\.\d{3})" + _NOT_DIGIT_AFTER)
_SSN_DASHED = re.compile(r"(?<![\d-])\d{3}-\d{2}-\d{4}(?![\d-])")
_SSN_CONTEXT_WINDOW = 30
_PHONE = re.compile(
    r"(?<![\w+.,/-])(?:"
    + "|".join(
        f"(?:{body})"
        for body in (
            # Croatia: +385 / 00385, then the area or mobile code without its 0.
            r"(?:\+|00)385[ /-]?(?:\(0\)[ ]?)?[1-9]\d?(?:[ /-]?\d){6,7}",
            # Croatia, national: 01 Zagreb, 020-053 other areas, 091/092/095/097/098/099 mobiles.
            r"0(?:1|[2-5]\d|9[125789])(?:[ /-]?\d){6,7}",
            # Netherlands: +31 / 0031 and nine digits, 06 mobiles, 0xx landlines (ten digits).
            r"(?:\+|00)31[ -]?(?:\(0\)[ -]?)?[1-9](?:[ -]?\d){8}",
            r"06[ -]?(?:\d[ -]?){7}\d",
            r"0[1-57-9]\d(?:[ -]?\d){7}",
            # United States: +1 and 3-3-4 groups; area and exchange codes start with 2-9.
            r"\+1[ .-]?\(?[2-9]\d{2}\)?[ .-]?[2-9]\d{2}[ .-]?\d{4}",
            r"(?:\([2-9]\d{2}\)[ ]?|[2-9]\d{2}[-. ])[2-9]\d{2}[-. ]\d{4}",
        )
    )
    + r")(?!\w|[.,/-]\d)"
)
# Digits with the separators identifiers and phone numbers are written with; the shortest
# identifier or phone number has eight digits ("01 234 567" in Zagreb has eight).
_DIGIT_RUN = re.compile(r"[+(]?\d[\d ()./-]*\d")
_FEWEST_DIGITS = 8
# Issuer prefixes of the card networks (Visa, Mastercard, Amex, Discover, JCB, Diners,
# UnionPay, Maestro): a Luhn-valid number outside them is more likely an account reference.
_CARD_PREFIX = re.compile(r"4|5[0-9]|2[2-7]|3[47]|3[0689]|35|6[0-9]")
_TYPE_RANK: dict[PiiType, int] = {
    "IBAN": 0,
    "CARD": 1,
    "OIB": 2,
    "BSN": 3,
    "SSN": 4,
    "EMAIL": 5,
    "PHONE": 6,
}


def detect_pii(text: str) -> tuple[PiiFinding, ...]:
    """Every piece of personal data in `text`, sorted by start, spans never overlapping.

    Where candidates overlap the longer span wins (so no part of a larger identifier is left
    behind), then the validated one, then the more specific type.
    """
    candidates = sorted(
        _candidates(text),
        key=lambda f: (-(f.end - f.start), -f.confidence, _TYPE_RANK[f.type], f.start),
    )
    kept = _Disjoint()
    for finding in candidates:
        kept.add_if_free(finding)
    # A value found once is personal data wherever it appears again, even where its context
    # alone would not say so ("… 102030406 £" reads as money, but that BSN was already seen).
    # Each value is looked for once, however often it was found (else the same number written
    # a thousand times was looked for a thousand times).
    first_of = {text[f.start : f.end]: f for f in reversed(kept.findings)}
    for value, finding in first_of.items():
        start = text.find(value)
        while start != -1:
            kept.add_if_free(
                PiiFinding(finding.type, start, start + len(value), finding.confidence)
            )
            start = text.find(value, start + 1)
    return tuple(kept.findings)


class _Disjoint:
    """Findings that do not overlap, sorted by start; a candidate is checked against its two
    neighbours only (a question full of identifiers made checking every pair quadratic)."""

    def __init__(self) -> None:
        self.findings: list[PiiFinding] = []
        self._starts: list[int] = []

    def add_if_free(self, finding: PiiFinding) -> None:
        at = bisect_right(self._starts, finding.start)
        if at > 0 and self.findings[at - 1].end > finding.start:
            return
        if at < len(self.findings) and self.findings[at].start < finding.end:
            return
        self.findings.insert(at, finding)
        self._starts.insert(at, finding.start)


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


def _candidates(text: str) -> Iterator[PiiFinding]:
    if "@" in text:
        for match in _EMAIL.finditer(text):
            yield PiiFinding("EMAIL", match.start(), match.end(), PATTERN_ONLY)
    for match in _IBAN.finditer(text):
        end = _longest_valid_end(text, match.start(), match.end(), iban.is_valid)
        if end is not None:
            yield PiiFinding("IBAN", match.start(), end, VALIDATED)
    # Every other identifier is a run of at least eight digits (with separators): find the
    # runs in one pass and look closer only there, so amounts and dates cost almost nothing.
    for run in _DIGIT_RUN.finditer(text):
        if sum(char.isdigit() for char in run.group()) >= _FEWEST_DIGITS:
            # The window reaches a little past the run so the end-of-number checks still see.
            yield from _identifiers_in(text, run.start(), min(len(text), run.end() + 2))


def _identifiers_in(text: str, start: int, end: int) -> Iterator[PiiFinding]:
    for match in _CARD.finditer(text, start, end):
        card_end = _longest_valid_end(text, match.start(), match.end(), _is_card)
        if card_end is not None and not _is_amount(text, match.start(), card_end):
            yield PiiFinding("CARD", match.start(), card_end, VALIDATED)
    yield from _checked(text, start, end, _OIB, "OIB", oib.is_valid)
    yield from _checked(text, start, end, _SSN_DASHED, "SSN", ssn.is_valid)
    for match in _NINE_DIGITS.finditer(text, start, end):
        kind = _nine_digit_kind(text, match)
        if kind is not None and not _is_amount(text, match.start(), match.end()):
            yield PiiFinding(kind, match.start(), match.end(), VALIDATED)
    for match in _PHONE.finditer(text, start, end):
        if not _is_amount(text, match.start(), match.end()) and not _DATE_SHAPE.fullmatch(
            match.group()
        ):
            yield PiiFinding("PHONE", match.start(), match.end(), PATTERN_ONLY)


def _checked(
    text: str,
    start: int,
    end: int,
    pattern: re.Pattern[str],
    kind: PiiType,
    is_valid: Callable[[str], bool],
) -> Iterator[PiiFinding]:
    for match in pattern.finditer(text, start, end):
        if is_valid(match.group()) and not _is_amount(text, match.start(), match.end()):
            yield PiiFinding(kind, match.start(), match.end(), VALIDATED)


def _nine_digit_kind(text: str, match: re.Match[str]) -> PiiType | None:
    number = match.group()
    before = text[max(0, match.start() - _SSN_CONTEXT_WINDOW) : match.start()]
    if number.isdigit() and _SSN_CONTEXT.search(before) and ssn.is_valid(number):
        return "SSN"
    return "BSN" if bsn.is_valid(number) else None


def _longest_valid_end(
    text: str, start: int, end: int, is_valid: Callable[[str], bool]
) -> int | None:
    """The end of the longest valid prefix of text[start:end] cut at a separator, if any.

    The candidate regexes may run on into the next group or word ("HR12... 2024"); trying each
    shorter cut keeps the identifier and leaves the rest.
    """
    cuts = [end] + [i for i in range(end - 1, start, -1) if text[i] in " -"]
    for cut in cuts:
        if is_valid(text[start:cut]):
            return cut
    return None


def _is_card(candidate: str) -> bool:
    digits = candidate.replace(" ", "").replace("-", "")
    return (
        13 <= len(digits) <= 19 and _CARD_PREFIX.match(digits) is not None and luhn.is_valid(digits)
    )


def _is_amount(text: str, start: int, end: int) -> bool:
    return (
        _AMOUNT_BEFORE.search(text, max(0, start - 4), start) is not None
        or _AMOUNT_AFTER.match(text[end : end + 9]) is not None
    )
