"""Conflict resolutions (`resolutions:`): a maintainer's decision of a declared conflict, read
from a pack and checked against the rules of every loaded pack (fixtures/packs/README.md).

A resolution is refused when its conflict no longer exists (either rule missing, neither names
the other in `conflicts_with`, the two now agree or are never in force together), when the
winner is not one of the two rules, when its strategy is unknown or its rationale lacks a
language, and when an evidence quote is not a whole verbatim sentence of its evidence or does
not state the winner's value.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import cast

from engine.errors import PackProblem
from engine.store.knowledge.pack_fields import RecordFields
from engine.text.normalize import normalise_quote
from engine.text.quantities import value_stated
from engine.text.sentences import whole_sentences, widen_to_sentences
from engine.types import (
    LANGUAGES,
    RESOLUTION_STRATEGIES,
    ConflictResolution,
    Evidence,
    Pointer,
    ResolutionStrategy,
    Rule,
)

FIELDS = (
    "id",
    "conflict",
    "winner",
    "strategy",
    "rationale",
    "decided_by",
    "decided_at",
    "evidence",
)
_EXCERPT = 60


def read_resolution(fields: RecordFields) -> ConflictResolution:
    """One `resolutions:` record; every bad field is reported through `fields`."""
    conflict = _pair(fields)
    winner = fields.text("winner")
    if winner and len(conflict) == 2 and winner not in conflict:
        fields.fail(
            f"winner {winner!r} is not one of the conflict's rules {conflict[0]!r}, "
            f"{conflict[1]!r}; name the rule whose value answers"
        )
    rationale = fields.localised("rationale")
    missing = [language for language in LANGUAGES if language not in rationale]
    if rationale and missing:
        fields.fail(
            f"rationale needs hr, nl and en (missing: {', '.join(missing)}): the answer gives "
            "it in the asker's language"
        )
    evidence = _evidence(fields)
    decided_at = fields.day("decided_at") or date.min  # date.min only with a problem reported
    return ConflictResolution(
        id=fields.text("id"),
        conflict=(conflict[0], conflict[1]) if len(conflict) == 2 else ("", ""),
        winner=winner,
        strategy=cast(ResolutionStrategy, fields.choice("strategy", RESOLUTION_STRATEGIES)),
        rationale=rationale,
        decided_by=fields.text("decided_by"),
        decided_at=decided_at,
        evidence=evidence,
    )


def _pair(fields: RecordFields) -> tuple[str, ...]:
    raw = fields.raw("conflict")
    ids = [i for i in raw if isinstance(i, str) and i] if isinstance(raw, list) else []
    if not isinstance(raw, list) or len(raw) != 2 or len(set(ids)) != 2:
        fields.fail(
            f"conflict must name the two rules in conflict, [rule-id, rule-id], got {raw!r}"
        )
        return ()
    return (ids[0], ids[1])


def _evidence(fields: RecordFields) -> tuple[Pointer, ...]:
    raw = fields.raw("evidence")
    if not isinstance(raw, list) or not raw:
        fields.fail(
            "evidence must be a non-empty list of {evidence, quote}: the texts the decision "
            "rests on, each stating the winner's value"
        )
        return ()
    found: list[Pointer] = []
    for index, item in enumerate(raw, start=1):
        keys = set(item) if isinstance(item, Mapping) else set()
        key = item.get("evidence") if isinstance(item, Mapping) else None
        quote = item.get("quote") if isinstance(item, Mapping) else None
        if (
            keys != {"evidence", "quote"}
            or not isinstance(key, str)
            or not key
            or not isinstance(quote, str)
            or not quote
        ):
            fields.fail(f"evidence {index} needs exactly a non-empty evidence key and quote")
        else:
            found.append(Pointer(evidence_id=key, quote=quote))
    return tuple(found)


def resolution_problems(
    located: Sequence[tuple[str, str, ConflictResolution]],
    rules: Mapping[str, Rule],
    declared: Mapping[str, tuple[str, ...]],
    texts: Mapping[str, str],
    require_evidence: Callable[[str, str, str], None],
) -> list[PackProblem]:
    """Problems of the resolutions (file, record, resolution) against every loaded rule,
    the declared conflicts (rule id -> the ids it names in `conflicts_with`) and the evidence
    texts by key; `require_evidence(file, record, key)` reports an unknown evidence key."""
    problems: list[PackProblem] = []
    decided: dict[frozenset[str], str] = {}
    for file, record, resolution in located:
        found: list[str] = []
        pair = frozenset(resolution.conflict)
        if pair in decided:
            found.append(f"conflict {_named(resolution)} is already resolved by {decided[pair]!r}")
        decided.setdefault(pair, resolution.id)
        gone = _gone(resolution, rules, declared)
        if gone:
            found.append(
                f"conflict {_named(resolution)} no longer exists: {gone}; remove the resolution"
            )
        for pointer in resolution.evidence:
            require_evidence(file, record, pointer.evidence_id)
            text = texts.get(pointer.evidence_id)
            if text is not None:
                found += _quote_problems(pointer, text, rules.get(resolution.winner))
        problems += [PackProblem(file, record, problem) for problem in found]
    return problems


def _named(resolution: ConflictResolution) -> str:
    return f"[{resolution.conflict[0]}, {resolution.conflict[1]}]"


def _gone(
    resolution: ConflictResolution,
    rules: Mapping[str, Rule],
    declared: Mapping[str, tuple[str, ...]],
) -> str:
    """Why the conflict a resolution names is no longer in the knowledge, or ""."""
    first, second = resolution.conflict
    missing = [rule_id for rule_id in (first, second) if rule_id not in rules]
    if missing:
        return f"rule {missing[0]!r} is in no loaded pack"
    if second not in declared.get(first, ()) and first not in declared.get(second, ()):
        return "neither rule names the other in conflicts_with"
    a, b = rules[first], rules[second]
    if a.concept != b.concept:
        return f"the rules answer different concepts ({a.concept}, {b.concept})"
    if _same_value(a.value, b.value):
        return f"both rules state {a.value!r}"
    apart = (a.effective_until is not None and b.effective_from >= a.effective_until) or (
        b.effective_until is not None and a.effective_from >= b.effective_until
    )
    return "the two rules are never in force on the same day" if apart else ""


def _same_value(a: str, b: str) -> bool:
    """Numerically where both are numbers ("25" is "25.0"), else as trimmed text."""
    try:
        return Decimal(a.strip()) == Decimal(b.strip())
    except InvalidOperation:
        return a.strip().casefold() == b.strip().casefold()


def _quote_problems(pointer: Pointer, text: str, winner: Rule | None) -> list[str]:
    """The rule quote checks, for one evidence quote of a resolution: verbatim, whole
    sentences, and the winner's value stated."""
    shown = pointer.quote if len(pointer.quote) <= _EXCERPT else pointer.quote[:_EXCERPT] + "…"
    if normalise_quote(pointer.quote) not in normalise_quote(text):
        return [f'quote not found verbatim in evidence {pointer.evidence_id!r} ("{shown}")']
    if not whole_sentences(pointer.quote, text):
        whole = (widen_to_sentences(pointer.quote, text) or "")[:_EXCERPT]
        return [f'quote is part of a sentence ("{shown}"); quote the whole sentence: "{whole}…"']
    if winner is not None and not value_stated(winner.value, winner.value_type, pointer.quote):
        return [
            f'quote ("{shown}") in evidence {pointer.evidence_id!r} does not state the '
            f"winner's value {winner.value!r}: the decision must rest on a text that states it"
        ]
    return []


def resolve_evidence(
    resolution: ConflictResolution, by_key: Mapping[str, Evidence]
) -> ConflictResolution:
    """The resolution with each evidence key replaced by that evidence's content id."""
    evidence = tuple(
        Pointer(by_key[p.evidence_id].id if p.evidence_id in by_key else "", p.quote)
        for p in resolution.evidence
    )
    return replace(resolution, evidence=evidence)
