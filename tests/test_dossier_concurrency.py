"""Many writers on one dossier: no event lost, no seq repeated, no turn split by another's events,
and none of them fails: `update` locks the dossier, so writers wait for each other.

Runs on the memory fake, and on the SQL store: a SQLite file by default, PostgreSQL when
DATABASE_URL points at one (conftest.py). The threads share one engine; each operation checks
out its own connection from the engine's pool, as concurrent requests in a server do. The last
test drives the whole service: 40 askers continuing one conversation at once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

import pytest

from engine.contract import ChatRequest
from engine.dossier.model import (
    CompletenessRecord,
    Dossier,
    InfoRecord,
    Patch,
    SourceRecord,
    SourceRef,
    TurnRecord,
    append_turn,
)
from engine.dossier.profile import Told, facts_patch
from engine.service import AnswerService
from engine.store.db import make_engine, migrate
from engine.store.dossiers.memory import MemoryDossierRepository
from engine.store.dossiers.repository import DossierRepository
from engine.store.dossiers.sql import SqlDossierRepository
from engine.store.guardrails.guards import load_guards
from engine.store.knowledge.memory import MemoryRepository
from engine.store.knowledge.packs import load_packs, pack_paths
from engine.types import ChecklistItem, PlanningTopic
from tests.test_dossier_model import turn

THREADS = 8
CALLS = 25  # per thread
NOW = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)


@pytest.fixture(params=["memory", pytest.param("sql", marks=pytest.mark.db)])
def store(request: pytest.FixtureRequest) -> Iterator[DossierRepository]:
    if request.param == "memory":
        yield MemoryDossierRepository()
        return
    database_url: str = request.getfixturevalue("database_url")
    migrate(database_url)
    engine = make_engine(database_url)
    yield SqlDossierRepository(engine)
    engine.dispose()


def sources_of(tag: str) -> tuple[SourceRef, SourceRef]:
    """Two sources no other call retrieves, so every call adds exactly two events."""
    return (SourceRef(f"{tag}-a", f"Act {tag}", "LAW"), SourceRef(f"{tag}-b", f"Guide {tag}", ""))


def write_turns(
    store: DossierRepository, dossier_id: str, thread: int, attempts: list[int]
) -> Callable[[], None]:
    """A writer: CALLS patches of two new sources and a turn, counting every patch made."""

    def run() -> None:
        for call in range(CALLS):
            tag = f"{dossier_id}-t{thread}-c{call}"

            def make(dossier: Dossier, tag: str = tag) -> Patch:
                attempts.append(1)
                return append_turn(dossier, turn(tag), sources_of(tag))

            store.update(dossier_id, make, NOW)

    return run


def run_together(writers: list[Callable[[], None]]) -> None:
    """Start every writer at once and re-raise the first failure."""
    start = threading.Barrier(len(writers))

    def after_barrier(writer: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            start.wait()
            writer()

        return run

    with ThreadPoolExecutor(len(writers)) as pool:
        futures = [pool.submit(after_barrier(writer)) for writer in writers]
        for future in futures:
            future.result()


def test_concurrent_writers_on_one_dossier_lose_nothing(store: DossierRepository) -> None:
    store.create("shared", "ana", "APP", "hr", NOW)
    attempts: list[int] = []
    run_together([write_turns(store, "shared", t, attempts) for t in range(THREADS)])

    dossier = store.get("shared")
    assert dossier is not None
    total = THREADS * CALLS
    assert dossier.version == total
    assert [event.seq for event in dossier.events] == list(range(3 * total))
    records = [event.record for event in dossier.events]
    for index in range(0, len(records), 3):
        first, second, last = records[index : index + 3]
        assert isinstance(last, TurnRecord), f"event {index + 2} should close a turn"
        tag = last.question
        expected = [
            SourceRecord("added", ref.evidence_id, ref.title, ref.authority)
            for ref in sources_of(tag)
        ]
        assert [first, second] == expected, f"turn {tag!r} is not preceded by its own sources"
    tags = {turn.question for turn in dossier.turns}
    assert tags == {f"shared-t{t}-c{c}" for t in range(THREADS) for c in range(CALLS)}
    assert len(attempts) == total  # each patch made once: writers waited, none lost a race


def test_writers_on_different_dossiers_never_conflict(store: DossierRepository) -> None:
    for dossier_id in ("left", "right"):
        store.create(dossier_id, "ana", "APP", "hr", NOW)
    attempts: dict[str, list[int]] = {"left": [], "right": []}
    run_together([write_turns(store, d, 0, attempts[d]) for d in ("left", "right")])
    assert {d: len(made) for d, made in attempts.items()} == {"left": CALLS, "right": CALLS}
    for dossier_id in ("left", "right"):
        dossier = store.get(dossier_id)
        assert dossier is not None
        assert (dossier.version, len(dossier.events)) == (CALLS, 3 * CALLS)


def test_concurrent_facts_on_one_dossier_lose_no_record(store: DossierRepository) -> None:
    """Writers recording facts (issue 11) at once: every record is kept, in one order, and a
    completeness snapshot follows a record whose score moved."""
    ask = {"hr": "?", "nl": "?", "en": "?"}
    items = tuple(ChecklistItem(f"fact_{t}", 1, ask) for t in range(THREADS))
    topics = (PlanningTopic("topic", "pack", {"en": "Topic"}, items),)
    dossier_id = "dos_" + "c" * 32
    store.create(dossier_id, "ana", "APP", "en", NOW)

    def writer(thread: int) -> Callable[[], None]:
        def run() -> None:
            for call in range(CALLS):
                told = (Told("topic", f"fact_{thread}", call),)
                store.update(dossier_id, facts_patch(told, topics), NOW)

        return run

    run_together([writer(t) for t in range(THREADS)])
    dossier = store.get(dossier_id)
    assert dossier is not None
    infos = [e.record for e in dossier.events if isinstance(e.record, InfoRecord)]
    assert len(infos) == THREADS * CALLS
    assert [e.seq for e in dossier.events] == list(range(len(dossier.events)))
    for thread in range(THREADS):  # each writer's records in the order it wrote them
        values = [r.value for r in infos if r.fact_type == f"fact_{thread}"]
        assert values == list(range(CALLS))
    snapshots = [e.record for e in dossier.events if isinstance(e.record, CompletenessRecord)]
    assert snapshots[-1].scores[0].score == 100  # every fact of the checklist is known


WRITERS = 40
TURNS = 3  # per writer


@pytest.mark.db
def test_forty_askers_continuing_one_conversation_all_get_their_turn(database_url: str) -> None:
    """The service on the SQL store: every turn answered (no retriable error), stored exactly
    once and whole, each one a version of its own."""
    migrate(database_url)
    engine = make_engine(database_url)
    knowledge = MemoryRepository()
    load_packs(knowledge, pack_paths([]))
    service = AnswerService(
        knowledge, clock=lambda: NOW, guards=load_guards(), dossiers=SqlDossierRepository(engine)
    )
    try:
        first = service.answer(ChatRequest(query="Koja je stopa PDV-a?"))
        session = first["sessionId"]
        answered: list[dict[str, Any]] = []

        def writer(number: int) -> Callable[[], None]:
            def run() -> None:
                for call in range(TURNS):
                    query = f"Koja je stopa PDV-a? (pitanje {number}-{call})"
                    request = ChatRequest(query=query, sessionId=session)
                    answered.append(service.answer(request))

            return run

        run_together([writer(n) for n in range(WRITERS)])
        assert [r for r in answered if "error" in r or r.get("sessionId") != session] == []
        dossier = SqlDossierRepository(engine).get(session)  # a fresh process's view
        assert dossier is not None
        asked = [t.question for t in dossier.turns]
        expected = [
            f"Koja je stopa PDV-a? (pitanje {n}-{c})" for n in range(WRITERS) for c in range(TURNS)
        ]
        assert sorted(asked[1:]) == sorted(expected) and asked[0] == "Koja je stopa PDV-a?"
        assert dossier.version == 1 + WRITERS * TURNS  # one write per turn, the first included
        assert [e.seq for e in dossier.events] == list(range(len(dossier.events)))
        for writer_number in range(WRITERS):  # each writer's turns in the order it asked them
            mine = [q for q in asked if f"pitanje {writer_number}-" in q]
            assert mine == [
                f"Koja je stopa PDV-a? (pitanje {writer_number}-{c})" for c in range(TURNS)
            ]
    finally:
        engine.dispose()
