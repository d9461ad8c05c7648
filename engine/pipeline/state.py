"""The request state the stages fold over, and the values stages hand each other."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from engine.contract import RefusalReason
from engine.snapshot import Snapshot
from engine.types import ConflictResolution, Jurisdiction, Language, Question, Rule, Topic
from engine.understanding.frame import Fact, Frame, Reading
from engine.understanding.words import Word


@dataclass(frozen=True, slots=True)
class Analysis:
    """Stage 1: what the question says, normalised."""

    folded: str
    keywords: tuple[str, ...]
    # the folded text's word tokens (`tokenize`), which the classifier and the matcher read
    tokens: tuple[str, ...]
    language: Language
    language_confidence: float
    # Client facts stated in the question, as the condition fields rules read (birth_year, age,
    # annual_receipts_eur, ...); the reading keeps them with the words they came from.
    facts: Mapping[str, Any] = field(default_factory=dict)
    reading: Reading | None = None
    words: tuple[Word, ...] = ()  # the question's words and their keys, in reading order
    foreign: str | None = None  # a language Navod does not read (de, sl, fr, it, es)


@dataclass(frozen=True, slots=True)
class Classification:
    """Stage 2: what kind of question this is and which jurisdictions it names."""

    topic: Topic
    named: frozenset[Jurisdiction]  # supported jurisdictions the question names
    unsupported: str | None  # the first unsupported country named, as written


@dataclass(frozen=True, slots=True)
class ConceptMatch:
    concept: str
    score: float  # fraction of the alias's keys found in the question, 0..1
    alias: str
    matched: frozenset[str]


@dataclass(frozen=True, slots=True)
class Matching:
    """Stage 3: the concepts the question is about, or the candidates it could mean."""

    chosen: tuple[ConceptMatch, ...]
    candidates: tuple[ConceptMatch, ...]  # runners-up, for clarification and the trace
    frame: Frame | None = None  # what the question was understood to ask


@dataclass(frozen=True, slots=True)
class ConceptRules:
    """Stage 4: for one concept, the rules in force on the as-of date."""

    concept: str
    in_force: tuple[Rule, ...]
    missing_context: tuple[Rule, ...]  # would apply, but the client data to decide is absent
    missing_fields: tuple[str, ...]
    excluded: Mapping[str, str]  # rule id -> why it was not used


@dataclass(frozen=True, slots=True)
class Resolution:
    """Stage 5: the rule that answers for a concept, or the conflict that blocks it."""

    concept: str
    winner: Rule | None
    agreeing: tuple[Rule, ...]  # other rules in force stating the same value
    losers: tuple[Rule, ...]  # overruled by precedence, or by a maintainer's resolution
    # "record" | "authority" | "later_effective_from" | "more_specific" | None
    how: str | None
    unresolved: tuple[Rule, ...] = ()
    conditional: tuple[Rule, ...] = ()  # no client data: each rule applies under its condition
    record: ConflictResolution | None = None  # the resolution that settled it (how "record")


@dataclass(frozen=True, slots=True)
class Computation:
    """A result computed from cited values and one fact the asker stated.

    "threshold": the stated amount against a threshold (its side and the obligation there);
    "decided": the same, where the side names the family member that applies (revenue up to
    the limit: the lower profit-tax rate); "date_from_age": a deadline's year from the birth
    year and the age another concept states (the first RMD: April 1, 2033).
    """

    kind: str  # "threshold" | "decided" | "date_from_age"
    concept: str  # the concept the result is about
    rule: Rule  # the cited rule whose value was used (the threshold, the deadline)
    fact: Fact  # what the asker stated
    above: bool = False  # the stated amount exceeds the threshold
    obligation: str | None = None  # the obligation on that side, when the pack names one
    decided: str | None = None  # the concept that applies on that side
    support: Rule | None = None  # a second cited rule the result rests on (the RMD age)
    derived: date | None = None  # a computed date
    # With an age but no birth year, the date for the later of the two possible birth years
    # (62 in 2026: born 1964 or, before the birthday, 1963): both dates are stated.
    derived_late: date | None = None


@dataclass(frozen=True, slots=True)
class Decision:
    """A refusal decided by a stage; compose renders it in the question's language."""

    reason: RefusalReason
    detail: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Ask:
    """One thing a question asks (engine/pipeline/plan.py): a frame of its own, answered on
    its own date, so a question of several facts or years gets every value it asks for."""

    words: str  # the part of the question that asks it, as written (folded), or its year
    matching: Matching  # the concepts it names, with its frame
    as_of: date
    as_of_origin: str
    year: int | None = None  # the year it asks, when the question asks several
    refusal: Decision | None = None  # the match could not name what this part asks


@dataclass(frozen=True, slots=True)
class Plan:
    """The asks of a question that asks more than one thing, in the question's order."""

    asks: tuple[Ask, ...]
    change: bool = False  # how one fact changed between the first and the last ask's date


@dataclass(frozen=True, slots=True)
class TraceEntry:
    stage: str
    decision: str
    details: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class State:
    question: Question
    snapshot: Snapshot
    as_of: date | None = None
    as_of_origin: str = ""  # "request" | "question_date" | "question_year" | "today"
    analysis: Analysis | None = None
    corrections: Mapping[str, str] = field(default_factory=dict)  # typo -> vocabulary key
    classification: Classification | None = None
    matching: Matching | None = None
    selections: tuple[ConceptRules, ...] = ()
    resolutions: tuple[Resolution, ...] = ()
    computations: tuple[Computation, ...] = ()
    cards: tuple[Mapping[str, Any], ...] = ()  # wire SourceCards, primary first
    refusal: Decision | None = None
    response: Mapping[str, Any] | None = None  # the wire response, without ids and createdAt
    trace: tuple[TraceEntry, ...] = ()
    plan: Plan | None = None  # the asks of a question that asks several things
    answered: tuple[State, ...] = ()  # each ask of the plan, answered on its own


@dataclass(frozen=True, slots=True)
class StageResult:
    """What a stage changed: new field values for the state, and a line for the trace."""

    changes: Mapping[str, Any]
    decision: str
    details: Mapping[str, Any] = field(default_factory=dict)


def asker_context(state: State) -> dict[str, Any]:
    """The facts rules' conditions read for this asker: what the conversation remembered,
    then what the question states, then the request's clientContext (each wins over the one
    before: a fact said now corrects the one said earlier)."""
    assert state.analysis is not None
    remembered = {name: fact.value for name, fact in state.question.remembered.items()}
    return {**remembered, **state.analysis.facts, **state.question.client_context}
