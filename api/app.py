"""The FastAPI application. `create_app()` wires a service; `app_from_settings()` builds the
production one (database from DATABASE_URL, migrated, bundled packs loaded on first start);
`app_for_workers()` is what each `navod serve` worker builds once the store has been opened."""

from __future__ import annotations

from fastapi import FastAPI

from api.errors import install_error_handlers
from api.responses import JSONBytes
from api.routes import chat, dossiers, health, kb, profile, ws
from api.schemas.document import install_openapi
from api.settings import get_settings
from engine.service import AnswerService
from engine.store.bootstrap import attach_store, open_store
from engine.store.dossiers.sql import SqlDossierRepository
from engine.store.guardrails.guards import load_guards


def create_app(service: AnswerService, engine: object | None = None) -> FastAPI:
    app = FastAPI(
        title="Navod",
        summary="Regulatory answers with verified citations, or a typed refusal.",
        version="0.1.0",
        default_response_class=JSONBytes,
    )
    app.state.service = service
    app.state.engine = engine
    install_error_handlers(app)
    for module in (chat, kb, health, ws, dossiers, profile):
        app.include_router(module.router)
    install_openapi(app)
    return app


def app_from_settings() -> FastAPI:
    return _production_app(migrate=True)


def app_for_workers() -> FastAPI:
    """The app of one `navod serve` worker: the store was migrated and loaded before the
    workers started, so each only attaches to it."""
    return _production_app(migrate=False)


def _production_app(migrate: bool) -> FastAPI:
    settings = get_settings()
    opened = open_store if migrate else attach_store
    engine, repository = opened(settings.database_url)
    service = AnswerService(
        repository,
        refresh_seconds=settings.kb_refresh_seconds,
        guards=load_guards(),
        dossiers=SqlDossierRepository(engine),
    )
    service.snapshot()  # compiled before the first request, so no client waits for it
    return create_app(service, engine)
