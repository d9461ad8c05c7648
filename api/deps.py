"""Typed dependencies for the routes; tests override them through app.dependency_overrides.

They are async so FastAPI resolves them on the event loop instead of a worker thread.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

import sqlalchemy as sa
from fastapi import Depends, Request

from engine.service import AnswerService
from engine.store.db import current_revision, migration_head
from engine.store.knowledge.repository import KnowledgeRepository


@dataclass(frozen=True, slots=True)
class SchemaRevisions:
    """The schema revision the code ships and the one the database is at (GET /health)."""

    engine: sa.Engine | None  # None: the app runs without a database of its own

    def head(self) -> str:
        """The newest revision shipped with the code."""
        return migration_head()

    def current(self) -> str | None:
        """The revision the database is at (None when unmigrated); raises when unreachable.
        An app without a database of its own is taken to be at the head."""
        return current_revision(self.engine) if self.engine is not None else migration_head()


async def get_service(request: Request) -> AnswerService:
    service: AnswerService = request.app.state.service
    return service


async def get_repository(request: Request) -> KnowledgeRepository:
    repository: KnowledgeRepository = request.app.state.service.repository
    return repository


async def get_schema(request: Request) -> SchemaRevisions:
    engine: sa.Engine | None = getattr(request.app.state, "engine", None)
    return SchemaRevisions(engine)


ServiceDep = Annotated[AnswerService, Depends(get_service)]
RepositoryDep = Annotated[KnowledgeRepository, Depends(get_repository)]
SchemaDep = Annotated[SchemaRevisions, Depends(get_schema)]
