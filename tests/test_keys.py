"""The API key store (memory and SQL, one contract), its secrets, the rate limiter, and the
`navod keys` commands."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from typer.testing import CliRunner

from api.auth.ratelimit import RateLimiter
from api.cli import app
from engine.errors import StoreError
from engine.store.db import make_engine
from engine.store.keys.memory import MemoryKeyRepository
from engine.store.keys.repository import KeyRepository
from engine.store.keys.secret import PREFIX_LENGTH, find_key, new_key, well_formed
from engine.store.keys.sql import SqlKeyRepository

T0 = datetime(2026, 11, 25, 4, 0, tzinfo=UTC)


@pytest.fixture(params=["memory", pytest.param("sql", marks=pytest.mark.db)])
def keys(request: pytest.FixtureRequest) -> KeyRepository:
    if request.param == "memory":
        return MemoryKeyRepository()
    return SqlKeyRepository(request.getfixturevalue("migrated_engine"))


def test_a_new_key_keeps_no_secret_and_is_found_by_it(keys: KeyRepository) -> None:
    key, secret = new_key("ci", T0, 30)
    assert re.fullmatch(r"key_[0-9a-f]{16}", key.id) and well_formed(secret)
    assert secret not in repr(key) and key.prefix == secret[:PREFIX_LENGTH]
    keys.add(key)
    assert find_key(keys, secret) == key
    assert find_key(keys, secret[:-1] + ("A" if secret[-1] != "A" else "B")) is None
    assert find_key(keys, "navod_" + "A" * 43) is None


def test_keys_sharing_a_prefix_are_told_apart_by_the_hash(keys: KeyRepository) -> None:
    first, secret = new_key("one", T0)
    twin, twin_secret = new_key("two", T0 + timedelta(seconds=1))
    keys.add(first)
    keys.add(replace(twin, prefix=first.prefix))  # a prefix collision, forced
    assert find_key(keys, secret) == first
    assert find_key(keys, first.prefix + twin_secret[PREFIX_LENGTH:]) is None


def test_revoking_is_kept_and_idempotent(keys: KeyRepository) -> None:
    key, secret = new_key("ci", T0)
    keys.add(key)
    revoked = keys.revoke(key.id, T0 + timedelta(hours=1))
    assert revoked is not None and revoked.revoked_at == T0 + timedelta(hours=1)
    again = keys.revoke(key.id, T0 + timedelta(hours=2))
    assert again is not None and again.revoked_at == T0 + timedelta(hours=1)
    found = find_key(keys, secret)
    assert found is not None and found.revoked
    assert keys.revoke("key_0000000000000000", T0) is None


def test_listing_is_oldest_first_and_ids_are_unique(keys: KeyRepository) -> None:
    later, _ = new_key("later", T0 + timedelta(minutes=1))
    sooner, _ = new_key("sooner", T0)
    keys.add(later)
    keys.add(sooner)
    assert [k.name for k in keys.all()] == ["sooner", "later"]
    with pytest.raises(StoreError):
        keys.add(sooner)


@pytest.mark.parametrize(
    "secret",
    ["", "navod_", "navod_" + "A" * 42, "navod_" + "A" * 44, "nvd___" + "A" * 43,
     "navod_" + "A" * 42 + "é", "navod_" + "A" * 42 + "."],
)  # fmt: skip
def test_malformed_secrets_are_refused_before_any_lookup(secret: str) -> None:
    assert not well_formed(secret)


def test_the_limiter_refills_and_stays_bounded() -> None:
    now = [0.0]
    limiter = RateLimiter(lambda: now[0], most=3)
    assert [limiter.take("a", 2) for _ in range(3)] == [0, 0, 30]
    now[0] += 30
    assert limiter.take("a", 2) == 0
    for caller in ("b", "c", "d", "e"):
        limiter.take(caller, 2)
    assert len(limiter) == 3  # the callers idle longest were forgotten


def test_the_keys_commands_show_the_secret_once_and_revoke(database_url: str) -> None:
    runner = CliRunner()
    env = {"DATABASE_URL": database_url}
    made = runner.invoke(app, ["keys", "create", "--name", "ci", "--rate-limit", "30"], env=env)
    assert made.exit_code == 0, made.output
    key_id = re.search(r"key_[0-9a-f]{16}", made.output)
    secret = re.search(r"navod_[A-Za-z0-9_-]{43}", made.output)
    assert key_id is not None and secret is not None
    listed = runner.invoke(app, ["keys", "list"], env=env)
    assert (
        key_id.group() in listed.output and "30/min" in listed.output and "active" in listed.output
    )
    assert secret.group()[:PREFIX_LENGTH] in listed.output and secret.group() not in listed.output
    revoked = runner.invoke(app, ["keys", "revoke", key_id.group()], env=env)
    assert (
        revoked.exit_code == 0 and "revoked" in runner.invoke(app, ["keys", "list"], env=env).output
    )
    unknown = runner.invoke(app, ["keys", "revoke", "key_0000000000000000"], env=env)
    assert unknown.exit_code == 1 and "no API key" in unknown.output
    assert runner.invoke(app, ["keys", "create", "--name", " "], env=env).exit_code == 2
    engine = make_engine(database_url)
    with engine.connect() as connection:  # the secret is nowhere in the database
        tables = sa.inspect(engine).get_table_names()
        dumped = " ".join(
            str(row) for t in tables for row in connection.execute(sa.text(f"SELECT * FROM {t}"))
        )
    engine.dispose()
    assert secret.group() not in dumped and secret.group()[PREFIX_LENGTH:] not in dumped
