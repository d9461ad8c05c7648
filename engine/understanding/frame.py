"""The frame: an explicit, frozen account of what a question asks.

Each part keeps the words it came from, so the response can say what Navod understood and the
match stage can tell which words of the question are still unexplained.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from engine.understanding.asks import Conjunct, YearsAsked
    from engine.understanding.claims import Claim

# What the question wants to know. "magnitude" is "how much / koliko" (a rate or an amount or
# an age); "since"/"until" ask for the dates a value is in force; "obligation" is a yes/no
# "do I have to"; "any" is a question that does not say ("what is the VAT threshold").
Attribute = Literal[
    "rate",
    "amount",
    "magnitude",
    "date",
    "since",
    "until",
    "deadline",
    "age",
    "duration",
    "obligation",
    "who",
    "how",
    "why",
    "any",
]
QualifierKind = Literal["variant", "category", "party", "aspect"]
TimeKind = Literal["date", "month", "year", "relative_year", "range", "now"]
FactName = Literal[
    "amount",  # money with no role named ("s 45.000 eura")
    "age",
    "spouse_age",  # the age of the asker's spouse or partner
    "retirement_date",  # when the asker plans to stop working: "YYYY-MM" or "YYYY"
    "assets_ira_usd",  # what the asker holds in IRAs
    "assets_401k_usd",  # what the asker holds in 401(k) or 403(b) plans
    "savings_usd",
    "health_coverage",  # medicare, employer, marketplace or none
    "medicare_enrolled",
    "housing_plan",  # move, downsize or stay
    "state_of_residence",  # a US state
    "birth_year",
    "birth_date",
    "turnover",
    "receipts",
    "revenue",
    "income",
    "profit",
    "entity_type",
    "pension_second_pillar",
    "vat_registered",
    "municipality_type",
    "city",
    "residence",
    "home_value",  # the value of the asker's home (WOZ-waarde)
    "partner",  # whether the asker has a (fiscal) partner
    "partner_hours",  # hours a partner works in the asker's business
    "prior_uses",  # how often the asker already used a deduction or scheme
]


@dataclass(frozen=True, slots=True)
class Qualifier:
    """A word that narrows the fact asked about: a variant (reduced, higher, first), a category
    of goods or services (books, hairdressers), a party (paušalist, employer) or an aspect of a
    tax (filing, payment, registration)."""

    kind: QualifierKind
    value: str  # a canonical name: "reduced", "books", "pausalist", "filing"
    words: str  # as written (folded)
    key: str  # the matching key of that word


@dataclass(frozen=True, slots=True)
class Fact:
    """Something the asker states about themselves: "I'm 62", "45.000 eura prometa"."""

    name: FactName
    value: int | Decimal | str | bool | date
    words: str  # the words it came from (folded)
    unit: str = ""  # "EUR", "USD", "HRK" for amounts
    period: str = ""  # "year" | "month" | "quarter" for amounts, when stated
    bound: str = ""  # "above": the asker is over the amount ("prijeći ću 60 tisuća")
    # The asker's own (kept in a conversation's profile), not a supposed case or someone
    # else's ("if I was born in 1960", "for a client", "my father is 76"): see whose.py
    own: bool = True


@dataclass(frozen=True, slots=True)
class Quantity:
    """A number the question writes that no fact or date explains ("123 456 789", "49,5 %")."""

    words: str
    value: Decimal | None


@dataclass(frozen=True, slots=True)
class TimeRef:
    """The date a question is about, kept apart from birth dates and amounts."""

    kind: TimeKind
    start: date  # the as-of date it implies (a range: its first day)
    words: str
    end: date | None = None  # the last day of a range


@dataclass(frozen=True, slots=True)
class Reading:
    """What the question says, before the knowledge base is consulted."""

    attribute: Attribute
    plural: bool  # "rates", "koje su", "which ... are": the asker expects several values
    qualifiers: tuple[Qualifier, ...]
    facts: tuple[Fact, ...]
    time: TimeRef | None
    cue_words: tuple[str, ...]  # the words that gave the attribute (folded)
    explained: frozenset[str]  # keys explained by cues, facts, time, places and filler
    numbers: tuple[Quantity, ...]  # numbers nothing explains yet
    amounts: tuple[Fact, ...] = ()  # amounts of money with no role ("s 45.000 eura")
    sentences: tuple[int, ...] = ()  # where each sentence after the first starts (folded text)
    question_sentences: frozenset[int] = frozenset()  # those that ask; empty: every one
    attributes: frozenset[Attribute] = frozenset()  # every attribute a cue asked for
    asked: frozenset[Attribute] = frozenset()  # those a question word asks ("tot welk bedrag")
    # Keys of cue words: "prag", "stopa", "rok" ask an attribute and name the subject too.
    cue_keys: frozenset[str] = frozenset()
    percentages: tuple[Quantity, ...] = ()  # percentages: a rate the asker names
    # Where "my", "mijn", "moja" stand (word indexes): "my full retirement age" asks the
    # asker's own value, "my SSN is …" does not
    possessives: tuple[int, ...] = ()
    # What asks for more than one value (engine/understanding/asks.py): several years of one
    # fact or a change between two, and the parts of a coordination
    years: YearsAsked | None = None
    conjuncts: tuple[Conjunct, ...] = ()
    # Facts stated with a number outside its domain (engine/bounds.py): named, never used
    unusable: tuple[Fact, ...] = ()
    # What the asker says a rule states ("prag je 99.999 eura"): never a fact (claims.py)
    claims: tuple[Claim, ...] = ()

    def fact(self, name: str) -> Fact | None:
        return next((f for f in self.facts if f.name == name), None)


@dataclass(frozen=True, slots=True)
class Frame:
    """The reading completed by the match: the subject, and what stays unexplained."""

    reading: Reading
    subject: tuple[str, ...]  # concept slugs answered
    family: str | None  # the family answered as a whole, when the question asks for one
    jurisdiction: str | None  # HR | NL | US, or the name of a country no pack covers
    unexplained: tuple[str, ...]  # content words (as written) nothing accounts for
    uncovered: tuple[Qualifier, ...] = ()  # qualifiers understood but answered by no rule
