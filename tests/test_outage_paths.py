"""Each failure path of a database outage on its own, without a real outage (tests/test_outage.py
has that): the store layers' translation, the throttled log, the snapshot kept in memory, and
what every route sends while the stores are down."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

import orjson
import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from api.app import create_app
from api.auth.guard import AuthConfig
from engine.dossier.model import Dossier, Patch
from engine.errors import StoreError, StoreUnavailable
from engine.service import AnswerService
from engine.store.db import make_engine
from engine.store.dossiers.convert import DossierSummary
from engine.store.dossiers.memory import MemoryDossierRepository
from engine.store.dossiers.sql import SqlDossierRepository
from engine.store.guardrails.guards import load_guards
from engine.store.keys.memory import MemoryKeyRepository
from engine.store.keys.repository import ApiKey
from engine.store.keys.secret import find_key, new_key
from engine.store.knowledge.memory import MemoryRepository
from engine.store.knowledge.packs import PackContents, load_packs, pack_paths
from engine.store.knowledge.repository import KnowledgeRepository
from engine.store.knowledge.sql import SqlRepository
from engine.store.outage import ThrottledLog, translates_outage
from engine.stream import merge_lines, parse_ndjson, validate_stream
from engine.types import Concept, KnowledgeBase, Language, Rule, Surface
from engine.validation import validate_response
from tests.servers import free_port

NOW = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)


class Outage:
    """The switch both fakes read: while `down`, every store call fails like a dead database."""

    down = False

    def check(self, operation: str) -> None:
        if self.down:
            raise StoreUnavailable(operation, "connection refused")


class FlakyKnowledge:
    """A KnowledgeRepository in front of `inner` that fails while the outage is on."""

    def __init__(self, inner: KnowledgeRepository, outage: Outage) -> None:
        self.inner = inner
        self.outage = outage
        self.version_checks = 0

    def version(self) -> int:
        self.version_checks += 1
        self.outage.check("knowledge.version")
        return self.inner.version()

    def load_knowledge(self) -> KnowledgeBase:
        self.outage.check("knowledge.load_knowledge")
        return self.inner.load_knowledge()

    def save_knowledge(self, contents: PackContents, packs: Sequence[str]) -> int:
        self.outage.check("knowledge.save_knowledge")
        return self.inner.save_knowledge(contents, packs)

    def counts(self) -> dict[str, int]:
        self.outage.check("knowledge.counts")
        return self.inner.counts()

    def owned(self, packs: Sequence[str]) -> frozenset[str]:
        self.outage.check("knowledge.owned")
        return self.inner.owned(packs)

    def get_rule(self, rule_id: str) -> Rule | None:
        self.outage.check("knowledge.get_rule")
        return self.inner.get_rule(rule_id)

    def list_concepts(self) -> tuple[Concept, ...]:
        self.outage.check("knowledge.list_concepts")
        return self.inner.list_concepts()


class FlakyDossiers(MemoryDossierRepository):
    def __init__(self, outage: Outage) -> None:
        super().__init__()
        self.outage = outage

    def create(
        self,
        dossier_id: str,
        asker: str,
        surface: Surface,
        language: Language,
        now: datetime,
        make_patch: Callable[[Dossier], Patch] | None = None,
    ) -> Dossier:
        self.outage.check("dossiers.create")
        return super().create(dossier_id, asker, surface, language, now, make_patch)

    def update(
        self, dossier_id: str, make_patch: Callable[[Dossier], Patch], now: datetime
    ) -> Dossier:
        self.outage.check("dossiers.update")
        return super().update(dossier_id, make_patch, now)

    def get(self, dossier_id: str) -> Dossier | None:
        self.outage.check("dossiers.get")
        return super().get(dossier_id)

    def apply(self, dossier_id: str, patch: Patch, now: datetime) -> Dossier:
        self.outage.check("dossiers.apply")
        return super().apply(dossier_id, patch, now)

    def recent(self, asker: str, limit: int) -> tuple[DossierSummary, ...]:
        self.outage.check("dossiers.recent")
        return super().recent(asker, limit)


@pytest.fixture(scope="module")
def packs() -> MemoryRepository:
    loaded = MemoryRepository()
    load_packs(loaded, pack_paths([]))
    return loaded


@pytest.fixture
def outage() -> Outage:
    return Outage()


@pytest.fixture
def service(outage: Outage, packs: MemoryRepository) -> AnswerService:
    knowledge = FlakyKnowledge(packs, outage)
    return AnswerService(
        knowledge, clock=lambda: NOW, guards=load_guards(), dossiers=FlakyDossiers(outage)
    )


@pytest.fixture
def client(service: AnswerService) -> Iterator[TestClient]:
    with TestClient(create_app(service), raise_server_exceptions=False) as test_client:
        yield test_client


# ---- The store layers: connection errors become StoreUnavailable; other errors keep theirs.


def test_sql_stores_on_an_unreachable_database_raise_store_unavailable() -> None:
    engine = make_engine(f"postgresql://postgres@127.0.0.1:{free_port()}/nowhere")
    try:
        with pytest.raises(StoreUnavailable) as knowledge:
            SqlRepository(engine).version()
        with pytest.raises(StoreUnavailable) as dossiers:
            SqlDossierRepository(engine).get("dos_" + "0" * 32)
    finally:
        engine.dispose()
    assert knowledge.value.operation == "knowledge.version"
    assert dossiers.value.operation == "dossiers.get"
    assert "retry" in str(dossiers.value) and dossiers.value.reason


@pytest.mark.db
def test_a_conflict_is_not_an_outage(migrated_engine: sa.Engine) -> None:
    store = SqlDossierRepository(migrated_engine)
    store.create("dos_" + "1" * 32, "ana", "APP", "hr", NOW)
    with pytest.raises(StoreError) as taken:
        store.create("dos_" + "1" * 32, "ana", "APP", "hr", NOW)
    assert not isinstance(taken.value, StoreUnavailable)


def test_a_bug_in_a_store_method_is_not_translated() -> None:
    @translates_outage("test.bug")
    def broken() -> None:
        raise sa.exc.ProgrammingError("SELECT nonsense", {}, Exception("syntax error"))

    with pytest.raises(sa.exc.ProgrammingError):
        broken()


def test_the_throttled_log_writes_one_line_per_kind_per_interval(
    caplog: pytest.LogCaptureFixture,
) -> None:
    now = [0.0]
    throttled = ThrottledLog(logging.getLogger("navod.test"), interval=10, monotonic=lambda: now[0])
    with caplog.at_level(logging.WARNING, logger="navod.test"):
        written = [throttled.warning("database", "down") for _ in range(500)]
        written.append(throttled.warning("snapshot", "kept"))  # another kind has its own line
        now[0] = 10.0
        written.append(throttled.warning("database", "still down"))
    assert written.count(True) == 3 and len(written) == 502
    assert [r.getMessage() for r in caplog.records] == [
        "down",
        "kept",
        "still down (499 more like it in the last 10 s)",
    ]


# ---- The service: the snapshot in memory keeps answering.


def test_the_snapshot_in_memory_survives_a_failed_version_check(
    outage: Outage, packs: MemoryRepository
) -> None:
    knowledge = FlakyKnowledge(packs, outage)
    ticks = [0.0]
    service = AnswerService(knowledge, refresh_seconds=1.0, monotonic=lambda: ticks[0])
    built = service.snapshot()
    outage.down = True
    checks = knowledge.version_checks
    for tick in (1.0, 1.5, 1.9):  # one failed check, then trusted for refresh_seconds
        ticks[0] = tick
        assert service.snapshot() is built
    assert knowledge.version_checks == checks + 1
    ticks[0] = 2.0
    assert service.snapshot() is built and knowledge.version_checks == checks + 2
    assert service.snapshot_version == built.version


def test_without_any_snapshot_an_outage_is_raised(outage: Outage) -> None:
    outage.down = True
    with pytest.raises(StoreUnavailable):
        AnswerService(FlakyKnowledge(MemoryRepository(), outage)).snapshot()


# ---- The routes while the stores are down.


def post_chat(client: TestClient, **body: Any) -> Any:
    return client.post("/api/assistant/chat", json={"query": "Koja je stopa PDV-a?", **body})


def test_stateless_questions_are_answered_while_the_database_is_down(
    client: TestClient, outage: Outage
) -> None:
    assert post_chat(client).status_code == 200  # builds the snapshot
    outage.down = True
    reply = post_chat(client, use_memory=False)
    assert reply.status_code == 200 and reply.json()["kind"] == "ANSWER"


@pytest.mark.parametrize("continuing", [False, True], ids=["new", "continued"])
def test_a_conversation_turn_is_a_retriable_503_refusal(
    client: TestClient, outage: Outage, continuing: bool
) -> None:
    session = post_chat(client).json()["sessionId"]
    outage.down = True
    reply = post_chat(client, **({"sessionId": session} if continuing else {}))
    body = reply.json()
    assert reply.status_code == 503 and reply.headers["Retry-After"] == "5"
    assert validate_response(body).valid, validate_response(body).errors
    assert body["kind"] == "REFUSAL" and body["refusalReason"] != "NO_CITABLE_RULES"
    assert body["error"] == {
        "message": body["refusal"]["message"],
        "retriable": True,
        "code": "unavailable",
    }
    assert "baza podataka" in body["refusal"]["message"].lower()  # in the asker's language
    outage.down = False
    assert post_chat(client, sessionId=session).status_code == 200


def test_a_stream_turn_is_a_whole_503_stream(client: TestClient, outage: Outage) -> None:
    outage.down = True
    reply = client.post("/api/assistant/chat/stream", json={"query": "What is the RMD age?"})
    assert reply.status_code == 503 and reply.headers["Retry-After"] == "5"
    assert reply.headers["content-type"].startswith("application/x-ndjson")
    lines = parse_ndjson(reply.content)
    assert validate_stream(lines).valid and lines[-1]["_done"] is True
    merged = merge_lines(lines)
    assert merged["kind"] == "REFUSAL" and merged["error"]["retriable"] is True
    assert merged["language"] == "en" and "database" in merged["headline"]


def test_json_routes_say_unavailable_with_retry_after(
    client: TestClient, outage: Outage, caplog: pytest.LogCaptureFixture
) -> None:
    session = post_chat(client).json()["sessionId"]
    key, secret = new_key("lister", NOW)  # listing needs a key
    client.app.state.auth.keys.add(key)  # type: ignore[attr-defined]
    outage.down = True
    with caplog.at_level(logging.INFO):
        replies = [
            client.get(f"/api/dossiers/{session}"),
            client.get("/api/dossiers", headers={"Authorization": f"Bearer {secret}"}),
            client.post(f"/api/dossiers/{session}/sources/ev_x:select"),
            client.get("/api/kb/concepts"),
        ]
    for reply in replies:
        assert reply.status_code == 503 and reply.headers["Retry-After"] == "5"
        error = reply.json()["error"]
        assert error["code"] == "unavailable" and error["status"] == 503
        assert "database" in error["message"] and "retry" in error["message"]
    assert "Traceback" not in caplog.text


def test_the_websocket_says_error_and_retriable(client: TestClient, outage: Outage) -> None:
    outage.down = True
    with client.websocket_connect("/ws") as connection:
        connection.send_text('{"message": "Koja je stopa PDV-a?"}')
        reply = orjson.loads(connection.receive_text())
    assert reply["status"] == "error" and reply["retriable"] is True
    assert "database" in reply["error"]


class ErrorAnswering:
    """Stands in for AnswerService when a bug inside was caught: it answers its error refusal."""

    def answer(self, request: Any, asker: str) -> dict[str, Any]:
        return {"kind": "REFUSAL", "error": {"message": "inside", "retriable": True}}


def test_a_turn_that_failed_inside_is_never_ok_over_the_websocket() -> None:
    with (
        TestClient(create_app(ErrorAnswering())) as client,  # only answer() is reached
        client.websocket_connect("/ws") as connection,
    ):
        connection.send_text('{"message": "Koja je stopa PDV-a?"}')
        reply = orjson.loads(connection.receive_text())
    assert reply == {"status": "error", "error": "internal error; please retry", "retriable": True}


def test_health_names_what_is_down_and_what_still_works(client: TestClient, outage: Outage) -> None:
    before = client.get("/health").json()
    assert before["stateless"] == {
        "answering": False,
        "snapshotVersion": None,
        "keyedCallers": "all",
        "recentKeys": 0,
    }
    post_chat(client, use_memory=False)
    outage.down = True
    reply = client.get("/health")
    body = reply.json()
    assert reply.status_code == 503 and body["status"] == "error"
    assert body["database"] == "unreachable" and body["problems"] == ["database_unreachable"]
    assert body["stateless"]["answering"] is True and body["stateless"]["snapshotVersion"] >= 1
    assert body["stateless"]["keyedCallers"] == "none"  # no key was confirmed before
    outage.down = False
    healthy = client.get("/health").json()
    assert healthy["status"] == "ok" and healthy["problems"] == []


def test_health_says_no_knowledge_when_none_is_loaded(outage: Outage) -> None:
    service = AnswerService(FlakyKnowledge(MemoryRepository(), outage))
    with TestClient(create_app(service)) as client:
        reply = client.get("/health")
    assert reply.status_code == 503 and reply.json()["problems"] == ["no_knowledge"]
    assert reply.json()["status"] == "degraded"


# ---- Keyed callers while the key store is down (issue 24): a key confirmed in the last
# minutes is served as before; any other key gets each route's own typed outage response.


class FlakyKeys(MemoryKeyRepository):
    def __init__(self, outage: Outage) -> None:
        super().__init__()
        self.outage = outage

    def with_prefix(self, prefix: str) -> tuple[ApiKey, ...]:
        if self.outage.down:
            raise StoreUnavailable("keys.with_prefix", "connection refused")
        return super().with_prefix(prefix)


@pytest.fixture
def keyed(service: AnswerService, outage: Outage) -> Iterator[tuple[TestClient, str, str]]:
    """A client of a server that needs a key, a key it confirmed before the outage and one
    it never saw."""
    keys = FlakyKeys(outage)
    seen, seen_secret = new_key("seen", NOW)
    unseen, unseen_secret = new_key("unseen", NOW)
    keys.add(seen)
    keys.add(unseen)
    app = create_app(service, auth=AuthConfig(keys, require_key=True))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client, seen_secret, unseen_secret


def _as(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def test_a_recently_confirmed_key_is_served_stateless_answers_during_an_outage(
    keyed: tuple[TestClient, str, str], outage: Outage
) -> None:
    client, seen, _unseen = keyed
    assert post_chat_as(client, seen, use_memory=False).status_code == 200  # confirmed
    outage.down = True
    reply = post_chat_as(client, seen, use_memory=False)
    assert reply.status_code == 200 and reply.json()["kind"] == "ANSWER"
    stream = client.post(
        "/api/assistant/chat/stream",
        json={"query": "What is the RMD age?", "use_memory": False},
        headers=_as(seen),
    )
    assert stream.status_code == 200 and merge_lines(parse_ndjson(stream.content))["kind"]
    assert client.get("/api/kb/sources", headers=_as(seen)).status_code == 200
    conversation = post_chat_as(client, seen)  # needs the database: its typed refusal
    assert conversation.status_code == 503 and validate_response(conversation.json()).valid
    health = client.get("/health").json()["stateless"]
    assert health["keyedCallers"] == "recent" and health["recentKeys"] == 1


def test_an_unconfirmed_key_gets_each_routes_typed_outage_response(
    keyed: tuple[TestClient, str, str], outage: Outage
) -> None:
    client, _seen, unseen = keyed
    post_chat_as(client, _seen, use_memory=False)  # a snapshot in memory
    outage.down = True
    chat = post_chat_as(client, unseen, use_memory=False)
    assert chat.status_code == 503 and chat.headers["Retry-After"] == "5"
    body = chat.json()
    assert validate_response(body).valid and body["kind"] == "REFUSAL"
    assert body["error"]["code"] == "unavailable" and body["error"]["retriable"] is True
    stream = client.post(
        "/api/assistant/chat/stream", json={"query": "What is the RMD age?"}, headers=_as(unseen)
    )
    assert stream.status_code == 503
    assert stream.headers["content-type"].startswith("application/x-ndjson")
    lines = parse_ndjson(stream.content)
    assert validate_stream(lines).valid and merge_lines(lines)["error"]["retriable"] is True
    with client.websocket_connect("/ws", subprotocols=[f"bearer.{unseen}"]) as connection:
        connection.send_text('{"message": "Koja je stopa PDV-a?"}')
        reply = orjson.loads(connection.receive_text())
    assert reply["status"] == "error" and reply["retriable"] is True
    kb = client.get("/api/kb/sources", headers=_as(unseen))
    assert kb.status_code == 503 and kb.json()["error"]["code"] == "unavailable"


def test_a_revoked_or_unknown_key_is_forgotten_at_once(
    keyed: tuple[TestClient, str, str], outage: Outage
) -> None:
    client, seen, _unseen = keyed
    assert post_chat_as(client, seen, use_memory=False).status_code == 200
    keys = client.app.state.auth.keys  # type: ignore[attr-defined]
    confirmed = find_key(keys, seen)
    assert confirmed is not None
    keys.revoke(confirmed.id, NOW)
    assert post_chat_as(client, seen, use_memory=False).status_code == 401
    outage.down = True
    assert post_chat_as(client, seen, use_memory=False).status_code == 503


def post_chat_as(client: TestClient, secret: str, **body: Any) -> Any:
    return client.post(
        "/api/assistant/chat", json={"query": "Koja je stopa PDV-a?", **body}, headers=_as(secret)
    )
