"""The turn's runner: the steps in order, folded over the turn.

The guardrail and triage steps (engine/guardrails/steps.py) and the conversation's steps
(engine/dossier/steps.py) share one shape, `Step` (engine/flow/turn.py); STEPS puts them in
order. The message is read once, right after the input guardrail (engine/flow/reading.py):
every step after it takes that reading. Once a step settles the response, the deciding steps
after it are skipped and only the checks that guard every response still run.
"""

from __future__ import annotations

from engine.dossier.steps import conversation_step, followup_step, told_step
from engine.evolve import evolve
from engine.flow.reading import read_step
from engine.flow.turn import Settings, Step, Turn
from engine.guardrails.steps import (
    answer_pipeline,
    input_guardrail,
    output_guardrail,
    tone_check,
    triage_faq,
    triage_intent,
    triage_relevance,
)

# (name, step, runs even when an earlier step settled the response)
STEPS: tuple[tuple[str, Step, bool], ...] = (
    ("input_guardrail", input_guardrail, True),
    ("read", read_step, False),
    ("conversation", conversation_step, False),
    ("followup", followup_step, False),
    ("told", told_step, False),
    ("relevance", triage_relevance, False),
    ("faq", triage_faq, False),
    ("intent", triage_intent, False),
    ("pipeline", answer_pipeline, False),
    ("output_guardrail", output_guardrail, True),
    ("tone", tone_check, True),
)


def run_turn(
    turn: Turn, settings: Settings, steps: tuple[tuple[str, Step, bool], ...] = STEPS
) -> Turn:
    """Fold `steps` over the turn; once one settles the response, only the guards still run."""
    for name, step, always in steps:
        if turn.early and not always:
            turn = evolve(turn, log=(*turn.log, f"{name}: SKIPPED"))
            continue
        result = step(turn, settings)
        turn = evolve(turn, **result.changes, log=(*turn.log, result.log))
    return turn
