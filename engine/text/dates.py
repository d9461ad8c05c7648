"""Calendar dates written in Croatian, Dutch or English, found in folded text.

Works on `fold`ed text (lowercase, no diacritics) so "1. siječnja 2025." and "1. sijecnja 2025."
read the same. Month names of all three languages are recognised whatever the text language;
only the order of slash dates ("1/2/2025") depends on the language.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from functools import lru_cache

from engine.types import Language

# Croatian months in every case a date uses (nominative, genitive, locative), folded.
_HR_MONTHS = (
    ("sijecanj", "sijecnja", "sijecnju"),
    ("veljaca", "veljace", "veljaci"),
    ("ozujak", "ozujka", "ozujku"),
    ("travanj", "travnja", "travnju"),
    ("svibanj", "svibnja", "svibnju"),
    ("lipanj", "lipnja", "lipnju"),
    ("srpanj", "srpnja", "srpnju"),
    ("kolovoz", "kolovoza", "kolovozu"),
    ("rujan", "rujna", "rujnu"),
    ("listopad", "listopada", "listopadu"),
    ("studeni", "studenoga", "studenog", "studenom", "studenome"),
    ("prosinac", "prosinca", "prosincu"),
)
_NL_MONTH_WORDS = (
    "januari februari maart april mei juni juli augustus september oktober november december"
)
NL_MONTHS = tuple(_NL_MONTH_WORDS.split())
_EN_MONTH_WORDS = (
    "january february march april may june july august september october november december"
)
EN_MONTHS = tuple(_EN_MONTH_WORDS.split())
_EN_ABBREVIATIONS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8}
_EN_ABBREVIATIONS |= {"sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12}


def _month_numbers() -> dict[str, int]:
    numbers: dict[str, int] = {}
    for index, forms in enumerate(_HR_MONTHS, start=1):
        numbers.update(dict.fromkeys(forms, index))
    for names in (NL_MONTHS, EN_MONTHS):
        numbers.update({name: index for index, name in enumerate(names, start=1)})
    return numbers | _EN_ABBREVIATIONS


MONTH_NUMBERS = _month_numbers()
_MONTH = "|".join(sorted(MONTH_NUMBERS, key=len, reverse=True))
_DAY_MONTH_YEAR = re.compile(
    rf"(?<!\d)(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\.?\s*(?P<month>{_MONTH})\b\.?,?\s*(?P<year>\d{{4}})(?!\d)\.?"
)
_MONTH_DAY_YEAR = re.compile(
    rf"\b(?P<month>{_MONTH})\.?\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<year>\d{{4}})(?!\d)"
)
_ISO = re.compile(r"(?<![\d.])(?P<year>\d{4})-(?P<month>\d{1,2})-(?P<day>\d{1,2})(?!\d)")
_DOTTED = re.compile(
    r"(?<![\d.,])(?P<day>\d{1,2})\.\s?(?P<month>\d{1,2})\.\s?(?P<year>\d{4})(?!\d)\.?"
)
_SLASHED = re.compile(
    r"(?<![\d/])(?P<first>\d{1,2})[/-](?P<second>\d{1,2})[/-](?P<year>\d{4})(?!\d)"
)


@dataclass(frozen=True, slots=True)
class DateMatch:
    """A date and where it was written in the folded text."""

    start: int
    end: int
    value: date


def _month_of(text: str) -> int:
    return MONTH_NUMBERS[text] if text in MONTH_NUMBERS else int(text)


def _build(start: int, end: int, year: str, month: str, day: str) -> DateMatch | None:
    try:
        return DateMatch(start, end, date(int(year), _month_of(month), int(day)))
    except ValueError:  # 31 February and friends are not dates
        return None


def _candidates(folded: str, language: Language) -> list[DateMatch]:
    found: list[DateMatch | None] = []
    for pattern in (_DAY_MONTH_YEAR, _MONTH_DAY_YEAR, _ISO, _DOTTED):
        found += [
            _build(m.start(), m.end(), m["year"], m["month"], m["day"])
            for m in pattern.finditer(folded)
        ]
    for m in _SLASHED.finditer(folded):
        # US writing puts the month first; Croatian and Dutch put the day first.
        month, day = (m["first"], m["second"]) if language == "en" else (m["second"], m["first"])
        found.append(_build(m.start(), m.end(), m["year"], month, day))
    return [match for match in found if match is not None]


@lru_cache(maxsize=64)  # analysis, facts and time read the same question's dates
def find_dates(folded: str, language: Language) -> tuple[DateMatch, ...]:
    """Every date in `folded` text, in reading order, without overlaps (the longer one wins)."""
    ordered = sorted(_candidates(folded, language), key=lambda m: (m.start, m.start - m.end))
    chosen: list[DateMatch] = []
    for match in ordered:
        if not chosen or match.start >= chosen[-1].end:
            chosen.append(match)
    return tuple(chosen)
