"""The alembic revisions build exactly the schema the models describe, up and down.

Runs on SQLite by default and on PostgreSQL when DATABASE_URL points at one (see conftest.py).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlmodel import SQLModel

from engine.store.db import alembic_config, current_revision, make_engine, migrate, migration_head
from engine.store.sql import SqlRepository

TABLES = {"source", "evidence", "concept", "rule", "rule_pointer", "kb_meta"}


def _differences(engine: sa.Engine) -> list[object]:
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        return list(compare_metadata(context, SQLModel.metadata))


def _tables(engine: sa.Engine) -> set[str]:
    return set(sa.inspect(engine).get_table_names())


def test_upgrade_head_matches_the_models(database_url: str) -> None:
    engine = make_engine(database_url)
    assert current_revision(engine) is None
    migrate(database_url)
    assert current_revision(engine) == migration_head() == "0002"
    assert _tables(engine) == TABLES | {"alembic_version"}
    assert _differences(engine) == []
    assert SqlRepository(engine).version() == 0  # the single version row starts at 0
    engine.dispose()


def test_downgrade_base_removes_everything_and_upgrade_again_works(database_url: str) -> None:
    engine = make_engine(database_url)
    migrate(database_url)
    command.downgrade(alembic_config(database_url), "base")
    assert current_revision(engine) is None
    assert _tables(engine) == {"alembic_version"}
    migrate(database_url)
    assert _differences(engine) == []
    engine.dispose()


def test_the_comparison_would_notice_drift(database_url: str) -> None:
    """Guard against a vacuous pass: an index missing from the database shows up as a difference."""
    engine = make_engine(database_url)
    migrate(database_url)
    with engine.begin() as connection:
        connection.execute(sa.text("DROP INDEX ix_rule_concept"))
    assert [diff[0] for diff in _differences(engine) if isinstance(diff, tuple)] == ["add_index"]
    engine.dispose()


def test_rules_stored_before_0002_keep_loading(database_url: str) -> None:
    """Knowledge written at revision 0001 (no stability column) survives the upgrade and loads."""
    from pathlib import Path

    from engine.store import convert
    from engine.store.packs import verify_packs

    mini = verify_packs([Path(__file__).parent / "data" / "packs" / "mini"])
    command.upgrade(alembic_config(database_url), "0001")
    engine = make_engine(database_url)
    tables = sa.MetaData()
    tables.reflect(engine)
    assert "stability" not in tables.tables["rule"].c
    rows = [
        ("source", [convert.to_source_row(s) for s in mini.sources]),
        ("evidence", [convert.to_evidence_row(e) for e in mini.evidence]),
        ("concept", [convert.to_concept_row(c) for c in mini.concepts]),
        ("rule", [convert.to_rule_row(r) for r in mini.rules]),
    ]
    with engine.begin() as connection:
        for table, records in rows:
            dumped = [r.model_dump(exclude={"stability"}) for r in records]
            connection.execute(tables.tables[table].insert(), dumped)
        connection.execute(sa.text("UPDATE kb_meta SET version = 1"))
    command.upgrade(alembic_config(database_url), "head")
    knowledge = SqlRepository(engine).load_knowledge()
    assert {r.id for r in knowledge.rules} == {r.id for r in mini.rules}
    assert all(rule.stability is None for rule in knowledge.rules)
    assert knowledge.version == 1
    engine.dispose()
