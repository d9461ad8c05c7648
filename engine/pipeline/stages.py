"""How stages are folded over the request state (engine/pipeline/runner.py lists them).

Each stage is a pure function State -> StageResult (what it changed and why). Once a stage
decides a refusal, the deciding stages are skipped and the finishing ones still run, so a
refusal is rendered, and cited where the contract requires it, like any answer.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.evolve import evolve
from engine.pipeline.state import StageResult, State, TraceEntry

Stage = Callable[[State], StageResult]
Stages = tuple[tuple[str, Stage, bool], ...]  # (name, stage, runs even after a refusal)


def run_stages(state: State, stages: Stages) -> State:
    """Fold `stages` over `state`: a part of the pipeline, resumable where it stopped."""
    for name, stage, always in stages:
        if state.refusal is not None and not always:
            state = evolve(state, trace=(*state.trace, TraceEntry(name, "skipped")))
            continue
        result = stage(state)
        entry = TraceEntry(name, result.decision, result.details)
        state = evolve(state, **result.changes, trace=(*state.trace, entry))
    return state
