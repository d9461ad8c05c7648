"""`navod kb gaps`: what askers miss, from the refused turns of stored conversations
(registered on `kb` in cli.py; the grouping is engine/flow/gaps.py).

Prints reasons, subjects, counts, days and redacted example questions only: never a
conversation's id, its key or anything else that tells who asked.
"""

from __future__ import annotations

import sys
import unicodedata
from datetime import UTC, date, datetime, time
from typing import Annotated, Any

import orjson
import typer
from rich import box
from rich.console import Console
from rich.table import Column, Table
from rich.text import Text

from api.settings import get_settings
from engine.errors import NavodError
from engine.flow.gaps import Gap, GapReport, refusal_gaps
from engine.store.db import make_engine, migrate
from engine.store.dossiers.sql import SqlDossierRepository

console = Console()
errors = Console(stderr=True)
EXAMPLE_WIDTH = 80  # characters of the example question in the table; --json has it whole


def kb_gaps(
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON")] = False,
    since: Annotated[
        str | None, typer.Option("--since", help="Only questions asked on or after YYYY-MM-DD")
    ] = None,
    limit: Annotated[int, typer.Option(min=1, help="The largest this many groups")] = 50,
) -> None:
    """What askers miss: refused questions by refusal reason and subject (the concepts they
    matched, else their words), largest groups first, with first and last day seen and one
    redacted example. Read from the stored conversations; prints nothing that says who asked."""
    start = _since(since)
    settings = get_settings()
    try:
        migrate(settings.database_url)
        engine = make_engine(settings.database_url)
        try:
            events = SqlDossierRepository(engine).refused_turns(start)
        finally:
            engine.dispose()
    except NavodError as exc:
        errors.print(f"[red]error[/red]: {exc}")
        raise typer.Exit(1) from exc
    report = refusal_gaps(events, limit)
    if as_json:
        body = report_body(report, start.date().isoformat() if start else None)
        sys.stdout.write(orjson.dumps(body, option=orjson.OPT_INDENT_2).decode() + "\n")
        return
    print_gaps(report, start)


def report_body(report: GapReport, since: str | None) -> dict[str, Any]:
    """The report as JSON: the same keys in the same order every run."""
    return {
        "since": since,
        "refused": report.refused,
        "groups": report.groups,
        "gaps": [
            {
                "reason": gap.reason,
                "subject": gap.subject,
                "named_by": gap.named_by,
                "count": gap.count,
                "first_seen": gap.first_seen.isoformat(),
                "last_seen": gap.last_seen.isoformat(),
                "example": gap.example,
            }
            for gap in report.gaps
        ],
    }


def print_gaps(report: GapReport, start: datetime | None) -> None:
    """One row per group; the asker's words go in as plain text, never as rich markup."""
    period = f" since {start.date().isoformat()}" if start else ""
    if not report.gaps:
        console.print(f"no refused questions{period}")
        return
    table = Table(
        Column("count", justify="right"),
        Column("reason", no_wrap=True),
        Column("first seen\nlast seen", no_wrap=True),
        "subject\nexample question",
        title="what askers miss",
        box=box.SIMPLE_HEAD,
    )
    for gap in report.gaps:
        seen = gap.first_seen.isoformat()
        if gap.last_seen != gap.first_seen:
            seen += "\n" + gap.last_seen.isoformat()
        table.add_row(str(gap.count), gap.reason or "(none)", seen, _subject_and_example(gap))
    console.print(table)
    shown = f"; the largest {len(report.gaps)} shown" if len(report.gaps) < report.groups else ""
    console.print(
        f"{report.refused} refused questions{period} in {report.groups} groups{shown}",
        highlight=False,
    )


def _subject_and_example(gap: Gap) -> Text:
    """The subject (concept ids as they are, the asker's words quoted), then the example, dim:
    plain Text, so the asker's words are never read as rich markup ("[IBAN]")."""
    subject = gap.subject or "(no content words)"
    cell = Text(subject if gap.named_by == "concepts" else f'"{subject}"', style="bold")
    cell.append("\n" + _clipped(gap.example), style="dim")
    return cell


def _since(text: str | None) -> datetime | None:
    """--since as the start of that day in UTC (turns are stored in UTC)."""
    if text is None:
        return None
    try:
        return datetime.combine(date.fromisoformat(text), time(), tzinfo=UTC)
    except ValueError as exc:
        errors.print(f"[red]--since[/red]: '{text}' is not a date; use YYYY-MM-DD")
        raise typer.Exit(2) from exc


def _clipped(text: str) -> str:
    """One line of at most EXAMPLE_WIDTH characters, with no control or format character left:
    a stored question is the asker's text, and an escape sequence in it must not reach the
    maintainer's terminal (rich passes ESC through)."""
    shown = "".join(
        " " if unicodedata.category(c) == "Cc" else c
        for c in text
        if unicodedata.category(c) != "Cf"
    )
    line = " ".join(shown.split())
    return line if len(line) <= EXAMPLE_WIDTH else line[: EXAMPLE_WIDTH - 1] + "…"
