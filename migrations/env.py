"""Alembic environment: runs the revisions against the configured URL.

The target metadata is SQLModel's, filled by importing the table modules of the knowledge,
dossier and key stores, so `alembic revision --autogenerate` and tests/test_migrations.py
compare against the models.
SQLite gets batch mode because it cannot ALTER most things in place.
"""

from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

import engine.store.dossiers.tables
import engine.store.keys.tables
import engine.store.knowledge.tables  # noqa: F401  (registers the tables on SQLModel.metadata)
from engine.store.db import make_engine, normalise_url

config = context.config
target_metadata = SQLModel.metadata


def run_offline() -> None:
    """Emit SQL without a database (alembic upgrade --sql)."""
    url = normalise_url(config.get_main_option("sqlalchemy.url") or "")
    context.configure(
        url=url,
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=url.startswith("sqlite"),
    )
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    """Connect and migrate in one transaction (both backends have transactional DDL)."""
    engine = make_engine(config.get_main_option("sqlalchemy.url") or "")
    try:
        with engine.connect() as connection:
            context.configure(
                connection=connection,
                target_metadata=target_metadata,
                render_as_batch=connection.dialect.name == "sqlite",
            )
            with context.begin_transaction():
                context.run_migrations()
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
