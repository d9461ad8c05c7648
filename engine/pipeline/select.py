"""Stage 4: select, for each matched concept, the rules in force on the as-of date.

PUBLISHED only; effective_from inclusive, effective_until exclusive, by calendar day; the
rule's condition evaluated against the client context (plus facts the question states, such
as a birth year). An unparseable condition makes the rule ineligible (fail closed); a condition
that needs absent client data is reported as missing context, never guessed: the APP surface
refuses with MISSING_CLIENT_DATA naming what to provide, the public MARKETING surface (which
carries no client data) gets the rules with their conditions spelled out, unless the question
asks for the asker's own value ("my full retirement age"): then it too asks for the data.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from engine.conditions import Any_, Cond, Exists, Not, Truth, evaluate, fields_of, numeric_bounds
from engine.horizons import Freshness, freshness, horizon_end
from engine.pipeline.state import ConceptRules, Decision, StageResult, State, asker_context
from engine.types import Rule


def select_rules_in_force(state: State) -> StageResult:
    analysis, matching, as_of = state.analysis, state.matching, state.as_of
    assert analysis is not None and matching is not None and as_of is not None
    context = asker_context(state)
    if context.get("age") is None and isinstance(context.get("birth_year"), int):
        # the age reached by the end of the year asked about: how the IRS counts it for
        # catch-ups and long-term-care limits ("age 50 or over by the end of the year")
        context["age"] = as_of.year - context["birth_year"]
    selections = tuple(
        rules_in_force(concept.concept, state, as_of, context) for concept in matching.chosen
    )
    selections = _most_specific(selections, state, context, as_of)
    if state.question.surface == "MARKETING" and not _personal(state):
        # no data to decide with: every row in force, each under its condition
        selections = _with_every_row(selections, state, context, as_of)
    named = _named_values(state)
    if named:
        # "Sinds wanneer was het verlaagde tarief 6 %?": the rule that stated 6 %, not today's
        selections = tuple(_stating(s, frozenset(named), state, context) for s in selections)
    if matching.frame is not None and matching.frame.family and len(selections) > 1:
        # A family answered as a whole: its members with nothing in force drop out.
        selections = tuple(s for s in selections if s.in_force or s.missing_context) or selections
    changes: dict[str, object] = {"selections": selections}
    removed = _removed_sources(state, as_of)
    if named and not any(s.in_force or s.missing_context for s in selections):
        # no rule of the concept ever stated that value: say so, not "nothing in force"
        detail = {"uncovered": list(named.values()), "known": [s.concept for s in selections]}
        changes["refusal"] = Decision("NO_CITABLE_RULES", detail)
    elif (
        not any(s.in_force for s in selections)
        and removed
        and not any(s.missing_fields for s in selections)
    ):
        changes["refusal"] = Decision("NO_CITABLE_RULES", {"removed": removed})
    elif not any(s.in_force for s in selections):
        missing = sorted({f for s in selections for f in s.missing_fields})
        if missing and state.question.surface == "MARKETING" and not _personal(state):
            pass  # no client data on the public surface: the rule is given with its conditions
        elif missing:
            changes["refusal"] = Decision("MISSING_CLIENT_DATA", {"fields": missing})
        elif excluding := _excluded_by_facts(selections):
            # in force, but not for what the question states ("I'm 64": the 60–63 catch-up)
            changes["refusal"] = Decision("NO_CITABLE_RULES", {"excluded_by": excluding})
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


def _with_every_row(
    selections: tuple[ConceptRules, ...],
    state: State,
    context: Mapping[str, Any],
    as_of: date,
) -> tuple[ConceptRules, ...]:
    """Conditional answers show every row in force. A rule that holds only because the asker's
    data is missing ("birth year not given, or 1951–1959": the RMD age of 73) is one row among
    the others waiting on that data (75 for the born-1960s), not the answer for everybody; and a
    narrower member of the family waiting on the same data ("the higher catch-up for ages
    60–63" beside "the catch-up from 50") is a row of the same answer."""
    snapshot = state.snapshot
    found: list[ConceptRules] = []
    chosen = {s.concept for s in selections}
    for selection in selections:
        waiting = set(selection.missing_fields)
        defaults = tuple(
            r for r in selection.in_force if _holds_by_default(r, snapshot, context, waiting)
        )
        if defaults and len(defaults) == len(selection.in_force):
            selection = replace(
                selection,
                in_force=(),
                missing_context=(*defaults, *selection.missing_context),
            )
        found.append(selection)
        if selection.in_force or not selection.missing_context:
            continue
        for sibling in _narrower_siblings(selection.concept, snapshot):
            if sibling in chosen:
                continue
            row = rules_in_force(sibling, state, as_of, context)
            if not row.in_force and row.missing_context and set(row.missing_fields) <= waiting:
                found.append(row)
                chosen.add(sibling)
    return tuple(found)


def _holds_by_default(
    rule: Rule, snapshot: Any, context: Mapping[str, Any], waiting: set[str]
) -> bool:
    """Whether the rule holds only because a field other rules wait on is not given: its
    condition is "that field is not given, or …"."""
    condition = snapshot.conditions.get(rule.id)
    if not isinstance(condition, Any_):
        return False
    return any(
        isinstance(part, Not)
        and isinstance(part.part, Exists)
        and part.part.field in waiting
        and context.get(part.part.field) is None
        for part in condition.parts
    )


def _narrower_siblings(concept: str, snapshot: Any) -> tuple[str, ...]:
    """Members of the concept's family whose names say all the concept's head words and more:
    a narrower row of the same fact ("higher 401(k) catch-up for ages 60-63")."""
    family = snapshot.concepts[concept].family
    heads = snapshot.concept_heads.get(concept, frozenset())
    if not family or not heads:
        return ()
    return tuple(
        sibling
        for sibling in snapshot.families.get(family, ())
        if sibling != concept and heads < snapshot.concept_heads.get(sibling, frozenset())
    )


MINE_REACH = 4  # "my full retirement age": the subject's words follow the possessive closely


def _personal(state: State) -> bool:
    """Asked of the asker's own case ("what is MY full retirement age?"): the rows for
    everybody do not answer it; the data that decides does. "My SSN is …" is not."""
    frame, analysis = state.matching.frame if state.matching else None, state.analysis
    if frame is None or analysis is None or not frame.reading.possessives:
        return False
    subjects = state.snapshot.subjects
    keys = frozenset().union(*(subjects[s].keys for s in frame.subject if s in subjects))
    words = analysis.words
    return any(
        w.key in keys
        for at in frame.reading.possessives
        for w in words[at + 1 : at + 1 + MINE_REACH]
    )


def _named_values(state: State) -> dict[Decimal, str]:
    """The values a since/until question names ("tot wanneer was het tarief 6 %?"), with
    their words: the dates asked are those of the rule stating one of them."""
    frame = state.matching.frame if state.matching is not None else None
    if frame is None or frame.reading.attribute not in ("since", "until"):
        return {}
    return {q.value: q.words for q in frame.reading.percentages if q.value is not None}


def _stating(
    selection: ConceptRules, named: frozenset[Decimal], state: State, context: Mapping[str, Any]
) -> ConceptRules:
    """The rules of the concept that state a named value, each selected on its own first day
    (so a value no longer in force is still dated); none when no rule states it."""
    if any(_value(r) in named for r in selection.in_force):
        return selection
    stating = sorted(
        (
            r
            for r in state.snapshot.rules_by_concept.get(selection.concept, ())
            if _value(r) in named
        ),
        key=lambda r: r.effective_from,
    )
    for rule in reversed(stating):
        found = rules_in_force(selection.concept, state, rule.effective_from, context)
        in_force = tuple(r for r in found.in_force if _value(r) in named)
        if in_force:
            return replace(found, in_force=in_force)
    return replace(selection, in_force=(), missing_context=(), missing_fields=())


def _value(rule: Rule) -> Decimal | None:
    try:
        return Decimal(rule.value)
    except InvalidOperation:
        return None


def rules_in_force(
    concept: str, state: State, as_of: date, context: Mapping[str, Any]
) -> ConceptRules:
    """For one concept: its rules in force on `as_of` for this asker (see `_select`)."""
    allowed = state.question.allowed_rules
    rules = tuple(
        rule
        for rule in state.snapshot.rules_by_concept.get(concept, ())
        if allowed is None or rule.id in allowed
    )
    return _select(
        concept,
        rules,
        state.snapshot.conditions,
        as_of,
        context,
        state.question.excluded_evidence,
    )


def _most_specific(
    selections: tuple[ConceptRules, ...], state: State, context: Mapping[str, Any], as_of: date
) -> tuple[ConceptRules, ...]:
    """When the asker's own data decides between members of a family, the member whose
    condition is narrowest wins: at 62 the 60–63 catch-up, not the one from age 50."""
    snapshot = state.snapshot
    stated = frozenset(k for k, v in context.items() if v is not None)
    if not stated:
        return selections
    chosen = {s.concept for s in selections}
    result: list[ConceptRules] = []
    for selection in selections:
        width = _width(selection.in_force, stated, snapshot)
        family = snapshot.concepts[selection.concept].family
        if width is None or not family:
            result.append(selection)
            continue
        best = selection
        for sibling in snapshot.families.get(family, ()):
            if sibling == selection.concept:
                continue
            candidate = rules_in_force(sibling, state, as_of, context)
            narrower = _width(candidate.in_force, stated, snapshot)
            if narrower is not None and narrower < (_width(best.in_force, stated, snapshot) or 0):
                best = candidate
        if best.concept not in chosen or best is selection:
            result.append(best)
            chosen.add(best.concept)
    return tuple(result)


def _width(rules: tuple[Rule, ...], stated: frozenset[str], snapshot: Any) -> Decimal | None:
    """How narrow the rules' conditions are on the asker's stated fields (infinite when open
    on one side), or None when no condition bounds a stated field."""
    widths: list[Decimal] = []
    for rule in rules:
        condition = snapshot.conditions.get(rule.id)
        for field in stated:
            bounds = numeric_bounds(condition, field) if condition is not None else None
            if bounds is None:
                continue
            low, high = bounds
            widths.append(_INFINITE if low is None or high is None else high - low)
    return min(widths) if widths else None


_INFINITE = Decimal("Infinity")


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
        truth = _evaluate(condition, context, as_of)
        if truth is Truth.TRUE:
            in_force.append(rule)
        elif truth is Truth.MISSING:
            missing.append(rule)
            fields.update(f for f in fields_of(condition) if context.get(f) is None)
        else:
            excluded[rule.id] = _FALSE_FOR_CLIENT
    return ConceptRules(concept, tuple(in_force), tuple(missing), tuple(sorted(fields)), excluded)


_FALSE_FOR_CLIENT = "applies_when is false for this client"


def _evaluate(condition: Cond, context: Mapping[str, Any], as_of: date) -> Truth:
    """The condition for this asker. A stated age without a birth year leaves two birth
    years (62 in 2026: born 1963, or 1964 before the birthday): a condition on the birth year
    holds or fails when it does for both, and stays open otherwise (never a guessed year)."""
    age = context.get("age")
    if context.get("birth_year") is not None or not isinstance(age, int) or isinstance(age, bool):
        return evaluate(condition, context)
    if "birth_year" not in fields_of(condition):
        return evaluate(condition, context)
    truths = {
        evaluate(condition, {**context, "birth_year": as_of.year - age - late}) for late in (0, 1)
    }
    return truths.pop() if len(truths) == 1 else Truth.MISSING


def _excluded_by_facts(selections: tuple[ConceptRules, ...]) -> list[str]:
    """The rules in force on the date whose condition the stated facts make false."""
    return [
        rule_id
        for selection in selections
        for rule_id, why in sorted(selection.excluded.items())
        if why == _FALSE_FOR_CLIENT
    ]


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
        # the value the refusal names: the latest one before the date asked, else the first
        before = [r for r in published if r.effective_from <= as_of]
        span["rule"] = (
            max(before, key=_newest_first).id if before else min(published, key=_newest_first).id
        )
        nearest[match.concept] = span
    return nearest


def _newest_first(rule: Rule) -> tuple[date, date, str]:
    return (rule.effective_from, rule.verified_as_of or rule.effective_from, rule.id)
