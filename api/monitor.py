"""`navod monitor completeness|profile`: read-only live views of what Navod knows about the
asker, beside the chat. They poll every two seconds, from the database or a server's API, and
follow the current dossier of the API key (`--key`, else NAVOD_API_KEY: the one last written)
unless given one. Without a key only a given anonymous dossier can be followed.

Rendering is in api/monitor_render.py; this module only fetches and loops.
"""

from __future__ import annotations

import select
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TextIO

import typer

from api.http_client import get_json
from api.monitor_render import completeness_lines, profile_lines, prompt, topic_question
from api.settings import get_settings
from engine.dossier.ownership import ANONYMOUS
from engine.dossier.profile import completeness_view, fact_views, topic_view
from engine.service import AnswerService
from engine.store.bootstrap import open_store
from engine.store.dossiers.sql import SqlDossierRepository
from engine.store.keys.secret import find_key
from engine.store.keys.sql import SqlKeyRepository

POLL_SECONDS = 2.0
CLEAR = "\x1b[2J\x1b[H"
monitor = typer.Typer(help="Live views of what Navod knows about the asker.", no_args_is_help=True)


@dataclass(frozen=True, slots=True)
class View:
    """What one poll found: the topics, the followed dossier's latest scores and records."""

    topics: list[dict[str, Any]]
    scores: list[dict[str, Any]]
    facts: list[dict[str, Any]]


Fetch = Callable[[], View]
Kind = Literal["completeness", "profile"]

SessionOption = Annotated[
    str | None, typer.Option("--session", help="Follow this dossier (default: the latest)")
]
UrlOption = Annotated[
    str | None, typer.Option(help="Read a running server (e.g. http://127.0.0.1:8000)")
]
KeyOption = Annotated[
    str | None,
    typer.Option(help="API key secret whose conversations to follow (default: NAVOD_API_KEY)"),
]


@monitor.command("completeness")
def completeness(
    session: SessionOption = None, url: UrlOption = None, key: KeyOption = None
) -> None:
    """How complete each planning topic is; a topic's number prints the question to ask."""
    with _fetcher(session, url, key) as fetch:
        run("completeness", fetch, sys.stdin, sys.stdout)


@monitor.command("profile")
def profile(session: SessionOption = None, url: UrlOption = None, key: KeyOption = None) -> None:
    """What the asker said about themselves, by topic and subtopic, in time order."""
    with _fetcher(session, url, key) as fetch:
        run("profile", fetch, sys.stdin, sys.stdout)


def run(kind: Kind, fetch: Fetch, keys: TextIO, out: TextIO, polls: int | None = None) -> None:
    """Draw, then every POLL_SECONDS draw again when something changed; on the completeness
    screen a number prints that topic's question. Ctrl-C or Ctrl-D (end of input) leaves."""
    shown: list[str] | None = None
    view = View([], [], [])
    count = 0
    try:
        while polls is None or count < polls:
            count += 1
            view = fetch()
            lines = _screen(kind, view)
            if lines != shown:
                out.write(CLEAR + "\n".join(lines) + "\n")
                shown = lines
                if kind == "completeness" and view.scores:
                    out.write(prompt(len(lines)))
                out.flush()
            line = _line_within(keys, POLL_SECONDS)
            if line is None:
                continue
            if line == "":
                return  # Ctrl-D: the input ended
            if kind == "completeness":
                question = topic_question(line, view.topics, view.scores, view.facts)
                out.write((question or f"No topic {line.strip()!r} on the screen.") + "\n")
                out.write(prompt(len(shown or [])))
                out.flush()
    except KeyboardInterrupt:
        return


def _screen(kind: Kind, view: View) -> list[str]:
    if kind == "completeness":
        return completeness_lines(view.topics, view.scores)
    return profile_lines(view.topics, view.facts)


def _line_within(keys: TextIO, seconds: float) -> str | None:
    """A line typed within `seconds` ("" at the end of input), or None when none was."""
    ready, _, _ = select.select([keys], [], [], seconds)
    return keys.readline() if ready else None


@contextmanager
def _fetcher(session: str | None, url: str | None, key: str | None) -> Iterator[Fetch]:
    """Read from the server at `url`, else from the database this environment names."""
    secret = key or get_settings().api_key
    if url:
        yield lambda: _from_server(url.rstrip("/"), session, secret)
        return
    engine, repository = open_store(get_settings().database_url)
    service = AnswerService(repository, dossiers=SqlDossierRepository(engine))
    try:
        asker = ANONYMOUS
        if secret:  # the key's id is whose dossiers the store holds
            found = find_key(SqlKeyRepository(engine), secret)
            if found is None or found.revoked:
                raise typer.BadParameter("unknown or revoked API key", param_hint="--key")
            asker = found.id
        yield lambda: _from_store(service, session, asker)
    finally:
        engine.dispose()


def _from_server(url: str, session: str | None, key: str | None) -> View:
    topics = get_json(url, "/api/kb/topics", key=key)["topics"]
    if session is None and not key:  # listing needs a key: nothing to follow yet
        return View(topics, [], [])
    dossier_id = session or _latest(get_json(url, "/api/dossiers?limit=1", key=key))
    if dossier_id is None:
        return View(topics, [], [])
    found = get_json(url, f"/api/dossiers/{dossier_id}/completeness", key=key)
    facts = get_json(url, f"/api/dossiers/{dossier_id}/facts", key=key)["facts"]
    return View(topics, found["scores"], facts)


def _from_store(service: AnswerService, session: str | None, asker: str) -> View:
    topics = [topic_view(t) for t in service.topics()]
    if session is None:
        recent = service.recent_dossiers(asker, 1)
        session = recent[0].id if recent else None
    dossier = service.find_dossier(session, asker) if session else None
    if dossier is None:
        return View(topics, [], [])
    return View(topics, completeness_view(dossier)["scores"], fact_views(dossier))


def _latest(listing: dict[str, Any]) -> str | None:
    found = listing.get("dossiers") or []
    return str(found[0]["id"]) if found else None
