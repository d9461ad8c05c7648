"""The API in process on a migrated database, with conversations kept in SQL: the client the
conversation tests share."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

import sqlalchemy as sa
from fastapi.testclient import TestClient

from api.app import create_app
from engine.service import AnswerService
from engine.store.bootstrap import open_store
from engine.store.dossiers.sql import SqlDossierRepository
from engine.store.guardrails.guards import load_guards


@contextmanager
def conversation_client(database_url: str, now: datetime) -> Iterator[tuple[TestClient, sa.Engine]]:
    """A TestClient of the whole app whose clock reads `now`, and the engine under it."""
    engine, repository = open_store(database_url)
    service = AnswerService(
        repository,
        clock=lambda: now,
        guards=load_guards(),
        dossiers=SqlDossierRepository(engine),
    )
    try:
        with TestClient(create_app(service, engine), raise_server_exceptions=False) as client:
            yield client, engine
    finally:
        engine.dispose()
