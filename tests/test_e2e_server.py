"""End to end against a real uvicorn process: first start migrates and loads the packs, then
the JSON route and the NDJSON stream answer over a real socket."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from engine.store.db import REPO_ROOT
from engine.stream import merge_lines, parse_ndjson, validate_stream
from engine.validation import validate_response
from tests.servers import running_server

pytestmark = pytest.mark.db


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[str]:
    with running_server(database_url, tmp_path / "server.log") as base:
        yield base


def test_stream_over_a_real_socket(server: str) -> None:
    started = time.monotonic()
    lines: list[bytes] = []
    with httpx.stream(
        "POST",
        f"{server}/api/assistant/chat/stream",
        json={"query": "Wat is het algemene btw-tarief?"},
        timeout=30,
    ) as reply:
        assert reply.status_code == 200
        assert reply.headers["content-type"].startswith("application/x-ndjson")
        for line in reply.iter_lines():
            lines.append(line.encode())
    assert time.monotonic() - started < 30
    parsed = parse_ndjson(b"\n".join(lines))
    assert parsed[0]["kind"] == "ANSWER" and parsed[-1]["_done"] is True
    assert validate_stream(parsed).valid


def test_json_chat_and_health_over_a_real_socket(server: str) -> None:
    health = httpx.get(f"{server}/health").json()
    assert health["status"] == "ok" and health["kbVersion"] >= 1
    reply = httpx.post(f"{server}/api/assistant/chat", json={"query": "What is the RMD age?"})
    body = reply.json()
    assert reply.status_code == 200 and body["kind"] == "ANSWER"
    assert validate_response(body).valid


def _asked(server: str, case: dict[str, Any], body: dict[str, object]) -> dict[str, Any]:
    """A golden case asked over the socket (with its date), checked for its kind, refusal
    reason and every fragment its direct answer must hold."""
    if case.get("as_of"):
        body["asOfDate"] = str(case["as_of"])
    reply: dict[str, Any] = httpx.post(f"{server}/api/assistant/chat", json=body, timeout=30).json()
    expect = case["expect"]
    assert reply["kind"] == expect["kind"], (case["id"], reply["headline"])
    assert reply.get("refusalReason") == expect.get("refusal_reason"), case["id"]
    for fragment in expect.get("answer_contains") or []:
        assert str(fragment) in reply["directAnswer"], (case["id"], reply["directAnswer"])
    return reply


WHY = yaml.safe_load((REPO_ROOT / "fixtures" / "cases" / "understanding.yaml").read_text())


def test_every_example_of_the_understanding_issue_over_http(server: str) -> None:
    """Issue 9's examples, each asked over a real socket: the right answer or refusal, and the
    frame Navod understood, in the JSON response and as its own stream line before done."""
    for case in WHY:
        reply = _asked(server, case, {"query": case["query"]})
        assert reply["understood"]["text"], case["id"]
        assert validate_response(reply).valid, case["id"]
    streamed = httpx.post(f"{server}/api/assistant/chat/stream", json={"query": WHY[2]["query"]})
    lines = parse_ndjson(streamed.content)
    keys = [next(k for k in line if k != "requestId") for line in lines]
    assert "understood" in keys and keys.index("understood") < keys.index("_done")


ASKS = yaml.safe_load((REPO_ROOT / "fixtures" / "cases" / "asks.yaml").read_text())


def test_every_example_of_the_asks_issue_over_json_and_the_stream(server: str) -> None:
    """Issue 23's examples over a real socket: the right answer (every value stated) or the
    right refusal, and the stream, merged, carries the same answer, asks and cards."""
    for case in ASKS:
        body: dict[str, object] = {"query": case["query"], "use_memory": False}
        reply = _asked(server, case, body)
        assert validate_response(reply).valid, case["id"]
        streamed = httpx.post(f"{server}/api/assistant/chat/stream", json=body, timeout=30)
        lines = parse_ndjson(streamed.content)
        assert validate_stream(lines).valid, case["id"]
        merged = merge_lines(lines)
        for key in ("kind", "headline", "directAnswer", "citations", "additionalCitations"):
            assert merged.get(key) == reply.get(key), (case["id"], key)
        asks = (reply.get("understood") or {}).get("asks")
        assert (merged.get("understood") or {}).get("asks") == asks, case["id"]
