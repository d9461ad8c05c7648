"""One reading per message: the question is read once (its language, stated facts, time,
classification and the concepts it names), and every step of the turn takes that reading.

The conversation's steps (engine/dossier) decide from the reading whether a message tells a
fact, completes the previous question or asks a new one; triage and the pipeline go on from
it. Nothing else runs the pipeline's reading stages on the message, so no step can read it
by other rules than the one that answers it. A step that changes what is asked (a follow-up
that carries the previous topic, a reply that completes Navod's question) asks for the
reading of that new question, here too.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.flow.turn import Settings, StepResult, Turn, question_of
from engine.pipeline.runner import MATCH_STAGES, TRIAGE_STAGES, answer_matched, run_stages
from engine.pipeline.state import State
from engine.snapshot import Snapshot
from engine.types import Question


@dataclass(frozen=True, slots=True)
class MessageReading:
    """A message read: triaged (analysed, dated, typos corrected, classified) and matched."""

    triaged: State  # before the match: the FAQ pins its concept on this one
    matched: State  # and the concepts it names (the match skipped when triage refused)

    @property
    def question(self) -> Question:
        return self.triaged.question


def read_message(
    question: Question, snapshot: Snapshot, despite_refusal: bool = False
) -> MessageReading:
    """Read `question` once: the stages up to the match, then the match (unless a stage
    before it refused, or `despite_refusal`: words named in a conversation, "what did you
    say about the threshold?", name a concept whatever their topic)."""
    triaged = run_stages(State(question=question, snapshot=snapshot), TRIAGE_STAGES)
    before = replace(triaged, refusal=None) if despite_refusal else triaged
    return MessageReading(triaged, run_stages(before, MATCH_STAGES))


def answer_reading(reading: MessageReading) -> State:
    """The pipeline, resumed after the match: rules selected, cited and composed (ask by
    ask when the question asks several things)."""
    return answer_matched(reading.matched)


def answer_pinned(reading: MessageReading, question: Question) -> State:
    """The pipeline over the triaged message with `question`'s pinned concepts (an FAQ's)."""
    return answer_matched(run_stages(replace(reading.triaged, question=question), MATCH_STAGES))


def answer_question(question: Question, snapshot: Snapshot) -> State:
    """Read and answer a question that is not the turn's message (a past turn recalled)."""
    return answer_reading(read_message(question, snapshot))


def reading_of(turn: Turn, settings: Settings) -> MessageReading:
    """The turn's reading; read here when the flow ran without the read step (a test's)."""
    return turn.reading or read_message(question_of(turn), settings.snapshot)


def read_step(turn: Turn, settings: Settings) -> StepResult:
    """Read the (redacted) message once, for every step after this one."""
    reading = read_message(question_of(turn), settings.snapshot)
    matching = reading.matched.matching
    named = [m.concept for m in matching.chosen] if matching is not None else []
    return StepResult({"reading": reading}, f"read: {', '.join(named) or 'nothing named'}")
