"""Stage 4: select, for each matched concept, the rules in force on the as-of date.

PUBLISHED only; effective_from inclusive, effective_until exclusive, by calendar day; the
rule's condition evaluated against the client context (plus facts the question states, such
as a birth year). An unparseable condition makes the rule ineligible (fail closed); a condition
that needs absent client data is reported as missing context, never guessed: the APP surface
refuses with MISSING_CLIENT_DATA naming what to provide, the public MARKETING surface (which
carries no client data) gets the rules with their conditions spelled out.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from engine.conditions import Truth, evaluate, fields_of
from engine.horizons import Freshness, freshness, horizon_end
from engine.pipeline.state import ConceptRules, Decision, StageResult, State
from engine.types import Rule


def select_rules_in_force(state: State) -> StageResult:
    analysis, matching, as_of = state.analysis, state.matching, state.as_of
    assert analysis is not None and matching is not None and as_of is not None
    context: dict[str, Any] = {**analysis.facts, **state.question.client_context}
    allowed = state.question.allowed_rules
    selections = tuple(
        _select(
            concept.concept,
            tuple(
                rule
                for rule in state.snapshot.rules_by_concept.get(concept.concept, ())
                if allowed is None or rule.id in allowed
            ),
            state.snapshot.conditions,
            as_of,
            context,
            state.question.excluded_evidence,
        )
        for concept in matching.chosen
    )
    changes: dict[str, object] = {"selections": selections}
    removed = _removed_sources(state, as_of)
    if (
        not any(s.in_force for s in selections)
        and removed
        and not any(s.missing_fields for s in selections)
    ):
        changes["refusal"] = Decision("NO_CITABLE_RULES", {"removed": removed})
    elif not any(s.in_force for s in selections):
        missing = sorted({f for s in selections for f in s.missing_fields})
        if missing and state.question.surface == "MARKETING":
            pass  # no client data on the public surface: the rule is given with its conditions
        elif missing:
            changes["refusal"] = Decision("MISSING_CLIENT_DATA", {"fields": missing})
        else:
            changes["refusal"] = Decision("NO_CITABLE_RULES", {"nearest": _nearest(state, as_of)})
    return StageResult(
        changes,
        "; ".join(
            f"{s.concept}: {len(s.in_force)} in force"
            + (
                f", {len(s.missing_context)} need {list(s.missing_fields)}"
                if s.missing_fields
                else ""
            )
            for s in selections
        ),
        {"as_of": as_of.isoformat(), "excluded": {s.concept: dict(s.excluded) for s in selections}},
    )


def _select(
    concept: str,
    rules: tuple[Rule, ...],
    conditions: Mapping[str, Any],
    as_of: date,
    context: Mapping[str, Any],
    excluded_evidence: frozenset[str],
) -> ConceptRules:
    in_force: list[Rule] = []
    missing: list[Rule] = []
    fields: set[str] = set()
    excluded: dict[str, str] = {}
    for rule in rules:
        why_not = _why_not_in_force(rule, as_of) or _removed(rule, excluded_evidence)
        if why_not:
            excluded[rule.id] = why_not
            continue
        condition = conditions.get(rule.id)
        if condition is None:
            excluded[rule.id] = "applies_when cannot be parsed (fail closed)"
            continue
        truth = evaluate(condition, context)
        if truth is Truth.TRUE:
            in_force.append(rule)
        elif truth is Truth.MISSING:
            missing.append(rule)
            fields.update(f for f in fields_of(condition) if context.get(f) is None)
        else:
            excluded[rule.id] = "applies_when is false for this client"
    return ConceptRules(concept, tuple(in_force), tuple(missing), tuple(sorted(fields)), excluded)


def _why_not_in_force(rule: Rule, as_of: date) -> str:
    if rule.status != "PUBLISHED":
        return f"status {rule.status}"
    if freshness(rule, as_of) is Freshness.BEYOND_HORIZON:
        return (
            f"beyond its horizon: evidence speaks for dates up to {rule.verified_as_of}, "
            f"horizon {horizon_end(rule)}"
        )
    if as_of < rule.effective_from:
        return f"not yet in force on {as_of.isoformat()} (from {rule.effective_from.isoformat()})"
    if rule.effective_until is not None and as_of >= rule.effective_until:
        return (
            f"no longer in force on {as_of.isoformat()} (until {rule.effective_until.isoformat()})"
        )
    return ""


def _removed(rule: Rule, excluded_evidence: frozenset[str]) -> str:
    if excluded_evidence and all(p.evidence_id in excluded_evidence for p in rule.pointers):
        return "its sources were removed from the conversation"
    return ""


def _removed_sources(state: State, as_of: date) -> list[str]:
    """Removed evidence that a rule in force on `as_of` rests on: what would have answered."""
    excluded = state.question.excluded_evidence
    if not excluded or state.matching is None:
        return []
    found: dict[str, None] = {}
    for match in state.matching.chosen:
        for rule in state.snapshot.rules_by_concept.get(match.concept, ()):
            if _removed(rule, excluded) and not _why_not_in_force(rule, as_of):
                found.update((p.evidence_id, None) for p in rule.pointers)
    return list(found)


def _nearest(state: State, as_of: date) -> dict[str, dict[str, str]]:
    """For a refusal, per concept: the span of its published rules, and the last date the
    evidence confirms when the date asked about lies past it."""
    assert state.matching is not None
    nearest: dict[str, dict[str, str]] = {}
    for match in state.matching.chosen:
        published = [
            r
            for r in state.snapshot.rules_by_concept.get(match.concept, ())
            if r.status == "PUBLISHED"
        ]
        if not published:
            continue
        ends = [r.effective_until for r in published]
        span = {
            "from": min(r.effective_from for r in published).isoformat(),
            "until": "" if None in ends else max(e for e in ends if e is not None).isoformat(),
        }
        verified = [r.verified_as_of for r in published if r.verified_as_of is not None]
        if verified and as_of > max(verified) and span["until"] == "":
            span["verified"] = max(verified).isoformat()
        nearest[match.concept] = span
    return nearest
