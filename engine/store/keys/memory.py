"""MemoryKeyRepository: the key store in process, for tests; same behaviour as SQL."""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import datetime

from engine.errors import StoreError
from engine.store.db import as_utc
from engine.store.keys.repository import ApiKey


class MemoryKeyRepository:
    """KeyRepository held in a dict; safe to share between threads."""

    def __init__(self) -> None:
        self._keys: dict[str, ApiKey] = {}
        self._lock = threading.Lock()

    def add(self, key: ApiKey) -> ApiKey:
        stored = replace(key, created_at=as_utc(key.created_at))
        with self._lock:
            if key.id in self._keys:
                raise StoreError(f"an API key with id {key.id!r} already exists")
            self._keys[key.id] = stored
        return stored

    def with_prefix(self, prefix: str) -> tuple[ApiKey, ...]:
        with self._lock:
            return tuple(k for k in self._keys.values() if k.prefix == prefix)

    def all(self) -> tuple[ApiKey, ...]:
        with self._lock:
            return tuple(sorted(self._keys.values(), key=lambda k: (k.created_at, k.id)))

    def revoke(self, key_id: str, now: datetime) -> ApiKey | None:
        with self._lock:
            key = self._keys.get(key_id)
            if key is None:
                return None
            if key.revoked_at is None:
                key = self._keys[key_id] = replace(key, revoked_at=as_utc(now))
            return key
