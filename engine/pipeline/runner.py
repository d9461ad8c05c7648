"""Fold the stages over the request state.

Each stage is a pure function State -> StageResult (what it changed and why). Once a stage
decides a refusal, the deciding stages are skipped and the finishing ones (citations, compose)
still run, so a refusal is rendered, and cited where the contract requires it, like any answer.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.evolve import evolve
from engine.pipeline.analyse import analyse_question
from engine.pipeline.as_of import choose_as_of_date
from engine.pipeline.citations import build_citations
from engine.pipeline.classify import classify_topic
from engine.pipeline.compose import compose_response
from engine.pipeline.compute import compute_results
from engine.pipeline.conflicts import resolve_conflicts
from engine.pipeline.match import match_concepts
from engine.pipeline.select import select_rules_in_force
from engine.pipeline.state import StageResult, State, TraceEntry
from engine.pipeline.typos import correct_typos
from engine.snapshot import Snapshot
from engine.types import Question

Stage = Callable[[State], StageResult]

# (name, stage, runs even after a refusal was decided)
STAGES: tuple[tuple[str, Stage, bool], ...] = (
    ("analyse", analyse_question, True),
    ("as_of", choose_as_of_date, True),
    ("typos", correct_typos, True),
    ("classify", classify_topic, False),
    ("match", match_concepts, False),
    ("select", select_rules_in_force, False),
    ("conflicts", resolve_conflicts, False),
    ("compute", compute_results, False),
    ("citations", build_citations, True),
    ("compose", compose_response, True),
)


# A message is read once (engine/flow/reading.py): the stages up to classification, then the
# match; triage decides on that reading whether the rules are asked at all, and the answer
# resumes after the match (or, with concepts pinned by an FAQ, at the match).
TRIAGE_STAGES = STAGES[:4]
MATCH_STAGES = STAGES[4:5]
ANSWER_STAGES = STAGES[5:]


def run_pipeline(question: Question, snapshot: Snapshot) -> State:
    """Answer one question from one snapshot. Deterministic: no clock, no I/O."""
    return run_stages(State(question=question, snapshot=snapshot), STAGES)


def run_stages(state: State, stages: tuple[tuple[str, Stage, bool], ...]) -> State:
    """Fold `stages` over `state`: a part of the pipeline, resumable where it stopped."""
    for name, stage, always in stages:
        if state.refusal is not None and not always:
            state = evolve(state, trace=(*state.trace, TraceEntry(name, "skipped")))
            continue
        result = stage(state)
        entry = TraceEntry(name, result.decision, result.details)
        state = evolve(state, **result.changes, trace=(*state.trace, entry))
    return state
