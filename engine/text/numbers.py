"""Number tokens in hr/nl/en notation and their values under each decimal convention."""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal, InvalidOperation

from engine.types import Language

# A grouped number ("60.000,00", "60 000", "1,000,000.5") or a plain one ("2,5", "2024").
NUMBER = re.compile(
    r"(?<!\d)(?:\d{1,3}(?P<group>[., ])\d{3}(?:(?P=group)\d{3})*(?:[.,]\d+)?|\d+(?:[.,]\d+)?)(?!\d)"
)


def canonical(value: Decimal) -> Decimal:
    """`value` without trailing zeros, so 25.0 and 25 print and compare alike."""
    if value == value.to_integral_value():
        return value.to_integral_value()
    return value.normalize()


def decimal_value(text: str) -> Decimal | None:
    """A plain decimal literal ("40000.00", "6.51") as a finite Decimal, else None."""
    try:
        number = Decimal(text.strip())
    except InvalidOperation:
        return None
    return number if number.is_finite() else None


def dot_groups_thousands(language: Language) -> bool:
    """Croatian and Dutch write 20.000 for twenty thousand; English writes 20,000."""
    return language != "en"


def parse_number(token: str, dot_is_thousands: bool) -> Decimal:
    """The value of a number token under one convention; `dot_is_thousands` settles "20.000"."""
    compact = token.replace(" ", "")
    dots, commas = compact.count("."), compact.count(",")
    if dots and commas:
        decimal_sep = "." if compact.rfind(".") > compact.rfind(",") else ","
    elif dots + commas == 1:
        separator = "." if dots else ","
        whole, _, fraction = compact.partition(separator)
        looks_grouped = len(fraction) == 3 and len(whole) <= 3 and not whole.startswith("0")
        separator_groups = (separator == ".") == dot_is_thousands
        decimal_sep = "" if looks_grouped and separator_groups else separator
    else:
        decimal_sep = ""  # no separator, or the same one repeated: thousands groups only
    thousands_sep = {"": ".,", ".": ",", ",": "."}[decimal_sep]
    digits = compact.translate(str.maketrans("", "", thousands_sep))
    return canonical(Decimal(digits.replace(",", ".")))


def readings(token: str) -> Iterator[Decimal]:
    """Every value a token may state: both conventions, and the parts of a space-grouped number."""
    yield parse_number(token, dot_is_thousands=True)
    yield parse_number(token, dot_is_thousands=False)
    if " " in token:  # "2019 300" could be a year and a count rather than one number
        for part in token.split(" "):
            if not part.startswith("0"):  # "000" is a group, never a number of its own
                yield from readings(part)
