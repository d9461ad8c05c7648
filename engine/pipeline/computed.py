"""Render computed results: the sentence that states them, the obligation they imply, and on
the APP surface the client-context block naming the data used and the computed value."""

from __future__ import annotations

from typing import Any

from engine.pipeline import phrases
from engine.pipeline import templates as tpl
from engine.pipeline.render import clip, concept_label, sentence
from engine.pipeline.state import Computation, State
from engine.pipeline.understood import fact_value
from engine.text.formatting import format_date, rule_value
from engine.types import Language


def computed_sentence(computation: Computation, state: State, language: Language) -> str:
    """What the computation found, in one or two sentences, naming the values it used."""
    rule = computation.rule
    if computation.kind == "date_from_age":
        assert computation.support is not None and computation.derived is not None
        age_rule = computation.support
        if computation.derived_late is not None:
            return phrases.DATE_FROM_AGE_EITHER[language].format(
                label=concept_label(state, rule.concept, language),
                date=format_date(computation.derived, language),
                late=format_date(computation.derived_late, language),
                now=computation.fact.value,
                age_label=in_sentence(concept_label(state, age_rule.concept, language)),
                age=rule_value(age_rule, language),
            )
        return phrases.DATE_FROM_AGE[language].format(
            label=concept_label(state, rule.concept, language),
            date=format_date(computation.derived, language),
            year=computation.fact.value,
            age_label=in_sentence(concept_label(state, age_rule.concept, language)),
            age=rule_value(age_rule, language),
        )
    noun = phrases.FACT_NOUNS.get(computation.fact.name, phrases.FACT_NOUNS["turnover"])
    comparison = phrases.THRESHOLD[computation.above][language].format(
        fact=noun[language],
        amount=fact_value(computation.fact, language),
        label=in_sentence(concept_label(state, rule.concept, language)),
        limit=rule_value(rule, language),
    )
    if computation.kind == "decided":
        assert computation.decided is not None
        winner = next(r.winner for r in state.resolutions if r.concept == computation.decided)
        assert winner is not None
        decided = phrases.DECIDED[language].format(
            decided=in_sentence(concept_label(state, computation.decided, language)),
            value=rule_value(winner, language),
        )
        return f"{comparison} {decided}"
    outcome = phrases.OUTCOME.get(computation.obligation or "")
    return f"{comparison} {outcome[language]}" if outcome is not None else comparison


def computed_headline(computation: Computation, state: State, language: Language) -> str:
    """The answer in a line: the computed date, the member that applies, or the threshold
    with the obligation on the asker's side."""
    rule = computation.rule
    if computation.derived is not None:
        label = concept_label(state, rule.concept, language)
        return f"{label}: {format_date(computation.derived, language)}"
    if computation.decided is not None:
        winner = next(r.winner for r in state.resolutions if r.concept == computation.decided)
        assert winner is not None
        return (
            f"{concept_label(state, computation.decided, language)}: {rule_value(winner, language)}"
        )
    headline = f"{concept_label(state, rule.concept, language)}: {rule_value(rule, language)}"
    if computation.obligation is not None:
        headline += f" · {tpl.OBLIGATION_BADGE[computation.obligation][language]}"
    return headline


def obligation_block(
    computation: Computation, text: str, language: Language
) -> dict[str, Any] | None:
    if computation.obligation is None:
        return None
    level = "high" if computation.obligation == "OBLIGATION" else "none"
    return {
        "type": computation.obligation,
        "badge": {"text": tpl.OBLIGATION_BADGE[computation.obligation][language], "level": level},
        "clarification": clip(text, 240),
    }


def client_context(
    computations: tuple[Computation, ...], state: State, language: Language
) -> dict[str, Any]:
    """APP only: the stated facts the computation used, and what it computed."""
    assert state.as_of is not None
    used = [_used(computation, state, language) for computation in computations]
    lead = computations[0]
    text = computed_sentence(lead, state, language)
    value = (
        format_date(lead.derived, language)
        if lead.derived is not None
        else tpl.OBLIGATION_BADGE[lead.obligation][language]
        if lead.obligation is not None
        else concept_label(state, lead.decided or lead.concept, language)
    )
    return {
        "used": used,
        "completeness": {"status": "COMPLETE", "score": 1.0},
        "computedResult": {
            "label": clip(concept_label(state, lead.concept, language), 120),
            "value": clip(value, 120),
            "explanation": clip(sentence(text), 240),
        },
    }


def in_sentence(label: str) -> str:
    """A label inside a sentence: its first letter lowered, unless it opens an acronym
    ("RMD required beginning age" stays as it is)."""
    return label if label[:2].isupper() else label[:1].lower() + label[1:]


def _used(computation: Computation, state: State, language: Language) -> dict[str, Any]:
    """The fact a computation used, with where it came from: the question, the request's
    clientContext, or what the conversation remembered (how and when it was learnt)."""
    assert state.as_of is not None
    fact = computation.fact
    source, on = "question", state.as_of.isoformat()
    if fact.words == "clientContext":
        remembered = state.question.remembered.get(fact.name)
        if fact.name not in state.question.client_context and remembered is not None:
            source, on = remembered.source, remembered.on.isoformat()
        else:
            source = "clientContext"
    return {
        "label": fact.name,
        "value": fact_value(fact, language),
        "source": source,
        "asOfDate": on,
    }
