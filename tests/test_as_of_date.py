"""A request's as-of date is `YYYY-MM-DD` and nothing else, on every route that takes one.

pydantic alone reads a number as a Unix time (`"asOfDate": 0` was answered as of 1970-01-01)
and a midnight datetime as its day; a client sending either made a mistake worth naming, so it
is a 400 naming the field (the WebSocket: its error message, not retriable)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from engine.service import AnswerService
from engine.store.knowledge.memory import MemoryRepository
from engine.store.knowledge.packs import load_packs, pack_paths

QUESTION = "Koja je stopa PDV-a?"
NOT_A_DAY = [
    0,
    1_700_000_000,
    1.0,
    True,
    "0",
    "1700000000",
    "20240101",
    "2024-01-01T00:00:00",
    "2024-01-01T00:00:00Z",
    "2024-01-01 00:00",
    "2024-1-1",
    " 2024-01-01",
    "2024-01-01\n",
    "2024-02-30",
    "١٢٣٤-٠١-٠١",  # digits, but not ASCII ones
    [],
    {},
]
ROUTES = ["/api/assistant/chat", "/api/assistant/chat/stream"]


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    repository = MemoryRepository()
    load_packs(repository, pack_paths([]))
    with TestClient(create_app(AnswerService(repository)), raise_server_exceptions=False) as c:
        yield c


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("value", NOT_A_DAY, ids=repr)
def test_anything_but_a_calendar_day_is_a_400_naming_the_field(
    client: TestClient, route: str, value: Any
) -> None:
    reply = client.post(route, json={"query": QUESTION, "asOfDate": value})
    assert reply.status_code == 400, reply.text
    error = reply.json()["error"]
    assert error["code"] == "invalid_request" and error["field"] == "asOfDate"
    assert "YYYY-MM-DD" in error["message"]


@pytest.mark.parametrize("route", ROUTES)
def test_a_calendar_day_is_the_date_answered_for(client: TestClient, route: str) -> None:
    reply = client.post(route, json={"query": QUESTION, "asOfDate": "2024-05-01"})
    assert reply.status_code == 200, reply.text
    lines = [orjson.loads(line) for line in reply.text.splitlines()]
    assert any(line.get("asOfDate") == "2024-05-01" for line in lines)


@pytest.mark.parametrize("value", [0, "2024-01-01T00:00:00", "2024-05-01"], ids=repr)
def test_the_websocket_names_the_field(client: TestClient, value: Any) -> None:
    """The WebSocket message has no as-of date (api/routes/ws.py KNOWN_FIELDS): any value is
    refused with the documented error naming it, and nothing is answered."""
    with client.websocket_connect("/ws") as socket:
        socket.send_text(orjson.dumps({"message": QUESTION, "asOfDate": value}).decode())
        reply = orjson.loads(socket.receive_text())
    assert reply["status"] == "error" and reply["retriable"] is False
    assert "'asOfDate'" in reply["error"]


@pytest.mark.parametrize("value", ["0", "1700000000", "2024-01-01T00:00:00", "20240101"])
def test_the_rules_filter_takes_only_a_calendar_day(client: TestClient, value: str) -> None:
    reply = client.get("/api/kb/rules", params={"asOf": value})
    assert reply.status_code == 400 and reply.json()["error"]["field"] == "query.asOf"
    assert client.get("/api/kb/rules", params={"asOf": "2024-05-01"}).status_code == 200
