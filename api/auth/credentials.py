"""The secret a request carries: `Authorization: Bearer <secret>`, or on a WebSocket the
subprotocol `bearer.<secret>` (browsers cannot set headers on a WebSocket). Never the URL:
URLs end up in logs and browser history."""

from __future__ import annotations

from dataclasses import dataclass

from starlette.datastructures import Headers

SUBPROTOCOL_PREFIX = "bearer."
# Offered beside bearer.<secret>, it is the subprotocol the server echoes, so the secret does
# not travel back in the handshake's response.
SUBPROTOCOL = "navod"


class Unauthorized(Exception):
    """The request carries a credential that is not a usable key; the text says why."""


@dataclass(frozen=True, slots=True)
class Presented:
    """The secret the request carries (None: none), and the subprotocol to accept a WebSocket
    with (None: the client offered none Navod speaks)."""

    secret: str | None
    subprotocol: str | None = None


def presented(headers: Headers, websocket: bool) -> Presented:
    """The credential of a request; Unauthorized when the Authorization header is malformed."""
    secret = _bearer(headers.get("authorization"))
    if not websocket:
        return Presented(secret)
    offered = [p.strip() for p in headers.get("sec-websocket-protocol", "").split(",") if p.strip()]
    in_protocol = [
        p[len(SUBPROTOCOL_PREFIX) :] for p in offered if p.startswith(SUBPROTOCOL_PREFIX)
    ]
    if len(in_protocol) > 1 or (in_protocol and secret is not None and in_protocol[0] != secret):
        raise Unauthorized("Send one API key: the request carries more than one.")
    chosen = SUBPROTOCOL if SUBPROTOCOL in offered else None
    if in_protocol:
        # A browser fails the handshake unless the server echoes one of the offered protocols.
        chosen = chosen or SUBPROTOCOL_PREFIX + in_protocol[0]
        return Presented(in_protocol[0], chosen)
    return Presented(secret, chosen)


def _bearer(header: str | None) -> str | None:
    if header is None:
        return None
    scheme, _, secret = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not secret.strip():
        raise Unauthorized(
            "The Authorization header must be 'Bearer <secret>' (an API key from "
            "`navod keys create`)."
        )
    return secret.strip()
