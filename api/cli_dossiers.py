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

dossiers = typer.Typer(help="Conversation dossiers: retention.", no_args_is_help=True)
console = Console()
errors = Console(stderr=True)


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
