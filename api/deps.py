"""Typed dependencies for the routes; tests override them through app.dependency_overrides.

They are async so FastAPI resolves them on the event loop instead of a worker thread.
"""

from __future__ import annotations

from typing import Annotated

import sqlalchemy as sa
from fastapi import Depends, Request

from engine.service import AnswerService
from engine.store.repository import KnowledgeRepository


async def get_service(request: Request) -> AnswerService:
    service: AnswerService = request.app.state.service
    return service


async def get_repository(request: Request) -> KnowledgeRepository:
    repository: KnowledgeRepository = request.app.state.service.repository
    return repository


async def get_engine(request: Request) -> sa.Engine | None:
    engine: sa.Engine | None = getattr(request.app.state, "engine", None)
    return engine


ServiceDep = Annotated[AnswerService, Depends(get_service)]
RepositoryDep = Annotated[KnowledgeRepository, Depends(get_repository)]
EngineDep = Annotated[sa.Engine | None, Depends(get_engine)]
