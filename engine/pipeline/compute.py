"""Stage: compute what the asker's own data and the cited values give together.

Only cited values and what the asker stated are used, and the response says which:
- a stated amount against a threshold: which side it is on, and the obligation there
  ("45.000 EUR does not exceed the 60.000,00 EUR VAT threshold: no obligation to register");
- a threshold that decides between members of a family: the member that applies (revenue up
  to 1.000.000,00 EUR: the lower profit-tax rate) — the other members drop out;
- a deadline in the year the asker reaches an age another concept states (born 1959, RMD age
  73: the first RMD by April 1, 2033).
Amounts in another currency than the threshold, or per month against a yearly threshold, are
not compared: nothing is converted or guessed.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal

from engine.pipeline.conflicts import resolve, settle
from engine.pipeline.select import rules_in_force
from engine.pipeline.state import Computation, Resolution, StageResult, State, asker_context
from engine.text.dates import find_dates
from engine.text.normalize import fold
from engine.text.numbers import decimal_value
from engine.types import OBLIGATION_TYPES, Rule, Threshold
from engine.understanding.context import amount_field
from engine.understanding.frame import Fact

_CURRENCY = {"currency_eur": "EUR", "currency_usd": "USD"}


def compute_results(state: State) -> StageResult:
    analysis = state.analysis
    assert analysis is not None and analysis.reading is not None and state.as_of is not None
    computations: list[Computation] = []
    resolutions = list(state.resolutions)
    split = _decided(state, resolutions)
    decided = split[0] if split is not None else None
    if split is not None:
        computations.append(split[0])
        resolutions = [split[1]]
    for resolution in resolutions:
        winner = resolution.winner
        if winner is None:
            continue
        concept = state.snapshot.concepts[winner.concept]
        if concept.threshold is not None and decided is None:
            found = _compare(concept.threshold, winner, state)
            if found is not None:
                computations.append(found)
        if concept.date_from_age is not None:
            derived = _date_from_age(winner, state)
            if derived is not None:
                computations.append(derived)
    changes: dict[str, object] = {"computations": tuple(computations)}
    if split is not None:
        changes["resolutions"] = tuple(resolutions)
    return StageResult(
        changes,
        "; ".join(f"{c.kind} {c.concept}" for c in computations) or "nothing to compute",
    )


def _decided(state: State, resolutions: list[Resolution]) -> tuple[Computation, Resolution] | None:
    """A threshold that splits the family asked about (the lower or the higher profit-tax
    rate by revenue): the member on the asker's side, unless they named the one they meant."""
    # a member answered row by row (the income-tax rates by municipality) is resolved too
    resolved = {r.concept for r in resolutions if r.winner is not None or r.conditional}
    snapshot = state.snapshot
    assert state.as_of is not None and state.analysis is not None
    assert state.analysis.reading is not None
    named_variant = any(q.kind == "variant" for q in state.analysis.reading.qualifiers)
    context = asker_context(state)
    deciders = {d for slug in resolved for d in snapshot.decided_by.get(slug, ())}
    for slug in sorted(deciders):
        threshold = snapshot.concepts[slug].threshold
        assert threshold is not None
        sides = {threshold.above, threshold.at_or_below}
        if named_variant and len(sides & resolved) < 2:
            continue
        winner = resolve(rules_in_force(slug, state, state.as_of, context), snapshot).winner
        found = _compare(threshold, winner, state) if winner is not None else None
        if found is None:
            continue
        side = threshold.above if found.above else threshold.at_or_below
        chosen = settle(rules_in_force(side, state, state.as_of, context), snapshot)
        if chosen.winner is None and not chosen.conditional:
            continue
        computed = replace(found, kind="decided", concept=side, decided=side, obligation=None)
        return computed, chosen
    return None


def _compare(threshold: Threshold, rule: Rule, state: State) -> Computation | None:
    if threshold.since is not None and rule.effective_from < threshold.since:
        return None
    limit = decimal_value(rule.value)
    currency = _CURRENCY.get(rule.value_type) or ("HRK" if rule.unit.strip() == "kn" else "")
    fact = _stated_amount(threshold, state)
    amount = fact.value if fact is not None else None
    if limit is None or not currency or fact is None or not isinstance(amount, Decimal):
        return None
    if fact.period == "month" or (fact.unit and fact.unit != currency):
        return None
    if not fact.unit:  # "45.000 prometa": the amount is read in the threshold's currency
        fact = replace(fact, unit=currency)
    above = amount > limit or (fact.bound == "above" and amount == limit)
    side = threshold.above if above else threshold.at_or_below
    obligation = side if side in OBLIGATION_TYPES else None
    return Computation("threshold", rule.concept, rule, fact, above, obligation, None)


def _stated_amount(threshold: Threshold, state: State) -> Fact | None:
    """The amount the asker stated for this threshold: a named one (turnover, receipts, …) in
    the threshold's order, else the one amount they gave without naming it."""
    assert state.analysis is not None and state.analysis.reading is not None
    reading = state.analysis.reading
    for name in threshold.facts:
        found = reading.fact(name)
        if found is not None:
            return found
    # "600 euro per maand, dus 7.200 euro per jaar": the one amount not given per month
    yearly = [a for a in reading.amounts if a.period != "month"]
    if len(yearly) == 1:
        return yearly[0]
    return None if yearly else _remembered_amount(threshold, state)


def _remembered_amount(threshold: Threshold, state: State) -> Fact | None:
    """The amount the conversation remembered for this threshold ("promet oko 45.000 eura",
    said earlier), when the question states none."""
    for name in threshold.facts:
        for unit in ("EUR", "USD", "HRK"):
            field = amount_field(name, unit)
            held = state.question.remembered.get(field) if field else None
            if held is not None and isinstance(held.value, int | float) and field:
                value = Decimal(str(held.value))
                return Fact(name, value, "clientContext", unit=unit, period="year")  # type: ignore[arg-type]
    return None


def _date_from_age(rule: Rule, state: State) -> Computation | None:
    concept = state.snapshot.concepts[rule.concept]
    assert concept.date_from_age is not None and state.analysis is not None
    context = asker_context(state)
    assert state.as_of is not None and state.analysis.reading is not None
    birth_year, now = context.get("birth_year"), context.get("age")
    if isinstance(birth_year, int) and not isinstance(birth_year, bool):
        years: tuple[int, ...] = (birth_year,)
        stated = state.analysis.reading.fact("birth_year") or Fact(
            "birth_year", birth_year, "clientContext"
        )
    elif isinstance(now, int) and not isinstance(now, bool):
        # an age alone leaves two birth years: both dates are given, if the age rule agrees
        years = (state.as_of.year - now - 1, state.as_of.year - now)
        stated = state.analysis.reading.fact("age") or Fact("age", now, "clientContext")
    else:
        return None
    dates: list[date] = []
    age_rules: dict[str, Rule] = {}
    for year in years:
        known = {**context, "birth_year": year}
        age_slug = concept.date_from_age.age_concept
        found_rule = resolve(rules_in_force(age_slug, state, state.as_of, known), state.snapshot)
        age_rule = found_rule.winner
        age = decimal_value(age_rule.value) if age_rule is not None else None
        if age_rule is None or age is None or age != age.to_integral_value():
            return None  # "70 ½" reaches no whole year: nothing is computed
        found = find_dates(
            fold(f"{rule.value} {year + int(age) + concept.date_from_age.after_years}"), "en"
        )
        if len(found) != 1:
            return None
        dates.append(found[0].value)
        age_rules[age_rule.id] = age_rule
    if len(age_rules) != 1:
        return None  # the two possible birth years reach different ages: the year decides
    return Computation(
        "date_from_age",
        rule.concept,
        rule,
        stated,
        support=next(iter(age_rules.values())),
        derived=dates[0],
        derived_late=dates[1] if len(dates) > 1 else None,
    )
