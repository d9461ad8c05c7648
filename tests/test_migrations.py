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
    assert current_revision(engine) == migration_head() == "0001"
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
