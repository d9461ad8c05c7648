"""JSON responses rendered with orjson: the engine already hands us plain dicts."""

from __future__ import annotations

from typing import Any

import orjson
from starlette.responses import JSONResponse
from starlette.types import Receive, Scope, Send


class JSONBytes(JSONResponse):
    """A JSONResponse (so the OpenAPI page documents a route's model, not "a string")."""

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)


async def refuse_before_route(
    response: JSONBytes, scope: Scope, receive: Receive, send: Send
) -> None:
    """Send `response` from an ASGI middleware in place of the route: to a WebSocket as the
    HTTP response that replaces its handshake (the denial-response extension), or, on a server
    without that extension, as a policy-violation close."""
    if scope["type"] == "http":
        await response(scope, receive, send)
        return
    await receive()  # websocket.connect
    if "websocket.http.response" in scope.get("extensions", {}):
        await response(scope, receive, send)  # sent as websocket.http.response.* by Starlette
    else:
        await send({"type": "websocket.close", "code": 1008})
