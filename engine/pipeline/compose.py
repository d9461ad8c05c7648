"""Stage 7: compose the wire response from what the stages decided, in the question's language.

Templates only (engine/pipeline/templates.py); values formatted for the locale. The response
has everything but requestId, traceId and createdAt, which the service stamps at the edge.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import date, timedelta
from typing import Any

from engine.horizons import Freshness, freshness
from engine.pipeline import phrases
from engine.pipeline import templates as tpl
from engine.pipeline.citations import card_dates, excerpt, source_card
from engine.pipeline.computed import (
    client_context,
    computed_headline,
    computed_sentence,
    obligation_block,
)
from engine.pipeline.conditional import (
    cited_conditional_rules,
    compose_conditional,
    condition_of,
    describe,
)
from engine.pipeline.confidence import answer_confidence
from engine.pipeline.joint import single_ask
from engine.pipeline.publishers import publisher_names
from engine.pipeline.recorded import recorded_conflict, recorded_why
from engine.pipeline.refusals import compose_refusal
from engine.pipeline.remembered import remembered_used
from engine.pipeline.render import (
    base_fields,
    citation_blocks,
    clip,
    clip_parts,
    concept_label,
    response_language,
    sentence,
    short_labels,
)
from engine.pipeline.state import Resolution, StageResult, State
from engine.pipeline.understood import understood_block
from engine.text.formatting import format_date, rule_value
from engine.types import Language, Rule


def compose_response(state: State) -> StageResult:
    language = response_language(state)
    if state.refusal is not None:
        response = compose_refusal(state)
        decision = f"REFUSAL {state.refusal.reason}"
    elif any(r.winner is not None for r in state.resolutions):
        response = _compose_answer(state)
        decision = f"ANSWER: {response['headline']}"
    else:
        extras = {"disclaimer": _disclaimer(_conditional_rules(state), list(state.cards), language)}
        response = compose_conditional(state, extras)
        decision = f"ANSWER: {response['headline']}"
    understood = understood_block(state, language)
    if understood is not None:
        if response["kind"] == "ANSWER":  # every value it states, each with its card
            understood["asks"] = single_ask(replace(state, response=response), language)
        response["understood"] = understood
    return StageResult({"response": response}, decision)


def _conditional_rules(state: State) -> list[Rule]:
    return [rule for r in state.resolutions for rule in r.conditional]


def _pending_rules(state: State) -> list[Rule]:
    """The cited conditional rules of concepts with no winner."""
    waiting = {r.concept for r in state.resolutions if r.winner is None}
    return [rule for rule in cited_conditional_rules(state) if rule.concept in waiting]


def _compose_answer(state: State) -> dict[str, Any]:
    response = base_fields(state)
    language: Language = response["language"]
    winners = [r.winner for r in state.resolutions if r.winner is not None]
    lead = winners[0]
    computations = state.computations
    if computations:
        computed = computed_sentence(computations[0], state, language)
        direct = f"{computed} {_validity(computations[0].rule, language, state.question.today)}"
    else:
        direct = " ".join(_statement(rule, language, state) for rule in winners)
    # Members of a family that wait on the asker's data ("What are my 401(k) limits?": the
    # catch-up needs an age) are stated with their condition, as their cards cite them.
    pending = [
        f"{_label(rule, state, language)}: {rule_value(rule, language)} "
        f"({describe(condition_of(state, rule), language)})"
        for rule in _pending_rules(state)
    ]
    if pending and not computations:
        direct = f"{direct} {sentence('; '.join(pending))}"
    if len(direct) > 240:
        shared, own = short_labels([_label(r, state, language) for r in winners])
        parts = [f"{name}: {rule_value(r, language)}" for name, r in zip(own, winners, strict=True)]
        direct = (f"{shared}: " if shared else "") + clip_parts(parts + pending, "; ", 240)
        direct = clip(direct, 240)
    cards = list(state.cards)
    response.update(
        kind="ANSWER",
        headline=clip(
            computed_headline(computations[0], state, language)
            if computations
            else clip_parts(
                [_headline_part(r, state, language) for r in winners]
                + list(dict.fromkeys(_label(r, state, language) for r in _pending_rules(state))),
                " · ",
                120,
            ),
            120,
        ),
        directAnswer=clip(direct, 240),
        keyDetails=_family_details(winners, state, language)
        if len(winners) > 1
        else _key_details(lead, state, language, cards),
        why={"bullets": _why(winners, state, language)},
        **citation_blocks(cards),
        confidence=answer_confidence(state, language),
        obligationContext=_obligation(lead, language),
        disclaimer=_disclaimer(winners, cards, language),
    )
    if computations:
        block = obligation_block(computations[0], direct, language)
        if block is not None:
            response["obligationContext"] = block
        if state.question.surface == "APP":
            response["clientContext"] = client_context(computations, state, language)
    remembered = remembered_used(winners, state, language)
    if remembered and state.question.surface == "APP":
        block = response.get("clientContext") or {
            "used": [],
            "completeness": {"status": "COMPLETE", "score": 1.0},
        }
        response["clientContext"] = {**block, "used": [*block["used"], *remembered]}
    conflict = _conflict(state.resolutions, state, language)
    if conflict:
        response["conflict"] = conflict
        response["why"] = {
            "bullets": recorded_why(response["why"]["bullets"], conflict, state, language)
        }
    missing = [s for s in state.selections if s.missing_context]
    if missing:
        fields = sorted({f for s in missing for f in s.missing_fields})
        count = sum(len(s.missing_context) for s in missing)
        response["missingContext"] = {
            "ruleCount": count,
            "message": tpl.MISSING_CONTEXT[language].format(count=count, fields=", ".join(fields)),
        }
    return response


def _label(rule: Rule, state: State, language: Language) -> str:
    return concept_label(state, rule.concept, language)


def _headline_part(rule: Rule, state: State, language: Language) -> str:
    if _worded(rule, language):
        return rule.title[language]
    return f"{_label(rule, state, language)}: {rule_value(rule, language)}"


def _worded(rule: Rule, language: Language) -> bool:
    """A value that is a phrase quoted from the source (in the source's language) is given in
    the rule's own statement in the asker's language ("PDV se plaća do zadnjeg dana …")."""
    return rule.value_type == "text" and bool(rule.title.get(language))


def _statement(rule: Rule, language: Language, state: State) -> str:
    attribute = _attribute(state)
    if attribute in ("since", "until"):
        return sentence(_dates_statement(rule, attribute, language, state))
    if _worded(rule, language):
        return f"{sentence(rule.title[language])} {_validity(rule, language, state.question.today)}"
    numeric = rule.value_type not in ("date", "text", "boolean")
    template = (tpl.ANSWER_NUMERIC if numeric else tpl.ANSWER_OTHER)[language]
    stated = template.format(label=_label(rule, state, language), value=rule_value(rule, language))
    return f"{stated} {_validity(rule, language, state.question.today)}"


def _attribute(state: State) -> str:
    frame = state.matching.frame if state.matching is not None else None
    return frame.reading.attribute if frame is not None else "any"


def _dates_statement(rule: Rule, attribute: str, language: Language, state: State) -> str:
    """ "Since when is the rate 10 %?": the value with the date it took effect (or ended)."""
    label, value = _label(rule, state, language), rule_value(rule, language)
    start = format_date(rule.effective_from, language)
    if attribute == "until" and rule.effective_until is None:
        return phrases.NO_END[language].format(label=label, value=value, start=start)
    if attribute == "until" and rule.effective_until is not None:
        end = format_date(rule.effective_until - timedelta(days=1), language)
        return phrases.UNTIL[language].format(label=label, value=value, end=end)
    return phrases.SINCE[language].format(label=label, value=value, start=start)


def _family_details(rules: list[Rule], state: State, language: Language) -> list[str]:
    """One line per member of a family answer: its value and the dates it is in force."""
    return [
        clip(
            f"{_label(r, state, language)}: {rule_value(r, language)} — "
            f"{_validity(r, language, state.question.today)}",
            120,
        )
        for r in rules[:3]
    ]


def _validity(rule: Rule, language: Language, today: date) -> str:
    start = format_date(rule.effective_from, language)
    if rule.effective_until is None:
        return sentence(tpl.IN_FORCE_OPEN[language].format(start=start))
    end = format_date(rule.effective_until - timedelta(days=1), language)
    ended = rule.effective_until <= today
    template = tpl.IN_FORCE_ENDED if ended else tpl.IN_FORCE_UNTIL
    return sentence(template[language].format(start=start, end=end))


def _key_details(
    rule: Rule, state: State, language: Language, cards: list[Mapping[str, Any]]
) -> list[str]:
    assert state.as_of is not None
    as_of = sentence(tpl.AS_OF[language].format(date=format_date(state.as_of, language)))
    if freshness(rule, state.as_of) is Freshness.BEYOND_VERIFIED and rule.verified_as_of:
        verified = format_date(rule.verified_as_of, language)
        as_of = sentence(tpl.VERIFIED_UNTIL[language].format(date=verified))
    return [
        clip(_validity(rule, language, state.question.today), 120),
        clip(tpl.SOURCE[language].format(reference=cards[0].get("reference", "")), 120),
        clip(as_of, 120),
    ]


def _why(rules: list[Rule], state: State, language: Language) -> list[str]:
    """The rules' explanations, after who confirmed the value and when and what the sources
    themselves cannot vouch for (a concept's caveat): those come first so none is left out."""
    bullets: list[str] = []
    total = 0
    explanations = (
        rule.explanation.get(language) or rule.explanation.get("en", "") for rule in rules
    )
    for text in (*_caveats(rules, state, language), *(clip(t, 140) for t in explanations)):
        if text and total + len(text) <= 700 and len(bullets) < 5:
            bullets.append(text)
            total += len(text)
    return bullets


def _caveats(rules: list[Rule], state: State, language: Language) -> list[str]:
    found: dict[str, None] = {}
    for slug in dict.fromkeys(rule.concept for rule in rules):
        concept = state.snapshot.concepts.get(slug)
        caveat = concept.caveat.get(language) if concept is not None else None
        if not caveat:
            continue
        agreeing = [r for res in state.resolutions if res.concept == slug for r in res.agreeing]
        stating = [*(rule for rule in rules if rule.concept == slug), *agreeing]
        newest = max(rule.verified_as_of or rule.effective_from for rule in stating)
        confirmed = tpl.CONFIRMED_BY[language].format(
            sources=publisher_names(state.snapshot, stating, language),
            date=format_date(newest, language),
        )
        found[clip(sentence(confirmed), 140)] = None
        found[clip(caveat, 140)] = None  # a pack's caveat is written to fit
    return list(found)


def _obligation(rule: Rule, language: Language) -> dict[str, Any]:
    level = {"high": "high", "medium": "medium", "low": "low"}[rule.risk_tier]
    if rule.obligation_type == "INFORMATIONAL":
        level = "none"
    return {
        "type": rule.obligation_type,
        "badge": {"text": tpl.OBLIGATION_BADGE[rule.obligation_type][language], "level": level},
    }


def _disclaimer(
    rules: list[Rule], cards: list[Mapping[str, Any]], language: Language
) -> dict[str, Any]:
    practice_only = all(c["authority"] == "PRACTICE" for c in cards)
    short = tpl.PRACTICE_ONLY[language] if practice_only else tpl.DISCLAIMER_SHORT[language]
    high = any(r.risk_tier == "high" for r in rules)
    return {
        "short": short,
        "expanded": tpl.DISCLAIMER_EXPANDED[language],
        "highRiskWarning": tpl.HIGH_RISK[language] if high else None,
    }


def _conflict(
    resolutions: tuple[Resolution, ...], state: State, language: Language
) -> dict[str, Any] | None:
    decided = next((r for r in resolutions if r.losers and r.winner is not None), None)
    if decided is None or decided.winner is None or decided.how is None:
        return None
    if decided.record is not None:  # settled on the record: engine/pipeline/recorded.py
        return recorded_conflict(decided, state, language)
    sides = [decided.winner, *decided.losers]
    cards = [
        card
        for rule in sides
        if rule.pointers
        and (
            card := source_card(
                rule,
                rule.pointers[0].evidence_id,
                excerpt(rule.pointers[0].quote, rule),
                state.snapshot,
                card_dates(state),
            )
        )
        is not None
    ]
    if not cards or cards[0]["id"].split("@")[0] != decided.winner.id:
        return None
    return {
        "status": "RESOLVED",
        "resolvedAt": state.as_of.isoformat() if state.as_of else None,
        "description": clip(
            tpl.RESOLVED[language].format(
                winner=cards[0]["title"], how=tpl.HOW[decided.how][language]
            ),
            240,
        ),
        "sources": cards,
        "winningSourceId": cards[0]["id"],
    }
