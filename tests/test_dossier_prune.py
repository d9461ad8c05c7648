"""Retention: prune by age, by count per asker, both, or nothing; events always go too."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from typer.testing import CliRunner

from api.cli import app
from engine.dossier.model import append_turn
from engine.store.db import make_engine, migrate
from engine.store.dossiers.repository import DossierRepository
from engine.store.dossiers.sql import SqlDossierRepository
from tests.test_dossier_model import GUIDE, LAW, turn

NOW = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
DAY = timedelta(days=1)
MAX_AGE = timedelta(days=90)


@pytest.fixture
def store(dossier_store: DossierRepository) -> DossierRepository:
    return dossier_store


def put(store: DossierRepository, dossier_id: str, asker: str, updated: datetime) -> None:
    """A dossier created a day before `updated`, whose one turn (and two sources) came then."""
    dossier = store.create(dossier_id, asker, "APP", "hr", updated - DAY)
    store.apply(dossier_id, append_turn(dossier, turn(dossier_id), (LAW, GUIDE)), updated)


def remaining(store: DossierRepository, *askers: str) -> list[str]:
    return sorted(s.id for asker in askers for s in store.recent(asker, 1000))


def test_prune_by_age_keeps_the_boundary(store: DossierRepository) -> None:
    put(store, "old", "ana", NOW - MAX_AGE - timedelta(seconds=1))
    put(store, "edge", "ana", NOW - MAX_AGE)  # exactly max_age old: not older, kept
    put(store, "new", "bob", NOW - DAY)
    assert store.prune(NOW, MAX_AGE, 100) == 1
    assert remaining(store, "ana", "bob") == ["edge", "new"]
    assert store.get("old") is None


def test_prune_by_count_keeps_each_askers_newest(store: DossierRepository) -> None:
    for index in range(5):
        put(store, f"ana-{index}", "ana", NOW - timedelta(hours=index))
    for index in range(2):
        put(store, f"bob-{index}", "bob", NOW - timedelta(hours=index))
    assert store.prune(NOW, MAX_AGE, 2) == 3
    assert remaining(store, "ana", "bob") == ["ana-0", "ana-1", "bob-0", "bob-1"]


def test_anonymous_dossiers_are_pruned_by_age_only(store: DossierRepository) -> None:
    """Anonymous conversations share one asker, not an owner: no count cap among them."""
    for index in range(4):
        put(store, f"anon-{index}", "anonymous", NOW - timedelta(hours=index))
    put(store, "anon-old", "anonymous", NOW - 100 * DAY)
    for index in range(3):
        put(store, f"key-{index}", "key_0123456789abcdef", NOW - timedelta(hours=index))
    assert store.prune(NOW, MAX_AGE, 2) == 2  # anon-old by age, key-2 by count
    assert store.get("anon-old") is None and store.get("key-2") is None
    assert all(store.get(f"anon-{index}") is not None for index in range(4))


def test_prune_by_age_then_by_count(store: DossierRepository) -> None:
    put(store, "ana-old", "ana", NOW - 100 * DAY)
    for index in range(3):
        put(store, f"ana-{index}", "ana", NOW - index * DAY)
    put(store, "bob-old", "bob", NOW - 91 * DAY)
    put(store, "bob-new", "bob", NOW)
    # Two too old, then ana keeps her newest two of three: the old ones do not count.
    assert store.prune(NOW, MAX_AGE, 2) == 3
    assert remaining(store, "ana", "bob") == ["ana-0", "ana-1", "bob-new"]


def test_nothing_to_prune(store: DossierRepository) -> None:
    assert store.prune(NOW, MAX_AGE, 1) == 0
    put(store, "ana-0", "ana", NOW - DAY)
    put(store, "bob-0", "bob", NOW - 2 * DAY)
    assert store.prune(NOW, MAX_AGE, 1) == 0
    assert remaining(store, "ana", "bob") == ["ana-0", "bob-0"]


def test_pruned_dossiers_leave_no_event_rows(migrated_engine: sa.Engine) -> None:
    store = SqlDossierRepository(migrated_engine)
    put(store, "old", "ana", NOW - 100 * DAY)
    for index in range(3):
        put(store, f"ana-{index}", "ana", NOW - index * DAY)
    assert event_rows(migrated_engine) == {"old": 3, "ana-0": 3, "ana-1": 3, "ana-2": 3}
    assert store.prune(NOW, MAX_AGE, 1) == 3
    assert event_rows(migrated_engine) == {"ana-0": 3}


def event_rows(engine: sa.Engine) -> dict[str, int]:
    query = sa.text("SELECT dossier_id, count(*) FROM dossier_event GROUP BY dossier_id")
    with engine.connect() as connection:
        return {dossier_id: count for dossier_id, count in connection.execute(query)}


def test_the_prune_command_uses_the_settings_and_its_options(database_url: str) -> None:
    runner = CliRunner()
    migrate(database_url)
    engine = make_engine(database_url)
    store = SqlDossierRepository(engine)
    now = datetime.now(UTC)  # the command prunes against the real clock
    put(store, "ancient", "ana", now - 200 * DAY)
    put(store, "month", "ana", now - 40 * DAY)
    for index in range(3):
        put(store, f"ana-{index}", "ana", now - index * DAY)
    env = {"DATABASE_URL": database_url}

    result = runner.invoke(app, ["dossiers", "prune"], env=env)  # 90 days, 100 per asker
    assert result.exit_code == 0, result.output
    assert "deleted 1 dossier " in result.output
    result = runner.invoke(app, ["dossiers", "prune"], env={**env, "DOSSIER_MAX_AGE_DAYS": "30"})
    assert "deleted 1 dossier " in result.output
    result = runner.invoke(app, ["dossiers", "prune", "--max-per-asker", "2"], env=env)
    assert result.exit_code == 0, result.output
    assert "deleted 1 dossier " in result.output
    assert remaining(store, "ana") == ["ana-0", "ana-1"]
    assert event_rows(engine) == {"ana-0": 3, "ana-1": 3}
    result = runner.invoke(app, ["dossiers", "prune", "--max-age-days", "0"], env=env)
    assert result.exit_code == 2  # retention of nothing is refused, not obeyed
    engine.dispose()
