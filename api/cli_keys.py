"""`navod keys create|list|revoke`: the API keys callers identify with (registered in cli.py).

The secret is printed once, by `create`; the database keeps only its hash and prefix.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Annotated

import typer
from rich.console import Console

from api.settings import get_settings
from engine.errors import NavodError
from engine.store.db import make_engine, migrate
from engine.store.keys.repository import ApiKey
from engine.store.keys.secret import new_key
from engine.store.keys.sql import SqlKeyRepository

keys = typer.Typer(help="API keys: create, list, revoke.", no_args_is_help=True)
console = Console()
errors = Console(stderr=True)


def _now() -> datetime:
    return datetime.now(UTC)


@keys.command("create")
def create(
    name: Annotated[str, typer.Option(help="Who or what the key is for (shown by list)")],
    rate_limit: Annotated[
        int | None,
        typer.Option(
            min=1, help="Requests per minute [default: the server's NAVOD_RATE_LIMIT_PER_MINUTE]"
        ),
    ] = None,
) -> None:
    """Make a key and print its secret, once: it is not stored and cannot be shown again."""
    if not name.strip():
        raise typer.BadParameter("give the key a name", param_hint="--name")
    key, secret = new_key(name.strip(), _now(), rate_limit)
    with _store() as store:
        store.add(key)
    console.print(f"created {key.id} ({key.name})", markup=False, highlight=False)
    console.print("secret (shown once; send it as 'Authorization: Bearer <secret>'):")
    console.print(secret, markup=False, highlight=False)


@keys.command("list")
def list_keys() -> None:
    """Every key: id, prefix of its secret, name, created, revoked, rate limit."""
    with _store() as store:
        found = store.all()
    if not found:
        console.print("no API keys yet (navod keys create --name …)")
    for key in found:
        console.print(_line(key), markup=False, highlight=False)


@keys.command("revoke")
def revoke(key_id: Annotated[str, typer.Argument(help="The key's id (key_…)")]) -> None:
    """Revoke a key at once: its requests get 401, its conversations stay unreachable."""
    with _store() as store:
        key = store.revoke(key_id, _now())
    if key is None:
        errors.print(f"[red]error[/red]: no API key {key_id!r} (navod keys list shows them)")
        raise typer.Exit(1)
    console.print(f"revoked {key.id} ({key.name})", markup=False, highlight=False)


def _line(key: ApiKey) -> str:
    revoked = f"revoked {_day(key.revoked_at)}" if key.revoked_at else "active"
    limit = f"{key.rate_limit_per_minute}/min" if key.rate_limit_per_minute else "default limit"
    return f"{key.id}  {key.prefix}…  {_day(key.created_at)}  {revoked}  {limit}  {key.name}"


def _day(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M")


@contextmanager
def _store() -> Iterator[SqlKeyRepository]:
    settings = get_settings()
    try:
        migrate(settings.database_url)
        engine = make_engine(settings.database_url)
    except NavodError as exc:
        errors.print(f"[red]error[/red]: {exc}")
        raise typer.Exit(1) from exc
    try:
        yield SqlKeyRepository(engine)
    finally:
        engine.dispose()
