"""uvicorn's WebSocket protocol, with a refused handshake ended as cleanly as an accepted one.

The guard (api/auth/guard.py) refuses a WebSocket with an HTTP response in place of the
handshake (the ASGI denial-response extension). uvicorn 0.54 sends that response but never
counts the handshake as finished, so every refused connection also logged an ERROR ("ASGI
callable returned without completing handshake"), which an attacker could repeat at will to
flood the log. A denial response sent in full is the end of that handshake.
"""

from __future__ import annotations

from uvicorn._types import ASGISendEvent
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


class DenyingWebSocketProtocol(WebSocketsSansIOProtocol):
    async def send(self, message: ASGISendEvent) -> None:
        denied = self.initial_response is not None and not self.handshake_complete
        await super().send(message)
        if (
            denied
            and message["type"] == "websocket.http.response.body"
            and not message.get("more_body", False)
        ):
            self.handshake_complete = True
