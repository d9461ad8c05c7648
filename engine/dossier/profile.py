"""What Navod knows about the asker, and how complete that is per planning topic (issue 11).

Pure functions of a dossier and the packs' topics. Facts arrive as `InfoRecord` events, from
the question's stated facts, an APP request's clientContext or the facts API; the latest record
of a fact type wins and the earlier ones stay as history. A topic's completeness is the weight
of its checklist's known facts over the whole (a fact known with confidence 0.5 counts half),
never guessed; a snapshot of every topic in play is appended whenever a score changes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from engine.bounds import usable
from engine.dossier.model import (
    FACT_TEXT_LIMIT,
    CompletenessRecord,
    Dossier,
    Event,
    FactValue,
    InfoRecord,
    InfoSource,
    Patch,
    TopicScore,
)
from engine.topics import topic_of, topics_of_domains
from engine.types import ChecklistItem, Concept, PlanningTopic, Remembered


@dataclass(frozen=True, slots=True)
class Known:
    """The latest record of a fact type, with when it was learnt."""

    record: InfoRecord
    seq: int
    on: date


def known_facts(dossier: Dossier | None) -> dict[str, Known]:
    """The latest record of each fact type the dossier holds (none for a fact the asker took
    back since)."""
    latest: dict[str, Known] = {}
    for event in dossier.infos if dossier is not None else ():
        record = event.record
        assert isinstance(record, InfoRecord)
        if record.retracted:
            latest.pop(record.fact_type, None)
        else:
            latest[record.fact_type] = Known(record, event.seq, event.at.date())
    return latest


def remembered(dossier: Dossier | None) -> dict[str, Remembered]:
    """The latest value of each fact type, with how and when it was learnt: the client
    context a later question is answered with."""
    return {
        name: Remembered(known.record.value, known.record.source, known.on)
        for name, known in known_facts(dossier).items()
        # a value outside its fact's domain (stored before the domains were checked) is no
        # fact to answer with: a boolean turnover once made every later question an error
        if usable(name, known.record.value)
    }


def fact_value(value: object) -> FactValue | None:
    """A stated value as a record keeps it: numbers as int or float, text cut to its limit;
    anything else (a list, a date object) is not a fact value."""
    if isinstance(value, bool | int):
        return value
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, float):
        return value
    if isinstance(value, str) and value.strip():
        return value.strip()[:FACT_TEXT_LIMIT]
    return None


def new_records(
    dossier: Dossier | None,
    stated: Mapping[str, Any],
    source: InfoSource,
    topics: tuple[PlanningTopic, ...],
    prefer: Iterable[str] = (),
    inferred: Iterable[str] = (),
) -> tuple[InfoRecord, ...]:
    """Records for the stated facts a checklist lists and the dossier does not already hold
    with that value: a fact said again is not recorded twice, a changed one is (a correction).
    The facts named in `inferred` are Navod's reading of other words, and marked so."""
    inferred = frozenset(inferred)
    known = known_facts(dossier)
    turns = len(dossier.turns) if dossier is not None else 0
    prefer = tuple(prefer)
    ordered = _pack_first(topics, stated, known, prefer)
    # the facts of the conversation's pack only: a US retiree's spouse is no Dutch fiscal partner
    ordered = tuple(t for t in ordered if t.pack == ordered[0].pack) if ordered else ()
    records: list[InfoRecord] = []
    for fact_type, raw in sorted(stated.items()):
        value = fact_value(raw)
        found = topic_of(fact_type, ordered, prefer)
        if value is None or found is None:
            continue
        previous = known.get(fact_type)
        if previous is not None and previous.record.value == value:
            continue
        topic, item = found
        marked = fact_type in inferred
        records.append(
            InfoRecord(topic.id, fact_type, value, source, 1.0, item.subtopic, turns, marked)
        )
    return tuple(records)


def _pack_first(
    topics: tuple[PlanningTopic, ...],
    stated: Mapping[str, Any],
    known: Mapping[str, Known],
    prefer: tuple[str, ...] = (),
) -> tuple[PlanningTopic, ...]:
    """The topics with the conversation's pack first: the pack of a topic the question was
    about, else the one listing most of the stated facts ("I'm 64 and my wife is 58" is a
    retirement household), on a tie the pack of the asker's earlier facts."""
    facts_of: dict[str, set[str]] = {}
    for topic in topics:
        facts_of.setdefault(topic.pack, set()).update(item.fact for item in topic.checklist)
    listed = {pack: len(facts & set(stated)) for pack, facts in facts_of.items()}
    asked = {t.pack for t in topics if t.id in prefer}
    earlier = {t.pack for t in in_play(known, topics)}
    order = sorted(listed, key=lambda pack: (pack not in asked, -listed[pack], pack not in earlier))
    return tuple(t for pack in order for t in topics if t.pack == pack)


def in_play(
    known: Mapping[str, Known], topics: tuple[PlanningTopic, ...]
) -> tuple[PlanningTopic, ...]:
    """The topics of the conversation's pack, in its order: the pack most of the asker's facts
    belong to (on a tie, the one of the latest fact)."""
    pack_of = {t.id: t.pack for t in topics}
    counts: dict[str, tuple[int, int]] = {}
    for known_fact in known.values():
        pack = pack_of.get(known_fact.record.topic)
        if pack is not None:
            count, latest = counts.get(pack, (0, -1))
            counts[pack] = (count + 1, max(latest, known_fact.seq))
    if not counts:
        return ()
    chosen = max(counts, key=lambda pack: counts[pack])
    return tuple(t for t in topics if t.pack == chosen)


def score(topic: PlanningTopic, known: Mapping[str, Known]) -> TopicScore:
    """0–100 from the checklist's weights; the reason names the fact types still missing."""
    total = sum(item.weight for item in topic.checklist)
    have = sum(
        item.weight * min(max(known[item.fact].record.confidence, 0.0), 1.0)
        for item in topic.checklist
        if item.fact in known
    )
    missing = [item.fact for item in topic.checklist if item.fact not in known]
    value = round(100 * have / total) if total else 0
    return TopicScore(topic.id, value, "missing: " + ", ".join(missing) if missing else "")


def scores(dossier: Dossier | None, topics: tuple[PlanningTopic, ...]) -> tuple[TopicScore, ...]:
    known = known_facts(dossier)
    return tuple(score(topic, known) for topic in in_play(known, topics))


def completeness_record(
    before: Dossier | None, after: Dossier, topics: tuple[PlanningTopic, ...]
) -> CompletenessRecord | None:
    """The snapshot to append when a topic's score changed between the two states."""
    last = last_scores(before)
    now = scores(after, topics)
    if not now or {s.topic: s.score for s in now} == {s.topic: s.score for s in last}:
        return None
    return CompletenessRecord(now)


def last_scores(dossier: Dossier | None) -> tuple[TopicScore, ...]:
    events = dossier.completeness if dossier is not None else ()
    if not events:
        return ()
    record = events[-1].record
    assert isinstance(record, CompletenessRecord)
    return record.scores


def most_useful_missing(topic: PlanningTopic, known: Mapping[str, Known]) -> ChecklistItem | None:
    """The heaviest checklist fact not yet known (the first of equals): the next thing to ask."""
    missing = [item for item in topic.checklist if item.fact not in known]
    return max(missing, key=lambda item: item.weight, default=None)


def with_events(dossier: Dossier, records: Iterable[Any], at: Any) -> Dossier:
    """The dossier as it would read with `records` appended (for a score before storing)."""
    start = len(dossier.events)
    events = tuple(Event(start + i, at, record) for i, record in enumerate(records))
    return replace(dossier, events=(*dossier.events, *events))


@dataclass(frozen=True, slots=True)
class Told:
    """A fact given through the facts API, before it is checked and recorded."""

    topic: str
    fact_type: str
    value: FactValue
    confidence: float = 1.0
    subtopic: str = ""


def unknown_topics(told: Iterable[Told], topics: tuple[PlanningTopic, ...]) -> list[str]:
    """The topics named that no pack declares, in the order given."""
    known = {t.id for t in topics}
    return list(dict.fromkeys(t.topic for t in told if t.topic not in known))


def facts_patch(
    told: tuple[Told, ...], topics: tuple[PlanningTopic, ...]
) -> Callable[[Dossier], Patch]:
    """The patch that records facts given through the API (every one, under the topic it
    names: an API client may repeat a value to confirm it), then the completeness snapshot
    if a score moved. The caller has checked the topics."""

    def make(dossier: Dossier) -> Patch:
        turns = len(dossier.turns)
        records = tuple(
            InfoRecord(t.topic, t.fact_type, t.value, "api", t.confidence, t.subtopic, turns)
            for t in told
        )
        after = with_events(dossier, records, dossier.updated_at)
        snapshot = completeness_record(dossier, after, topics)
        return Patch(dossier.version, (*records, *((snapshot,) if snapshot else ())))

    return make


def retraction_patch(
    fact_type: str, topics: tuple[PlanningTopic, ...]
) -> Callable[[Dossier], Patch]:
    """The patch that takes back the fact the asker holds of `fact_type` (a new record: the
    earlier ones stay as its history), then the completeness snapshot if a score moved;
    KeyError when the dossier holds no such fact."""

    def make(dossier: Dossier) -> Patch:
        known = known_facts(dossier).get(fact_type)
        if known is None:
            raise KeyError(fact_type)
        held = known.record
        record = InfoRecord(
            held.topic, fact_type, held.value, "api", 1.0, held.subtopic, len(dossier.turns),
            retracted=True,
        )  # fmt: skip
        after = with_events(dossier, (record,), dossier.updated_at)
        snapshot = completeness_record(dossier, after, topics)
        return Patch(dossier.version, (record, *((snapshot,) if snapshot else ())))

    return make


def fact_views(dossier: Dossier, since: int = 0) -> list[dict[str, Any]]:
    """The dossier's fact records as the API shows them (events from `since` on), oldest first."""
    return [_fact_view(dossier, event) for event in dossier.infos if event.seq >= since]


def _fact_view(dossier: Dossier, event: Event) -> dict[str, Any]:
    record = event.record
    assert isinstance(record, InfoRecord)
    readable = usable(record.fact_type, record.value)
    return {
        "id": f"{dossier.id}-{event.seq}",
        "session_id": dossier.id,
        "topic": record.topic,
        "subtopic": record.subtopic,
        "fact_type": record.fact_type,
        # shown as unreadable, never a 500: a value no fact can hold is not sent back
        "value": record.value if readable else None,
        **({} if readable else {"unreadable": True}),
        "confidence": record.confidence,
        "source": record.source,
        "inferred": record.inferred,
        "retracted": record.retracted,
        "turn": record.turn,
        "created_at": _iso(event.at),
    }


def completeness_view(dossier: Dossier) -> dict[str, Any]:
    """The latest score of each topic in play, and every snapshot taken, oldest first."""
    history = []
    for event in dossier.completeness:
        record = event.record
        assert isinstance(record, CompletenessRecord)
        history.append(
            {
                "session_id": dossier.id,
                "scores": [_score_view(s) for s in record.scores],
                "created_at": _iso(event.at),
            }
        )
    return {
        "session_id": dossier.id,
        "scores": history[-1]["scores"] if history else [],
        "history": history,
    }


def _score_view(found: TopicScore) -> dict[str, Any]:
    return {"topic": found.topic, "score": found.score, "reason": found.reason}


def _iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


def conversation_topic(
    dossier: Dossier, topics: tuple[PlanningTopic, ...], concepts: Mapping[str, Concept]
) -> PlanningTopic | None:
    """The topic the conversation is about now: the last turn's concepts' (by their domain),
    else the last fact's."""
    by_id = {t.id: t for t in topics}
    last = dossier.turns[-1] if dossier.turns else None
    asked = last.concepts if last else ()
    named = topics_of_domains(concepts[c].domain for c in asked if c in concepts)
    found = next((by_id[t] for t in named if t in by_id), None)
    # a question about something no topic plans (the minimum wage) has no next step: the last
    # fact's topic stands in only for a turn that asked about no concept ("I was born in 1962")
    if found is None and not asked and dossier.infos:
        record = dossier.infos[-1].record
        assert isinstance(record, InfoRecord)
        found = by_id.get(record.topic)
    return found


def next_question(
    dossier: Dossier, topics: tuple[PlanningTopic, ...], concepts: Mapping[str, Concept]
) -> tuple[PlanningTopic, ChecklistItem] | None:
    """The most useful fact still missing for the topic the conversation is about."""
    topic = conversation_topic(dossier, topics, concepts)
    if topic is None:
        return None
    item = most_useful_missing(topic, known_facts(dossier))
    return (topic, item) if item is not None else None


def topic_view(topic: PlanningTopic) -> dict[str, Any]:
    """A planning topic as the API and the monitors read it."""
    return {
        "id": topic.id,
        "pack": topic.pack,
        "label": dict(topic.label),
        "checklist": [
            {
                "fact": item.fact,
                "weight": item.weight,
                "kind": item.kind,
                "subtopic": item.subtopic,
                "question": dict(item.question),
            }
            for item in topic.checklist
        ],
    }
