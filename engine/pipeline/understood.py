"""The `understood` block: the question's frame as the response shows it, with one readable
line in the question's language ("Understood: Croatian VAT registration threshold · as of
24.11.2026 · your turnover 45.000,00 EUR")."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal
from typing import Any

from engine.pipeline import phrases
from engine.pipeline.remembered import remembered_in
from engine.pipeline.render import clip, concept_label
from engine.pipeline.state import State
from engine.text.formatting import format_date, format_number
from engine.text.normalize import as_written
from engine.types import Language
from engine.understanding.claims import Claim
from engine.understanding.frame import Fact, Frame, Reading

LINE_LIMIT = 240


def statement_block(reading: Reading, as_of: date, language: Language) -> dict[str, Any]:
    """The frame of a message that only tells about the asker: what was understood of it."""
    facts = [*reading.facts, *reading.amounts]
    parts = [fact_text(f, language) for f in facts]
    if reading.unusable:
        parts.append(unusable_text(reading, language))
    block = {
        "text": clip(phrases.UNDERSTOOD[language].format(parts=" · ".join(parts)), LINE_LIMIT),
        "subject": [],
        "attribute": reading.attribute,
        "asOfDate": as_of.isoformat(),
        "facts": [_fact_wire(f) for f in facts],
    }
    return {**block, **unusable_block(reading)}


def unusable_text(reading: Reading, language: Language) -> str:
    """What the message stated with a number Navod does not use (engine/bounds.py)."""
    words = ", ".join(f.words for f in reading.unusable)
    return phrases.UNUSABLE[language].format(words=clip(words, 80))


def unusable_block(reading: Reading) -> dict[str, Any]:
    """`understood.unusable`: each fact stated with a number outside its domain, by name and
    words, so a client can show what was set aside; no value (it is no usable number)."""
    if not reading.unusable:
        return {}
    return {"unusable": [{"name": f.name, "words": f.words} for f in reading.unusable]}


def understood_block(state: State, language: Language) -> dict[str, Any] | None:
    """The frame of a pipeline response, or None when the question never reached the match."""
    frame = state.matching.frame if state.matching is not None else None
    if frame is None or state.as_of is None:
        return None
    reading = frame.reading
    answered = tuple(r.concept for r in state.resolutions)
    if answered and state.refusal is None:  # a stated fact may have chosen a sibling
        frame = replace(frame, subject=answered)
    block: dict[str, Any] = {
        "text": clip(_line(state, frame, language), LINE_LIMIT),
        "subject": list(frame.subject),
        "attribute": reading.attribute,
        "asOfDate": state.as_of.isoformat(),
    }
    if frame.family:
        block["family"] = frame.family
    if frame.jurisdiction:
        block["jurisdiction"] = frame.jurisdiction
    if reading.qualifiers:
        block["qualifiers"] = [
            {"kind": q.kind, "value": q.value, "words": q.words} for q in reading.qualifiers
        ]
    facts = [*reading.facts, *reading.amounts]
    if facts:
        block["facts"] = [_fact_wire(f) for f in facts]
    if reading.time is not None:
        time = reading.time
        block["time"] = {"kind": time.kind, "from": time.start.isoformat(), "words": time.words}
        if time.end is not None:
            block["time"]["until"] = time.end.isoformat()
    if state.computations:  # which cited facts a computed result rests on, besides the answer
        block["computed"] = [
            {
                "kind": c.kind,
                "concept": c.concept,
                "uses": sorted({c.rule.concept, *((c.support.concept,) if c.support else ())}),
            }
            for c in state.computations
        ]
    corrected = _corrected(state)
    if corrected:  # a stated fact differing from an earlier one: this answer used the new one
        block["corrected"] = corrected
    earlier = remembered_in(state)
    if earlier:  # what the conversation remembered and this answer used (issue 11)
        block["remembered"] = [
            {"name": name, "value": fact.value, "source": fact.source, "on": fact.on.isoformat()}
            for name, fact in earlier.items()
        ]
    block.update(unusable_block(reading))
    if reading.claims:
        block["claims"] = [
            {"words": as_written(state.question.text, [c.words])[0], "verdict": verdict}
            for c, verdict in _claim_verdicts(state, reading)
        ]
    if frame.unexplained:
        block["unexplained"] = as_written(state.question.text, frame.unexplained)
    if frame.uncovered:
        block["uncovered"] = as_written(state.question.text, [q.words for q in frame.uncovered])
    return block


def _line(state: State, frame: Frame, language: Language) -> str:
    reading = frame.reading
    labels = list(dict.fromkeys(concept_label(state, slug, language) for slug in frame.subject))
    parts = [" + ".join(labels) if labels else phrases.NOTHING[language]]
    if (reading.attribute in phrases.ATTRIBUTES and not labels) or reading.attribute in (
        "since",
        "until",
        "obligation",
        "who",
        "how",
        "why",
    ):
        parts.append(phrases.ATTRIBUTES[reading.attribute][language])
    assert state.as_of is not None
    parts.append(phrases.AS_OF[language].format(date=format_date(state.as_of, language)))
    parts += [_fact_part(f, language) for f in (*reading.facts, *reading.amounts)]
    if reading.unusable:
        parts.append(unusable_text(reading, language))
    for claim, verdict in _claim_verdicts(state, reading):
        words = clip(as_written(state.question.text, [claim.words])[0].rstrip(".,;:"), 60)
        parts.append(phrases.CLAIM[verdict][language].format(words=words))
    # a stated turnover that also stands for receipts is one correction, said once
    parts += dict.fromkeys(
        phrases.CORRECTED[language].format(
            value=_field_value(c["name"], c["value"], language),
            was=_field_value(c["name"], c["was"], language),
        )
        for c in _corrected(state)
    )
    written = state.question.text
    context = as_written(written, [q.words for q in reading.qualifiers if q not in frame.uncovered])
    if context and not labels:
        parts.append(phrases.ABOUT[language].format(words=", ".join(context)))
    missing = as_written(written, [*frame.unexplained, *(q.words for q in frame.uncovered)])
    if missing:
        parts.append(phrases.NOT_UNDERSTOOD[language].format(words=", ".join(missing)))
    return phrases.UNDERSTOOD[language].format(parts=" · ".join(parts))


def _claim_verdicts(state: State, reading: Reading) -> list[tuple[Claim, str]]:
    """Each claim about a rule beside the values this answer cites: it agrees when one of
    them is its number, differs when none is; unchecked when nothing was cited."""
    cited: set[Decimal] = set()
    for resolution in state.resolutions if state.refusal is None else ():
        rules = (resolution.winner, *resolution.agreeing, *resolution.conditional)
        cited |= {number for rule in rules if rule and (number := _number(rule.value))}
    return [
        (claim, "unchecked" if not cited else "agrees" if claim.value in cited else "differs")
        for claim in reading.claims
    ]


def _number(value: str) -> Decimal | None:
    try:
        return Decimal(value)
    except ArithmeticError:  # a phrase ("66 and 2 months"), not a number
        return None


def _fact_part(fact: Fact, language: Language) -> str:
    text = fact_text(fact, language)
    return text if fact.own else f"{text} ({phrases.SUPPOSED[language]})"


def _corrected(state: State) -> list[dict[str, Any]]:
    """The facts the question states that differ from what the conversation remembered."""
    if state.analysis is None:
        return []
    remembered = state.question.remembered
    return [
        {"name": name, "value": _plain(value), "was": _plain(remembered[name].value)}
        for name, value in sorted(state.analysis.facts.items())
        if name in remembered and _plain(remembered[name].value) != _plain(value)
    ]


def _field_value(field: str, value: object, language: Language) -> str:
    """A condition field's value as the answer writes it: an amount ("annual_turnover_eur")
    in the language's notation with its currency, anything else as it is."""
    currency = field.rsplit("_", 1)[-1].upper()
    if (
        currency in ("EUR", "USD", "HRK")
        and isinstance(value, int | str)
        and not isinstance(value, bool)
    ):
        try:
            return f"{format_number(Decimal(value), language, 2)} {currency}"
        except ArithmeticError:
            return str(value)
    return str(value)


def _plain(value: object) -> Any:
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else str(value)
    return value


def fact_text(fact: Fact, language: Language) -> str:
    template = phrases.FACTS.get(fact.name, phrases.FACTS["amount"])[language]
    text = template.format(value=fact_value(fact, language))
    if fact.period == "last_year":
        text += f" ({phrases.LAST_YEAR[language]})"
    return text


def fact_value(fact: Fact, language: Language) -> str:
    """A stated fact's value as the answer writes it (amounts in the language's notation)."""
    value = fact.value
    if isinstance(value, bool):
        return phrases.YES_NO[value][language]
    if isinstance(value, Decimal):
        number = format_number(value, language, 2 if fact.unit else 0)
        return f"{number} {fact.unit}".strip()
    if isinstance(value, date):
        return format_date(value, language)
    if fact.name == "municipality_type" and str(value) in phrases.PLACES:
        return phrases.PLACES[str(value)][language]
    if fact.name in ("health_coverage", "housing_plan") and str(value) in phrases.PLAN_WORDS:
        return phrases.PLAN_WORDS[str(value)][language]
    if fact.name == "state_of_residence":
        return str(value).title()
    if fact.name == "entity_type" and str(value) in phrases.ENTITIES:
        return phrases.ENTITIES[str(value)][language]
    return str(value)


def _fact_wire(fact: Fact) -> dict[str, Any]:
    value = fact.value
    shown: Any = str(value) if isinstance(value, Decimal | date) else value
    wire: dict[str, Any] = {"name": fact.name, "value": shown, "words": fact.words}
    if fact.unit:
        wire["unit"] = fact.unit
    if fact.period:
        wire["period"] = fact.period
    if fact.bound:
        wire["bound"] = fact.bound
    if not fact.own:
        wire["own"] = False  # supposed, or someone else's: not kept as the asker's
    return wire
