"""From a finished turn to what the dossier keeps, and from a dossier to what the wire shows.

`turn_patch` is the pure patch maker the service hands to the store's `update`: given the
dossier as stored (read under its lock), it returns the instruction's selection events, the
sources the answer retrieved and the turn itself, in that order, as one patch.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.dossier.model import (
    Dossier,
    InfoRecord,
    Patch,
    Selection,
    SourceRecord,
    SourceRef,
    TurnRecord,
    append_turn,
    clip_turn,
    selection,
)
from engine.dossier.profile import completeness_record, new_records, with_events
from engine.dossier.steps import instruction_records
from engine.flow.cards import cited_cards
from engine.flow.turn import Turn
from engine.pipeline.state import State
from engine.snapshot import Snapshot
from engine.topics import topics_of_domains
from engine.types import PlanningTopic
from engine.understanding.context import home_of, named_fields, own_context


def turn_record(turn: Turn, response: Mapping[str, Any]) -> TurnRecord:
    state = turn.state
    matching = state.matching if state is not None else None
    winners = [r.winner for r in (state.resolutions if state is not None else ()) if r.winner]
    cards = list(cited_cards(response))
    origin = state.as_of_origin if state is not None and state.as_of_origin else "today"
    if any(note.startswith("as-of date") for note in turn.carried):
        origin = "carried"
    facts = state.analysis.facts if state is not None and state.analysis is not None else {}
    return TurnRecord(
        question=turn.redacted,
        language=response.get("language", "en"),
        kind=str(response.get("kind", "")),
        topic=str(response.get("topic", "")),
        refusal_reason=response.get("refusalReason"),
        as_of=str(response.get("asOfDate", turn.today.isoformat())),
        as_of_origin=origin,
        route=turn.route,
        headline=str(response.get("headline", "")),
        concepts=tuple(m.concept for m in matching.chosen) if matching is not None else (),
        rules=tuple(rule.id for rule in winners),
        citations=tuple(str(card.get("id", "")) for card in cards),
        evidence=tuple(dict.fromkeys(str(card.get("evidenceId", "")) for card in cards)),
        values=tuple((rule.id, rule.value) for rule in winners),
        facts=tuple((key, str(value)) for key, value in sorted(facts.items())),
        carried=turn.carried,
        offered=_offered(state),
    )


def _offered(state: State | None) -> tuple[str, ...]:
    """The concepts a clarifying refusal offered, so a reply can choose one by number."""
    refusal = state.refusal if state is not None else None
    if refusal is None or refusal.reason != "NEEDS_CLARIFICATION":
        return ()
    return tuple(str(c) for c in refusal.detail.get("candidates", []))


def retrieved_sources(response: Mapping[str, Any], snapshot: Snapshot) -> tuple[SourceRef, ...]:
    """The sources behind the cards the answer showed, in card order."""
    refs: dict[str, SourceRef] = {}
    for card in cited_cards(response):
        evidence_id = card.get("evidenceId")
        source = snapshot.source_of(evidence_id) if isinstance(evidence_id, str) else None
        if source is not None and evidence_id not in refs:
            refs[str(evidence_id)] = SourceRef(
                str(evidence_id), source.title, source.authority, source.publisher
            )
    return tuple(refs.values())


def turn_patch(
    turn: Turn,
    record: TurnRecord,
    sources: tuple[SourceRef, ...],
    topics: tuple[PlanningTopic, ...] = (),
    context: Mapping[str, Any] | None = None,
) -> Callable[[Dossier], Patch]:
    """The patch of a turn: the instruction's selection events, the sources retrieved, the
    turn, then what the asker told about themselves (the question's stated facts and the
    request's clientContext, `context`, already redacted) and, when a topic's score moved, the
    completeness snapshot."""

    def make(dossier: Dossier) -> Patch:
        changes = instruction_records(dossier, turn.instruction) if turn.instruction else ()
        appended = append_turn(dossier, record, sources)
        told = learnt(dossier, turn, topics, context or {})
        after = with_events(dossier, (*changes, *appended.records, *told), dossier.updated_at)
        snapshot = completeness_record(dossier, after, topics) if told else None
        records = (*changes, *appended.records, *told, *((snapshot,) if snapshot else ()))
        return Patch(dossier.version, records, appended.language)

    return make


def learnt(
    dossier: Dossier,
    turn: Turn,
    topics: tuple[PlanningTopic, ...],
    context: Mapping[str, Any],
) -> tuple[InfoRecord, ...]:
    """The facts this turn told that the dossier does not hold yet, each under its topic (the
    topics of the concepts asked about first)."""
    state = turn.state
    chosen = state.matching.chosen if state is not None and state.matching is not None else ()
    concepts = state.snapshot.concepts if state is not None else {}
    read: Mapping[str, Any] = {}
    inferred: set[str] = set()
    # a message about something else ("kakvo će biti vrijeme u Splitu") tells no fact of the
    # asker's ("u Splitu" is where the weather is asked); nor does a question that came near no
    # rule's concept at all (its places may be where something else is), unless the message
    # only tells ("Rođen sam 1962."); one Navod asks to clarify ("Geldt de KOR voor mij?") is
    # about its rules, and what it tells is kept
    near = bool(chosen) or bool(state is not None and state.matching and state.matching.candidates)
    about_rules = turn.route != "out_of_scope" and (near or turn.route == "dossier")
    if (
        about_rules
        and state is not None
        and state.analysis is not None
        and state.analysis.reading is not None
    ):
        # only what the asker said of themselves, for the countries this turn is about
        reading, language = state.analysis.reading, state.analysis.language
        where = {concepts[m.concept].jurisdiction for m in chosen if m.concept in concepts}
        read = own_context(reading.facts, reading.amounts, where or {home_of(language)})
        inferred = set(read) - named_fields(f for f in reading.facts if f.own)
    stated = {**read, **turn.replied}
    prefer = topics_of_domains(concepts[m.concept].domain for m in chosen if m.concept in concepts)
    inferred -= set(turn.replied)  # the answer to Navod's own question is the asker's word
    from_question = new_records(dossier, stated, "question", topics, prefer, inferred)
    later = with_events(dossier, from_question, dossier.updated_at)
    return (*from_question, *new_records(later, context, "clientContext", topics, prefer))


def dossier_block(dossier: Dossier, changed: tuple[SourceRecord, ...] = ()) -> dict[str, Any]:
    """The response's view of the conversation: its id, the selection, what this turn changed."""
    current = selection(dossier)
    titles = {ref.evidence_id: ref.title for ref in current.all}
    block: dict[str, Any] = {"id": dossier.id, **selection_view(current)}
    if changed:
        block["changed"] = [
            {
                "action": r.action,
                "evidenceId": r.evidence_id,
                "title": titles.get(r.evidence_id, ""),
            }
            for r in changed
        ]
    return block


def selection_view(current: Selection) -> dict[str, list[dict[str, str]]]:
    def refs(items: tuple[SourceRef, ...]) -> list[dict[str, str]]:
        return [
            {"evidenceId": r.evidence_id, "title": r.title, "authority": r.authority} for r in items
        ]

    return {"selected": refs(current.selected), "unselected": refs(current.unselected)}


def changes_of_turn(after: Dossier, record: TurnRecord) -> tuple[SourceRecord, ...]:
    """The selection events (not `added`) written just before this turn, by its own patch.

    A patch is appended contiguously, so they are the source events right before the turn.
    """
    stored = clip_turn(record)
    events = after.events
    end = next((i for i in range(len(events) - 1, -1, -1) if events[i].record == stored), None)
    found: list[SourceRecord] = []
    for event in reversed(events[: end or 0]):
        if not isinstance(event.record, SourceRecord):
            break
        found.append(event.record)
    return tuple(r for r in reversed(found) if r.action != "added")
