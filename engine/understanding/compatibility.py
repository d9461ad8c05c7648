"""What a concept's value answers, and which asked attributes it may answer.

A question asking *when* is never answered by a percentage, *how much* never by a date, *who*
or *how* never by a value unless the concept says it answers exactly that. "Since when" and
"until when" are answered by any value with the dates it is in force.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.types import AnswerKind, Concept, Rule, ValueType
from engine.understanding.frame import Attribute

_BY_VALUE_TYPE: Mapping[ValueType, AnswerKind] = {
    "percentage": "rate",
    "currency_eur": "amount",
    "currency_usd": "amount",
    "integer": "amount",
    "years": "age",
    "date": "date",
    "boolean": "yes_no",
    "text": "text",
}
_ANY: frozenset[AnswerKind] = frozenset(_BY_VALUE_TYPE.values()) | {"deadline", "duration"}
COMPATIBLE: Mapping[Attribute, frozenset[AnswerKind]] = {
    "rate": frozenset({"rate"}),
    "amount": frozenset({"amount"}),
    # "how much" asks an amount or a rate; an age is asked "how old" or "at what age"
    "magnitude": frozenset({"rate", "amount", "duration"}),
    "date": frozenset({"date", "deadline", "age"}),  # "when can I get Medicare?": at 65
    "deadline": frozenset({"deadline", "date"}),
    "since": _ANY | {"who", "how"},
    "until": _ANY | {"who", "how"},
    "age": frozenset({"age"}),
    "duration": frozenset({"duration"}),
    # "do I have to": a duty, or when it falls ("moram li predati DOH", "do I need RMDs")
    "obligation": frozenset({"yes_no", "deadline", "date", "age"}),
    "who": frozenset({"who"}),
    "how": frozenset({"how"}),
    "why": frozenset(),
    "any": _ANY | {"who", "how"},
}


def answer_kinds(concept: Concept, rules: Iterable[Rule]) -> frozenset[AnswerKind]:
    """The pack's `answers`, else the kinds of its rules' values; a concept with a threshold or
    an obligation also answers "do I have to"."""
    rules = tuple(rules)
    kinds = set(concept.answers) or {_BY_VALUE_TYPE[rule.value_type] for rule in rules}
    if concept.threshold is not None or any(r.obligation_type == "OBLIGATION" for r in rules):
        kinds.add("yes_no")
    return frozenset(kinds)


def answers(kinds: frozenset[AnswerKind], attributes: Iterable[Attribute]) -> bool:
    """Whether a concept whose value answers `kinds` answers any attribute the question asks
    ("do kojeg iznosa ... po nižoj stopi" asks an amount and names a rate)."""
    return any(kinds & COMPATIBLE[attribute] for attribute in attributes)
