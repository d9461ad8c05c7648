"""validateResponse: the fail-closed gate every response passes before it leaves the server.

It reads the camelCase wire dict, so one gate serves the API, the stream, the CLI and the tests.
The error strings the contract fixes are reproduced exactly; clients assert them. A response with
errors must be replaced by a NO_CITABLE_RULES refusal (engine/service.py does that).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Final, TypeGuard

from engine.contract import LIMITS, SCHEMA_VERSION
from engine.contract_paths import (
    BLOCK_FIELDS,
    CARD_PATHS,
    CONFLICT_SIDES,
    ENUMS,
    ID_PREFIXES,
    LIST_LIMITS,
    PRIMARY_REQUIRED,
    RECORD_FIELDS,
    REQUIRED,
    RESPONSE_TEXT_PATHS,
    SHAPES,
    TEXT_LIMITS,
    card_fields,
)


@dataclass(frozen=True)
class ValidationResult:
    valid: bool
    errors: tuple[str, ...]
    warnings: tuple[str, ...]


QuoteInEvidence = Callable[[str, str], bool]
"""(evidence_id, quote) → True when the quote is found verbatim in that stored evidence."""


def validate_response(
    response: Mapping[str, Any], quote_in_evidence: QuoteInEvidence | None = None
) -> ValidationResult:
    """Check a wire response against the contract; any error means it must not be sent.

    Never raises on malformed input: every shape problem becomes an error string.
    `quote_in_evidence`, when given, must confirm every card's quote in the evidence it names.
    """
    if not isinstance(response, Mapping):
        return ValidationResult(False, ("Response must be a JSON object",), ())
    response = _Indexed(response)
    policy = _citation_policy(response)
    errors = [
        *_header_errors(response),
        *_shape_errors(response, policy),
        *_enum_and_format_errors(response),
        *_limit_errors(response),
        *_state_errors(response, policy),
        *_citation_matrix_errors(response, policy),
        *_quote_errors(response, quote_in_evidence),
        *_card_id_errors(response),
        *_record_errors(response),
    ]
    unique = tuple(dict.fromkeys(errors))  # overlapping checks may report the same fact twice
    return ValidationResult(not unique, unique, tuple(_warnings(response)))


# ---- The checks: small functions over the path tables of engine/contract_paths.py.


def _is_date(value: Any) -> bool:
    digits = isinstance(value, str) and len(value) == 10 and value[4] == value[7] == "-"
    if not (digits and value.replace("-", "").isascii() and value.replace("-", "").isdigit()):
        return False
    try:
        return date.fromisoformat(value) is not None
    except ValueError:
        return False


def _is_timestamp(value: Any) -> TypeGuard[str]:
    try:
        return isinstance(value, str) and datetime.fromisoformat(value) is not None
    except ValueError:
        return False


def _is_unit(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 1


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


_FORMATS: Final = (
    (("asOfDate", "clientContext.used.*.asOfDate", "conflict.decidedAt",
      *card_fields("effectiveFrom")),
     _is_date, "a YYYY-MM-DD date"),
    (("createdAt", "conflict.resolvedAt", *card_fields("fetchedAt")),
     _is_timestamp, "an ISO-8601 timestamp"),
    (("confidence.score", "clientContext.completeness.score", *card_fields("confidence")),
     _is_unit, "a number from 0 to 1"),
    (("missingContext.ruleCount", *card_fields("daysSinceFetch")),
     _is_count, "a non-negative integer"),
)  # fmt: skip


@dataclass(frozen=True)
class _CitationPolicy:
    """One cell of the contract's matrix for this kind/topic/refusalReason."""

    required_by: str | None  # the subject of the "... requires citations" errors
    forbidden: bool
    computed_result_allowed: bool


def _citation_policy(r: Mapping[str, Any]) -> _CitationPolicy:
    kind, topic, reason = r.get("kind"), r.get("topic"), r.get("refusalReason")
    if kind == "ANSWER" and topic == "REGULATORY":
        return _CitationPolicy("REGULATORY ANSWER", False, True)
    if (kind == "ANSWER" and topic in ENUMS["topic"]) or kind == "ERROR":
        return _CitationPolicy(None, True, False)
    if kind == "REFUSAL" and reason == "UNRESOLVED_CONFLICT":
        return _CitationPolicy("UNRESOLVED_CONFLICT REFUSAL", False, False)
    if kind == "REFUSAL":
        return _CitationPolicy(None, reason != "MISSING_CLIENT_DATA", False)
    # kind/topic missing or invalid is reported already; don't pile consequences on top.
    return _CitationPolicy(None, False, True)


class _Indexed(dict[str, Any]):
    """The response plus every (location, value) under each dotted path pattern, from one walk.

    Checks ask for ~200 paths per response; walking the response once and looking paths up is
    several times cheaper than walking each path.
    """

    def __init__(self, response: Mapping[str, Any]) -> None:
        super().__init__(response)
        self.paths: dict[str, list[tuple[str, Any]]] = {}
        self._walk(response, "", "")

    def _walk(self, value: Any, where: str, pattern: str) -> None:
        if _is_object(value):
            for key, item in value.items():
                if item is not None and isinstance(key, str):
                    self._add(
                        item,
                        f"{where}.{key}" if where else key,
                        f"{pattern}.{key}" if pattern else key,
                    )
        elif isinstance(value, list | tuple) and pattern:
            for position, item in enumerate(value):
                self._add(item, f"{where}[{position}]", f"{pattern}.*")

    def _add(self, item: Any, where: str, pattern: str) -> None:
        self.paths.setdefault(pattern, []).append((where, item))
        if not isinstance(item, _SCALARS):
            self._walk(item, where, pattern)


_SCALARS = (str, int, float, bool)


def _is_object(value: Any) -> bool:
    # dict first: the plain case, and far cheaper than the Mapping ABC check
    return type(value) is dict or (not isinstance(value, _SCALARS) and isinstance(value, Mapping))


def _at(obj: Any, path: str) -> list[tuple[str, Any]]:
    """Every (location, value) a dotted path reaches, skipping nulls; "*" steps into list items."""
    if type(obj) is _Indexed:
        return obj.paths.get(path, [])
    return _Indexed(obj).paths.get(path, []) if isinstance(obj, Mapping) else []


def _strings(r: Mapping[str, Any], path: str) -> list[str]:
    return [value for _, value in _at(r, path) if isinstance(value, str)]


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _filled(value: Any) -> TypeGuard[str]:
    return isinstance(value, str) and value.strip() != ""


def _header_errors(r: Mapping[str, Any]) -> list[str]:
    errors = [
        f"Missing {name}" for name in (*REQUIRED, "createdAt", "asOfDate") if _missing(r.get(name))
    ]
    errors += [f"Missing {name}" for name in ("headline", "directAnswer") if r.get(name) is None]
    version = r.get("schemaVersion")
    if not _missing(version) and version != SCHEMA_VERSION:
        errors.append(f"Unsupported schemaVersion {version!r} (expected {SCHEMA_VERSION!r})")
    errors += [
        f"{name} must start with {prefix!r}"
        for name, prefix in ID_PREFIXES.items()
        if _filled(r.get(name)) and not r[name].startswith(prefix)
    ]
    return errors


def _shape_errors(r: Mapping[str, Any], policy: _CitationPolicy) -> list[str]:
    errors = [
        f"{where} must be {label}"
        for path, (expected, label) in SHAPES.items()
        for where, value in _at(r, path)
        if not isinstance(value, expected)
    ]
    for path, fields in BLOCK_FIELDS.items():
        for where, block in _at(r, path):
            if isinstance(block, Mapping):
                errors += [
                    f"{where}.{f} is required" for f in fields.split() if _missing(block.get(f))
                ]
    if policy.required_by:  # the matrix names a missing primary url in the contract's own words
        errors = [e for e in errors if e != "citations.primary.url is required"]
    return errors


def _enum_and_format_errors(r: Mapping[str, Any]) -> list[str]:
    errors = [
        f"Invalid {where}: {value!r} (expected one of {', '.join(allowed)})"
        for path, allowed in ENUMS.items()
        for where, value in _at(r, path)
        if value not in allowed and not _missing(value)
    ]
    for paths, is_valid, what in _FORMATS:
        errors += [
            f"{where} must be {what}"
            for path in paths
            for where, value in _at(r, path)
            if not _missing(value) and not is_valid(value)
        ]
    return errors


def _limit_errors(r: Mapping[str, Any]) -> list[str]:
    errors = [
        f"{label} exceeds {limit} chars"
        for path, label, limit in TEXT_LIMITS
        if any(len(text) > limit for text in _strings(r, path))
    ]
    for path, max_items, max_chars in LIST_LIMITS:
        if any(isinstance(v, list | tuple) and len(v) > max_items for _, v in _at(r, path)):
            errors.append(f"{path} exceeds {max_items} items")
        errors += [
            f"{where} exceeds {max_chars} chars"
            for where, text in _at(r, f"{path}.*")
            if isinstance(text, str) and len(text) > max_chars
        ]
    errors += [
        f"{where} exceeds {LIMITS.quote_excerpt} chars"
        for path in card_fields("quote")
        for where, quote in _at(r, path)
        if isinstance(quote, str) and len(quote) > LIMITS.quote_excerpt
    ]
    totals = (
        (_strings(r, "why.bullets.*"), LIMITS.why_total, "why.bullets exceed {} chars in total"),
        (_strings(r, "citations.primary.quote") + _strings(r, "citations.supporting.*.quote"),
         LIMITS.citation_quotes_total, "citations quotes exceed {} chars in total"),
        ([t for path in RESPONSE_TEXT_PATHS for t in _strings(r, path)],
         LIMITS.response_text, "Response text exceeds {} chars"),
    )  # fmt: skip
    errors += [
        message.format(limit) for texts, limit, message in totals if sum(map(len, texts)) > limit
    ]
    cards = _at(r, "citations.primary") + _at(r, "citations.supporting.*")
    if len(cards) > LIMITS.citation_cards:
        errors.append(f"citations exceed {LIMITS.citation_cards} cards")
    more = _at(r, "additionalCitations.*")
    if len(more) > LIMITS.additional_cards:
        errors.append(f"additionalCitations exceed {LIMITS.additional_cards} cards")
    if sum(map(len, _strings(r, "additionalCitations.*.quote"))) > LIMITS.additional_quotes_total:
        errors.append(
            f"additionalCitations quotes exceed {LIMITS.additional_quotes_total} chars in total"
        )
    return errors


def _state_errors(r: Mapping[str, Any], policy: _CitationPolicy) -> list[str]:
    kind = r.get("kind")
    rules = (
        (kind == "ANSWER" and r.get("refusalReason") is not None,
         "ANSWER cannot have refusalReason (invalid state)"),
        (kind == "ANSWER" and r.get("refusal") is not None,
         "ANSWER cannot have a refusal block (invalid state)"),
        (kind == "REFUSAL" and _missing(r.get("refusalReason")), "REFUSAL requires refusalReason"),
        (kind == "REFUSAL" and r.get("refusal") is None, "REFUSAL requires a refusal block"),
        (kind == "REFUSAL" and r.get("directAnswer") not in (None, ""),
         'REFUSAL requires directAnswer to be ""'),
        (kind == "ERROR" and r.get("error") is None, "ERROR requires an error block"),
        (r.get("clientContext") is not None and r.get("surface") == "MARKETING",
         "clientContext is only allowed on the APP surface"),
        (bool(_at(r, "clientContext.computedResult")) and not policy.computed_result_allowed,
         "clientContext.computedResult not allowed for this response type"),
    )  # fmt: skip
    return [message for broken, message in rules if broken]


def _citation_matrix_errors(r: Mapping[str, Any], policy: _CitationPolicy) -> list[str]:
    citations, who = r.get("citations"), policy.required_by
    if citations is not None and policy.forbidden:
        return ["Citations not allowed for this response type"]
    if r.get("additionalCitations") is not None and not isinstance(citations, Mapping):
        return ["additionalCitations are only allowed beside citations"]
    if who is None:
        without_primary = isinstance(citations, Mapping) and citations.get("primary") is None
        return ["citations.primary is required"] if without_primary else []
    if not isinstance(citations, Mapping):
        return [f"{who} requires citations (fail-closed)"]
    primary = citations.get("primary")
    if not isinstance(primary, Mapping):
        return [f"{who} requires citations.primary (fail-closed)"]
    return [
        f"{who} requires citations.primary.{field} (fail-closed)"
        for field in PRIMARY_REQUIRED
        if not _filled(primary.get(field))
    ]


# Each list of cards a client renders: the citations (primary and supporting together) and the
# two lists of a conflict's sides.
_CARD_LISTS: Final = (
    ("citations", ("citations.primary", "citations.supporting.*", "additionalCitations.*")),
    ("conflict.sources", ("conflict.sources.*",)),
    ("refusal.conflictingSources", ("refusal.conflictingSources.*",)),
)


def _card_id_errors(r: Mapping[str, Any]) -> list[str]:
    """Card ids are unique within each list: clients key rendered cards by id (React keys), so a
    repeated id shows one card twice or drops one. An error, not a warning: the citation stage
    numbers repeats (`#2`), so a repeat here is a bug to fail closed on."""
    errors: list[str] = []
    for name, paths in _CARD_LISTS:
        ids = [
            str(card["id"])
            for path in paths
            for _, card in _at(r, path)
            if isinstance(card, Mapping) and isinstance(card.get("id"), str)
        ]
        repeated = sorted({card_id for card_id in ids if ids.count(card_id) > 1})
        errors += [f"{name} card id {card_id!r} appears more than once" for card_id in repeated]
    return errors


def _record_errors(r: Mapping[str, Any]) -> list[str]:
    """Ours: a conflict settled on the record (any of its fields present) is RESOLVED, carries
    all of its fields and both sides, each side naming a card of `conflict.sources`."""
    conflict = r.get("conflict")
    if not isinstance(conflict, Mapping):
        return []
    present = [
        name for name in (*RECORD_FIELDS, "winner", "loser") if conflict.get(name) is not None
    ]
    if not present:
        return []
    errors = [
        f"conflict.{name} is required on a conflict settled on the record"
        for name in (*RECORD_FIELDS, "winner", "loser")
        if name not in present
    ]
    if conflict.get("status") != "RESOLVED":
        errors.append("conflict settled on the record must have status RESOLVED")
    rationale = conflict.get("rationale")
    if isinstance(rationale, str) and len(rationale) > LIMITS.conflict_rationale:
        errors.append(f"conflict.rationale exceeds {LIMITS.conflict_rationale} chars")
    cards = {
        str(card.get("id")) for _, card in _at(r, "conflict.sources.*") if isinstance(card, Mapping)
    }
    for side in CONFLICT_SIDES:
        for where, block in _at(r, side):
            source = block.get("sourceId") if isinstance(block, Mapping) else None
            if _filled(source) and source not in cards:
                errors.append(f"{where}.sourceId names no card of conflict.sources")
    errors += [
        f"{where} names no card of conflict.sources"
        for where, card_id in _at(r, "conflict.evidence.*")
        if isinstance(card_id, str) and card_id not in cards
    ]
    return errors


def _quote_errors(r: Mapping[str, Any], lookup: QuoteInEvidence | None) -> list[str]:
    """Every quote must be found verbatim in the stored evidence its card names."""
    if lookup is None:
        return []
    errors: list[str] = []
    for path in CARD_PATHS:
        for where, card in _at(r, path):
            quote = card.get("quote") if isinstance(card, Mapping) else None
            evidence_id = card.get("evidenceId") if _filled(quote) else ""
            if _filled(quote) and _filled(evidence_id):
                if not lookup(evidence_id, quote):
                    errors.append(f"{where}.quote not found in evidence {evidence_id}")
            elif _filled(quote):
                errors.append(f"{where} has a quote but no evidenceId to verify it against")
    return errors


def _warnings(r: Mapping[str, Any]) -> list[str]:
    """Soft problems: worth logging, not worth refusing over."""
    warnings = [
        f"{where} cites {card['freshnessStatus']} evidence"
        for path in CARD_PATHS
        for where, card in _at(r, path)
        if isinstance(card, Mapping) and card.get("freshnessStatus") in ("stale", "critical")
    ]
    primary = next((card for _, card in _at(r, "citations.primary")), None)
    if isinstance(primary, Mapping) and not primary.get("freshnessStatus"):
        warnings.append("citations.primary has no freshnessStatus")
    created = r.get("createdAt")
    if _is_timestamp(created) and datetime.fromisoformat(created).tzinfo is None:
        warnings.append("createdAt has no UTC offset")
    sides = _at(r, "citations.primary") + _at(r, "citations.supporting.*")
    if r.get("refusalReason") == "UNRESOLVED_CONFLICT" and len(sides) == 1:
        warnings.append("UNRESOLVED_CONFLICT REFUSAL cites only one side of the conflict")
    return warnings
