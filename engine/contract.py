"""The wire contract (AssistantResponse 1.0.0): request and response models and limits.

The pydantic models document the shape (OpenAPI) and give typed construction; they check types
and enum values only. Limits and the citation matrix live in `engine.validation.validate_response`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime
from typing import Annotated, Any, Final, Literal, get_args

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictBool, StringConstraints

from engine.client_context import ClientContextIn
from engine.types import Language, ObligationType, ResolutionStrategy, Surface, Topic

Kind = Literal["ANSWER", "REFUSAL", "ERROR"]
RefusalReason = Literal[
    "NO_CITABLE_RULES",
    "OUT_OF_SCOPE",
    "MISSING_CLIENT_DATA",
    "UNRESOLVED_CONFLICT",
    "NEEDS_CLARIFICATION",
    "UNSUPPORTED_JURISDICTION",
]
WireAuthority = Literal["LAW", "REGULATION", "GUIDANCE", "PRACTICE"]  # store PROCEDURE → PRACTICE
ConfidenceLevel = Literal["HIGH", "MEDIUM", "LOW"]
CardStatus = Literal["ACTIVE", "SUPERSEDED"]
FreshnessStatus = Literal["fresh", "aging", "stale", "critical"]
BadgeLevel = Literal["high", "medium", "low", "none"]
ConflictStatus = Literal["RESOLVED", "UNRESOLVED", "CONTEXT_DEPENDENT"]
RedirectType = Literal["SUPPORT", "DOCS", "CONTACT"]
CompletenessStatus = Literal["COMPLETE", "PARTIAL", "NONE"]
JsonScalar = str | int | float | bool

SCHEMA_VERSION: Final = "1.0.0"
REFUSAL_REASONS: tuple[RefusalReason, ...] = get_args(RefusalReason)


@dataclass(frozen=True)
class Limits:
    """The contract's size limits, in characters (len of a str) unless the name says items."""

    headline: int = 120
    direct_answer: int = 240
    key_details_items: int = 3
    key_detail: int = 120
    next_step: int = 100
    why_bullets_items: int = 5
    why_bullet: int = 140
    why_total: int = 700
    citation_cards: int = 4
    citation_quotes_total: int = 1200
    quote_excerpt: int = 240
    related_questions_items: int = 4
    related_question: int = 80
    response_text: int = 3500
    # Ours: a conflict settled on the record explains itself in `conflict.rationale`.
    conflict_rationale: int = 400
    # Ours: the cards of the values an answer states beyond the contract's four citations
    # (`additionalCitations`); their quotes have their own budget, outside `response_text`.
    additional_cards: int = 12
    additional_quotes_total: int = 2000


LIMITS: Final = Limits()


class _Wire(BaseModel):
    """Base of every response block: extra keys are kept so future optional blocks pass through."""

    model_config = ConfigDict(extra="allow", frozen=True)


class SourceCard(_Wire):
    id: str
    title: str
    authority: WireAuthority
    reference: str | None = None
    quote: str | None = Field(default=None, description="verbatim excerpt, ≤ 240 chars")
    url: str
    effectiveFrom: str | None = Field(default=None, description="YYYY-MM-DD or null")
    confidence: float = Field(description="0..1")
    status: CardStatus | None = None
    evidenceId: str | None = None
    fetchedAt: str | None = Field(default=None, description="ISO-8601; when the text was fetched")
    freshnessStatus: FreshnessStatus | None = None
    freshnessWarning: str | None = None
    daysSinceFetch: int | None = None


class Citations(_Wire):
    primary: SourceCard
    supporting: list[SourceCard] = Field(default_factory=list, description="≤ 3 cards")


class Confidence(_Wire):
    level: ConfidenceLevel
    score: float | None = Field(default=None, description="0..1")
    rationale: str | None = None
    breakdown: dict[str, Any] | None = None


class Why(_Wire):
    bullets: list[str] = Field(description="≤ 5 × 140 chars, ≤ 700 in total")


class HowToApply(_Wire):
    steps: list[str]


class DataPoint(_Wire):
    label: str
    value: JsonScalar
    source: str
    asOfDate: str | None = None


class Completeness(_Wire):
    status: CompletenessStatus
    score: float = Field(description="0..1")
    notes: str | None = None


class MissingData(_Wire):
    label: str
    impact: str
    connectAction: str | None = None


class ComputedResult(_Wire):
    label: str
    value: JsonScalar
    explanation: str | None = None


class ClientContext(_Wire):
    used: list[DataPoint]
    completeness: Completeness
    assumptions: list[str] | None = None
    missing: list[MissingData] | None = None
    computedResult: ComputedResult | None = None


class ObligationBadge(_Wire):
    text: str
    level: BadgeLevel


class ObligationContext(_Wire):
    type: ObligationType
    badge: ObligationBadge
    clarification: str | None = None


class MissingContext(_Wire):
    ruleCount: int
    message: str


class ConflictSide(_Wire):
    """Ours: one side of a conflict settled on the record, with the card that proves it."""

    ruleId: str
    value: str = Field(description="the rule's value as stored: 7500")
    valueText: str | None = Field(default=None, description="as the answer shows it: $7,500")
    sourceId: str = Field(description="the id of its card in conflict.sources")
    evidenceId: str | None = None


class Conflict(_Wire):
    status: ConflictStatus
    resolvedAt: str | None = None
    description: str
    sources: list[SourceCard]
    winningSourceId: str | None = None
    # Ours, on a conflict the knowledge maintainers settled on the record (a pack's
    # `resolutions:`); absent otherwise. status is then RESOLVED.
    resolutionId: str | None = None
    strategy: ResolutionStrategy | None = None
    rationale: str | None = Field(default=None, description="in the response's language")
    decidedBy: str | None = None
    decidedAt: str | None = Field(default=None, description="YYYY-MM-DD")
    winner: ConflictSide | None = None
    loser: ConflictSide | None = None
    evidence: list[str] | None = Field(
        default=None, description="ids of the cards of the texts the decision rests on"
    )


class RedirectOption(_Wire):
    label: str
    href: str
    type: RedirectType


class Refusal(_Wire):
    message: str
    relatedTopics: list[str] | None = None
    redirectOptions: list[RedirectOption] | None = None
    missingData: list[MissingData] | None = None
    conflictingSources: list[SourceCard] | None = None


class ErrorInfo(_Wire):
    message: str
    retriable: bool


class Disclaimer(_Wire):
    short: str
    expanded: str
    highRiskWarning: str | None = None


class AssistantResponse(_Wire):
    """The response, in wire order. Dump with `model_dump(by_alias=True, exclude_none=True)`."""

    schemaVersion: Literal["1.0.0"] = SCHEMA_VERSION
    requestId: str = Field(description="req_ prefix")
    traceId: str = Field(description="trace_ prefix")
    kind: Kind
    topic: Topic
    surface: Surface
    createdAt: str = Field(description="ISO-8601")
    asOfDate: str = Field(description="YYYY-MM-DD: the date the rules were evaluated for")
    headline: str = Field(description="≤ 120 chars")
    directAnswer: str = Field(description='≤ 240 chars; "" on a refusal')
    keyDetails: list[str] | None = Field(default=None, description="≤ 3 × 120 chars")
    nextStep: str | None = Field(default=None, description="≤ 100 chars")
    confidence: Confidence | None = None
    why: Why | None = None
    howToApply: HowToApply | None = None
    citations: Citations | None = None
    # Ours: the cards of the values beyond the four `citations` holds (a whole table, several
    # years); allowed only beside citations.
    additionalCitations: list[SourceCard] | None = Field(default=None, description="≤ 12 cards")
    clientContext: ClientContext | None = Field(default=None, description="APP surface only")
    obligationContext: ObligationContext | None = None
    missingContext: MissingContext | None = None
    conflict: Conflict | None = None
    refusalReason: RefusalReason | None = None
    refusal: Refusal | None = None
    error: ErrorInfo | None = None
    relatedQuestions: list[str] | None = Field(default=None, description="≤ 4 × 80 chars")
    disclaimer: Disclaimer | None = None
    # Ours, beyond the contract.
    sessionId: str | None = None
    language: Language | None = None
    unreadLanguage: str | None = Field(
        default=None, description="de, sl, fr, it or es: the question's language, not read"
    )
    trace: list[dict[str, Any]] | None = Field(default=None, description="the explain trace")
    triage: dict[str, Any] | None = None
    validation: dict[str, Any] | None = None


CALENDAR_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def _calendar_day(value: object) -> object:
    """Only `YYYY-MM-DD` (or a date, from Python): pydantic alone reads 0 as the Unix epoch
    (1970-01-01) and a midnight datetime as its day."""
    if isinstance(value, date) and not isinstance(value, datetime):
        return value
    if isinstance(value, str) and CALENDAR_DAY.fullmatch(value):
        try:
            return date.fromisoformat(value)
        except ValueError:
            pass  # no such day (2024-02-30)
    raise ValueError("expected a calendar date as YYYY-MM-DD")


AsOfDate = Annotated[date, BeforeValidator(_calendar_day)]


class ChatRequest(BaseModel):
    """The body of POST /api/assistant/chat(/stream); an unknown field is a 400 naming it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    query: Annotated[
        str,
        StringConstraints(strip_whitespace=True, min_length=1, max_length=4000),
        # Documents what the stripping implies: a blank query is refused (a 400).
        Field(json_schema_extra={"pattern": r"\S"}),
    ]
    surface: Surface = "MARKETING"
    asOfDate: AsOfDate | None = None
    clientContext: ClientContextIn = Field(
        default_factory=ClientContextIn, description="APP surface only"
    )
    language: Language | None = None
    # Strict: 0 or "yes" is a client's mistake worth naming, not a value to coerce.
    explain: StrictBool = False
    sessionId: Annotated[str, StringConstraints(pattern=r"^dos_[0-9a-f]{32}$")] | None = None
    # False: answer on its own, neither reading nor writing a dossier (no sessionId back).
    use_memory: StrictBool = True
    # Sent by FiskAI's APP client with every question; accepted and ignored: the asker is the
    # API key, and a company id names no conversation or fact Navod keeps.
    companyId: Annotated[str, StringConstraints(min_length=1, max_length=128)] | None = None
