"""Other readings of a number's digits: an amount, a date, a year range, a part of a web
address. A number that reads as one of them is not taken for a bare identifier; a keyword
naming the identifier overrides."""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Sequence

from engine.guardrails.pii.findings import PiiType
from engine.guardrails.pii.spelling import Group

# A number glued to a currency or a percent sign is an amount. The kuna words are kept apart:
# the kuna went out in 2023 and "12345678903 kn" is how an OIB was hidden from the detector,
# so they make an amount of anything but an eleven-digit number.
_AMOUNT_BEFORE = re.compile(r"(?:[€$£¥]|\b(?:eur|usd))\s?$", re.IGNORECASE)
_KUNA_BEFORE = re.compile(r"\b(?:hrk|kn)\s?$", re.IGNORECASE)
_AMOUNT_AFTER = re.compile(
    r"^(?:[.,]\d{1,2})?\s?(?:%|‰|€|\$|£|¥|(?:eur|eura|euro|eure|usd|dollars?|posto|procent)\b)",
    re.IGNORECASE,
)
_KUNA_AFTER = re.compile(r"^(?:[.,]\d{1,2})?\s?(?:kn|kuna|hrk)\b", re.IGNORECASE)
# Words of money and tax that make a number grouped in thousands an amount ("123 456 789 PDV").
_MONEY_WORD_BEFORE = re.compile(
    r"\b(?:prihod\w*|promet\w*|iznos\w*|omzet|bedrag|inkomen|income|turnover|amount|revenue)"
    r"\s?(?:je|od|is|van|of)?\s?$",
    re.IGNORECASE,
)
_MONEY_WORD_AFTER = re.compile(r"^\s?(?:pdv|btw|vat|tax|porez\w*|belasting\w*)\b", re.IGNORECASE)
_MONEY_WINDOW = 24
_BEFORE_WINDOW = 5
_AFTER_WINDOW = 14
# Words naming an identifier, in the languages Navod reads; the nearest one before a number
# says what it is, whatever its spelling or the currency after it. Matched on the text as
# written: full-width keywords are not looked for (the number is still checked without one).
_KEYWORDS: dict[str, PiiType] = {
    "oib": "OIB",
    "osobni identifikacijski broj": "OIB",
    "bsn": "BSN",
    "burgerservicenummer": "BSN",
    "sofinummer": "BSN",
    "ssn": "SSN",
    "ss#": "SSN",
    "social security": "SSN",
    "soc sec": "SSN",
    "soc. sec.": "SSN",
    "iban": "IBAN",
    # a card's name counts only before a number of a card's length (numbers.py)
    "card": "CARD",
    "credit card": "CARD",
    "creditcard": "CARD",
    "kartica": "CARD",
    "kartice": "CARD",
    "karticu": "CARD",
    "kartici": "CARD",
    "kaart": "CARD",
    "kaartnummer": "CARD",
}
# The lookahead of first letters lets the scan skip in C every position no keyword starts at.
_KEYWORD = re.compile(
    f"(?=[{''.join(sorted({k[0] for k in _KEYWORDS}))}])(?<![a-z])(?:"
    + "|".join(re.escape(k) for k in _KEYWORDS)
    + r")(?![a-z])",
    re.IGNORECASE,
)
KEYWORD_WINDOW = 30
_ADDRESS_WINDOW = 200
_DATE_SEPARATORS = frozenset("./-")


def _folded(text: str) -> str:
    return text if text.isascii() else unicodedata.normalize("NFKC", text)


def amount_before(text: str, start: int, *, kuna: bool = True) -> bool:
    """Whether a currency sign or word stands just before `start`."""
    before = _folded(text[max(0, start - _BEFORE_WINDOW) : start])
    return bool(_AMOUNT_BEFORE.search(before) or (kuna and _KUNA_BEFORE.search(before)))


def amount_after(text: str, end: int, *, kuna: bool = True) -> bool:
    """Whether a currency or percent sign or word (after decimals, if any) follows `end`."""
    after = _folded(text[end : end + _AFTER_WINDOW])
    return bool(_AMOUNT_AFTER.match(after) or (kuna and _KUNA_AFTER.match(after)))


def is_amount(text: str, start: int, end: int, *, kuna: bool = True) -> bool:
    """Whether a currency or percent sign (or word) stands next to text[start:end]."""
    return amount_before(text, start, kuna=kuna) or amount_after(text, end, kuna=kuna)


def money_words_next_to(text: str, start: int, end: int) -> bool:
    """Whether a money or tax word stands next to text[start:end] (for grouped numbers)."""
    before = _folded(text[max(0, start - _MONEY_WINDOW) : start])
    after = _folded(text[end : end + _MONEY_WINDOW])
    return bool(_MONEY_WORD_BEFORE.search(before) or _MONEY_WORD_AFTER.match(after))


def in_web_address(text: str, start: int) -> bool:
    """Whether text[start] is inside a web address ("https://…/2023_10_114_1613.html"): the
    word it stands in, up to _ADDRESS_WINDOW characters back, holds "://" or "www."."""
    before = text[max(0, start - _ADDRESS_WINDOW) : start]
    if not before or before[-1].isspace():
        return False
    word = before.split()[-1]
    return "://" in word or "www." in word.lower()


class Keywords:
    """Where the text names an identifier: found once, then looked up for each number."""

    def __init__(self, text: str) -> None:
        found = [(m.end(), _KEYWORDS[m.group().lower()]) for m in _KEYWORD.finditer(text)]
        self._ends = [end for end, _ in found]
        self._types = [kind for _, kind in found]

    def before(self, start: int) -> PiiType | None:
        """The identifier the nearest keyword in the few characters before `start` names."""
        if not self._ends:
            return None
        at = bisect_right(self._ends, start) - 1
        if at >= 0 and self._ends[at] >= start - KEYWORD_WINDOW:
            return self._types[at]
        return None


def grouped_thousands(run: Sequence[Group]) -> bool:
    """1-3 digits, then groups of three behind one repeated space, dot, comma or apostrophe
    (123.456.789, 123,456,789, 123'456'789), and perhaps decimals behind a dot or a comma
    (123.456.789,50)."""
    if len(run) > 3 and len(run[-1].digits) <= 2 and run[-1].gap in (".", ","):
        run = run[:-1]
    gaps = {group.gap for group in run[1:]}
    return (
        len(run) >= 3
        and 1 <= len(run[0].digits) <= 3
        and all(len(group.digits) == 3 for group in run[1:])
        and len(gaps) == 1
        and gaps <= {" ", ".", ",", "_"}
    )


def dates_and_years(run: Sequence[Group]) -> set[int]:
    """Indexes of the groups that read as a date (1.1.2025, 04/15/2024, 2024-01-31) or a year
    range (2020-2024)."""
    taken: set[int] = set()
    for at in range(1, len(run)):
        if run[at].word or run[at].gap.strip() not in _DATE_SEPARATORS:
            continue  # dates and year ranges are joined by a dot, a dash or a slash
        if at + 1 < len(run) and _is_date(run[at - 1 : at + 2]):
            taken.update((at - 1, at, at + 1))
        if _is_year_range(run[at - 1], run[at]):
            taken.update((at - 1, at))
    return taken


def _is_date(groups: Sequence[Group]) -> bool:
    first, second, third = (group.digits for group in groups)
    gaps = {groups[1].gap.strip(), groups[2].gap.strip()}
    if len(gaps) != 1 or not gaps <= _DATE_SEPARATORS:
        return False
    if len(first) == 4:  # ISO order
        return (
            _is_year(first)
            and len(second) <= 2
            and len(third) <= 2
            and _day_month(int(third), int(second))
        )
    return (
        len(first) <= 2
        and len(second) <= 2
        and len(third) in (2, 4)
        and (_day_month(int(first), int(second)) or _day_month(int(second), int(first)))
    )


def _is_year_range(first: Group, second: Group) -> bool:
    return (
        second.gap.strip() in ("-", "/")
        and _is_year(first.digits)
        and _is_year(second.digits)
        and int(first.digits) < int(second.digits)
    )


def _is_year(digits: str) -> bool:
    return len(digits) == 4 and 1900 <= int(digits) <= 2099


def _day_month(day: int, month: int) -> bool:
    return 1 <= day <= 31 and 1 <= month <= 12
