"""GET /health: what is reachable, the migration head and the knowledge base's version."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, RootModel


class Migration(BaseModel):
    current: str | None = Field(description="The revision the database is at; null: unmigrated")
    head: str = Field(description="The newest revision the code ships")


Problem = Literal["database_unreachable", "migration_behind", "no_knowledge"]


class Stateless(BaseModel):
    answering: bool = Field(description="Single questions are answered (a snapshot is in memory)")
    snapshotVersion: int | None = Field(description="The KB version they are answered from")
    keyedCallers: Literal["all", "recent", "none"] = Field(
        description="Keyed callers served: all (the key store answers), recent (it is down: "
        "keys confirmed in the last minutes) or none"
    )
    recentKeys: int = Field(description="Keys confirmed in the last minutes")


class HealthReport(BaseModel):
    """The database answered: `ok` (HTTP 200) or `degraded` (HTTP 503: not migrated to the
    head, or no knowledge base loaded)."""

    status: Literal["ok", "degraded"]
    database: Literal["reachable"]
    migration: Migration
    kbVersion: int | None = Field(default=None, description="Absent when the migration is behind")
    counts: dict[str, int] | None = Field(
        default=None, description="Rows per table of the knowledge base"
    )
    problems: list[Problem] = Field(description="What is down; empty when ok")
    stateless: Stateless


class HealthDown(BaseModel):
    """The database did not answer (HTTP 503)."""

    status: Literal["error"]
    database: Literal["unreachable"]
    migrationHead: str
    problems: list[Problem]
    stateless: Stateless


class HealthUnavailable(RootModel[HealthReport | HealthDown]):
    """HTTP 503: degraded, or the database unreachable."""
