"""`navod chat`: a conversation in the terminal over the server's WebSocket /ws.

Each turn opens one connection, sends {message, sessionId}, reads the one reply and lets the
server close, as the TESS clients do; the session id of the first reply carries the conversation.
"""

from __future__ import annotations

import re
import socket
from collections.abc import Mapping
from typing import Annotated, Any, get_args
from urllib.parse import urlsplit

import orjson
import typer
from rich.console import Console
from rich.markup import escape
from websockets.exceptions import WebSocketException
from websockets.sync.client import connect

from api.http_client import auth_headers
from api.render import print_response
from api.settings import get_settings
from engine.types import Language, Surface

QUIT = re.compile(r"\W*(quit|exit|stop|bye)\W*", re.IGNORECASE)
# Answering takes milliseconds; the margin covers a server compiling a fresh knowledge base.
REPLY_SECONDS = 120.0
SELECTION_BLOCKS = (("selected", "✓"), ("unselected", "✗"))


class Unreachable(Exception):
    """The server could not be reached or broke off the exchange; the text says how."""


def chat(
    session: Annotated[
        str | None, typer.Option("--session", help="Continue the conversation with this id")
    ] = None,
    url: Annotated[
        str | None,
        typer.Option(help="The server's WebSocket (default: NAVOD_URL, else PORT on this host)"),
    ] = None,
    surface: Annotated[str | None, typer.Option(help="MARKETING or APP")] = None,
    language: Annotated[str | None, typer.Option(help="hr, nl or en")] = None,
    key: Annotated[
        str | None, typer.Option(help="API key secret (default: NAVOD_API_KEY; none: anonymous)")
    ] = None,
) -> None:
    """Talk to a running server: answers with their citations and the selected sources."""
    _check_choice("--surface", surface, get_args(Surface))
    _check_choice("--language", language, get_args(Language))
    settings = {"surface": surface, "language": language}
    session_id = session
    url = url or websocket_url(get_settings().server_url)
    # Made per run, not at import: the width and colour follow the terminal the chat runs in.
    console, errors = Console(), Console(stderr=True)
    try:  # before the prompt: nobody should type a question to a server that is not there
        check_listening(url)
    except Unreachable as exc:
        errors.print(escape(f"{exc}. {WHERE_TO_LOOK}"), highlight=False, soft_wrap=True)
        raise typer.Exit(1) from exc
    spoken = language or "en"  # the conversation's language, once a reply says it
    console.print(f"[dim]{CHAT_WORDS[spoken]['greeting'].format(url=escape(url))}[/dim]")
    while True:
        text = _read_line(console)
        if text is None or QUIT.fullmatch(text):
            console.print(CHAT_WORDS[spoken]["goodbye"])
            return
        if not text:
            continue
        message = {"message": text, "sessionId": session_id, **settings}
        try:
            reply = exchange(url, {k: v for k, v in message.items() if v is not None}, key)
        except Unreachable as exc:
            errors.print(escape(str(exc)), highlight=False, soft_wrap=True)
            raise typer.Exit(1) from exc
        if reply.get("status") != "ok":
            errors.print(f"[red]error[/red]: {escape(str(reply.get('error')))}", soft_wrap=True)
            continue
        response: Mapping[str, Any] = reply.get("response") or {}
        if response.get("language") in CHAT_WORDS:
            spoken = str(response["language"])
        if session_id is None and reply.get("sessionId"):
            session_id = str(reply["sessionId"])
            said = CHAT_WORDS[spoken]["session"].format(id=escape(session_id))
            console.print(f"[dim]{said}[/dim]")
        print_response(console, response)
        print_selection(console, response.get("dossier"), spoken)


WHERE_TO_LOOK = (
    "Is Navod running? Start it with `make run`, or point the chat at it with --url, "
    "NAVOD_URL (e.g. http://127.0.0.1:8001) or PORT"
)
CHECK_SECONDS = 3.0


def check_listening(url: str) -> None:
    """Raise Unreachable unless something accepts connections where `url` points."""
    parts = urlsplit(url)
    if parts.scheme not in ("ws", "wss") or not parts.hostname:
        raise Unreachable(f"cannot reach {url}: not a ws:// or wss:// address")
    port = parts.port or (443 if parts.scheme == "wss" else 80)
    try:
        with socket.create_connection((parts.hostname, port), timeout=CHECK_SECONDS):
            pass
    except OSError as exc:  # refused, unresolvable, timed out
        raise Unreachable(f"cannot reach {url}: {exc}") from exc


def exchange(url: str, message: Mapping[str, Any], key: str | None = None) -> dict[str, Any]:
    """One connection: send the message, return the reply object the server sent before closing."""
    try:
        connection = connect(url, additional_headers=auth_headers(key))
    except (OSError, WebSocketException) as exc:  # refused, unresolvable, timeout, not a WS
        raise Unreachable(f"cannot reach {url}: {exc}") from exc
    with connection:
        try:
            connection.send(orjson.dumps(message).decode())
            raw = connection.recv(timeout=REPLY_SECONDS)
        except (OSError, WebSocketException) as exc:
            raise Unreachable(f"connection to {url} failed before a reply: {exc}") from exc
    try:
        reply = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise Unreachable(f"{url} did not answer with JSON: {exc}") from exc
    if not isinstance(reply, dict):
        raise Unreachable(f"{url} answered with JSON that is not an object")
    return reply


# The chat's own lines in the conversation's language (--language, then each reply's).
CHAT_WORDS: Mapping[str, Mapping[str, str]] = {
    "en": {"greeting": "Ask a question; quit, exit, stop, bye or Ctrl-D ends. Server: {url}",
           "goodbye": "Goodbye.", "session": "session {id} (resume with --session)"},
    "hr": {"greeting": "Postavite pitanje; quit, exit, stop, bye ili Ctrl-D završava razgovor. "
                       "Poslužitelj: {url}",
           "goodbye": "Doviđenja.", "session": "razgovor {id} (nastavak: --session)"},
    "nl": {"greeting": "Stel een vraag; quit, exit, stop, bye of Ctrl-D beëindigt het gesprek. "
                       "Server: {url}",
           "goodbye": "Tot ziens.", "session": "gesprek {id} (verder met --session)"},
}  # fmt: skip

# The selection lines in the conversation's language (the reply's `language`; English if none).
SELECTION_WORDS: Mapping[str, Mapping[str, str]] = {
    "en": {"selected": "selected sources", "unselected": "set aside", "evidence": "evidence",
           "unselected_action": "unselected", "restored": "restored",
           "selected_action": "selected"},
    "hr": {"selected": "odabrani izvori", "unselected": "izostavljeni izvori", "evidence": "dokaz",
           "unselected_action": "izostavljeno", "restored": "vraćeno",
           "selected_action": "odabrano"},
    "nl": {"selected": "gekozen bronnen", "unselected": "terzijde gelegd", "evidence": "bewijs",
           "unselected_action": "terzijde gelegd", "restored": "teruggezet",
           "selected_action": "gekozen"},
}  # fmt: skip
ACTIONS = {"unselected": "unselected_action", "selected": "selected_action", "restored": "restored"}


def print_selection(console: Console, dossier: Any, language: str = "en") -> None:
    """The conversation's sources: what this turn changed, then selected and set-aside ones,
    in the conversation's language."""
    if not isinstance(dossier, Mapping):
        return
    words = SELECTION_WORDS.get(language, SELECTION_WORDS["en"])
    for change in dossier.get("changed") or []:
        action = str(change.get("action"))
        console.print(
            f"[bold]{escape(words.get(ACTIONS.get(action, ''), action))}[/bold] "
            f"{escape(str(change.get('title')))} "
            f"({words['evidence']} {escape(str(change.get('evidenceId')))})"
        )
    for key, mark in SELECTION_BLOCKS:
        sources = dossier.get(key) or []
        if sources:
            console.print(f"[bold]{words[key]}[/bold]")
        for source in sources:
            console.print(
                f"  {mark} {escape(str(source.get('title')))} ({source.get('authority')}) "
                f"{words['evidence']} {escape(str(source.get('evidenceId')))}"
            )


def _read_line(console: Console) -> str | None:
    """The next line the user typed, stripped; None at end of input or Ctrl-C."""
    try:
        return console.input("[bold]you>[/bold] ").strip()
    except (EOFError, KeyboardInterrupt):
        console.print()
        return None


def _check_choice(option: str, value: str | None, allowed: tuple[str, ...]) -> None:
    if value is not None and value not in allowed:
        raise typer.BadParameter(f"'{value}' is not one of {', '.join(allowed)}", param_hint=option)


def websocket_url(server: str) -> str:
    """The chat WebSocket of the server at an http(s) base URL."""
    scheme, sep, rest = server.partition("://")
    secure = {"https": "wss", "http": "ws"}.get(scheme.lower(), "ws")
    return f"{secure}://{rest if sep else server}/ws"
