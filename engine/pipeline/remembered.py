"""Which facts the conversation remembered decided an answer (issue 11): shown in
`clientContext.used` with how and when the asker gave them, so a fact given once is visibly
reused, never silently assumed."""

from __future__ import annotations

from typing import Any

from engine.conditions import fields_of
from engine.pipeline.conditional import condition_of, field_label
from engine.pipeline.state import State
from engine.types import Language, Rule


def remembered_used(winners: list[Rule], state: State, language: Language) -> list[dict[str, Any]]:
    """A data point per remembered fact a winning rule's condition reads, unless the question
    or the request stated that fact again (then that statement is what was used)."""
    assert state.analysis is not None
    remembered = state.question.remembered
    restated = set(state.analysis.facts) | set(state.question.client_context)
    fields = sorted({f for rule in winners for f in fields_of(condition_of(state, rule))})
    return [
        {
            "label": field_label(field, language),
            "value": remembered[field].value,
            "source": remembered[field].source,
            "asOfDate": remembered[field].on.isoformat(),
        }
        for field in fields
        if field in remembered and field not in restated
    ]


def remembered_in(state: State) -> dict[str, Any]:
    """The remembered facts this answer rests on, by field: those a rule in play reads (its
    condition) and the amounts a computation compared, unless the question said them again."""
    if state.analysis is None or not state.question.remembered:
        return {}
    remembered = state.question.remembered
    restated = set(state.analysis.facts) | set(state.question.client_context)
    rules = [r.winner for r in state.resolutions if r.winner is not None]
    rules += [rule for r in state.resolutions for rule in r.conditional]
    fields = {f for rule in rules for f in fields_of(condition_of(state, rule))}
    for computation in state.computations:
        if computation.fact.words == "clientContext":
            fields |= {f for f in remembered if f.startswith(f"annual_{computation.fact.name}")}
            fields.add(computation.fact.name)
    return {f: remembered[f] for f in sorted(fields) if f in remembered and f not in restated}
