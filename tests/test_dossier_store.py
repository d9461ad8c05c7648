"""Contract tests for DossierRepository: one body, run on the memory fake and the SQL store."""

from __future__ import annotations

from dataclasses import fields, replace
from datetime import UTC, datetime, timedelta, timezone

import pytest
import sqlalchemy as sa

from engine.dossier.model import (
    Dossier,
    Patch,
    SourceRecord,
    SourceRef,
    TurnRecord,
    append_turn,
    change_selection,
    selection,
)
from engine.errors import DossierNotFound, StoreError, VersionConflict
from engine.store.dossiers.cache import KnownDossiers
from engine.store.dossiers.convert import DossierSummary, event_payload, event_record
from engine.store.dossiers.repository import DossierRepository
from engine.store.dossiers.sql import SqlDossierRepository
from tests.test_dossier_model import BLOG, GUIDE, LAW, turn

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
FULL_TURN = turn(
    "a snižena?",
    language="hr",
    kind="REFUSAL",
    refusal_reason="MISSING_CLIENT_DATA",
    as_of_origin="carried",
    facts=(("birth_year", "1960"), ("entity_type", "obrt")),
    carried=("concept", "as_of"),
    evidence=("ev_law", "ev_guide"),
)


@pytest.fixture
def store(dossier_store: DossierRepository) -> DossierRepository:
    return dossier_store


def at(minutes: int) -> datetime:
    return T0 + timedelta(minutes=minutes)


def new(store: DossierRepository, dossier_id: str = "d1", asker: str = "ana") -> Dossier:
    return store.create(dossier_id, asker, "APP", "en", T0)


def test_create_and_get_round_trip(store: DossierRepository) -> None:
    zagreb = timezone(timedelta(hours=1))
    created = store.create("d1", "ana", "APP", "hr", T0.astimezone(zagreb))
    assert created == Dossier("d1", "ana", "APP", "hr", T0, T0, version=0)
    assert created.created_at.tzinfo == UTC
    assert store.get("d1") == created
    assert store.get("nope") is None


def test_an_id_is_created_once(store: DossierRepository) -> None:
    new(store)
    with pytest.raises(StoreError, match="'d1' already exists"):
        new(store)


def test_apply_appends_events_bumps_the_version_and_round_trips(store: DossierRepository) -> None:
    dossier = new(store)
    refs = (SourceRef("ev_law", "Zakon o PDV-u", "LAW", "Narodne novine"), GUIDE)
    applied = store.apply("d1", append_turn(dossier, FULL_TURN, refs), at(1))
    assert (applied.version, applied.language, applied.updated_at) == (1, "hr", at(1))
    assert applied.created_at == T0
    assert [e.seq for e in applied.events] == [0, 1, 2]
    assert all(e.at == at(1) for e in applied.events)
    assert [e.record for e in applied.events] == [
        SourceRecord("added", "ev_law", "Zakon o PDV-u", "LAW", "Narodne novine"),
        SourceRecord("added", "ev_guide", GUIDE.title, GUIDE.authority),
        FULL_TURN,
    ]
    assert store.get("d1") == applied

    unselect = change_selection(applied, "unselected", ("ev_guide",))
    changed = store.apply("d1", unselect, at(2))
    assert (changed.version, changed.language, len(changed.events)) == (2, "hr", 4)
    assert [ref.evidence_id for ref in selection(changed).unselected] == ["ev_guide"]
    assert store.get("d1") == changed


def test_a_stale_patch_is_refused_and_writes_nothing(store: DossierRepository) -> None:
    dossier = new(store)
    store.apply("d1", append_turn(dossier, turn()), at(1))
    with pytest.raises(VersionConflict, match="no longer at version 0") as refused:
        store.apply("d1", append_turn(dossier, turn("other")), at(2))
    assert (refused.value.dossier_id, refused.value.base_version) == ("d1", 0)
    stored = store.get("d1")
    assert stored is not None
    assert (stored.version, stored.turns, stored.updated_at) == (1, (turn(),), at(1))


def test_unknown_dossiers_are_not_found(store: DossierRepository) -> None:
    with pytest.raises(DossierNotFound, match="'ghost'"):
        store.apply("ghost", Patch(0, (turn(),)), T0)
    with pytest.raises(DossierNotFound):
        store.apply("ghost", Patch(0, ()), T0)
    with pytest.raises(DossierNotFound):
        store.update("ghost", lambda d: append_turn(d, turn()), T0)


def test_an_empty_patch_writes_nothing(store: DossierRepository) -> None:
    dossier = store.apply("d1", append_turn(new(store), turn(), (LAW,)), at(1))
    unchanged = store.apply("d1", change_selection(dossier, "selected", ("ev_law",)), at(5))
    assert unchanged == dossier == store.get("d1")
    with pytest.raises(VersionConflict):  # stale even though empty: the caller must reread
        store.apply("d1", Patch(0, ()), at(5))


def test_delete_removes_the_dossier_and_its_events(store: DossierRepository) -> None:
    for dossier_id in ("d1", "d2"):
        store.apply(dossier_id, append_turn(new(store, dossier_id), turn(), (LAW,)), at(1))
    assert store.delete("d1") is True
    assert store.get("d1") is None
    assert store.delete("d1") is False
    kept = store.get("d2")
    assert kept is not None and len(kept.events) == 2
    with pytest.raises(DossierNotFound):
        store.apply("d1", Patch(1, (turn(),)), at(2))


def test_delete_leaves_no_event_rows(migrated_engine: sa.Engine) -> None:
    store = SqlDossierRepository(migrated_engine)
    for dossier_id in ("d1", "d2"):
        store.apply(dossier_id, append_turn(new(store, dossier_id), turn(), (LAW, GUIDE)), at(1))
    store.delete("d1")
    with migrated_engine.connect() as connection:
        rows = connection.execute(
            sa.text("SELECT dossier_id, count(*) FROM dossier_event GROUP BY dossier_id")
        )
        assert rows.all() == [("d2", 3)]


def test_recent_lists_an_askers_newest_first(store: DossierRepository) -> None:
    for minute, dossier_id in enumerate(["a", "b", "c", "d"]):
        dossier = store.create(dossier_id, "ana", "APP", "en", at(minute))
        store.apply(dossier_id, append_turn(dossier, turn(f"first {dossier_id}")), at(minute))
    store.create("other", "bob", "MARKETING", "nl", at(9))
    b = store.get("b")
    assert b is not None
    store.apply("b", append_turn(b, turn("second b", language="nl")), at(10))

    listed = store.recent("ana", 3)
    assert [s.id for s in listed] == ["b", "d", "c"]
    assert listed[0] == DossierSummary("b", "ana", "APP", "nl", at(1), at(10), 2, "second b")
    assert (listed[1].turns, listed[1].last_question) == (1, "first d")
    assert [s.id for s in store.recent("ana", 10)] == ["b", "d", "c", "a"]
    assert store.recent("bob", 5) == (
        DossierSummary("other", "bob", "MARKETING", "nl", at(9), at(9), 0, ""),
    )
    assert store.recent("ana", 0) == ()
    assert store.recent("nobody", 5) == ()


def test_recent_breaks_ties_by_id(store: DossierRepository) -> None:
    for dossier_id in ("y", "x", "z"):
        new(store, dossier_id)
    assert [s.id for s in store.recent("ana", 5)] == ["x", "y", "z"]


def test_update_makes_the_patch_from_the_dossier_as_stored(store: DossierRepository) -> None:
    read_earlier = new(store)
    store.apply("d1", append_turn(read_earlier, turn("theirs"), (LAW,)), at(1))
    calls: list[int] = []

    def make(dossier: Dossier) -> Patch:
        calls.append(dossier.version)
        return append_turn(dossier, turn("mine"), (LAW, BLOG))

    updated = store.update("d1", make, at(2))
    assert calls == [1]  # made once, from the stored version: no conflict to retry
    assert updated == store.get("d1")
    assert (updated.version, updated.updated_at) == (2, at(2))
    questions = [e.record.question for e in updated.events if isinstance(e.record, TurnRecord)]
    assert questions == ["theirs", "mine"]
    assert [ref.evidence_id for ref in selection(updated).all] == ["ev_law", "ev_blog"]


def test_an_update_making_no_change_writes_nothing(store: DossierRepository) -> None:
    dossier = store.apply("d1", append_turn(new(store), turn(), (LAW,)), at(1))
    unchanged = store.update("d1", lambda d: change_selection(d, "selected", ("ev_law",)), at(5))
    assert unchanged == dossier == store.get("d1")


def test_an_update_that_fails_writes_nothing(store: DossierRepository) -> None:
    new(store)

    def broken(dossier: Dossier) -> Patch:
        raise RuntimeError("the answer failed")

    with pytest.raises(RuntimeError):
        store.update("d1", broken, at(1))
    stored = store.get("d1")
    assert stored is not None and (stored.version, stored.events) == (0, ())
    assert store.update("d1", lambda d: append_turn(d, turn()), at(2)).version == 1


def test_create_with_a_first_patch_is_one_write(store: DossierRepository) -> None:
    made: list[Dossier] = []

    def first(dossier: Dossier) -> Patch:
        made.append(dossier)
        return append_turn(dossier, turn("first", language="nl"), (LAW,))

    created = store.create("d1", "ana", "APP", "en", at(1), first)
    assert made == [Dossier("d1", "ana", "APP", "en", at(1), at(1), version=0)]
    assert created == store.get("d1")
    assert (created.version, created.language, created.updated_at) == (1, "nl", at(1))
    assert [type(e.record) for e in created.events] == [SourceRecord, TurnRecord]
    with pytest.raises(StoreError, match="already exists"):
        store.create("d1", "bob", "APP", "en", at(2), first)
    assert store.get("d1") == created


# --- payload conversion -----------------------------------------------------------------------


def test_every_record_field_is_stored() -> None:
    """A field added to a record must be added to the payload too (store/dossiers/convert.py)."""
    assert set(event_payload(FULL_TURN)) == {f.name for f in fields(TurnRecord)}
    source = SourceRecord("added", "ev_law", "Zakon", "LAW", "NN")
    assert set(event_payload(source)) == {f.name for f in fields(SourceRecord)} - {"action"}
    assert event_record("added", event_payload(source)) == source
    assert event_record("turn", event_payload(FULL_TURN)) == FULL_TURN


def test_pairs_are_stored_as_two_item_lists() -> None:
    payload = event_payload(FULL_TURN)
    assert payload["facts"] == [["birth_year", "1960"], ["entity_type", "obrt"]]
    assert payload["concepts"] == ["hr-pdv-stopa"]


def test_old_payloads_load_with_defaults_and_new_keys_are_ignored() -> None:
    minimal = {
        "question": "q",
        "language": "nl",
        "kind": "ANSWER",
        "topic": "REGULATORY",
        "as_of": "2026-01-01",
        "as_of_origin": "today",
        "route": "faq",
        "headline": "h",
        "added_in_a_later_version": {"x": 1},
    }
    expected = TurnRecord(
        "q", "nl", "ANSWER", "REGULATORY", None, "2026-01-01", "today", "faq", "h"
    )
    assert event_record("turn", minimal) == expected
    source = event_record("unselected", {"evidence_id": "ev_1", "rank": 3})
    assert source == SourceRecord("unselected", "ev_1")


def test_an_unknown_event_kind_is_refused_by_name() -> None:
    with pytest.raises(StoreError, match="'note' is unknown"):
        event_record("note", {})


def test_stored_rows_with_extra_and_missing_keys_load(migrated_engine: sa.Engine) -> None:
    store = SqlDossierRepository(migrated_engine)
    new(store)
    old = '{"question": "q", "language": "en", "kind": "ANSWER", "topic": "REGULATORY", ' + (
        '"as_of": "2026-01-01", "as_of_origin": "today", "route": "pipeline", "headline": "h", '
        '"future": [1, 2]}'
    )
    with migrated_engine.begin() as connection:
        insert = sa.text(
            "INSERT INTO dossier_event (dossier_id, seq, kind, at, payload) VALUES "
            "('d1', 0, 'added', :at, '{\"evidence_id\": \"ev_1\"}'), "
            "('d1', 1, 'turn', :at, :old)"
        )
        moment = sa.bindparam("at", type_=sa.DateTime(timezone=True))
        connection.execute(insert.bindparams(moment), {"at": T0, "old": old})
        connection.execute(sa.text("UPDATE dossier SET version = 1, event_count = 2"))
    dossier = store.get("d1")
    assert dossier is not None
    assert [e.record for e in dossier.events] == [
        SourceRecord("added", "ev_1"),
        TurnRecord("q", "en", "ANSWER", "REGULATORY", None, "2026-01-01", "today", "pipeline", "h"),
    ]


# --- what one process knows: reads fetch only newer events (dossiers/cache.py) --------------------


def test_another_process_sees_every_write(migrated_engine: sa.Engine) -> None:
    """Two repositories stand for two server processes, each with what it read before."""
    here, there = SqlDossierRepository(migrated_engine), SqlDossierRepository(migrated_engine)
    dossier = store_turns(here, "d1", 2)
    assert there.get("d1") == dossier
    newer = here.apply("d1", append_turn(dossier, turn("third"), (BLOG,)), at(3))
    assert there.get("d1") == newer  # the older state `there` knew is extended, not served
    latest = there.apply("d1", change_selection(newer, "unselected", ("ev_blog",)), at(4))
    assert here.get("d1") == latest == there.get("d1")
    with pytest.raises(VersionConflict):
        here.apply("d1", append_turn(newer, turn("stale")), at(5))


def test_a_dossier_created_again_under_its_id_is_read_afresh(migrated_engine: sa.Engine) -> None:
    here, there = SqlDossierRepository(migrated_engine), SqlDossierRepository(migrated_engine)
    store_turns(here, "d1", 2)
    assert there.get("d1") is not None
    here.delete("d1")
    reborn = here.create("d1", "ana", "APP", "nl", at(10))
    again = here.apply("d1", append_turn(reborn, turn("new life")), at(11))
    assert there.get("d1") == again
    assert [t.question for t in again.turns] == ["new life"]


def test_known_dossiers_keep_the_newest_and_the_most_recently_used() -> None:
    known = KnownDossiers(capacity=2)
    first = Dossier("a", "ana", "APP", "hr", T0, T0, version=2)
    known.remember(first)
    known.remember(replace(first, version=1))  # an older read arriving late is not kept
    assert known.lookup("a", T0) == first
    assert known.lookup("a", at(1)) is None  # another incarnation of the id
    known.remember(replace(first, id="b"))
    known.lookup("a", T0)
    known.remember(replace(first, id="c"))  # evicts b, the least recently used
    assert [known.lookup(i, T0) is not None for i in "abc"] == [True, False, True]
    known.forget("a")
    assert known.lookup("a", T0) is None


def store_turns(store: DossierRepository, dossier_id: str, turns: int) -> Dossier:
    dossier = new(store, dossier_id)
    for index in range(turns):
        source = SourceRef(f"ev_{index}", f"Source {index}", "LAW")
        dossier = store.apply(
            dossier_id, append_turn(dossier, turn(f"q{index}"), (source,)), at(index)
        )
    return dossier
