"""Bounded work per request, against a real `navod serve` over raw sockets: bodies over the
limit, bodies and headers that stall, oversized headers, idle WebSockets, the WebSocket cap and
oversized frames. The limits are settings, set small here so each test waits about a second."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack
from urllib.parse import urlsplit

import orjson
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.servers import running_server

# A safety net so a broken server fails the test instead of hanging it; never an assertion.
WAIT = 30
LIMITS = {
    "NAVOD_MAX_BODY_BYTES": "65536",
    "NAVOD_BODY_TIMEOUT_SECONDS": "1",
    "NAVOD_HEADER_TIMEOUT_SECONDS": "1",
    "NAVOD_MAX_HEADER_BYTES": "8192",
    "NAVOD_WS_RECEIVE_TIMEOUT_SECONDS": "1",
    "NAVOD_WS_MAX_CONNECTIONS": "2",
    "NAVOD_WS_MAX_BYTES": "65536",
}
QUESTION = b'{"query": "Koja je stopa PDV-a?"}'


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    folder = tmp_path_factory.mktemp("limits")
    with running_server(f"sqlite:///{folder / 'navod.db'}", folder / "server.log", LIMITS) as url:
        parts = urlsplit(url)
        assert parts.hostname is not None and parts.port is not None
        yield parts.hostname, parts.port


def exchange(server: tuple[str, int], *pieces: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send `pieces` on a fresh connection, then read until the server closes it: the status,
    headers and body of the reply (a server that never closes fails at WAIT)."""
    with socket.create_connection(server, timeout=WAIT) as sock:
        for piece in pieces:
            sock.sendall(piece)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in header_lines)
    return int(status_line.split()[1]), headers, body


def post_head(length: int | None) -> bytes:
    sized = f"content-length: {length}" if length is not None else "transfer-encoding: chunked"
    return (
        "POST /api/assistant/chat HTTP/1.1\r\nhost: localhost\r\n"  # a host it answers to
        f"content-type: application/json\r\n{sized}\r\n\r\n"
    ).encode()


def error_of(body: bytes) -> dict[str, object]:
    error: dict[str, object] = orjson.loads(body)["error"]
    return error


def test_a_question_within_the_limits_is_answered(server: tuple[str, int]) -> None:
    status, _, body = exchange(
        server,
        post_head(len(QUESTION)).replace(b"\r\n\r\n", b"\r\nconnection: close\r\n\r\n") + QUESTION,
    )
    assert status == 200, body
    assert "25" in orjson.loads(body)["directAnswer"]


def test_a_declared_length_over_the_limit_is_refused_before_reading(
    server: tuple[str, int],
) -> None:
    # Only the headers are sent: the refusal cannot have waited for 200 MB of body.
    status, headers, body = exchange(server, post_head(200_000_000))
    assert status == 413
    assert headers["connection"] == "close"
    assert error_of(body)["code"] == "payload_too_large"
    assert "65536 bytes" in str(error_of(body)["message"])


def test_a_chunked_body_is_counted_as_it_arrives_and_stopped_at_the_limit(
    server: tuple[str, int],
) -> None:
    chunk = b"x" * 16384
    chunks = [b"%x\r\n%s\r\n" % (len(chunk), chunk)] * 5  # 80 KiB, never terminated
    status, _, body = exchange(server, post_head(None), *chunks)
    assert status == 413
    assert error_of(body) == {
        "status": 413,
        "code": "payload_too_large",
        "message": error_of(body)["message"],
        "field": None,
    }


def test_a_body_that_stalls_is_ended_after_the_timeout(server: tuple[str, int]) -> None:
    began = time.monotonic()
    status, headers, body = exchange(server, post_head(len(QUESTION)), QUESTION[:10])
    assert status == 408
    assert headers["connection"] == "close"
    assert error_of(body)["code"] == "request_timeout"
    assert time.monotonic() - began < WAIT  # ended by the server, not by the safety net


def test_headers_that_stall_are_ended_after_the_timeout(server: tuple[str, int]) -> None:
    status, _, body = exchange(server, b"GET /health HTTP/1.1\r\nhost: x\r\n")
    assert status == 408
    assert error_of(body)["code"] == "request_timeout"


def test_a_connection_that_sends_nothing_is_closed(server: tuple[str, int]) -> None:
    status, _, body = exchange(server)
    assert status == 408 and error_of(body)["code"] == "request_timeout"


def test_oversized_headers_are_refused(server: tuple[str, int]) -> None:
    padding = b"x-padding: " + b"a" * 10_000 + b"\r\n"
    status, _, body = exchange(server, b"GET /health HTTP/1.1\r\nhost: x\r\n" + padding + b"\r\n")
    assert status == 431
    assert error_of(body)["code"] == "headers_too_large"


def ws_url(server: tuple[str, int]) -> str:
    return f"ws://{server[0]}:{server[1]}/ws"


def closing_of(connection: ClientConnection) -> tuple[int, str]:
    """The close code and reason the server ended `connection` with."""
    with pytest.raises(ConnectionClosed) as closed:
        connection.recv(timeout=WAIT)
    received = closed.value.rcvd
    assert received is not None, "the server dropped the connection without a close frame"
    return received.code, received.reason


def test_an_idle_websocket_is_closed_after_the_receive_timeout(server: tuple[str, int]) -> None:
    with connect(ws_url(server), open_timeout=WAIT) as connection:
        code, reason = closing_of(connection)
    assert code == 1008
    assert reason == "no question within 1 s of connecting"


def test_websockets_over_the_cap_are_closed_with_try_again_later(
    server: tuple[str, int],
) -> None:
    with ExitStack() as stack:
        held = [stack.enter_context(connect(ws_url(server), open_timeout=WAIT)) for _ in range(2)]
        with connect(ws_url(server), open_timeout=WAIT) as third:
            assert closing_of(third) == (1013, "too many open connections; try again later")
        for connection in held:  # the two within the cap were kept until their own timeout
            assert closing_of(connection)[0] == 1008
    with connect(ws_url(server), open_timeout=WAIT) as again:  # slots are given back
        again.send('{"message": "Koja je stopa PDV-a?"}')
        assert orjson.loads(again.recv(timeout=WAIT))["status"] == "ok"


def test_a_websocket_frame_over_the_size_limit_is_refused(server: tuple[str, int]) -> None:
    with connect(ws_url(server), open_timeout=WAIT, max_size=None) as connection:
        connection.send('{"message": "' + "a" * 70_000 + '"}')
        code, _ = closing_of(connection)
    assert code == 1009  # message too big
