"""Frozen values that cross module boundaries: the knowledge model and the request.

Everything here is immutable so a compiled snapshot can be shared by every request
(and every thread) without copying.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Literal, get_args

Language = Literal["hr", "nl", "en"]
Jurisdiction = Literal["HR", "NL", "US", "EU"]
Authority = Literal["LAW", "REGULATION", "GUIDANCE", "PRACTICE", "PROCEDURE"]
ValueType = Literal[
    "percentage", "currency_eur", "currency_usd", "integer", "years", "date", "boolean", "text"
]
RuleStatus = Literal["DRAFT", "REVIEW", "PUBLISHED", "REVOKED"]
CaptureMethod = Literal["fetched", "transcribed"]
ObligationType = Literal["OBLIGATION", "NO_OBLIGATION", "CONDITIONAL", "INFORMATIONAL"]
RiskTier = Literal["low", "medium", "high"]
# how often a value changes, which sets how long its evidence speaks for it (horizons.py)
Stability = Literal["statutory", "stable", "yearly", "frequent"]
Topic = Literal["REGULATORY", "PRODUCT", "SUPPORT", "OFFTOPIC"]
# What a concept's value answers (engine/understanding/compatibility.py): a question asking
# *when* is never answered by a percentage.
AnswerKind = Literal[
    "rate", "amount", "date", "deadline", "age", "duration", "who", "how", "yes_no", "text"
]
# The qualifier dimensions a concept's value depends on: a word of that kind the concept does
# not explain means the question asks about something else ("btw-tarief voor een kapper").
QualifierDimension = Literal["category", "party"]
Surface = Literal["MARKETING", "APP"]
# How a maintainer settled a conflict between two rules on the record (ConflictResolution):
# a newer official text states the winner's value; the issuer's own text of the instrument
# that sets the value (or its announcement of it) states it, against a page restating that
# instrument; the higher-ranked source; the more specific rule; the maintainers' judgement.
ResolutionStrategy = Literal[
    "NEWER_OFFICIAL_TEXT",
    "INSTRUMENT_TEXT",
    "HIGHER_AUTHORITY",
    "LEX_SPECIALIS",
    "MAINTAINER_JUDGEMENT",
]

LANGUAGES: tuple[Language, ...] = get_args(Language)
JURISDICTIONS: tuple[Jurisdiction, ...] = get_args(Jurisdiction)
AUTHORITIES: tuple[Authority, ...] = get_args(Authority)
VALUE_TYPES: tuple[ValueType, ...] = get_args(ValueType)
RULE_STATUSES: tuple[RuleStatus, ...] = get_args(RuleStatus)
CAPTURE_METHODS: tuple[CaptureMethod, ...] = get_args(CaptureMethod)
OBLIGATION_TYPES: tuple[ObligationType, ...] = get_args(ObligationType)
RISK_TIERS: tuple[RiskTier, ...] = get_args(RiskTier)
STABILITIES: tuple[Stability, ...] = get_args(Stability)
ANSWER_KINDS: tuple[AnswerKind, ...] = get_args(AnswerKind)
QUALIFIER_DIMENSIONS: tuple[QualifierDimension, ...] = get_args(QualifierDimension)
RESOLUTION_STRATEGIES: tuple[ResolutionStrategy, ...] = get_args(ResolutionStrategy)
# Stated facts a threshold can be compared with (engine/understanding/facts.py names them).
AMOUNT_FACTS: tuple[str, ...] = ("turnover", "receipts", "revenue", "income", "profit")

# Highest first. The store's PROCEDURE level is shown as PRACTICE on the wire.
AUTHORITY_RANK: Mapping[Authority, int] = {
    "LAW": 4,
    "REGULATION": 3,
    "GUIDANCE": 2,
    "PRACTICE": 1,
    "PROCEDURE": 1,
}

# A JSON condition as stored in `Rule.applies_when` (see engine/conditions.py).
Condition = Any
Localised = Mapping[Language, str]


@dataclass(frozen=True, slots=True)
class Source:
    id: str
    title: str
    act_id: str
    authority: Authority
    jurisdiction: Jurisdiction
    language: Language
    url: str
    publisher: str = ""
    licence: str = ""
    # instruments whose figures this page restates (an IRS table reflects the year's notice)
    reflects: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Evidence:
    id: str  # "ev_" + 16 hex digits of sha256 of url, newline, text: derived from content
    key: str  # the readable pack-local name pointers use
    source_id: str
    locator: str
    text: str
    sha256: str
    url: str
    fetched_at: datetime  # when the text was retrieved from its source; never "now"
    capture_method: CaptureMethod
    note: str = ""


@dataclass(frozen=True, slots=True)
class Threshold:
    """A value a stated amount is compared with, and what each side of it means.

    A side is an obligation type ("OBLIGATION": above the VAT threshold you must register) or
    the slug of the concept that then applies (revenue up to the limit: the lower rate).
    """

    facts: tuple[str, ...]  # the stated amounts it is compared with: turnover, receipts, ...
    above: str
    at_or_below: str
    # Rules in force before this date measure something else (the old KOR capped the tax due,
    # not the turnover): a stated amount is compared only with rules from this date on.
    since: date | None = None


@dataclass(frozen=True, slots=True)
class DateFromAge:
    """A deadline that falls in the year the asker reaches the age another concept states,
    plus `after_years` ("April 1 of the year after you reach the RMD age")."""

    age_concept: str
    after_years: int


@dataclass(frozen=True, slots=True)
class Concept:
    slug: str
    domain: str
    jurisdiction: Jurisdiction
    labels: Localised
    aliases: Mapping[Language, tuple[str, ...]] = field(default_factory=dict)
    # Concepts of one family are answered together when a question asks for all of them
    # ("snižene stope PDV-a"); "" is a family of one.
    family: str = ""
    answers: tuple[AnswerKind, ...] = ()  # empty: derived from the rules' value types
    varies_by: tuple[QualifierDimension, ...] = ()
    threshold: Threshold | None = None
    date_from_age: DateFromAge | None = None
    # What every answer about it must add, in each language: a limit of the sources themselves
    # ("amendments after NN 152/2024 not checked"). Empty: nothing to add.
    caveat: Localised = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Pointer:
    evidence_id: str
    quote: str


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    concept: str
    title: Localised
    explanation: Localised
    value: str
    value_type: ValueType
    unit: str
    effective_from: date
    effective_until: date | None  # exclusive; None = open
    status: RuleStatus
    authority: Authority
    obligation_type: ObligationType
    risk_tier: RiskTier
    applies_when: Condition
    pointers: tuple[Pointer, ...]
    confidence: float = 0.9
    verified_as_of: date | None = None
    stability: Stability | None = None  # None: derived from value_type (engine/horizons.py)
    # How a `text` value reads in each language ("66 and 2 months", "66 godina i 2 mjeseca"):
    # `value` stays the source's own words, which its quotes prove.
    value_label: Localised = field(default_factory=dict)
    # Rules of the same concept this one disagrees with on purpose (`conflicts_with:`): the
    # conflict is kept, and settled at answer time by precedence, a resolution, or refused.
    conflicts_with: tuple[str, ...] = ()

    def in_force_on(self, day: date) -> bool:
        """Whether `day` lies in the rule's period (from inclusive, until exclusive); status
        and evidence horizon are the select stage's concern."""
        return self.effective_from <= day and (
            self.effective_until is None or day < self.effective_until
        )


@dataclass(frozen=True, slots=True)
class ConflictResolution:
    """A conflict a maintainer settled on the record (issue 25): of the two rules a pack
    declares in conflict (`conflicts_with`), `winner` answers when both are in force, for the
    reason `strategy` names, explained in every language and resting on `evidence`: quotes that
    state the winner's value (pointer evidence ids are pack keys until the packs are checked)."""

    id: str
    conflict: tuple[str, str]  # the two rule ids, as the pack names them
    winner: str
    strategy: ResolutionStrategy
    rationale: Localised
    decided_by: str
    decided_at: date
    evidence: tuple[Pointer, ...]

    @property
    def loser(self) -> str:
        """The rule of the conflict that does not answer."""
        return self.conflict[1] if self.conflict[0] == self.winner else self.conflict[0]


@dataclass(frozen=True, slots=True)
class FaqEntry:
    """A frequently asked question, answered by rules: it points at them, it holds no answer.

    A question close enough to `question` is answered by the pipeline from `concept`'s rules
    (only `rules` when given), through the same citation and validation path as any answer.
    """

    id: str
    language: Language
    question: str
    concept: str
    rules: tuple[str, ...] = ()  # empty: every rule of the concept


# How a fact about the asker reads in their profile: something they want, something they are
# or have, or how they like things done.
FactKind = Literal["goal", "fact", "preference"]
FACT_KINDS: tuple[FactKind, ...] = get_args(FactKind)


@dataclass(frozen=True, slots=True)
class ChecklistItem:
    """A fact that matters for a planning topic: how much it weighs in the topic's completeness
    and the question that asks for it, in each language."""

    fact: str  # the fact type, as rules' conditions and records name it ("birth_year")
    weight: int  # > 0; the topic's score is the known weight over the whole
    question: Mapping[Language, str]  # "In which year were you born?"
    subtopic: str = ""  # a grouping inside the topic ("social_security")
    kind: FactKind = "fact"


@dataclass(frozen=True, slots=True)
class PlanningTopic:
    """A topic a pack declares (issue 11): its label and the checklist of facts it needs."""

    id: str  # "tax_efficiency_rmds", "pdv"
    pack: str
    label: Mapping[Language, str]
    checklist: tuple[ChecklistItem, ...]


@dataclass(frozen=True, slots=True)
class KnowledgeBase:
    """Everything the store holds, as plain values: the input to snapshot compilation."""

    version: int
    sources: tuple[Source, ...]
    evidence: tuple[Evidence, ...]
    concepts: tuple[Concept, ...]
    rules: tuple[Rule, ...]
    faqs: tuple[FaqEntry, ...] = ()
    topics: tuple[PlanningTopic, ...] = ()  # each pack's, in pack order then declared order
    resolutions: tuple[ConflictResolution, ...] = ()  # sorted by id


@dataclass(frozen=True, slots=True)
class Remembered:
    """A fact the conversation holds about the asker: its value, how it was learnt
    (question, api, clientContext) and on which day."""

    value: Any
    source: str
    on: date


@dataclass(frozen=True, slots=True)
class Question:
    """One request as the pipeline sees it. `today` is passed in: stages read no clock."""

    text: str
    surface: Surface
    today: date
    as_of: date | None = None
    client_context: Mapping[str, Any] = field(default_factory=dict)
    language: Language | None = None
    # Set by triage when the question is known to be about these concepts (an FAQ match): the
    # matcher takes them as chosen and selection considers only `allowed_rules` when given.
    pinned_concepts: tuple[str, ...] = ()
    allowed_rules: frozenset[str] | None = None
    # Evidence the asker removed from the conversation's sources: never cited, and a rule
    # resting only on it does not answer.
    excluded_evidence: frozenset[str] = frozenset()
    # What the conversation learnt about the asker before (issue 11): the question's own
    # statements and the request's clientContext win over it.
    remembered: Mapping[str, Remembered] = field(default_factory=dict)
