"""Compose one response from the asks of a plan, each answered on its own.

One line per ask in `directAnswer` (what that part asked and its values, or why it has none:
"2023: no rule I can cite for that date"), the lines that do not fit in the key details; a
headline naming what was answered; every value with its own citation card — the contract's
four in `citations`, the rest in `additionalCitations`; a change between two years computed
from the two cited values only and declared in `understood.computed`; and `understood.asks`
listing every ask with its values and cards. The response is a REFUSAL only when no ask
could be answered.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

from engine.conditions import Cond
from engine.evolve import evolve
from engine.pipeline import ask_templates as asks_tpl
from engine.pipeline.citations import MAX_CARDS, MAX_VALUE_CARDS, QuoteBudget
from engine.pipeline.computed import computed_sentence
from engine.pipeline.conditional import condition_of, describe, field_label
from engine.pipeline.render import capitalise, clip, clip_parts, concept_label, short_labels
from engine.pipeline.state import Ask, Plan, State, TraceEntry
from engine.pipeline.understood import understood_block
from engine.text.formatting import format_number, format_value, rule_value
from engine.types import Language, Rule

LINE_LIMIT = 240
DETAIL_LIMIT = 120


def compose_plan(state: State, answered: Sequence[State]) -> State:
    """The whole question's state once every ask is answered: one response for them all."""
    assert state.plan is not None
    plan = state.plan
    language: Language = state.analysis.language if state.analysis is not None else "en"
    good = [sub for sub in answered if _answered(sub)]
    trace = (
        *state.trace,
        *(
            TraceEntry(
                f"ask {n}", _decision(sub), {"asOf": sub.as_of.isoformat() if sub.as_of else None}
            )
            for n, sub in enumerate(answered, start=1)
        ),
    )
    resolutions = tuple(r for sub in good for r in sub.resolutions)
    merged = evolve(
        state,
        answered=tuple(answered),
        resolutions=resolutions,
        selections=tuple(s for sub in answered for s in sub.selections),
        computations=tuple(c for sub in good for c in sub.computations),
        trace=trace,
    )
    if not good:
        first = answered[0]
        refused = {**(first.response or {})}
        understood = understood_block(merged, language)
        if understood is not None:
            refused["understood"] = {**understood, "asks": _asks_view(plan, answered, language)}
        return evolve(merged, refusal=first.refusal, cards=first.cards, response=refused)
    # a change leads with the value now ("the limit is $24,500, up from $23,500")
    order = answered[::-1] if plan.change else answered
    cards = _cards(order)
    years_only = _one_fact(plan)
    lines = [
        _line(ask, sub, language, years_only) for ask, sub in zip(plan.asks, answered, strict=True)
    ]
    change = _change(plan, answered, language) if plan.change else None
    if change is not None:
        lines.append(change[0])
    lead = good[0].response or {}
    shown, rest = _fit(lines, LINE_LIMIT)
    response: dict[str, Any] = {
        **{k: v for k, v in lead.items() if k in _KEPT},
        "kind": "ANSWER",
        "headline": _headline(plan, answered, language),
        "directAnswer": shown,
        "citations": {"primary": cards[0], "supporting": cards[1:MAX_CARDS]},
    }
    if state.as_of is not None:  # the message's date; each ask carries its own in `understood`
        response["asOfDate"] = state.as_of.isoformat()
    if rest:
        response["keyDetails"] = [clip(line, DETAIL_LIMIT) for line in rest[:3]]
    if len(cards) > MAX_CARDS:
        response["additionalCitations"] = cards[MAX_CARDS:]
    response.update(_combined(good, language))
    understood = understood_block(merged, language) or {}
    understood["asks"] = _asks_view(plan, answered, language, cards)
    if change is not None:
        understood["computed"] = [*understood.get("computed", []), change[1]]
    response["understood"] = understood
    return evolve(merged, cards=tuple(cards), response=response, refusal=None)


# Blocks of the first answered ask a joint answer keeps as they are.
_KEPT = frozenset({"schemaVersion", "topic", "surface", "asOfDate", "language", "disclaimer"})


def _one_fact(plan: Plan) -> bool:
    """A plan of one fact for several years: every ask names the same concepts."""
    named = {tuple(m.concept for m in a.matching.chosen) for a in plan.asks}
    return len(named) == 1 and all(a.year is not None for a in plan.asks)


def _answered(sub: State) -> bool:
    response = sub.response or {}
    return sub.refusal is None and response.get("kind") == "ANSWER"


def _decision(sub: State) -> str:
    response = sub.response or {}
    if response.get("kind") == "ANSWER":
        return f"ANSWER: {response.get('headline', '')}"
    return f"REFUSAL {response.get('refusalReason', '')}"


def ask_label(ask: Ask, sub: State, language: Language) -> str:
    """What an ask is about, for its line: its concepts' labels (and its year)."""
    # the rows answered name it ("Higher 401(k) catch-up for ages 60-63", not the 50+ one the
    # words matched), else what the words matched
    slugs = [r.concept for r in sub.resolutions] or [m.concept for m in ask.matching.chosen]
    labels = list(dict.fromkeys(concept_label(sub, slug, language) for slug in slugs))
    label = " / ".join(labels) if len(labels) <= 2 else capitalise(ask.words) or labels[0]
    if ask.year is None:
        return label
    return asks_tpl.FOR_YEAR[language].format(label=label, year=ask.year)


def _line(ask: Ask, sub: State, language: Language, years_only: bool = False) -> str:
    """The ask's line: what it asked and its values. In a plan of one fact's years, the
    headline names the fact and each line its year."""
    if years_only and ask.year is not None:
        what = asks_tpl.YEAR[language].format(year=ask.year)
    else:
        what = ask_label(ask, sub, language) if ask.matching.chosen else ""
    if not _answered(sub):
        return _unanswered(ask, sub, what, language)
    if sub.computations:
        return computed_sentence(sub.computations[0], sub, language)
    values, named = _values(sub, language)
    if named and ask.year is None:  # each member of a family names itself
        return values
    return asks_tpl.LINE[language].format(what=what, values=values)


def _values(sub: State, language: Language) -> tuple[str, bool]:
    """The ask's values: each winner's, then each row waiting on the asker's data with its
    condition; each member named when the ask is a family (and whether they are)."""
    winners = [r.winner for r in sub.resolutions if r.winner is not None]
    rows = _cited_rows(sub)
    concepts = list(dict.fromkeys(rule.concept for rule in (*winners, *rows)))
    named = len(concepts) > 1
    shared, own = short_labels([concept_label(sub, c, language) for c in concepts])
    label = dict(zip(concepts, own, strict=True))
    parts = [
        f"{label[rule.concept]}: {rule_value(rule, language)}"
        if named
        else rule_value(rule, language)
        for rule in winners
    ]
    parts += [
        (f"{label[rule.concept]}: " if named else "")
        + f"{rule_value(rule, language)} ({describe(condition_of(sub, rule), language)})"
        for rule in rows
    ]
    text = "; ".join(dict.fromkeys(parts))
    return (f"{shared}: {text}" if shared else text), named


def _stated(sub: State) -> list[Rule]:
    """The rules whose values an answered ask states: its winners, then its cited rows."""
    return [r.winner for r in sub.resolutions if r.winner is not None] + _cited_rows(sub)


def _cited_rows(sub: State) -> list[Rule]:
    """The rows of an ask that wait on the asker's data and that a card of it cites."""
    cited = {str(card["id"]).split("@")[0] for card in sub.cards}
    return [rule for r in sub.resolutions for rule in r.conditional if rule.id in cited]


def _unanswered(ask: Ask, sub: State, what: str, language: Language) -> str:
    refusal = sub.refusal or ask.refusal
    reason = refusal.reason if refusal is not None else ""
    if not what:
        return asks_tpl.NOT_UNDERSTOOD[language].format(words=clip(ask.words, 60))
    if reason == "MISSING_CLIENT_DATA" and refusal is not None:
        fields = ", ".join(field_label(f, language) for f in refusal.detail.get("fields", []))
        return asks_tpl.NEEDS_DATA[language].format(what=what, fields=fields)
    if refusal is not None and (
        refusal.detail.get("uncovered") or refusal.detail.get("candidates")
    ):
        return asks_tpl.NOT_UNDERSTOOD[language].format(words=clip(ask.words or what, 60))
    return asks_tpl.NOT_IN_FORCE[language].format(what=what)


def _headline(plan: Plan, answered: Sequence[State], language: Language) -> str:
    """What was answered: the facts asked and, for several years of one fact, the years."""
    good = [(a, s) for a, s in zip(plan.asks, answered, strict=True) if _answered(s)]
    labels = list(
        dict.fromkeys(
            concept_label(sub, rule.concept, language) for _, sub in good for rule in _stated(sub)
        )
    )
    years = [a.year for a, _ in good if a.year is not None]
    if _one_fact(plan) and years:
        shown = ", ".join(asks_tpl.YEAR[language].format(year=y) for y in years[:-1])
        last = asks_tpl.YEAR[language].format(year=years[-1])
        listed = f"{shown}{asks_tpl.AND[language]}{last}" if shown else last
        return clip(f"{' · '.join(labels)}: {listed}", 120)
    return clip_parts(labels, " · ", 120)


def _fit(lines: list[str], limit: int) -> tuple[str, list[str]]:
    """As many whole lines as fit in `limit` (one per ask), and the lines left over."""
    shown: list[str] = []
    for line in lines:
        if len("\n".join([*shown, line])) > limit:
            break
        shown.append(line)
    if not shown:
        return clip(lines[0], limit), lines[1:]
    rest = lines[len(shown) :]
    text = "\n".join(shown)
    if rest and len(text) + 2 <= limit:
        text += "\n…"
    return text, rest


def _cards(answered: Sequence[State]) -> list[dict[str, Any]]:
    """Every ask's value cards once, in the asks' order, then the asks' further cards while
    the contract's four have room."""
    first: list[Mapping[str, Any]] = []
    extra: list[Mapping[str, Any]] = []
    for sub in answered:
        seen_rules: set[str] = set()
        for card in sub.cards if _answered(sub) else ():
            rule = str(card["id"]).split("@")[0]
            (extra if rule in seen_rules else first).append(card)
            seen_rules.add(rule)
    cards: list[dict[str, Any]] = []
    budget = QuoteBudget()
    for card, room in [(c, MAX_VALUE_CARDS) for c in first] + [(c, MAX_CARDS) for c in extra]:
        quote = str(card.get("quote", ""))
        if _same_card(card, cards) is not None or len(cards) >= room:
            continue
        if budget.fits(len(cards), quote):
            budget.take(len(cards), quote)
            cards.append(_unique(card, cards))
    return cards


def _same_card(card: Mapping[str, Any], cards: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A card already listed for the same rule, evidence and quote (two asks of one rule)."""
    key = (str(card["id"]).split("#")[0], card.get("quote"))
    return next((c for c in cards if (str(c["id"]).split("#")[0], c.get("quote")) == key), None)


def _unique(card: Mapping[str, Any], cards: list[dict[str, Any]]) -> dict[str, Any]:
    """The card with an id no earlier card of the response has (`<rule>@<evidence>#2`)."""
    taken = {str(c["id"]) for c in cards}
    base = str(card["id"]).split("#")[0]
    number, unique = 1, base
    while unique in taken:
        number += 1
        unique = f"{base}#{number}"
    return {**card, "id": unique}


def _change(
    plan: Plan, answered: Sequence[State], language: Language
) -> tuple[str, dict[str, Any]] | None:
    """How one fact's value changed between the first and the last ask, computed from the two
    cited values only (same concept, same unit, numbers both); None otherwise."""
    first, last = plan.asks[0], plan.asks[-1]
    old, new = _single_winner(answered[0]), _single_winner(answered[-1])
    if old is None or new is None or old.concept != new.concept or old.unit != new.unit:
        return None
    try:
        before, after = Decimal(old.value), Decimal(new.value)
    except InvalidOperation:
        return None
    years = [asks_tpl.YEAR[language].format(year=a.year) for a in (first, last)]
    shown_old, shown_new = rule_value(old, language), rule_value(new, language)
    delta = after - before
    if delta == 0:
        line = asks_tpl.NO_CHANGE[language].format(first=years[0], last=years[1], value=shown_new)
    else:
        sign = "+" if delta > 0 else "−"
        if new.value_type == "percentage":
            amount = format_number(abs(delta), language) + asks_tpl.POINTS[language]
        else:
            amount = format_value(str(abs(delta)), new.value_type, new.unit, language)
        line = asks_tpl.CHANGE[language].format(
            first=years[0], last=years[1], delta=f"{sign}{amount}", old=shown_old, new=shown_new
        )
    computed = {
        "kind": "change",
        "concept": new.concept,
        "from": old.value,
        "to": new.value,
        "value": str(delta),
        "uses": [old.concept],
    }
    return line, computed


def _single_winner(sub: State) -> Rule | None:
    winners = [r.winner for r in sub.resolutions if r.winner is not None]
    return winners[0] if len(winners) == 1 and _answered(sub) else None


def _combined(good: Sequence[State], language: Language) -> dict[str, Any]:
    """The blocks every answered ask contributes to: confidence (the lowest), obligation (a
    conditional ask makes the whole conditional), why, related questions, missing context."""
    responses = [sub.response or {} for sub in good]
    blocks: dict[str, Any] = {}
    scored = [r["confidence"] for r in responses if isinstance(r.get("confidence"), Mapping)]
    if scored:
        blocks["confidence"] = min(scored, key=lambda c: c.get("score", 1.0))
    obligations = [r["obligationContext"] for r in responses if r.get("obligationContext")]
    if obligations:
        conditional = [o for o in obligations if o.get("type") == "CONDITIONAL"]
        blocks["obligationContext"] = (conditional or obligations)[0]
    bullets: list[str] = []
    for response in responses:
        for bullet in (response.get("why") or {}).get("bullets", [])[:1]:
            if (
                bullet not in bullets
                and len(bullets) < 5
                and sum(map(len, bullets)) + len(bullet) <= 700
            ):
                bullets.append(bullet)
    if bullets:
        blocks["why"] = {"bullets": bullets}
    missing = [r["missingContext"] for r in responses if r.get("missingContext")]
    if missing:
        blocks["missingContext"] = missing[0]
    for key in ("conflict", "clientContext", "nextStep"):
        found = next((r[key] for r in responses if r.get(key)), None)
        if found is not None:
            blocks[key] = found
    return blocks


def _asks_view(
    plan: Plan,
    answered: Sequence[State],
    language: Language,
    cards: Sequence[Mapping[str, Any]] = (),
) -> list[dict[str, Any]]:
    """`understood.asks`: each ask, what it names, its date, and its values with their cards
    (or why it has none)."""
    view: list[dict[str, Any]] = []
    for ask, sub in zip(plan.asks, answered, strict=True):
        item = ask_view(ask, sub, language, cards, _line(ask, sub, language))
        view.append(item)
    return view


def ask_view(
    ask: Ask, sub: State, language: Language, cards: Sequence[Mapping[str, Any]], text: str
) -> dict[str, Any]:
    """One ask as `understood.asks` lists it: its line, what it names, its date and each value
    stated with the card that cites it (a row with its condition), or why it has none."""
    item: dict[str, Any] = {
        "text": text,
        "subject": [m.concept for m in ask.matching.chosen],
        "asOfDate": (sub.as_of or ask.as_of).isoformat(),
    }
    if ask.words:
        item["words"] = ask.words
    if ask.year is not None:
        item["year"] = ask.year
    if not _answered(sub):
        refusal = sub.refusal or ask.refusal
        item["status"] = "unanswered"
        item["reason"] = refusal.reason if refusal is not None else "NO_CITABLE_RULES"
        return item
    card_of: dict[str, str] = {}
    for card in cards:
        card_of.setdefault(str(card["id"]).split("@")[0], str(card["id"]))
    rows: list[tuple[Rule, Cond | None]] = [(rule, None) for rule in _winners(sub)]
    rows += [(rule, condition_of(sub, rule)) for rule in _cited_rows(sub)]
    values: dict[tuple[str, str, str], dict[str, Any]] = {}
    for rule, cond in rows:
        shown = rule_value(rule, language)
        condition = describe(cond, language) if cond is not None else ""
        value: dict[str, Any] = {"concept": rule.concept, "shown": shown}
        if _machine_value(rule.value):  # a phrase is shown in the asker's language only
            value["value"] = rule.value
        if condition:
            value["condition"] = condition
        if rule.id in card_of:
            value["card"] = card_of[rule.id]
        values.setdefault((rule.concept, shown, condition), value)
    item["status"] = "answered"
    item["values"] = list(values.values())
    return item


def single_ask(state: State, language: Language) -> list[dict[str, Any]]:
    """`understood.asks` of a question that asks one thing: its values and their cards."""
    assert state.matching is not None and state.as_of is not None
    ask = Ask("", state.matching, state.as_of, state.as_of_origin)
    text = str((state.response or {}).get("directAnswer", ""))
    return [ask_view(ask, state, language, state.cards, text)]


def _machine_value(value: str) -> bool:
    """A value a program can read as it is: a number ("60000.00")."""
    try:
        Decimal(value.strip())
    except InvalidOperation:
        return False
    return True


def _winners(sub: State) -> list[Rule]:
    return [r.winner for r in sub.resolutions if r.winner is not None]
