"""The request state the stages fold over, and the values stages hand each other."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from engine.contract import RefusalReason
from engine.snapshot import Snapshot
from engine.text.quantities import Quantities
from engine.types import Jurisdiction, Language, Question, Rule, Topic


@dataclass(frozen=True, slots=True)
class Analysis:
    """Stage 1: what the question says, normalised."""

    folded: str
    keywords: tuple[str, ...]
    language: Language
    language_confidence: float
    quantities: Quantities
    facts: Mapping[str, Any] = field(default_factory=dict)  # client facts stated in the question


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
    losers: tuple[Rule, ...]  # overruled by precedence
    how: str | None  # "authority" | "later_effective_from" | "more_specific" | None
    unresolved: tuple[Rule, ...] = ()
    conditional: tuple[Rule, ...] = ()  # no client data: each rule applies under its condition


@dataclass(frozen=True, slots=True)
class Decision:
    """A refusal decided by a stage; compose renders it in the question's language."""

    reason: RefusalReason
    detail: Mapping[str, Any] = field(default_factory=dict)


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
    cards: tuple[Mapping[str, Any], ...] = ()  # wire SourceCards, primary first
    refusal: Decision | None = None
    response: Mapping[str, Any] | None = None  # the wire response, without ids and createdAt
    trace: tuple[TraceEntry, ...] = ()


@dataclass(frozen=True, slots=True)
class StageResult:
    """What a stage changed: new field values for the state, and a line for the trace."""

    changes: Mapping[str, Any]
    decision: str
    details: Mapping[str, Any] = field(default_factory=dict)
