"""SqlKeyRepository: API keys on SQLite or PostgreSQL (tables.py, revision 0009)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import SQLModel

from engine.errors import StoreError
from engine.store.db import as_utc
from engine.store.keys.repository import ApiKey
from engine.store.keys.tables import ApiKeyRow
from engine.store.outage import translates_outage

_KEY: sa.Table = SQLModel.metadata.tables[str(ApiKeyRow.__tablename__)]


class SqlKeyRepository:
    """KeyRepository over an engine on a database migrated to head."""

    def __init__(self, engine: sa.Engine) -> None:
        self._engine = engine

    def add(self, key: ApiKey) -> ApiKey:
        stored = ApiKey(
            key.id,
            key.name,
            key.prefix,
            key.secret_hash,
            as_utc(key.created_at),
            None if key.revoked_at is None else as_utc(key.revoked_at),
            key.rate_limit_per_minute,
        )
        try:
            with self._engine.begin() as connection:
                connection.execute(
                    _KEY.insert().values(
                        id=stored.id,
                        name=stored.name,
                        prefix=stored.prefix,
                        secret_hash=stored.secret_hash,
                        created_at=stored.created_at,
                        revoked_at=stored.revoked_at,
                        rate_limit_per_minute=stored.rate_limit_per_minute,
                    )
                )
        except sa.exc.IntegrityError as error:
            raise StoreError(f"an API key with id {key.id!r} already exists") from error
        return stored

    @translates_outage("keys.with_prefix")
    def with_prefix(self, prefix: str) -> tuple[ApiKey, ...]:
        with self._engine.connect() as connection:
            rows = connection.execute(sa.select(_KEY).where(_KEY.c.prefix == prefix)).all()
        return tuple(_key(row) for row in rows)

    def all(self) -> tuple[ApiKey, ...]:
        with self._engine.connect() as connection:
            rows = connection.execute(sa.select(_KEY).order_by(_KEY.c.created_at, _KEY.c.id)).all()
        return tuple(_key(row) for row in rows)

    def revoke(self, key_id: str, now: datetime) -> ApiKey | None:
        with self._engine.begin() as connection:
            connection.execute(
                _KEY.update()
                .where(_KEY.c.id == key_id, _KEY.c.revoked_at.is_(None))
                .values(revoked_at=as_utc(now))
            )
            row = connection.execute(sa.select(_KEY).where(_KEY.c.id == key_id)).first()
        return None if row is None else _key(row)


def _key(row: Any) -> ApiKey:
    return ApiKey(
        id=row.id,
        name=row.name,
        prefix=row.prefix,
        secret_hash=row.secret_hash,
        created_at=as_utc(row.created_at),
        revoked_at=None if row.revoked_at is None else as_utc(row.revoked_at),
        rate_limit_per_minute=row.rate_limit_per_minute,
    )
