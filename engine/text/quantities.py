"""Quantities stated in text: numbers, percentages, money, years and dates.

`extract_quantities` reads one text in its language's notation; `numbers_stated` and
`value_stated` answer whether a rule's value is written in a legal text, trying every notation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from itertools import islice
from typing import TypeVar

from engine.text.dates import DateMatch, find_dates
from engine.text.normalize import fold, normalise_quote
from engine.text.numbers import NUMBER, dot_groups_thousands, parse_number, readings
from engine.types import Language, ValueType


@dataclass(frozen=True, slots=True)
class Money:
    value: Decimal
    currency: str | None  # "EUR", "USD", "HRK", or None when only the amount is known


@dataclass(frozen=True, slots=True)
class Quantities:
    """What a text states, each kind once, in reading order; the kinds do not overlap.

    A number is filed under exactly one of numbers/percentages/amounts/years; a date's year is
    also listed in `years`.
    """

    numbers: tuple[Decimal, ...]
    percentages: tuple[Decimal, ...]
    amounts: tuple[Money, ...]
    years: tuple[int, ...]
    dates: tuple[date, ...]


_PERCENT_AFTER = re.compile(r"\s*(?:%|posto\b|postot|percent\b|per cent\b|procent\b)")
_CURRENCY_AFTER = re.compile(
    r"\s*(€|\$|eur[a-z]*\b|usd\b|dollars?\b|dolar[a-z]*\b|kun[ae]\b|kn\b|hrk\b)"
)
_CURRENCY_BEFORE = re.compile(r"(€|\$|\beur|\busd|\bhrk|\bkn)\.?\s*$")
_CURRENCY_REACH = 8  # a currency written before an amount sits right next to it: "EUR 40.000"
_T = TypeVar("_T")
# A question states a handful of quantities; reading a few thousand numbers only costs time.
MAX_NUMBERS = 64
_NUMERIC_TYPES = frozenset({"percentage", "currency_eur", "currency_usd", "integer", "years"})


def currency_code(marker: str) -> str:
    """The ISO code a currency marker stands for (€, eur…, $, usd, dol…; else kuna)."""
    if marker == "€" or marker.startswith("eur"):
        return "EUR"
    if marker in ("$", "usd") or marker.startswith("dol"):
        return "USD"
    return "HRK"


def _unique(values: list[_T]) -> tuple[_T, ...]:
    return tuple(dict.fromkeys(values))


def _prepare(text: str) -> str:
    return fold(normalise_quote(text))


def extract_quantities(text: str, language: Language) -> Quantities:
    """Parse the quantities in `text`, reading ambiguous numbers the way `language` writes them."""
    folded = _prepare(text)
    date_matches = find_dates(folded, language)
    masked = _mask(folded, date_matches)
    numbers: list[Decimal] = []
    percentages: list[Decimal] = []
    amounts: list[Money] = []
    years = [match.value.year for match in date_matches]
    for token in islice(NUMBER.finditer(masked), MAX_NUMBERS):
        value = parse_number(token.group(), dot_groups_thousands(language))
        # Matching at a position rather than on a slice of the rest keeps this linear.
        end = token.end()
        before = masked[max(0, token.start() - _CURRENCY_REACH) : token.start()]
        currency = _CURRENCY_AFTER.match(masked, end) or _CURRENCY_BEFORE.search(before)
        if _PERCENT_AFTER.match(masked, end):
            percentages.append(value)
        elif currency:
            amounts.append(Money(value, currency_code(currency.group(1))))
        elif token.group().isdigit() and len(token.group()) == 4 and 1900 <= value <= 2100:
            years.append(int(value))
        else:
            numbers.append(value)
    return Quantities(
        numbers=_unique(numbers),
        percentages=_unique(percentages),
        amounts=_unique(amounts),
        years=_unique(years),
        dates=_unique([match.value for match in date_matches]),
    )


def _mask(folded: str, matches: tuple[DateMatch, ...]) -> str:
    """`folded` with the dates blanked out, so their parts are not read again as numbers."""
    for match in matches:
        folded = folded[: match.start] + " " * (match.end - match.start) + folded[match.end :]
    return folded


def _dates_any_order(folded: str) -> tuple[DateMatch, ...]:
    """Dates read both day-first and month-first, since a legal text's notation is not known."""
    return find_dates(folded, "hr") + find_dates(folded, "en")


@lru_cache(maxsize=1024)  # pack loading asks about the same evidence text once per pointer
def numbers_stated(text: str) -> frozenset[Decimal]:
    """Every number a legal text states, under every decimal convention a token allows.

    Dates contribute their day, month and year. Values are canonical, so 25.0 equals 25.
    """
    folded = _prepare(text)
    date_matches = _dates_any_order(folded)
    masked = _mask(folded, date_matches)
    stated = {value for token in NUMBER.finditer(masked) for value in readings(token.group())}
    for match in date_matches:
        day, month, year = match.value.day, match.value.month, match.value.year
        stated |= {Decimal(day), Decimal(month), Decimal(year)}
    return frozenset(stated)


def _date_stated(value: str, text: str) -> bool:
    try:
        wanted = date.fromisoformat(value.strip())
    except ValueError:
        return False
    folded = _prepare(text)
    if any(match.value == wanted for match in _dates_any_order(folded)):
        return True
    parts = {Decimal(wanted.year), Decimal(wanted.month), Decimal(wanted.day)}
    return parts <= numbers_stated(text)


def value_stated(value: str, value_type: ValueType, text: str) -> bool:
    """Whether a rule's `value` (a plain string such as "25" or "2025-04-01") is stated in `text`.

    Booleans are stated by wording, which reviewers check, so they always pass here.
    """
    if value_type in _NUMERIC_TYPES:
        try:
            wanted = Decimal(value.strip())
        except InvalidOperation:
            return False
        return wanted.is_finite() and wanted in numbers_stated(text)
    if value_type == "date":
        return _date_stated(value, text)
    if value_type == "boolean":
        return True
    return normalise_quote(value).casefold() in normalise_quote(text).casefold()
