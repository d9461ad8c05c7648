"""The FastAPI application. `create_app()` wires a service; `app_from_settings()` builds the
production one (database from DATABASE_URL, migrated, bundled packs loaded on first start);
`app_for_workers()` is what each `navod serve` worker builds once the store has been opened."""

from __future__ import annotations

import sqlalchemy as sa
from fastapi import FastAPI

from api.auth.guard import AuthConfig, Guard
from api.auth.hosts import TrustedHosts
from api.auth.origins import parse_origins
from api.errors import install_error_handlers
from api.limits.body import BodyLimit
from api.limits.sockets import SocketSlots
from api.responses import JSONBytes
from api.routes import chat, dossiers, health, kb, profile, ws
from api.schemas.document import install_openapi
from api.settings import Settings, get_settings
from api.web.pages import install_pages
from engine.service import AnswerService
from engine.store.bootstrap import attach_store, open_store
from engine.store.dossiers.sql import SqlDossierRepository
from engine.store.guardrails.guards import load_guards
from engine.store.keys.memory import MemoryKeyRepository
from engine.store.keys.sql import SqlKeyRepository


def create_app(
    service: AnswerService,
    engine: object | None = None,
    auth: AuthConfig | None = None,
    settings: Settings | None = None,
) -> FastAPI:
    """The app over `service`; `auth` defaults to the keys in `engine`'s database (none
    without one), anonymous callers allowed, the default rate limit; `settings` (default: the
    environment's) gives the limits on what one request may hold and the hosts it may name."""
    limits = settings or get_settings()
    app = FastAPI(
        title="Navod",
        summary="Regulatory answers with verified citations, or a typed refusal.",
        version="0.1.0",
        default_response_class=JSONBytes,
        docs_url=None,  # served by api/web/pages.py from local files
        redoc_url=None,
    )
    app.state.service = service
    app.state.engine = engine
    app.state.limits = limits
    app.state.websockets = SocketSlots(limits.ws_max_connections)
    install_error_handlers(app)
    app.add_middleware(
        BodyLimit, max_bytes=limits.max_body_bytes, timeout_seconds=limits.body_timeout_seconds
    )
    if auth is None:
        keys = SqlKeyRepository(engine) if isinstance(engine, sa.Engine) else MemoryKeyRepository()
        auth = AuthConfig(keys)
    app.state.auth = auth
    app.add_middleware(Guard, config=auth)
    # Outermost: a request naming another host (DNS rebinding) is refused before the guard.
    app.add_middleware(TrustedHosts, allowed=limits.trusted_hosts)
    for module in (chat, kb, health, ws, dossiers, profile):
        app.include_router(module.router)
    install_openapi(app)
    install_pages(app)
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
    auth = AuthConfig(
        SqlKeyRepository(engine),
        require_key=settings.require_key,
        allowed_origins=parse_origins(settings.allowed_origins),
        rate_limit_per_minute=settings.rate_limit_per_minute,
        refusals_per_minute=settings.refusals_per_minute,
    )
    return create_app(service, engine, auth, settings)
