"""Open the store a server runs on: migrate to head, and load the bundled packs on first start."""

from __future__ import annotations

import logging

import sqlalchemy as sa

from engine.store.db import make_engine, migrate
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
