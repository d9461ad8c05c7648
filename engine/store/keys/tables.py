"""The api_key table (SQLModel). Keep migrations/versions/0009 in step with this file."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Field, SQLModel


class ApiKeyRow(SQLModel, table=True):
    """One API key. The secret itself is never stored: only its SHA-256 (`secret_hash`) and
    the first characters (`prefix`), which are not secret, to show and to look the key up by."""

    __tablename__ = "api_key"
    __table_args__ = (sa.Index("ix_api_key_prefix", "prefix"),)

    id: str = Field(primary_key=True, sa_type=sa.String)
    name: str = Field(sa_type=sa.String)
    prefix: str = Field(sa_type=sa.String)
    secret_hash: str = Field(sa_type=sa.String)
    created_at: datetime = Field(sa_type=sa.DateTime(timezone=True))
    revoked_at: datetime | None = Field(default=None, sa_type=sa.DateTime(timezone=True))
    # Requests per minute for this key; NULL: the server's NAVOD_RATE_LIMIT_PER_MINUTE.
    rate_limit_per_minute: int | None = Field(default=None, sa_type=sa.Integer)
