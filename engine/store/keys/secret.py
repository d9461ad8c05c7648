"""API key secrets: made with `secrets`, stored as a SHA-256, checked in constant time.

A secret is `navod_` and 43 URL-safe characters (32 random bytes), so it is also a valid
WebSocket subprotocol token (`bearer.<secret>`). A plain SHA-256 is enough here: key stretching
(bcrypt, argon2) protects guessable passwords, and 256 random bits cannot be guessed from their
hash. The first characters are kept as the key's prefix: not secret (about 36 random bits),
they let `navod keys list` show which key is which and let a check find the row without
comparing against every key.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import datetime

from engine.store.keys.repository import ApiKey, KeyRepository

SCHEME = "navod_"
PREFIX_LENGTH = len(SCHEME) + 6
SECRET_LENGTH = len(SCHEME) + 43


def new_key(
    name: str, now: datetime, rate_limit_per_minute: int | None = None
) -> tuple[ApiKey, str]:
    """A new key and its secret; the secret is shown once and never stored."""
    secret = SCHEME + secrets.token_urlsafe(32)
    key = ApiKey(
        id=f"key_{secrets.token_hex(8)}",
        name=name,
        prefix=secret[:PREFIX_LENGTH],
        secret_hash=hash_secret(secret),
        created_at=now,
        rate_limit_per_minute=rate_limit_per_minute,
    )
    return key, secret


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def well_formed(secret: str) -> bool:
    """Whether `secret` has the shape of a secret `new_key` makes (checked before any lookup)."""
    body = secret[len(SCHEME) :]
    return (
        len(secret) == SECRET_LENGTH
        and secret.startswith(SCHEME)
        and all(c.isascii() and (c.isalnum() or c in "-_") for c in body)
    )


def find_key(keys: KeyRepository, secret: str) -> ApiKey | None:
    """The key this secret belongs to (revoked or not), or None. The hashes are compared in
    constant time, so the time taken says nothing about how close a guess came."""
    if not well_formed(secret):
        return None
    wanted = hash_secret(secret)
    found = None
    for key in keys.with_prefix(secret[:PREFIX_LENGTH]):
        if hmac.compare_digest(key.secret_hash, wanted):
            found = key
    return found
