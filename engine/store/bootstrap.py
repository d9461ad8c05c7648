"""Open the store a server runs on: migrate to head, and load the bundled packs on first start
(`open_store`, run once before any worker starts), or attach a worker to that store
(`attach_store`)."""

from __future__ import annotations

import logging

import sqlalchemy as sa

from engine.errors import ConfigError
from engine.store.db import current_revision, make_engine, migrate, migration_head
from engine.store.knowledge.packs import load_packs, pack_paths
from engine.store.knowledge.sql import SqlRepository

log = logging.getLogger("navod.store")


def open_store(url: str) -> tuple[sa.Engine, SqlRepository]:
    """Migrate the database at `url`; an empty knowledge base gets the bundled packs."""
    migrate(url)
    engine = make_engine(url)
    repository = SqlRepository(engine)
    if repository.version() == 0:
        version = load_packs(repository, pack_paths([]), log.info)
        log.info("first start: loaded the bundled packs, knowledge base version %s", version)
    return engine, repository


def attach_store(url: str) -> tuple[sa.Engine, SqlRepository]:
    """The store at `url` as `open_store` left it, for one of several workers: nothing is
    migrated or loaded (N workers doing that at once would race each other), and a database
    not at the code's schema head is refused rather than served."""
    engine = make_engine(url)
    revision, head = current_revision(engine), migration_head()
    if revision != head:
        engine.dispose()
        raise ConfigError(
            f"the database is at schema revision {revision or 'none'}, the code needs {head}: "
            "start the server with `navod serve`, which migrates before the workers start"
        )
    return engine, SqlRepository(engine)
