"""The request body limit, enforced before and while reading, and the stalled-body timeout.

A pure ASGI middleware, so nothing above it has read the body yet: a Content-Length over the
limit is refused without reading a byte; a chunked or unsized body is counted as it arrives and
refused at the limit; a body that stops arriving is ended after a timeout. Either way the client
gets the error shape and the connection is closed, so the rest of the body is never read.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.errors import error_body


@dataclass(frozen=True, slots=True)
class Refusal:
    status: int
    code: str
    message: str


class BodyLimit:
    """Refuse request bodies over `max_bytes` (413) and bodies that stall (408)."""

    def __init__(self, app: ASGIApp, max_bytes: int, timeout_seconds: float) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.timeout_seconds = timeout_seconds

    def too_large(self) -> Refusal:
        return Refusal(
            413,
            "payload_too_large",
            f"The request body is over the limit of {self.max_bytes} bytes; "
            "send a smaller body (a question is at most 4,000 characters).",
        )

    def stalled(self) -> Refusal:
        return Refusal(
            408,
            "request_timeout",
            f"The request body stopped arriving for {self.timeout_seconds:g} s; "
            "send the whole body at once.",
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.max_bytes:
            await _refuse(send, self.too_large())
            return
        refusal: Refusal | None = None
        received = 0
        complete = False
        started = False

        async def bounded_receive() -> Message:
            nonlocal refusal, received, complete
            if complete:
                # The body is in: what remains is the disconnect a streaming response listens
                # for, which may rightly wait as long as the stream lasts.
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), self.timeout_seconds)
            except TimeoutError:
                refusal = self.stalled()
                return {"type": "http.disconnect"}
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                complete = not message.get("more_body", False)
                if received > self.max_bytes:
                    refusal = self.too_large()
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if refusal is None:
                started = started or message["type"] == "http.response.start"
                await send(message)
            # Once refused, whatever the app answers to the "disconnect" it was handed is
            # dropped: the refusal is sent instead, once, below.

        try:
            await self.app(scope, bounded_receive, guarded_send)
        except Exception:
            if refusal is None:
                raise
        if refusal is not None and not started:
            await _refuse(send, refusal)


def _content_length(scope: Scope) -> int | None:
    for name, value in scope["headers"]:
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None  # the HTTP parser refuses a malformed length before we get here
    return None


async def _refuse(send: Send, refusal: Refusal) -> None:
    body = orjson.dumps(error_body(refusal.status, refusal.code, refusal.message))
    await send(
        {
            "type": "http.response.start",
            "status": refusal.status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                # The unread rest of the body would be parsed as the next request: close.
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
