"""Compose an answer whose rules depend on client data the public surface does not carry.

"What is the full retirement age?" on the MARKETING surface has no birth year to decide with,
so Navod gives each rule with its condition spelled out ("67 years (year of birth ≥ 1960)")
and says which data would make the answer exact. Every rule shown is cited.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from engine.conditions import All, Any_, Between, Cmp, Cond, Const, Exists, In, Not, fields_of
from engine.pipeline import phrases
from engine.pipeline import templates as tpl
from engine.pipeline.render import base_fields, citation_blocks, clip, concept_label, sentence
from engine.pipeline.state import State
from engine.text.formatting import format_number, rule_value
from engine.text.numbers import decimal_value
from engine.types import Language, Rule

_SYMBOLS = {"eq": "=", "neq": "≠", "gt": ">", "gte": "≥", "lt": "<", "lte": "≤"}


def compose_conditional(state: State, extras: dict[str, Any]) -> dict[str, Any]:
    """The ANSWER for the first concept whose rules all wait on client data."""
    response = base_fields(state)
    language: Language = response["language"]
    resolutions = [r for r in state.resolutions if r.conditional]
    rules = cited_conditional_rules(state)
    several = len({rule.concept for rule in rules}) > 1  # a family: each row names its member
    label = " / ".join(
        dict.fromkeys(concept_label(state, r.concept, language) for r in resolutions)
    )
    fields = sorted({f for r in rules for f in fields_of(condition_of(state, r))})
    names = ", ".join(field_label(f, language) for f in fields)
    parts = list(
        dict.fromkeys(  # two sources stating one row are one row
            (f"{concept_label(state, rule.concept, language)}: " if several else "")
            + f"{rule_value(rule, language)} ({describe(condition_of(state, rule), language)})"
            for rule in rules
        )
    )
    cards = list(state.cards)
    response.update(
        kind="ANSWER",
        headline=_headline(label, names, () if several else rules, language),
        directAnswer=clip(sentence(("" if several else f"{label}: ") + "; ".join(parts)), 240),
        keyDetails=[clip(part, 120) for part in parts[:3]],
        **citation_blocks(cards),
        obligationContext={
            "type": "CONDITIONAL",
            "badge": {"text": tpl.OBLIGATION_BADGE["CONDITIONAL"][language], "level": "medium"},
            "clarification": clip(tpl.PROVIDE[language].format(fields=names), 240),
        },
        nextStep=clip(tpl.PROVIDE[language].format(fields=names), 100),
        **extras,
    )
    return response


def _headline(label: str, fields: str, rules: tuple[Rule, ...], language: Language) -> str:
    """The values a reader may find in the rows, when a few fit the headline ("73 or 75
    years, depending on year of birth"); otherwise what they depend on."""
    sizes = [decimal_value(rule.value) for rule in rules]
    numbered = [(size, rule) for size, rule in zip(sizes, rules, strict=True) if size is not None]
    ordered = [rule for _, rule in sorted(numbered, key=lambda pair: pair[0])]
    values = list(
        dict.fromkeys(rule_value(r, language) for r in (ordered if None not in sizes else rules))
    )
    if 1 < len(values) <= 3:
        joined = tpl.CONNECTIVES["or"][language].join([", ".join(values[:-1]), values[-1]])
        line = tpl.CONDITIONAL_VALUES_HEADLINE[language].format(
            label=label, values=joined, fields=fields
        )
        if len(line) <= 120:
            return line
    return clip(tpl.CONDITIONAL_HEADLINE[language].format(label=label, fields=fields), 120)


def cited_conditional_rules(state: State) -> tuple[Rule, ...]:
    """The rules that wait on client data and that a card cites. Only values a card cites
    are stated: with more conditional rules than cards (at most four), the rest wait for the
    asker's data rather than appear without their source."""
    cited = {str(card["id"]).split("@")[0] for card in state.cards}
    return tuple(rule for r in state.resolutions for rule in r.conditional if rule.id in cited)


def describe(cond: Cond, language: Language) -> str:
    """A condition in words a reader can check against their own situation."""
    words = tpl.CONNECTIVES
    match cond:
        case Const(value):
            return "" if value else words["not"][language].strip()
        case All(parts):
            return words["and"][language].join(describe(p, language) for p in parts)
        case Any_(parts):
            # "birth year not given, or 1951–1959": as a row among the others it is the latter
            said = [p for p in parts if not (isinstance(p, Not) and isinstance(p.part, Exists))]
            return words["or"][language].join(describe(p, language) for p in said or parts)
        case Not(part):
            return words["not"][language] + describe(part, language)
        case Cmp(field, "eq", bool(value)):  # "članstvo u drugom stupu: da"
            return f"{field_label(field, language)}: {phrases.YES_NO[value][language]}"
        case Cmp(field, "eq", str(value)):  # "oblik djelatnosti: paušalni obrt"
            return f"{field_label(field, language)}: {_worded(value, language)}"
        case Cmp(field, op, value):
            return f"{field_label(field, language)} {_SYMBOLS[op]} {_worded(value, language)}"
        case Between(field, low, high):
            low_high = f"{_worded(low, language)}–{_worded(high, language)}"
            return f"{field_label(field, language)} {low_high}"
        case In(field, values):
            named = ", ".join(_worded(v, language) for v in values)
            return f"{field_label(field, language)}: {named}"
        case Exists(field):
            return f"{field_label(field, language)} {words['exists'][language]}"
    return ""  # pragma: no cover  (every condition type is handled above)


def _worded(value: object, language: Language) -> str:
    """A condition's value as the reader writes it: a kind of business or place in words
    ("paušalni obrt", not "pausalni_obrt"), an amount in the language's notation (30.526,25),
    a year as written, a city by its name."""
    if isinstance(value, str):
        words = phrases.ENTITIES.get(value) or phrases.PLACES.get(value)
        return words[language] if words else value.title()
    if isinstance(value, bool):
        return phrases.YES_NO[value][language]
    if isinstance(value, int) and 1900 <= value <= 2100:
        return str(value)  # a year: no thousands separator
    if isinstance(value, int | float | Decimal):
        return format_number(Decimal(str(value)), language)
    return str(value)


def field_label(field: str, language: Language) -> str:
    labels = tpl.FIELD_LABELS.get(field)
    return labels[language] if labels else field.replace("_", " ")


def condition_of(state: State, rule: Rule) -> Cond:
    condition = state.snapshot.conditions.get(rule.id)
    return condition if condition is not None else Const(True)
