"""The domain of every number Navod takes about an asker: one definition for the question
reader, the request's clientContext, the facts API and the facts a conversation remembers.

A number outside its domain is no fact: a turnover of 18446744073709551616 EUR, an age of 400
or a birth year of 1500 is kept as the words the asker wrote and never compared with a rule,
stored or sent back as a number (a value past 2^64 cannot even be written as JSON by the
encoder the API uses).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Final

# No asker states a yearly amount or a holding of a trillion; far below it a float still holds
# every cent, so the value compared with a threshold is the value sent.
LARGEST_AMOUNT: Final = 1_000_000_000_000
OLDEST_AGE: Final = 130
FIRST_YEAR: Final = 1900
LAST_YEAR: Final = 2200
HOURS_IN_A_YEAR: Final = 366 * 24
LARGEST_COUNT: Final = 1_000  # earlier years, uses: counts of things in one life


@dataclass(frozen=True, slots=True)
class Bound:
    """A number's domain: from `least` to `most`, whole numbers only when `whole`."""

    least: int
    most: int
    whole: bool

    def holds(self, value: object) -> bool:
        if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
            return False
        if isinstance(value, float | Decimal) and not _finite(value):
            return False
        if self.whole and value != int(value):
            return False
        return self.least <= value <= self.most

    def text(self) -> str:
        return f"{self.least}..{self.most}"


AMOUNT: Final = Bound(0, LARGEST_AMOUNT, whole=False)
AGE: Final = Bound(0, OLDEST_AGE, whole=True)
YEAR: Final = Bound(FIRST_YEAR, LAST_YEAR, whole=True)
HOURS: Final = Bound(0, HOURS_IN_A_YEAR, whole=False)
COUNT: Final = Bound(0, LARGEST_COUNT, whole=True)

# The bound of each numeric fact, by the names the reader, clientContext and a dossier use.
_BY_NAME: Final[dict[str, Bound]] = {
    "age": AGE,
    "spouse_age": AGE,
    "social_security_claim_age": AGE,
    "birth_year": YEAR,
    "spouse_birth_year": YEAR,
    "hours_worked": HOURS,
    "partner_hours": HOURS,
    "partner_uren": HOURS,
    "prior_uses": COUNT,
    "startersaftrek_ao_eerdere_jaren": COUNT,
}
_AMOUNT_WORDS: Final = (
    "amount",
    "turnover",
    "receipts",
    "revenue",
    "income",
    "profit",
    "savings",
    "assets",
    "value",
    "eigenwoningwaarde",
)


def bound_of(name: str) -> Bound | None:
    """The domain of the fact called `name`, or None when it is no number."""
    if name in _BY_NAME:
        return _BY_NAME[name]
    if any(word in name for word in _AMOUNT_WORDS):
        return AMOUNT
    return None


def usable(name: str, value: object) -> bool:
    """Whether `value` may be used as the fact `name`: a number of a numeric fact within its
    domain (a year of a date within the years' domain); anything else of any other fact. A
    boolean is never a number, whatever Python thinks of it."""
    if isinstance(value, date):
        return YEAR.holds(value.year)
    bound = bound_of(name)
    if bound is None:
        return not _huge(value)
    if isinstance(value, str):  # a number as text, as a form or an old conversation keeps it
        return _number_text_holds(bound, value)
    return bound.holds(value)


def _number_text_holds(bound: Bound, value: str) -> bool:
    try:
        return bound.holds(Decimal(value))
    except ArithmeticError:  # decimal.InvalidOperation: not a number at all
        return False


def _finite(value: float | Decimal) -> bool:
    return value.is_finite() if isinstance(value, Decimal) else value - value == 0


def _huge(value: object) -> bool:
    # An integer no JSON encoder of the API can write (orjson stops at 64 bits)
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 2**63
