"""ApiKey and the KeyRepository protocol (SqlKeyRepository in sql.py, MemoryKeyRepository in
memory.py). Keys are only added and revoked, never changed otherwise or deleted: a revoked
key's id stays the owner of its conversations, so they stay unreachable, not orphaned."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol


@dataclass(frozen=True, slots=True)
class ApiKey:
    """A key as stored: everything but the secret, of which only the hash is kept."""

    id: str  # key_<16 hex digits>: the asker stored on the key's conversations
    name: str
    prefix: str  # the secret's first characters: shown by `navod keys list`, not secret
    secret_hash: str
    created_at: datetime
    revoked_at: datetime | None = None
    rate_limit_per_minute: int | None = None  # None: the server's default

    @property
    def revoked(self) -> bool:
        return self.revoked_at is not None


class KeyRepository(Protocol):
    def add(self, key: ApiKey) -> ApiKey:
        """Store a new key; StoreError if the id is taken."""
        ...

    def with_prefix(self, prefix: str) -> tuple[ApiKey, ...]:
        """Every key (revoked ones too) whose secret starts with `prefix`."""
        ...

    def all(self) -> tuple[ApiKey, ...]:
        """Every key, oldest first (ties by id)."""
        ...

    def revoke(self, key_id: str, now: datetime) -> ApiKey | None:
        """Mark the key revoked (a revoked key keeps its first revocation time); None if
        there is no such key."""
        ...
