"""A real database outage under load: a PostgreSQL of the test's own is killed mid-load and
started again, while threads ask stateless questions, continue and start conversations, stream,
read dossiers and ask over the WebSocket of a real `navod serve`.

Every response must be an allowed outcome: stateless questions are answered from the snapshot
in memory throughout; whatever needs the database is answered or gets a typed, retriable 503
(never a 500, a reset connection or a NO_CITABLE_RULES caused by the outage). Afterwards the
service recovers within seconds, no turn that was answered is lost or stored twice, no stored
turn lacks its answer, and the log holds a few throttled lines instead of a traceback each.
"""

from __future__ import annotations

import math
import os
import pwd
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
from websockets.sync.client import connect

from engine.stream import merge_lines, parse_ndjson, validate_stream
from engine.validation import validate_response
from tests.own_postgres import OwnPostgres, missing_tools, own_postgres
from tests.servers import running_server

pytestmark = pytest.mark.outage

HEALTHY_SECONDS = 2.0  # load before the crash
OUTAGE_SECONDS = 4.0  # load while the database is down
RECOVERY_WITHIN = 10.0  # seconds from the restart to a conversation turn that succeeds
PAUSE = 0.03  # between one worker's requests: load, not a benchmark, on a shared machine
THROTTLE_INTERVAL = 10.0  # engine/store/outage.py LOG_INTERVAL_SECONDS
QUESTIONS = ("Koja je stopa PDV-a?", "What is the RMD age?", "Wat is het algemene btw-tarief?")


def _skip_reason() -> str | None:
    missing = missing_tools()
    if missing:
        return f"PostgreSQL server binaries missing: {', '.join(missing)}"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root, and there is no postgres user to run initdb as"
        if shutil.which("runuser") is None:
            return "running as root, and runuser is missing to run initdb as postgres"
    return None


@dataclass
class Outcome:
    """One request and what came back (status, body) or what broke (error)."""

    kind: str
    at: float
    status: int = 0
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    error: str = ""
    session: str | None = None
    question: str = ""


@dataclass
class Load:
    base: str
    stop: threading.Event = field(default_factory=threading.Event)
    outcomes: list[Outcome] = field(default_factory=list)
    sessions: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, outcome: Outcome) -> Outcome:
        with self.lock:
            self.outcomes.append(outcome)
            if outcome.session and outcome.status == 200 and outcome.session not in self.sessions:
                self.sessions.append(outcome.session)
        return outcome

    def loop(self, work: Callable[[httpx.Client, int], None]) -> threading.Thread:
        def run() -> None:
            with httpx.Client(base_url=self.base, timeout=20) as client:
                count = 0
                while not self.stop.is_set():
                    work(client, count)
                    count += 1
                    time.sleep(PAUSE)

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        return thread


def post(load: Load, client: httpx.Client, kind: str, path: str, body: dict[str, Any]) -> Outcome:
    outcome = Outcome(kind, time.monotonic(), session=body.get("sessionId"), question=body["query"])
    try:
        reply = client.post(path, json=body)
    except httpx.HTTPError as error:  # a reset or a cut body: never allowed
        outcome.error = repr(error)
        return load.record(outcome)
    outcome.status, outcome.headers = reply.status_code, dict(reply.headers)
    if path.endswith("/stream"):
        outcome.body = merge_lines(parse_ndjson(reply.content))
        outcome.body["_valid_stream"] = validate_stream(parse_ndjson(reply.content)).valid
    else:
        outcome.body = reply.json()
    if outcome.status == 200:
        outcome.session = outcome.body.get("sessionId") or outcome.session
    return load.record(outcome)


def stateless(load: Load) -> Callable[[httpx.Client, int], None]:
    def work(client: httpx.Client, count: int) -> None:
        query = QUESTIONS[count % len(QUESTIONS)]
        body = {"query": query, "use_memory": False}
        post(load, client, "stateless", "/api/assistant/chat", body)

    return work


def conversation(load: Load) -> Callable[[httpx.Client, int], None]:
    """Continues one conversation; every fifth turn starts a new one (a new dossier)."""
    session: list[str] = []

    def work(client: httpx.Client, count: int) -> None:
        body: dict[str, Any] = {"query": QUESTIONS[count % 2]}
        if session and count % 5:
            body["sessionId"] = session[-1]
        outcome = post(load, client, "turn", "/api/assistant/chat", body)
        if outcome.status == 200 and "sessionId" not in body:
            session.append(outcome.body["sessionId"])

    return work


def stream(load: Load) -> Callable[[httpx.Client, int], None]:
    def work(client: httpx.Client, count: int) -> None:
        body = {"query": QUESTIONS[count % len(QUESTIONS)]}
        post(load, client, "stream", "/api/assistant/chat/stream", body)

    return work


def dossier_reads(load: Load) -> Callable[[httpx.Client, int], None]:
    def work(client: httpx.Client, count: int) -> None:
        with load.lock:
            known = list(load.sessions)
        if not known:
            return
        outcome = Outcome("read", time.monotonic())
        try:
            reply = client.get(f"/api/dossiers/{known[count % len(known)]}")
            outcome.status, outcome.headers = reply.status_code, dict(reply.headers)
            outcome.body = reply.json()
        except httpx.HTTPError as error:
            outcome.error = repr(error)
        load.record(outcome)

    return work


def websocket(load: Load) -> Callable[[httpx.Client, int], None]:
    url = load.base.replace("http://", "ws://") + "/ws"

    def work(_client: httpx.Client, count: int) -> None:
        outcome = Outcome("ws", time.monotonic())
        try:
            with connect(url, open_timeout=20) as connection:
                connection.send(orjson.dumps({"message": QUESTIONS[count % 2]}).decode())
                outcome.body = orjson.loads(connection.recv(timeout=20))
                outcome.status = 200
        except Exception as error:  # a closed or reset socket: never allowed
            outcome.error = repr(error)
        load.record(outcome)

    return work


@pytest.fixture
def postgres() -> Iterator[OwnPostgres]:
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    with own_postgres() as server:
        yield server


def test_a_database_outage_under_load(postgres: OwnPostgres, tmp_path: Path) -> None:
    server_log = tmp_path / "server.log"
    # The load comes from one address: the per-address rate limit is not what is tested here.
    unlimited = {"NAVOD_RATE_LIMIT_PER_MINUTE": "1000000"}
    with running_server(postgres.url, server_log, unlimited) as base:
        load = Load(base)
        warm = httpx.post(f"{base}/api/assistant/chat", json={"query": QUESTIONS[0]}, timeout=30)
        assert warm.status_code == 200  # the snapshot is built before anything fails
        workers = [
            load.loop(stateless(load)),
            load.loop(stateless(load)),
            load.loop(conversation(load)),
            load.loop(conversation(load)),
            load.loop(conversation(load)),
            load.loop(stream(load)),
            load.loop(dossier_reads(load)),
            load.loop(websocket(load)),
        ]
        time.sleep(HEALTHY_SECONDS)
        down_at = time.monotonic()
        postgres.stop()
        time.sleep(OUTAGE_SECONDS)
        health_down = httpx.get(f"{base}/health", timeout=10)
        postgres.start()
        up_at = time.monotonic()
        recovered_at = _first_turn_after(load, up_at, deadline=up_at + RECOVERY_WITHIN + 5)
        time.sleep(1.0)
        load.stop.set()
        for worker in workers:
            worker.join(timeout=30)
        health_up = httpx.get(f"{base}/health", timeout=10)
        stored = {
            session: httpx.get(f"{base}/api/dossiers/{session}", timeout=10).json()
            for session in load.sessions
        }
    outcomes = list(load.outcomes)

    # Nothing is cut, nothing is a 500, every response is an allowed outcome.
    broken = [o for o in outcomes if o.error or o.status not in (200, 503)]
    assert not broken, broken[:5]
    for outcome in outcomes:
        _check_allowed(outcome)
    during = [o for o in outcomes if down_at + 0.5 < o.at < up_at]
    assert any(o.kind == "stateless" and o.status == 200 for o in during)
    assert any(o.kind == "turn" and o.status == 503 for o in during), "the outage was not seen"
    assert all(o.status == 200 for o in outcomes if o.kind == "stateless")

    # /health said what was down and what still worked, then recovered.
    down = health_down.json()
    assert health_down.status_code == 503 and down["problems"] == ["database_unreachable"]
    assert down["stateless"]["answering"] is True
    assert health_up.status_code == 200 and health_up.json()["status"] == "ok"
    assert recovered_at - up_at < RECOVERY_WITHIN

    # No turn lost, doubled or half-written.
    _check_dossiers(outcomes, stored)

    # A few throttled lines, no traceback per request.
    _check_log(server_log.read_text(errors="replace"), up_at - down_at)


def _first_turn_after(load: Load, since: float, deadline: float) -> float:
    while time.monotonic() < deadline:
        with load.lock:
            done = [o.at for o in load.outcomes if o.kind == "turn" and o.status == 200]
        later = [at for at in done if at > since]
        if later:
            return min(later)
        time.sleep(0.1)
    raise AssertionError("no conversation turn succeeded after the database came back")


def _check_allowed(outcome: Outcome) -> None:
    body = outcome.body
    if outcome.kind == "read":
        if outcome.status == 503:
            assert body["error"]["code"] == "unavailable" and outcome.headers["retry-after"]
        else:
            assert body["id"].startswith("dos_")
        return
    if outcome.kind == "ws":
        assert body["status"] == "ok" or body == {
            "status": "error",
            "error": body["error"],
            "retriable": True,
        }, body
        if body["status"] == "ok":
            assert body["response"].get("refusalReason") != "NO_CITABLE_RULES"
        return
    if outcome.kind == "stream":
        assert body.pop("_valid_stream") is True
    assert validate_response(body).valid, (outcome, validate_response(body).errors)
    assert body.get("refusalReason") != "NO_CITABLE_RULES", outcome
    if outcome.status == 503:
        assert outcome.kind != "stateless", outcome
        assert outcome.headers["retry-after"] and body["kind"] == "REFUSAL"
        assert body["error"]["retriable"] is True and body["error"]["code"] == "unavailable"
    else:
        assert "error" not in body, outcome


def _check_dossiers(outcomes: list[Outcome], stored: dict[str, dict[str, Any]]) -> None:
    """Each session's answered turns are its stored turns, in order, each exactly once; a turn
    that got a 503 may have been committed just before the connection died (its commit was in
    doubt), so it may appear too, but never more often than such 503s happened."""
    for session, dossier in stored.items():
        assert "events" in dossier, dossier
        turns = [e for e in dossier["events"] if e["type"] == "turn"]
        for turn in turns:  # a stored turn always carries its answer
            assert turn["kind"] in ("ANSWER", "REFUSAL") and turn["headline"], turn
        answered = [
            o.question
            for o in outcomes
            if o.session == session and o.status == 200 and o.kind in ("turn", "stream")
        ]
        in_doubt = sum(1 for o in outcomes if o.session == session and o.status == 503)
        questions = [t["question"] for t in turns]
        assert _is_subsequence(answered, questions), (session, answered, questions)
        assert len(answered) <= len(questions) <= len(answered) + in_doubt, session


def _is_subsequence(wanted: list[str], within: list[str]) -> bool:
    remaining = iter(within)
    return all(any(item == candidate for candidate in remaining) for item in wanted)


def _check_log(text: str, outage_seconds: float) -> None:
    assert "Traceback" not in text, text[:3000]
    intervals = math.ceil(outage_seconds / THROTTLE_INTERVAL) + 1
    unreachable = [line for line in text.splitlines() if "database unreachable (" in line]
    kept = [line for line in text.splitlines() if "answering from snapshot" in line]
    assert 1 <= len(unreachable) <= intervals, unreachable
    assert len(kept) <= intervals, kept
