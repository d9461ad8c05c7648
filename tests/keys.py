"""API keys for tests: made in the app's own key store, one per name, sent as Bearer."""

from __future__ import annotations

import weakref
from datetime import UTC, datetime

from fastapi.testclient import TestClient

from engine.store.keys.repository import KeyRepository
from engine.store.keys.secret import new_key

MADE = datetime(2026, 11, 25, 4, 0, tzinfo=UTC)
_made: weakref.WeakKeyDictionary[object, dict[str, str]] = weakref.WeakKeyDictionary()


def make_key(keys: KeyRepository, name: str, rate_limit: int | None = None) -> tuple[str, str]:
    """A new key in `keys`: (its id, its secret)."""
    key, secret = new_key(name, MADE, rate_limit)
    keys.add(key)
    return key.id, secret


def bearer(client: TestClient, name: str) -> dict[str, str]:
    """The Authorization header of the key called `name` in the client's app (made once)."""
    keys: KeyRepository = client.app.state.auth.keys  # type: ignore[attr-defined]
    secrets = _made.setdefault(keys, {})
    if name not in secrets:
        secrets[name] = make_key(keys, name)[1]
    return {"Authorization": f"Bearer {secrets[name]}"}
