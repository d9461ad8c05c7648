"""`navod dossiers prune`: the retention of conversation dossiers (registered in cli.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Annotated

import typer
from rich.console import Console

from api.settings import get_settings
from engine.errors import NavodError
from engine.store.db import make_engine, migrate
from engine.store.dossiers.sql import SqlDossierRepository

dossiers = typer.Typer(help="Conversation dossiers: list, retention.", no_args_is_help=True)
console = Console()
errors = Console(stderr=True)


@dossiers.command("list")
def list_dossiers(
    key_id: Annotated[
        str, typer.Option("--key-id", help="Whose conversations: an API key's id (key_…)")
    ],
    limit: Annotated[int, typer.Option(min=1, max=100)] = 20,
) -> None:
    """A key's conversations, newest first; `*` marks the current one (the one last written,
    which `navod monitor` follows). Anonymous conversations are never listed."""
    settings = get_settings()
    try:
        migrate(settings.database_url)
        engine = make_engine(settings.database_url)
        try:
            found = SqlDossierRepository(engine).recent(key_id, limit) if key_id else ()
        finally:
            engine.dispose()
    except NavodError as exc:
        errors.print(f"[red]error[/red]: {exc}")
        raise typer.Exit(1) from exc
    if not found:
        console.print("no dossiers yet")
    for number, summary in enumerate(found):
        mark = "*" if number == 0 else " "
        updated = summary.updated_at.strftime("%Y-%m-%d %H:%M")
        line = (
            f"{mark} {summary.id}  {updated}  {summary.turns} turns  {summary.last_question[:60]}"
        )
        console.print(line, markup=False, highlight=False)


@dossiers.command("prune")
def prune(
    max_age_days: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Delete dossiers not updated for this many days [default: "
            "DOSSIER_MAX_AGE_DAYS, else 90]",
        ),
    ] = None,
    max_per_asker: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Then keep only each asker's newest this many [default: "
            "DOSSIER_MAX_PER_ASKER, else 100]",
        ),
    ] = None,
) -> None:
    """Delete old dossiers, and each asker's beyond the newest ones, with all their events."""
    settings = get_settings()
    age = settings.dossier_max_age_days if max_age_days is None else max_age_days
    count = settings.dossier_max_per_asker if max_per_asker is None else max_per_asker
    try:
        migrate(settings.database_url)
        engine = make_engine(settings.database_url)
        try:
            deleted = SqlDossierRepository(engine).prune(
                datetime.now(UTC), timedelta(days=age), count
            )
        finally:
            engine.dispose()
    except NavodError as exc:
        errors.print(f"[red]error[/red]: {exc}")
        raise typer.Exit(1) from exc
    noun = "dossier" if deleted == 1 else "dossiers"
    console.print(f"deleted {deleted} {noun} (older than {age} days, or beyond {count} per asker)")
