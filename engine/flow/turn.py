"""The state a turn folds over, and the shape of a step (engine/flow/runner.py runs them).

Kept apart from the steps and the runner so that the guardrail steps (engine/guardrails/steps.py)
and the conversation's steps (engine/dossier/steps.py) share the types without importing each
other or the runner that lists them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any, Literal

from engine.guardrails.config import GuardrailConfig
from engine.guardrails.injection import InjectionVerdict
from engine.guardrails.intent import Intent, IntentConfig, detect_intent
from engine.guardrails.pii import PiiFinding
from engine.guardrails.tone import ToneConfig
from engine.pipeline.state import State
from engine.snapshot import Snapshot
from engine.text.language import detect_language
from engine.types import Language, Question, Remembered, Surface

if TYPE_CHECKING:
    from engine.dossier.instructions import Instruction
    from engine.dossier.model import Dossier, TurnRecord
    from engine.flow.reading import MessageReading

Route = Literal["pipeline", "faq", "intent", "blocked", "out_of_scope", "dossier"]


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything a turn may read besides the question: knowledge and guardrail data."""

    snapshot: Snapshot
    guardrails: GuardrailConfig
    intents: IntentConfig
    tone: ToneConfig


@dataclass(frozen=True, slots=True)
class Guards:
    """The guardrail data a service runs with: Settings without the knowledge snapshot."""

    guardrails: GuardrailConfig
    intents: IntentConfig
    tone: ToneConfig

    def settings(self, snapshot: Snapshot) -> Settings:
        return Settings(snapshot, self.guardrails, self.intents, self.tone)


@dataclass(frozen=True, slots=True)
class Turn:
    text: str  # the question as asked; read only by the input guardrail
    surface: Surface
    today: date
    as_of: date | None = None
    client_context: Mapping[str, Any] = field(default_factory=dict)
    language: Language | None = None
    redacted: str = ""  # the question every later step sees
    pii: tuple[PiiFinding, ...] = ()
    injection: InjectionVerdict | None = None
    abusive: bool = False
    route: Route = "pipeline"
    early: bool = False  # a step settled the response before the pipeline
    # The message read once (engine/flow/reading.py), by the read step; a step that changes
    # what is asked (a follow-up) reads the new question and replaces it.
    reading: MessageReading | None = None
    state: State | None = None  # the pipeline's final state, when it ran
    response: Mapping[str, Any] | None = None
    output_issues: tuple[str, ...] = ()
    tone_adjustments: tuple[str, ...] = ()
    tone_ok: bool = True
    log: tuple[str, ...] = ()
    # The conversation, when the request belongs to a dossier (read before the turn runs).
    dossier: Dossier | None = None
    excluded_evidence: frozenset[str] = frozenset()  # sources the asker removed
    remembered: Mapping[str, Remembered] = field(default_factory=dict)  # what the dossier knows
    replied: Mapping[str, Any] = field(default_factory=dict)  # a fact a reply gave ("yes")
    pinned_concepts: tuple[str, ...] = ()  # set by the follow-up step
    carried: tuple[str, ...] = ()  # what a follow-up took from the previous turn
    instruction: Instruction | None = None  # a source instruction this turn gave
    recalled: tuple[int, TurnRecord] | None = None  # the past turn a memory question meant


@dataclass(frozen=True, slots=True)
class StepResult:
    changes: Mapping[str, Any]
    log: str


Step = Callable[[Turn, Settings], StepResult]


def question_of(turn: Turn) -> Question:
    """The pipeline's view of the turn: redacted text, pinned concepts, removed sources."""
    return Question(
        text=turn.redacted,
        surface=turn.surface,
        today=turn.today,
        as_of=turn.as_of,
        client_context=turn.client_context,
        language=turn.language,
        pinned_concepts=turn.pinned_concepts,
        excluded_evidence=turn.excluded_evidence,
        remembered=turn.remembered,
    )


def small_talk(turn: Turn, settings: Settings) -> Intent | None:
    """The greeting, thanks or other small talk the whole message is, if it is only that: in
    the language the asker chose, else the conversation's once it has turns ("help" typed in
    a Croatian conversation is answered in Croatian; a word or two cannot tell their own)."""
    guess = detect_language(turn.redacted)[0]
    dossier = turn.dossier
    spoken = dossier.language if dossier is not None and dossier.turns else None
    return detect_intent(turn.redacted, turn.language or spoken, settings.intents, guess)


def support_answer(turn: Turn, language: Language, headline: str, text: str) -> dict[str, Any]:
    """A short uncited ANSWER about Navod itself (small talk, the conversation's sources)."""
    direct = text if len(text) <= 240 else text[:239].rsplit(" ", 1)[0] + "…"
    return {
        "schemaVersion": "1.0.0",
        "kind": "ANSWER",
        "topic": "SUPPORT",
        "surface": turn.surface,
        "asOfDate": (turn.as_of or turn.today).isoformat(),
        "language": language,
        "headline": headline,
        "directAnswer": direct,
    }
