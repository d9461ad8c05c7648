"""Dossier events to and from JSON payloads, and a dossier's summary; both repositories use them.

Payloads are read key by key: keys this code does not know are ignored and missing optional
keys take the record's defaults, so rows written before or after a field was added keep
loading. Tuples become JSON lists (pairs become 2-lists) and come back as tuples.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson

from engine.dossier.model import (
    SOURCE_ACTIONS,
    CompletenessRecord,
    Dossier,
    Event,
    InfoRecord,
    Patch,
    Record,
    SourceRecord,
    TopicScore,
    TurnRecord,
)
from engine.errors import StoreError
from engine.store.db import as_utc
from engine.types import Language, Surface

TURN_KIND = "turn"  # dossier_event.kind of a turn; a source event's kind is its action
INFO_KIND = "info"  # something learnt about the asker
COMPLETENESS_KIND = "completeness"  # the topics' scores when one changed
REFUSAL = "REFUSAL"  # a turn payload's kind when the question was refused
_TEXT_LISTS = ("concepts", "rules", "citations", "evidence", "carried", "offered")
_PAIR_LISTS = ("values", "facts")
_SOURCE_TEXTS = ("title", "authority", "publisher")


@dataclass(frozen=True, slots=True)
class DossierSummary:
    """A line of an asker's dossier list: when, how many turns, and the last question."""

    id: str
    asker: str
    surface: Surface
    language: Language
    created_at: datetime
    updated_at: datetime
    turns: int
    last_question: str  # "" before the first turn


def summarise(dossier: Dossier) -> DossierSummary:
    turns = dossier.turns
    return DossierSummary(
        id=dossier.id,
        asker=dossier.asker,
        surface=dossier.surface,
        language=dossier.language,
        created_at=dossier.created_at,
        updated_at=dossier.updated_at,
        turns=len(turns),
        last_question=turns[-1].question if turns else "",
    )


def event_kind(record: Record) -> str:
    if isinstance(record, TurnRecord):
        return TURN_KIND
    if isinstance(record, InfoRecord):
        return INFO_KIND
    if isinstance(record, CompletenessRecord):
        return COMPLETENESS_KIND
    return record.action


class UnstorableEvent(ValueError):
    """A record whose payload no JSON encoder of the API could write back (an integer past
    64 bits): refused before it is stored, so no conversation can become unreadable."""


def stored_payload(record: Record) -> dict[str, Any]:
    """The payload of a record about to be stored, checked to encode as the API encodes it."""
    payload = event_payload(record)
    try:
        orjson.dumps(payload)
    except TypeError as unencodable:
        raise UnstorableEvent(
            f"a {event_kind(record)} event cannot be stored: {unencodable}"
        ) from None
    return payload


def shown_seq(first: int, patch: Patch) -> int | None:
    """The seq the patch's shown response is kept under: its turn event's, the patch's events
    numbered from `first`; None when there is nothing to keep."""
    if not patch.shown:
        return None
    turns = [i for i, record in enumerate(patch.records) if isinstance(record, TurnRecord)]
    return first + turns[0] if turns else None


def event_payload(record: Record) -> dict[str, Any]:
    """The JSON stored for a record (a source event's action is its kind, not in the payload)."""
    if isinstance(record, SourceRecord):
        return {"evidence_id": record.evidence_id, **{k: getattr(record, k) for k in _SOURCE_TEXTS}}
    if isinstance(record, InfoRecord):
        return {
            "topic": record.topic,
            "subtopic": record.subtopic,
            "fact_type": record.fact_type,
            "value": record.value,
            "confidence": record.confidence,
            "source": record.source,
            "turn": record.turn,
            # written only when set, so every record stored before reads as it did
            **({"inferred": True} if record.inferred else {}),
            **({"retracted": True} if record.retracted else {}),
        }
    if isinstance(record, CompletenessRecord):
        return {"scores": [[s.topic, s.score, s.reason] for s in record.scores]}
    return {
        "question": record.question,
        "language": record.language,
        "kind": record.kind,
        "topic": record.topic,
        "refusal_reason": record.refusal_reason,
        "as_of": record.as_of,
        "as_of_origin": record.as_of_origin,
        "route": record.route,
        "headline": record.headline,
        **{key: list(getattr(record, key)) for key in _TEXT_LISTS},
        **{key: [list(pair) for pair in getattr(record, key)] for key in _PAIR_LISTS},
    }


def event_record(kind: str, payload: Mapping[str, Any]) -> Record:
    """The record a stored event holds; an unknown kind is refused, naming it."""
    if kind == TURN_KIND:
        return turn_record(payload)
    if kind in SOURCE_ACTIONS:
        texts = {key: payload[key] for key in _SOURCE_TEXTS if key in payload}
        return SourceRecord(kind, payload["evidence_id"], **texts)
    if kind == INFO_KIND:
        return InfoRecord(
            topic=payload["topic"],
            fact_type=payload["fact_type"],
            value=payload["value"],
            source=payload["source"],
            confidence=float(payload.get("confidence", 1.0)),
            subtopic=payload.get("subtopic", ""),
            turn=int(payload.get("turn", 0)),
            inferred=payload.get("inferred") is True,
            retracted=payload.get("retracted") is True,
        )
    if kind == COMPLETENESS_KIND:
        return CompletenessRecord(
            tuple(
                TopicScore(topic, int(score), reason) for topic, score, reason in payload["scores"]
            )
        )
    raise StoreError(
        f"dossier event kind {kind!r} is unknown to this version of Navod; expected "
        f"{TURN_KIND!r}, {INFO_KIND!r}, {COMPLETENESS_KIND!r} or one of {', '.join(SOURCE_ACTIONS)}"
    )


def events_from_rows(rows: Sequence[Any]) -> tuple[Event, ...]:
    """Events from rows carrying seq, at, kind and payload (in seq order)."""
    return tuple(
        Event(row.seq, as_utc(row.at), event_record(row.kind, row.payload)) for row in rows
    )


def turn_record(payload: Mapping[str, Any]) -> TurnRecord:
    # Values are taken as stored: event_payload wrote them, as strings and lists of strings.
    # A dossier is read on every turn, so this stays a plain copy without per-item checks.
    optional: dict[str, Any] = {key: tuple(payload[key]) for key in _TEXT_LISTS if key in payload}
    for key in _PAIR_LISTS:
        if key in payload:
            optional[key] = tuple(map(tuple, payload[key]))
    return TurnRecord(
        question=payload["question"],
        language=payload["language"],
        kind=payload["kind"],
        topic=payload["topic"],
        refusal_reason=payload.get("refusal_reason"),
        as_of=payload["as_of"],
        as_of_origin=payload["as_of_origin"],
        route=payload["route"],
        headline=payload["headline"],
        **optional,
    )
