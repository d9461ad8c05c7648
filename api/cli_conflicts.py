"""`navod kb conflicts`: the conflicts the loaded knowledge declares, open or resolved on the
record (registered on `kb` in cli.py; the listing is engine/declared_conflicts.py)."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import orjson
import typer
from rich.console import Console

from api.settings import get_settings
from engine.declared_conflicts import DeclaredConflict, declared_conflicts
from engine.errors import NavodError
from engine.store.bootstrap import open_store
from engine.types import Rule

console = Console()
errors = Console(stderr=True)


def kb_conflicts(
    as_json: Annotated[bool, typer.Option("--json", help="Print the list as JSON")] = False,
) -> None:
    """Conflicts the loaded knowledge declares (a rule's conflicts_with), each open (refused
    UNRESOLVED_CONFLICT unless precedence settles it) or resolved on the record (the winner,
    strategy and date of the pack's resolution)."""
    try:
        engine, repository = open_store(get_settings().database_url)
        try:
            knowledge = repository.load_knowledge()
        finally:
            engine.dispose()
    except NavodError as exc:
        errors.print(f"[red]error[/red]: {exc}")
        raise typer.Exit(1) from exc
    found = declared_conflicts(knowledge)
    resolved = sum(1 for conflict in found if conflict.resolution is not None)
    if as_json:
        body = {
            "version": knowledge.version,
            "conflicts": [conflict_body(conflict) for conflict in found],
            "resolved": resolved,
            "open": len(found) - resolved,
        }
        sys.stdout.write(orjson.dumps(body, option=orjson.OPT_INDENT_2).decode() + "\n")
        return
    for conflict in found:
        console.print(_line(conflict), highlight=False, markup=False, soft_wrap=True)
    console.print(
        f"{len(found)} conflicts declared: {resolved} resolved, {len(found) - resolved} open",
        highlight=False,
    )


def conflict_body(conflict: DeclaredConflict) -> dict[str, Any]:
    """One conflict as `--json` prints it."""
    record = conflict.resolution
    return {
        "concept": conflict.concept,
        "rules": [_rule(rule) for rule in conflict.rules],
        "status": conflict.status,
        "resolution": None
        if record is None
        else {
            "id": record.id,
            "winner": record.winner,
            "loser": record.loser,
            "strategy": record.strategy,
            "decidedBy": record.decided_by,
            "decidedAt": record.decided_at.isoformat(),
        },
    }


def _rule(rule: Rule) -> dict[str, Any]:
    return {
        "id": rule.id,
        "value": rule.value,
        "authority": rule.authority,
        "effectiveFrom": rule.effective_from.isoformat(),
        "effectiveUntil": rule.effective_until.isoformat() if rule.effective_until else None,
    }


def _line(conflict: DeclaredConflict) -> str:
    first, second = conflict.rules
    sides = f"{first.id} ({first.value}) vs {second.id} ({second.value})"
    record = conflict.resolution
    if record is None:
        return f"open      {conflict.concept}: {sides}"
    decided = f"{record.strategy}, {record.decided_at.isoformat()}, {record.id}"
    return f"resolved  {conflict.concept}: {sides} -> {record.winner} ({decided})"
