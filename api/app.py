"""The FastAPI application. `create_app()` wires a service; `app_from_settings()` builds the
production one (database from DATABASE_URL, migrated, bundled packs loaded on first start)."""

from __future__ import annotations

from fastapi import FastAPI

from api.errors import install_error_handlers
from api.limits.body import BodyLimit
from api.limits.sockets import SocketSlots
from api.responses import JSONBytes
from api.routes import chat, dossiers, health, kb, profile, ws
from api.settings import Settings, get_settings
from engine.service import AnswerService
from engine.store.bootstrap import open_store
from engine.store.dossiers.sql import SqlDossierRepository
from engine.store.guardrails.guards import load_guards


def create_app(
    service: AnswerService, engine: object | None = None, settings: Settings | None = None
) -> FastAPI:
    limits = settings or get_settings()
    app = FastAPI(
        title="Navod",
        summary="Regulatory answers with verified citations, or a typed refusal.",
        version="0.1.0",
        default_response_class=JSONBytes,
    )
    app.state.service = service
    app.state.engine = engine
    app.state.limits = limits
    app.state.websockets = SocketSlots(limits.ws_max_connections)
    install_error_handlers(app)
    app.add_middleware(
        BodyLimit, max_bytes=limits.max_body_bytes, timeout_seconds=limits.body_timeout_seconds
    )
    for module in (chat, kb, health, ws, dossiers, profile):
        app.include_router(module.router)
    return app


def app_from_settings() -> FastAPI:
    settings = get_settings()
    engine, repository = open_store(settings.database_url)
    service = AnswerService(
        repository,
        refresh_seconds=settings.kb_refresh_seconds,
        guards=load_guards(),
        dossiers=SqlDossierRepository(engine),
    )
    return create_app(service, engine, settings)
