"""uvicorn's HTTP protocol with a deadline and a size limit on request headers.

uvicorn times out only an idle keep-alive connection, and any byte resets that timer: a client
that opens a connection and sends nothing, or sends a header a byte at a time, holds it for
ever. Here the request line and headers must arrive whole, within the deadline and the size,
from the connection's start (or the next request's first byte); else 408 or 431 and a close.
Once the headers are in, the body is the BodyLimit middleware's to bound.
"""

from __future__ import annotations

import asyncio
from functools import cache

import orjson
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from api.errors import error_body
from api.settings import get_settings


@cache
def _header_limits() -> tuple[float, int]:
    """(deadline in seconds, size in bytes): read once per worker process, not per connection."""
    settings = get_settings()
    return settings.header_timeout_seconds, settings.max_header_bytes


class BoundedHttpProtocol(HttpToolsProtocol):
    """HttpToolsProtocol whose request headers must arrive within a deadline and a size."""

    _deadline: asyncio.TimerHandle | None = None
    _header_bytes = 0  # whole chunks read while the headers were incomplete
    _parsed_bytes = 0  # the request line and headers the parser handed over
    _reading_headers = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._expect_headers()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._reading_headers:  # the whole chunk was request line and headers
            self._header_bytes += len(data)
            self._check_header_size()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if not self._reading_headers:  # the next request on a kept-alive connection
            self._expect_headers()

    def on_url(self, url: bytes) -> None:
        self._parsed_bytes += len(url)
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        # Counted here too: the chunk that ends the headers may also hold the body.
        self._parsed_bytes += len(name) + len(value)
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._check_header_size()
        if self.transport.is_closing():
            return  # refused above: no request to run
        self._headers_done()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._headers_done()
        super().connection_lost(exc)

    def _expect_headers(self) -> None:
        self._reading_headers = True
        self._header_bytes = 0
        self._parsed_bytes = 0
        self._deadline = self.loop.call_later(_header_limits()[0], self._headers_late)

    def _check_header_size(self) -> None:
        size = max(self._header_bytes, self._parsed_bytes)
        if self._reading_headers and size > _header_limits()[1]:
            self._refuse(431, "headers_too_large", "The request headers are too large.")

    def _headers_done(self) -> None:
        self._reading_headers = False
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _headers_late(self) -> None:
        self._deadline = None
        if self._reading_headers:
            self._refuse(408, "request_timeout", "The request headers did not arrive in time.")

    def _refuse(self, status: int, code: str, message: str) -> None:
        self._headers_done()
        if self.transport.is_closing():
            return
        reason = {408: "Request Timeout", 431: "Request Header Fields Too Large"}[status]
        body = orjson.dumps(error_body(status, code, message))
        head = (
            f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
        )
        self.transport.write(head.encode("ascii") + body)
        self.transport.close()
