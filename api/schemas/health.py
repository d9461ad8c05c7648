"""GET /health: what is reachable, the migration head and the knowledge base's version."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, RootModel


class Migration(BaseModel):
    current: str | None = Field(description="The revision the database is at; null: unmigrated")
    head: str = Field(description="The newest revision the code ships")


class HealthReport(BaseModel):
    """The database answered: `ok` (HTTP 200) or `degraded` (HTTP 503: not migrated to the
    head, or no knowledge base loaded)."""

    status: Literal["ok", "degraded"]
    database: Literal["reachable"]
    migration: Migration
    kbVersion: int
    counts: dict[str, int] = Field(description="Rows per table of the knowledge base")


class HealthDown(BaseModel):
    """The database did not answer (HTTP 503)."""

    status: Literal["error"]
    database: Literal["unreachable"]
    migrationHead: str


class HealthUnavailable(RootModel[HealthReport | HealthDown]):
    """HTTP 503: degraded, or the database unreachable."""
