"""A dossier: one conversation, kept as an append-only list of events.

Everything else (the current source selection, the memory layers) is derived from the events,
so a dossier is never out of step with itself. Events hold ids and short texts only: the
redacted question, the response's kind, topic, reason and as-of date, the concept, rule and
citation ids, and the values answered; never a whole response or an evidence text. A dossier
stays small however long the conversation. The response a turn was answered with is kept
beside its event (`Patch.shown`), read only to show the turn again.

Every change is a `Patch` made by a pure function of the dossier as read; the store applies a
patch only if the dossier is still at the version it was made from (see
engine/store/dossiers/repository.py).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Literal, get_args

from engine.types import Language, Surface

SourceAction = Literal["added", "selected", "unselected", "restored"]
SOURCE_ACTIONS: tuple[SourceAction, ...] = ("added", "selected", "unselected", "restored")
QUESTION_LIMIT = 500  # characters of the (redacted) question kept in a turn
HEADLINE_LIMIT = 120


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """One question and what was answered, as a dossier remembers it."""

    question: str  # redacted: the input guardrail ran before anything is stored
    language: Language
    kind: str  # ANSWER | REFUSAL
    topic: str
    refusal_reason: str | None
    as_of: str  # YYYY-MM-DD
    as_of_origin: str  # request | question_date | question_year | today | carried
    route: str  # the triage route: pipeline | faq | intent | blocked | out_of_scope | dossier
    headline: str
    concepts: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()  # the rules the answer rests on, primary first
    citations: tuple[str, ...] = ()  # source card ids ("<rule>@<evidence>")
    evidence: tuple[str, ...] = ()  # evidence ids retrieved for the question, in card order
    values: tuple[tuple[str, str], ...] = ()  # (rule id, value) answered
    facts: tuple[tuple[str, str], ...] = ()  # client facts the question stated (birth_year, ...)
    carried: tuple[str, ...] = ()  # what a follow-up took over from the previous turn
    offered: tuple[str, ...] = ()  # the concepts a "Do you mean …?" offered, in its order


@dataclass(frozen=True, slots=True)
class SourceRecord:
    """A change to the dossier's source selection."""

    action: SourceAction
    evidence_id: str
    title: str = ""  # the source's title when added, so the selection reads without the KB
    authority: str = ""
    publisher: str = ""


InfoSource = Literal["question", "api", "clientContext"]
INFO_SOURCES: tuple[InfoSource, ...] = get_args(InfoSource)
FactValue = str | int | float | bool
FACT_TEXT_LIMIT = 200  # characters of a fact's text value kept


@dataclass(frozen=True, slots=True)
class InfoRecord:
    """One thing Navod learnt about the asker (issue 11). Append-only: a correction is a new
    record, the latest of a fact type wins, the earlier ones stay as its history."""

    topic: str  # a planning topic a pack declares (the store checks it)
    fact_type: str  # as rules' conditions name it: "birth_year", "annual_receipts_eur"
    value: FactValue
    source: InfoSource
    confidence: float = 1.0  # 0..1; a fact the asker only hinted at counts partly
    subtopic: str = ""
    turn: int = 0  # how many turns the dossier held when it was learnt
    # Navod's reading, not the asker's words: a flat-rate craft's stated turnover taken as its
    # receipts. Shown as inferred, for the asker to correct or remove.
    inferred: bool = False
    # The asker took the fact back: from this record on the fact is unknown again.
    retracted: bool = False


@dataclass(frozen=True, slots=True)
class TopicScore:
    topic: str
    score: int  # 0..100, from the topic's checklist weights (engine/dossier/profile.py)
    reason: str  # what is still missing, by fact type; "" when complete


@dataclass(frozen=True, slots=True)
class CompletenessRecord:
    """The scores of every topic in play, appended whenever one of them changes."""

    scores: tuple[TopicScore, ...]


Record = TurnRecord | SourceRecord | InfoRecord | CompletenessRecord


@dataclass(frozen=True, slots=True)
class Event:
    seq: int  # 0, 1, 2, ... per dossier, no gaps
    at: datetime
    record: Record


@dataclass(frozen=True, slots=True)
class Dossier:
    id: str
    asker: str
    surface: Surface
    language: Language
    created_at: datetime
    updated_at: datetime
    version: int  # bumped by every applied patch: the optimistic-concurrency check
    events: tuple[Event, ...] = ()

    @property
    def turns(self) -> tuple[TurnRecord, ...]:
        return tuple(e.record for e in self.events if isinstance(e.record, TurnRecord))

    @property
    def infos(self) -> tuple[Event, ...]:
        """The events holding what was learnt about the asker, oldest first."""
        return tuple(e for e in self.events if isinstance(e.record, InfoRecord))

    @property
    def completeness(self) -> tuple[Event, ...]:
        """The completeness snapshots, oldest first."""
        return tuple(e for e in self.events if isinstance(e.record, CompletenessRecord))


@dataclass(frozen=True, slots=True)
class Patch:
    """Events to append, made from the dossier at `base_version`; empty patches change nothing."""

    base_version: int
    records: tuple[Record, ...]
    language: Language | None = None  # the dossier's language, once a turn sets it
    # The response the patch's turn was answered with, encoded: kept beside its event (not in
    # it, so a dossier read for the next turn stays small) for a client to show it again.
    shown: bytes = b""

    @property
    def empty(self) -> bool:
        return not self.records


@dataclass(frozen=True, slots=True)
class SourceRef:
    evidence_id: str
    title: str
    authority: str
    publisher: str = ""


@dataclass(frozen=True, slots=True)
class Selection:
    """The dossier's sources in the order they were first added, split by selection."""

    selected: tuple[SourceRef, ...]
    unselected: tuple[SourceRef, ...]
    all: tuple[SourceRef, ...] = ()  # both, in the order they joined: how the asker numbers them

    def is_selected(self, evidence_id: str) -> bool:
        return any(ref.evidence_id == evidence_id for ref in self.selected)

    def knows(self, evidence_id: str) -> bool:
        return any(ref.evidence_id == evidence_id for ref in self.all)


def selection(dossier: Dossier) -> Selection:
    """Fold the source events: added and selected/restored select, unselected deselects."""
    order: dict[str, SourceRef] = {}
    chosen: dict[str, bool] = {}
    for event in dossier.events:
        record = event.record
        if not isinstance(record, SourceRecord):
            continue
        if record.evidence_id not in order:
            if record.action != "added":
                continue  # selecting a source never added is ignored: only retrieved ones count
            order[record.evidence_id] = SourceRef(
                record.evidence_id, record.title, record.authority, record.publisher
            )
        chosen[record.evidence_id] = record.action != "unselected"
    refs = list(order.values())
    return Selection(
        selected=tuple(r for r in refs if chosen[r.evidence_id]),
        unselected=tuple(r for r in refs if not chosen[r.evidence_id]),
        all=tuple(refs),
    )


# --- patches: pure functions of the dossier as read ------------------------------------------


def append_turn(dossier: Dossier, turn: TurnRecord, sources: tuple[SourceRef, ...] = ()) -> Patch:
    """The turn, preceded by an `added` event for each retrieved source the dossier lacks."""
    known = selection(dossier)
    added = tuple(
        SourceRecord("added", ref.evidence_id, ref.title, ref.authority, ref.publisher)
        for ref in dict.fromkeys(sources)
        if not known.knows(ref.evidence_id)
    )
    clipped = clip_turn(turn)
    return Patch(dossier.version, (*added, clipped), language=turn.language)


def change_selection(
    dossier: Dossier, action: SourceAction, evidence_ids: tuple[str, ...]
) -> Patch:
    """Select, unselect or restore known sources; ids already in that state are left out."""
    current = selection(dossier)
    want_selected = action != "unselected"
    records = tuple(
        SourceRecord(action, evidence_id)
        for evidence_id in dict.fromkeys(evidence_ids)
        if current.knows(evidence_id) and current.is_selected(evidence_id) != want_selected
    )
    return Patch(dossier.version, records)


def clip_turn(turn: TurnRecord) -> TurnRecord:
    """The turn as stored: question and headline cut to their limits."""
    return replace(
        turn,
        question=turn.question[:QUESTION_LIMIT],
        headline=turn.headline[:HEADLINE_LIMIT],
    )
