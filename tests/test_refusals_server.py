"""Refused requests against a real `navod serve` that needs a key (issue 24): a refused
WebSocket handshake is answered and closed without an ERROR line in the log, and an address
refused too often gets 429 before its key is looked up."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.servers import running_server

REFUSALS = 5
SETTINGS = {
    "NAVOD_REQUIRE_KEY": "1",
    "NAVOD_REFUSALS_PER_MINUTE": str(REFUSALS),
    "LOG_LEVEL": "info",
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    folder = tmp_path_factory.mktemp("refusals")
    log = folder / "server.log"
    with running_server(f"sqlite:///{folder / 'navod.db'}", log, SETTINGS) as url:
        yield url, log


def test_a_refused_websocket_handshake_logs_no_error(server: tuple[str, Path]) -> None:
    url, log = server
    with pytest.raises(InvalidStatus) as refused:
        connect(url.replace("http", "ws") + "/ws", open_timeout=10)
    assert refused.value.response.status_code == 401
    assert b'"unauthorized"' in refused.value.response.body
    text = log.read_text(encoding="utf-8", errors="replace")
    assert '"WebSocket /ws" 401' in text  # the refusal reached the server and was logged
    assert "ERROR" not in text and "Traceback" not in text


def test_an_address_refused_too_often_is_limited_before_its_key_is_read(
    server: tuple[str, Path],
) -> None:
    url, _log = server
    bad = {"Authorization": "Bearer nvk_not_a_key"}
    with httpx.Client(base_url=url, timeout=10) as client:
        statuses = [
            client.post("/api/assistant/chat", json={"query": "?"}, headers=bad).status_code
            for _ in range(REFUSALS + 3)
        ]
        limited = client.post("/api/assistant/chat", json={"query": "?"}, headers=bad)
    assert 401 in statuses and statuses[-1] == 429
    assert limited.status_code == 429 and int(limited.headers["Retry-After"]) >= 1
    assert "refused requests" in limited.json()["error"]["message"]
