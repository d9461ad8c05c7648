"""The server's log keeps no secret and no capability (api/logs.py): no query string, a
conversation's id only as a short hash, and one refusal line per client address a minute.

Records are built the way uvicorn builds them (an access line's args are client, method,
target, HTTP version and status; a handshake's are client, target and maybe a status), and a
real `navod serve` shows the filter is installed where uvicorn logs."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from uvicorn.config import LOGGING_CONFIG
from uvicorn.logging import DefaultFormatter
from websockets.sync.client import connect

from api.logs import AccessFormatter, AccessLogFilter, dossier_digest, log_config, scrub_target
from tests.servers import running_server

DOSSIER = "dos_" + "3f" * 16
ACCESS = '%s - "%s %s HTTP/%s" %d'  # uvicorn's, in protocols/http/*_impl.py
ACCEPTED = '%s - "WebSocket %s" [accepted]'  # uvicorn's, in protocols/websockets/*_impl.py
DENIED = '%s - "WebSocket %s" %d'


@dataclass
class Clock:
    now: float = 1000.0

    def __call__(self) -> float:
        return self.now


def record(message: str, *args: object, name: str = "uvicorn.access") -> logging.LogRecord:
    return logging.LogRecord(name, logging.INFO, __file__, 1, message, args, None)


def access(client: str, target: str, status: int, method: str = "GET") -> logging.LogRecord:
    return record(ACCESS, client, method, target, "1.1", status)


def formatted(line: logging.LogRecord) -> str:
    fmt = LOGGING_CONFIG["formatters"]["access"]["fmt"]
    return AccessFormatter(fmt=fmt, use_colors=False).format(line)


@pytest.mark.parametrize(
    ("target", "logged"),
    [
        (f"/api/dossiers/{DOSSIER}", f"/api/dossiers/{dossier_digest(DOSSIER)}"),
        (f"/api/dossiers/{DOSSIER}/facts", f"/api/dossiers/{dossier_digest(DOSSIER)}/facts"),
        (
            f"/api/dossiers/{DOSSIER}/sources/ev_0123456789abcdef%3Aselect?x=1",
            f"/api/dossiers/{dossier_digest(DOSSIER)}/sources/ev_0123456789abcdef%3Aselect",
        ),
        ("/api/dossiers/not-an-id", f"/api/dossiers/{dossier_digest('not-an-id')}"),
        ("/api/dossiers?limit=5&key=navod_secret", "/api/dossiers"),
        ("/api/dossiers/", "/api/dossiers/"),
        ("/api/kb/rules?asOf=2024-01-01&key=navod_secret", "/api/kb/rules"),
        ("/health", "/health"),
    ],
)
def test_a_target_is_logged_without_query_or_dossier_id(target: str, logged: str) -> None:
    assert scrub_target(target) == logged


def test_the_digest_is_short_stable_and_not_the_id() -> None:
    digest = dossier_digest(DOSSIER)
    assert re.fullmatch(r"sha256:[0-9a-f]{10}", digest)
    assert digest == dossier_digest(DOSSIER) != dossier_digest("dos_" + "0" * 32)


def test_an_access_line_keeps_no_id_and_no_query() -> None:
    line = access("203.0.113.9:50123", f"/api/dossiers/{DOSSIER}?key=navod_secret", 200)
    assert AccessLogFilter().filter(line)
    text = formatted(line)
    assert DOSSIER not in text and "navod_secret" not in text and "?" not in text
    assert f'"GET /api/dossiers/{dossier_digest(DOSSIER)} HTTP/1.1" 200 OK' in text
    assert text.startswith("INFO:") and "203.0.113.9:50123" in text


def test_a_websocket_line_keeps_no_query() -> None:
    line = record(ACCEPTED, "203.0.113.9:50123", "/ws?key=navod_secret", name="uvicorn.error")
    assert AccessLogFilter().filter(line)
    text = DefaultFormatter(fmt="%(message)s", use_colors=False).format(line)
    assert text == '203.0.113.9:50123 - "WebSocket /ws" [accepted]'


def test_other_lines_pass_untouched() -> None:
    line = record("Started server process [%d]", 42, name="uvicorn.error")
    assert AccessLogFilter().filter(line) and line.getMessage() == "Started server process [42]"


def test_refusals_are_logged_once_per_address_a_minute() -> None:
    clock = Clock()
    log = AccessLogFilter(clock=clock)
    kept: list[str] = []

    def seen(line: logging.LogRecord) -> None:
        if log.filter(line):
            kept.append(formatted(line))

    seen(access("203.0.113.9:50001", "/api/kb/concepts", 401))
    for port, status in ((50002, 401), (50003, 429), (50004, 403)):
        clock.now += 10
        seen(access(f"203.0.113.9:{port}", "/api/kb/concepts", status))
    seen(access("198.51.100.7:40000", "/api/kb/concepts", 401))  # another address
    seen(access("203.0.113.9:50005", "/api/kb/sources", 200))  # not a refusal
    seen(access("203.0.113.9:50006", "/api/dossiers/x", 404))  # nor is a 404
    clock.now += 31  # 61 s after the first line
    seen(access("203.0.113.9:50007", "/api/kb/concepts", 401))
    clock.now += 1
    seen(access("203.0.113.9:50008", "/api/kb/concepts", 401))  # a new minute has begun
    assert [line.split(" - ")[0].split()[-1] for line in kept] == [
        "203.0.113.9:50001",
        "198.51.100.7:40000",
        "203.0.113.9:50005",
        "203.0.113.9:50006",
        "203.0.113.9:50007",
    ]
    assert kept[-1].endswith("401 Unauthorized (+3 refused from this address not logged)")
    assert "not logged" not in "".join(kept[:-1])


def test_refused_websocket_handshakes_are_thinned_out_too() -> None:
    clock = Clock()
    log = AccessLogFilter(clock=clock)
    first = record(DENIED, "203.0.113.9:1", "/ws?key=navod_secret", 401, name="uvicorn.error")
    assert log.filter(first) and first.getMessage() == '203.0.113.9:1 - "WebSocket /ws" 401'
    assert not log.filter(record(DENIED, "203.0.113.9:2", "/ws", 429, name="uvicorn.error"))
    clock.now += 60
    later = record('%s - "WebSocket %s" 403', "203.0.113.9:3", "/ws", name="uvicorn.error")
    assert log.filter(later)
    assert later.getMessage() == (
        '203.0.113.9:3 - "WebSocket /ws" 403 (+1 refused from this address not logged)'
    )


def test_the_addresses_counted_are_bounded() -> None:
    log = AccessLogFilter(most=2)
    for address in ("192.0.2.1", "192.0.2.2", "192.0.2.3"):
        assert log.filter(access(f"{address}:1", "/api/kb/concepts", 401))
    # the first address was forgotten, so its next refusal is a first one again
    assert log.filter(access("192.0.2.1:2", "/api/kb/concepts", 401))
    assert not log.filter(access("192.0.2.3:2", "/api/kb/concepts", 401))


def test_navod_serve_installs_the_filter_on_uvicorn_s_loggers() -> None:
    config = log_config()
    assert config["filters"]["navod"]["()"] == "api.logs.AccessLogFilter"
    assert config["formatters"]["access"]["()"] == "api.logs.AccessFormatter"
    assert config["loggers"]["uvicorn.access"]["filters"] == ["navod"]
    assert config["loggers"]["uvicorn.error"]["filters"] == ["navod"]
    assert "filters" not in LOGGING_CONFIG  # uvicorn's own default is left as it was


@pytest.fixture(scope="module")
def served_log(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A real `navod serve` logging at info level: its base URL and its output."""
    folder = tmp_path_factory.mktemp("access-log")
    log = folder / "server.log"
    with running_server(f"sqlite:///{folder / 'navod.db'}", log, {"LOG_LEVEL": "info"}) as base:
        yield base, log


def wait_for(log: Path, text: str) -> str:
    """The log once it holds `text` (uvicorn writes a line as the response starts)."""
    deadline = time.monotonic() + 10
    while True:
        found = log.read_text(encoding="utf-8", errors="replace")
        if text in found or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


def test_a_real_server_logs_no_dossier_id_and_no_query(served_log: tuple[str, Path]) -> None:
    base, log = served_log
    assert httpx.get(f"{base}/api/dossiers/{DOSSIER}?key=navod_query_secret").status_code == 404
    assert httpx.get(f"{base}/api/dossiers/{DOSSIER}/facts").status_code == 404
    assert httpx.get(f"{base}/health?token=health_query_secret").status_code == 200
    ws = base.replace("http://", "ws://", 1)
    with connect(f"{ws}/ws?key=ws_query_secret") as socket:
        socket.send('{"message": "Koja je stopa PDV-a?", "use_memory": false}')
        socket.recv(timeout=30)
    text = wait_for(log, '"WebSocket /ws" [accepted]')
    assert f'"GET /api/dossiers/{dossier_digest(DOSSIER)} HTTP/1.1" 404' in text
    assert f'"GET /api/dossiers/{dossier_digest(DOSSIER)}/facts HTTP/1.1" 404' in text
    assert '"GET /health HTTP/1.1" 200' in text and '"WebSocket /ws" [accepted]' in text
    for secret in (DOSSIER, "query_secret", "?"):
        assert secret not in text, text


def test_a_real_server_logs_a_refused_address_once(served_log: tuple[str, Path]) -> None:
    base, log = served_log
    wrong = {"Authorization": "Bearer navod_" + "A" * 43}
    for _ in range(5):
        assert httpx.get(f"{base}/api/kb/sources", headers=wrong).status_code in (401, 429)
    assert httpx.get(f"{base}/api/kb/topics").status_code == 200  # logged after the refusals
    text = wait_for(log, '"GET /api/kb/topics HTTP/1.1" 200')
    refused = re.findall(r'"GET /api/kb/sources HTTP/1\.1" (?:401|429)', text)
    assert len(refused) == 1, text
