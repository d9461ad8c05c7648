"""The conversation tables (SQLModel): a dossier row and its append-only events.

Rows only: events become domain records in convert.py. Keep migrations/versions in step with
this file (tests/test_migrations.py fails when they drift).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Field, SQLModel


class DossierRow(SQLModel, table=True):
    """One conversation; its content is the dossier_event rows (see engine/dossier/model.py).

    `version` is the optimistic-concurrency check: every applied patch bumps it. `event_count`
    is the next event's seq, kept here so a writer numbers its events from the row it updates.
    """

    __tablename__ = "dossier"
    # Leads with asker, so it also serves lookups by asker alone (recent, prune per asker).
    __table_args__ = (sa.Index("ix_dossier_asker_updated_at", "asker", "updated_at"),)

    id: str = Field(primary_key=True, sa_type=sa.String)
    asker: str = Field(sa_type=sa.String)
    surface: str = Field(sa_type=sa.String)
    language: str = Field(sa_type=sa.String)
    created_at: datetime = Field(sa_type=sa.DateTime(timezone=True))
    updated_at: datetime = Field(sa_type=sa.DateTime(timezone=True))
    version: int = Field(sa_type=sa.Integer)
    event_count: int = Field(sa_type=sa.Integer)


class DossierEventRow(SQLModel, table=True):
    """The `seq`-th event of a dossier: a turn or a source change, as JSON (convert.py).

    The primary key (dossier_id, seq) is the second guard, after the version check, that two
    writers never store the same seq. Deleting a dossier deletes its events (ON DELETE CASCADE).
    """

    __tablename__ = "dossier_event"

    dossier_id: str = Field(
        primary_key=True, foreign_key="dossier.id", ondelete="CASCADE", sa_type=sa.String
    )
    seq: int = Field(
        primary_key=True, sa_type=sa.Integer, sa_column_kwargs={"autoincrement": False}
    )
    kind: str = Field(sa_type=sa.String)  # "turn", or the source action (added, selected, ...)
    at: datetime = Field(sa_type=sa.DateTime(timezone=True))
    payload: dict[str, Any] = Field(sa_type=sa.JSON)


class TurnShownRow(SQLModel, table=True):
    """The response a turn event was answered with, as sent (encoded JSON), so a client shows
    an earlier turn exactly as it was: its proof, sources and trace. Written in the turn's own
    transaction; read only by `GET /api/dossiers/{id}/turns`, never to answer. Deleting a
    dossier deletes these rows (ON DELETE CASCADE)."""

    __tablename__ = "dossier_turn_shown"

    dossier_id: str = Field(
        primary_key=True, foreign_key="dossier.id", ondelete="CASCADE", sa_type=sa.String
    )
    seq: int = Field(
        primary_key=True, sa_type=sa.Integer, sa_column_kwargs={"autoincrement": False}
    )
    body: str = Field(sa_type=sa.Text)
