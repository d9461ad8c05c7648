"""Which Host a request may name: DNS rebinding is refused before anything else runs.

A page on an attacker's domain can have the browser re-resolve that domain to this server's
address (DNS rebinding) and then read its answers as if same-origin; its requests still say
`Host: attacker.example`. So every HTTP request and WebSocket handshake must name one of the
allowed hosts (NAVOD_ALLOWED_HOSTS, api/settings.py), with any port; any other Host, or none,
is a 400 `invalid_request` naming `Host`, and a WebSocket gets that response in place of its
handshake. Starlette's TrustedHostMiddleware checks the same, with a plain-text body.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from api.errors import error_response
from api.responses import JSONBytes, refuse_before_route

ANY = "*"
# host, [IPv6 literal] or IPv4 address, then an optional port (which is never checked)
HOST_HEADER = re.compile(r"(?:\[(?P<literal>[0-9A-Fa-f:.]+)\]|(?P<name>[^:\[\]/\s]+))(?::[0-9]*)?")
SHOWN = 100  # characters of a refused Host header repeated in the message


def host_name(header: str | None) -> str | None:
    """The host a Host header names, lower case, without port, brackets or final dot; None if
    the header is missing or malformed."""
    found = HOST_HEADER.fullmatch(header.strip()) if header is not None else None
    if found is None:
        return None
    return _normalise(found["literal"] or found["name"])


class TrustedHosts:
    """Pass requests naming an allowed host (`name`, `*.domain` for its subdomains, or `*`)."""

    def __init__(self, app: ASGIApp, allowed: Iterable[str]) -> None:
        self.app = app
        names = {_normalise(name) for name in allowed if name.strip()}
        self.any = ANY in names
        self.exact = frozenset(name for name in names if not name.startswith("*."))
        self.suffixes = tuple(name[1:] for name in names if name.startswith("*."))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.any or scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        header = Headers(scope=scope).get("host")
        host = host_name(header)
        if host is not None and (host in self.exact or host.endswith(self.suffixes)):
            await self.app(scope, receive, send)
            return
        await refuse_before_route(_refusal(header), scope, receive, send)


def _normalise(host: str) -> str:
    return host.strip().strip("[]").rstrip(".").lower()


def _refusal(header: str | None) -> JSONBytes:
    if header is None:
        message = "The request has no Host header; send the name of the server asked."
    else:
        shown = header if len(header) <= SHOWN else header[:SHOWN] + "…"
        message = (
            f"This server does not answer to the host {shown!r}; its operator lists the names "
            "it answers to in NAVOD_ALLOWED_HOSTS."
        )
    return error_response(400, "invalid_request", message, "Host")
