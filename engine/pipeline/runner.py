"""The pipeline's stages in order, and the runner that folds them over the request state.

Each stage is a pure function State -> StageResult (what it changed and why), folded by
engine/pipeline/stages.py. Once a stage decides a refusal, the deciding stages are skipped and
the finishing ones (citations, compose) still run, so a refusal is rendered, and cited where
the contract requires it, like any answer. A question that asks several things (a plan of
asks, engine/pipeline/plan.py) is answered ask by ask and composed as one response.
"""

from __future__ import annotations

from collections.abc import Hashable

from engine.evolve import evolve
from engine.pipeline.analyse import analyse_question
from engine.pipeline.as_of import choose_as_of_date
from engine.pipeline.citations import build_citations
from engine.pipeline.classify import classify_topic
from engine.pipeline.compose import compose_response
from engine.pipeline.compute import compute_results
from engine.pipeline.conflicts import resolve_conflicts
from engine.pipeline.joint import compose_plan
from engine.pipeline.match import match_concepts
from engine.pipeline.plan import plan_asks
from engine.pipeline.related import one_click
from engine.pipeline.select import select_rules_in_force
from engine.pipeline.stages import Stage, Stages, run_stages
from engine.pipeline.state import Ask, StageResult, State
from engine.pipeline.typos import correct_typos
from engine.snapshot import Snapshot
from engine.types import Language, Question

__all__ = ["ANSWER_STAGES", "MATCH_STAGES", "STAGES", "TRIAGE_STAGES", "Stage", "answer_matched",
           "run_pipeline", "run_stages"]  # fmt: skip


def _plan(state: State) -> StageResult:
    """The plan stage, reading the parts of the question with the same stages."""

    def read(question: Question) -> State:
        return run_stages(State(question=question, snapshot=state.snapshot), _PART)

    return plan_asks(state, read)


# (name, stage, runs even after a refusal was decided)
STAGES: Stages = (
    ("analyse", analyse_question, True),
    ("as_of", choose_as_of_date, True),
    ("typos", correct_typos, True),
    ("classify", classify_topic, False),
    ("match", match_concepts, False),
    ("plan", _plan, True),  # a question refused whole may have parts that name facts
    ("select", select_rules_in_force, False),
    ("conflicts", resolve_conflicts, False),
    ("compute", compute_results, False),
    ("citations", build_citations, True),
    ("compose", compose_response, True),
)


# A message is read once (engine/flow/reading.py): the stages up to classification, then the
# match and the plan of asks; triage decides on that reading whether the rules are asked at
# all, and the answer resumes after it (or, with concepts pinned by an FAQ, at the match).
TRIAGE_STAGES = STAGES[:4]
MATCH_STAGES = STAGES[4:6]
ANSWER_STAGES = STAGES[6:]
_PART = (*TRIAGE_STAGES, STAGES[4])  # a part of a question: read and matched, not planned


def run_pipeline(question: Question, snapshot: Snapshot) -> State:
    """Answer one question from one snapshot. Deterministic: no clock, no I/O."""
    read = run_stages(State(question=question, snapshot=snapshot), (*TRIAGE_STAGES, *MATCH_STAGES))
    return answer_matched(read)


def answer_matched(state: State, offer: bool = True) -> State:
    """The answer to a read and matched question: its rules selected, cited and composed;
    with a plan, ask by ask, then composed as one response. With `offer`, the response offers
    the related questions that, asked as they are, answer (engine/pipeline/related.py)."""
    if state.plan is None:
        done = run_stages(state, ANSWER_STAGES)
    else:
        answered = tuple(
            run_stages(_ask_state(state, ask), ANSWER_STAGES) for ask in state.plan.asks
        )
        done = compose_plan(state, answered)
    if not offer or done.response is None:
        return done
    related = one_click(done, lambda question: answered_concepts(question, state.snapshot))
    response = {k: v for k, v in done.response.items() if k != "relatedQuestions"}
    if related:
        response["relatedQuestions"] = related
    return evolve(done, response=response)


def answered_concepts(question: Question, snapshot: Snapshot) -> tuple[Language, frozenset[str]]:
    """The language a related question is answered in and the concepts its answer names (none
    when it is refused), asked as it is and offering none of its own. The same few neighbours
    are offered beside every answer of a domain, so each is asked once per snapshot."""
    key = _asked_key(question)
    owner, known = _ASKED[0]
    if owner is not snapshot:  # a new knowledge snapshot: what was asked of the old one is void
        owner, known = snapshot, {}
        _ASKED[0] = (owner, known)
    found = known.get(key)  # read once: another request may clear the memo meanwhile
    if found is None:
        read = run_stages(
            State(question=question, snapshot=snapshot), (*TRIAGE_STAGES, *MATCH_STAGES)
        )
        done = answer_matched(read, offer=False)
        response = done.response or {}
        chosen = done.matching.chosen if done.matching is not None else ()
        refused = response.get("kind") != "ANSWER"
        found = (
            response.get("language", "en"),
            frozenset() if refused else frozenset(m.concept for m in chosen),
        )
        if len(known) >= MAX_ASKED:
            known.clear()
        known[key] = found
    return found


# What related questions answered, for the snapshot they were asked of (one list cell, so a
# new snapshot replaces owner and answers together). A memo of a pure function: the pipeline
# is deterministic in the question and the snapshot, so a remembered answer is the answer.
_ASKED: list[tuple[Snapshot | None, dict[Hashable, tuple[Language, frozenset[str]]]]] = [(None, {})]
MAX_ASKED = 4096  # questions remembered per snapshot before the memo starts over


def _asked_key(question: Question) -> Hashable:
    """Everything the answer to `question` depends on besides the snapshot, hashable."""
    return (
        question.text,
        question.surface,
        question.today,
        question.as_of,
        question.language,
        question.pinned_concepts,
        question.allowed_rules,
        question.excluded_evidence,
        tuple(sorted((k, repr(v)) for k, v in question.client_context.items())),
        tuple(sorted((k, repr(v)) for k, v in question.remembered.items())),
    )


def _ask_state(state: State, ask: Ask) -> State:
    """The state one ask is answered from: the question's reading with the ask's frame and
    date (and its own refusal, when the match could not name what it asks)."""
    return evolve(
        state,
        matching=ask.matching,
        as_of=ask.as_of,
        as_of_origin=ask.as_of_origin,
        refusal=ask.refusal,
        plan=None,
        trace=(),
    )
