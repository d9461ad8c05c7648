"""Settings, read from the environment in one place, on demand (never at import time)."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from engine.store.db import database_url_default


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="", extra="ignore")

    database_url: str = Field(default_factory=database_url_default, alias="DATABASE_URL")
    host: str = Field(default="127.0.0.1", alias="HOST")
    port: int = Field(default=8000, alias="PORT", ge=1, le=65535)
    log_level: str = Field(default="info", alias="LOG_LEVEL")
    kb_refresh_seconds: float = Field(default=1.0, alias="KB_REFRESH_SECONDS", ge=0)
    # Retention (navod dossiers prune): dossiers not updated for this many days go, then each
    # asker's beyond the newest this many.
    dossier_max_age_days: int = Field(default=90, alias="DOSSIER_MAX_AGE_DAYS", ge=1)
    dossier_max_per_asker: int = Field(default=100, alias="DOSSIER_MAX_PER_ASKER", ge=1)
    # The server `navod chat` and the monitors talk to when none is given: NAVOD_URL, else
    # this machine on PORT.
    navod_url: str | None = Field(default=None, alias="NAVOD_URL")
    # Identity (issue 12, api/auth/): 1 makes every API endpoint need an API key (not /health,
    # the page, its static files or the documentation: api/auth/guard.py);
    # the origins (comma list) browsers and WebSockets may come from besides the server's own;
    # requests per minute per key (a key's own limit wins) or per client address.
    require_key: bool = Field(default=False, alias="NAVOD_REQUIRE_KEY")
    allowed_origins: str = Field(default="", alias="NAVOD_ALLOWED_ORIGINS")
    rate_limit_per_minute: int = Field(default=600, alias="NAVOD_RATE_LIMIT_PER_MINUTE", ge=1)
    # Refused requests (bad or unknown keys, foreign origins) per minute per client address;
    # past it the address gets 429 before its key is even looked up (api/auth/guard.py).
    refusals_per_minute: int = Field(default=30, alias="NAVOD_REFUSALS_PER_MINUTE", ge=1)
    # The host names (comma list; `*.example.com` for its subdomains, `*` for any) the server
    # answers to, whatever the port; any other Host header is a 400, so a page on an attacker's
    # domain that re-resolves to this machine (DNS rebinding) reaches nothing. Empty: HOST,
    # localhost and 127.0.0.1. Serving on HOST=0.0.0.0 (or ::), set it to the names and
    # addresses clients and health probes use, e.g. navod.example.com,10.0.0.5.
    allowed_hosts: str = Field(default="", alias="NAVOD_ALLOWED_HOSTS")
    # The key the clients (`navod ask --url`, `navod chat`, the monitors) send.
    api_key: str | None = Field(default=None, alias="NAVOD_API_KEY")
    # Bounded work per request (docs/api.md, "Limits"): what one client may hold of a worker.
    max_body_bytes: int = Field(default=64 * 1024, alias="NAVOD_MAX_BODY_BYTES", ge=1)
    body_timeout_seconds: float = Field(default=10.0, alias="NAVOD_BODY_TIMEOUT_SECONDS", gt=0)
    header_timeout_seconds: float = Field(default=10.0, alias="NAVOD_HEADER_TIMEOUT_SECONDS", gt=0)
    keep_alive_seconds: int = Field(default=5, alias="NAVOD_KEEP_ALIVE_SECONDS", ge=1)
    max_header_bytes: int = Field(default=16 * 1024, alias="NAVOD_MAX_HEADER_BYTES", ge=1024)
    ws_max_bytes: int = Field(default=64 * 1024, alias="NAVOD_WS_MAX_BYTES", ge=1)
    ws_max_connections: int = Field(default=200, alias="NAVOD_WS_MAX_CONNECTIONS", ge=1)
    ws_receive_timeout_seconds: float = Field(
        default=10.0, alias="NAVOD_WS_RECEIVE_TIMEOUT_SECONDS", gt=0
    )
    ws_ping_seconds: float = Field(default=20.0, alias="NAVOD_WS_PING_SECONDS", gt=0)

    @property
    def trusted_hosts(self) -> tuple[str, ...]:
        """NAVOD_ALLOWED_HOSTS as a list, or its default: the bound address and loopback."""
        named = tuple(part.strip() for part in self.allowed_hosts.split(",") if part.strip())
        return named or (self.host, "localhost", "127.0.0.1")

    @property
    def server_url(self) -> str:
        """The HTTP base URL of the server this environment points at."""
        return (self.navod_url or f"http://127.0.0.1:{self.port}").rstrip("/")


def get_settings() -> Settings:
    return Settings()
