"""The tables validate_response reads: which dotted paths ("*" = every list item) hold text,
lists, objects, enums and limited strings in an AssistantResponse (see shared/docs/contract.md).

Data, not logic: engine/validation.py walks a response once and checks it against these.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, get_args

from engine.contract import (
    LIMITS,
    REFUSAL_REASONS,
    BadgeLevel,
    CardStatus,
    CompletenessStatus,
    ConfidenceLevel,
    ConflictStatus,
    FreshnessStatus,
    Kind,
    RedirectType,
    WireAuthority,
)
from engine.types import RESOLUTION_STRATEGIES, Language, ObligationType, Surface, Topic

REQUIRED: Final = ("schemaVersion", "requestId", "traceId", "kind", "topic", "surface")
ID_PREFIXES: Final = {"requestId": "req_", "traceId": "trace_"}
CARD_PATHS: Final = (
    "citations.primary", "citations.supporting.*", "conflict.sources.*",
    "refusal.conflictingSources.*", "additionalCitations.*",
)  # fmt: skip
# The cards the contract's "whole response text" budget counts (ours beyond them have their own)
CONTRACT_CARD_PATHS: Final = CARD_PATHS[:4]


def card_fields(*fields: str, paths: tuple[str, ...] = CARD_PATHS) -> tuple[str, ...]:
    return tuple(f"{card}.{field}" for card in paths for field in fields)


# The "whole response text" budget counts exactly these human-readable strings.
RESPONSE_TEXT_PATHS: Final = (
    "headline", "directAnswer", "keyDetails.*", "nextStep", "confidence.rationale", "why.bullets.*",
    "howToApply.steps.*", "clientContext.assumptions.*", "clientContext.computedResult.explanation",
    "obligationContext.badge.text", "obligationContext.clarification", "missingContext.message",
    "conflict.description", "refusal.message", "error.message", "relatedQuestions.*",
    "disclaimer.short", "disclaimer.expanded", "disclaimer.highRiskWarning",
    "conflict.rationale",
    *card_fields("quote", paths=CONTRACT_CARD_PATHS),
)  # fmt: skip
# Ours: a conflict settled on the record (engine/pipeline/recorded.py) names both sides.
CONFLICT_SIDES: Final = ("conflict.winner", "conflict.loser")
# Ours: the fields a conflict settled on the record carries together, besides its two sides.
RECORD_FIELDS: Final = ("resolutionId", "strategy", "rationale", "decidedBy", "decidedAt")
STRING_PATHS: Final = (
    "requestId", "traceId", "headline", "directAnswer", "nextStep", "sessionId", "keyDetails.*",
    "why.bullets.*", "howToApply.steps.*", "relatedQuestions.*", "confidence.rationale",
    "refusal.message", "refusal.relatedTopics.*", "conflict.description",
    "conflict.winningSourceId", "obligationContext.badge.text", "obligationContext.clarification",
    "missingContext.message", "conflict.resolutionId", "conflict.rationale", "conflict.decidedBy",
    "conflict.evidence.*",
    *(f"{side}.{name}" for side in CONFLICT_SIDES
      for name in ("ruleId", "value", "valueText", "sourceId", "evidenceId")),
    "error.message", "disclaimer.short", "disclaimer.expanded", "disclaimer.highRiskWarning",
    "clientContext.assumptions.*", "clientContext.completeness.notes",
    *card_fields("id", "title", "url", "reference", "quote", "evidenceId", "freshnessWarning"),
)  # fmt: skip
LIST_PATHS: Final = (
    "keyDetails", "why.bullets", "howToApply.steps", "relatedQuestions", "citations.supporting",
    "additionalCitations",
    "conflict.sources", "conflict.evidence", "refusal.relatedTopics", "refusal.redirectOptions",
    "refusal.missingData",
    "refusal.conflictingSources", "clientContext.used", "clientContext.assumptions",
    "clientContext.missing", "trace",
)  # fmt: skip
OBJECT_PATHS: Final = (
    "confidence", "why", "howToApply", "citations", "clientContext", "clientContext.completeness",
    "clientContext.computedResult", "clientContext.used.*", "clientContext.missing.*",
    "obligationContext", "obligationContext.badge", "missingContext", "conflict", "refusal",
    "refusal.redirectOptions.*", "refusal.missingData.*", "error", "disclaimer", "triage",
    "validation", "trace.*", *CONFLICT_SIDES, *CARD_PATHS,
)  # fmt: skip
SHAPES: Final = {
    **dict.fromkeys(STRING_PATHS, (str, "a string")),
    **dict.fromkeys(LIST_PATHS, (list | tuple, "a list")),
    **dict.fromkeys(OBJECT_PATHS, (Mapping, "an object")),
    "error.retriable": (bool, "a boolean"),
}
BLOCK_FIELDS: Final = {
    "confidence": "level", "why": "bullets", "howToApply": "steps",
    "clientContext": "used completeness", "clientContext.used.*": "label value source",
    "clientContext.completeness": "status score", "clientContext.missing.*": "label impact",
    "clientContext.computedResult": "label value", "obligationContext": "type badge",
    "obligationContext.badge": "text level", "missingContext": "ruleCount message",
    "conflict": "status description sources", "refusal": "message",
    "refusal.redirectOptions.*": "label href type", "refusal.missingData.*": "label impact",
    "error": "message retriable", "disclaimer": "short expanded",
    **dict.fromkeys(CONFLICT_SIDES, "ruleId value sourceId"),
    **dict.fromkeys(CARD_PATHS, "id title authority url confidence"),
}  # fmt: skip
ENUMS: Final[Mapping[str, tuple[str, ...]]] = {
    "kind": get_args(Kind), "topic": get_args(Topic), "surface": get_args(Surface),
    "refusalReason": REFUSAL_REASONS, "language": get_args(Language),
    "confidence.level": get_args(ConfidenceLevel),
    "obligationContext.type": get_args(ObligationType),
    "obligationContext.badge.level": get_args(BadgeLevel),
    "conflict.status": get_args(ConflictStatus),
    "conflict.strategy": RESOLUTION_STRATEGIES,
    "clientContext.completeness.status": get_args(CompletenessStatus),
    "refusal.redirectOptions.*.type": get_args(RedirectType),
    **dict.fromkeys(card_fields("authority"), get_args(WireAuthority)),
    **dict.fromkeys(card_fields("status"), get_args(CardStatus)),
    **dict.fromkeys(card_fields("freshnessStatus"), get_args(FreshnessStatus)),
}  # fmt: skip
TEXT_LIMITS: Final = (
    ("headline", "Headline", LIMITS.headline),
    ("directAnswer", "DirectAnswer", LIMITS.direct_answer),
    ("nextStep", "NextStep", LIMITS.next_step),
)
LIST_LIMITS: Final = (
    ("keyDetails", LIMITS.key_details_items, LIMITS.key_detail),
    ("why.bullets", LIMITS.why_bullets_items, LIMITS.why_bullet),
    ("relatedQuestions", LIMITS.related_questions_items, LIMITS.related_question),
)
PRIMARY_REQUIRED: Final = ("url", "quote", "evidenceId", "fetchedAt")
