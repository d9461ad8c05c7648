"""Identity and ownership over HTTP and the WebSocket (issue 12), on a migrated database:
every conversation route x every kind of credential, NAVOD_REQUIRE_KEY, origins, the
WebSocket's subprotocol key, rate limits on an injected clock, and no secret ever stored."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson
import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse

from api.app import create_app
from api.auth.guard import AuthConfig
from api.auth.origins import parse_origins
from engine.service import AnswerService
from engine.store.bootstrap import open_store
from engine.store.dossiers.sql import SqlDossierRepository
from engine.store.guardrails.guards import load_guards
from engine.store.keys.sql import SqlKeyRepository
from engine.stream import parse_ndjson
from tests.keys import make_key

pytestmark = pytest.mark.db
NOW = datetime(2026, 11, 25, 9, 0, tzinfo=UTC)
QUESTION = "Koja je stopa PDV-a?"
MISSING = "dos_" + "f" * 32  # an id no conversation has


class Clock:
    """Seconds that move only when a test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class World:
    engine: sa.Engine
    keys: SqlKeyRepository
    service: AnswerService
    clock: Clock

    def client(self, **settings: Any) -> TestClient:
        auth = AuthConfig(self.keys, clock=self.clock, **settings)
        app = create_app(self.service, self.engine, auth)
        return TestClient(app, raise_server_exceptions=False)


@pytest.fixture
def world(database_url: str) -> Iterator[World]:
    engine, repository = open_store(database_url)
    service = AnswerService(
        repository, clock=lambda: NOW, guards=load_guards(), dossiers=SqlDossierRepository(engine)
    )
    yield World(engine, SqlKeyRepository(engine), service, Clock())
    engine.dispose()


def auth(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


@dataclass
class Keys:
    owner: dict[str, str]
    other: dict[str, str]
    revoked: dict[str, str]
    owner_id: str


@pytest.fixture
def keys(world: World) -> Keys:
    owner_id, owner = make_key(world.keys, "owner")
    _, other = make_key(world.keys, "other")
    revoked_id, revoked = make_key(world.keys, "revoked")
    world.keys.revoke(revoked_id, NOW)
    return Keys(auth(owner), auth(other), auth(revoked), owner_id)


def start(client: TestClient, headers: dict[str, str]) -> tuple[str, str]:
    """A new conversation as `headers` says: its id and the first source it selected."""
    reply = client.post(
        "/api/assistant/chat",
        json={"query": "Koliki je prag za ulazak u sustav PDV-a?"},
        headers=headers,
    )
    assert reply.status_code == 200, reply.text
    body = reply.json()
    return body["sessionId"], body["dossier"]["selected"][0]["evidenceId"]


# Each conversation route: (name, call(client, dossier id, evidence id, headers) -> (status,
# error body or None), status for its owner).
Call = Callable[[TestClient, str, str, dict[str, str]], tuple[int, Any]]


def _http(method: str, path: str, body: Any = None) -> Call:
    def call(client: TestClient, dossier: str, source: str, headers: dict[str, str]) -> Any:
        url = path.format(id=dossier, ev=source)
        reply = client.request(method, url, json=body, headers=headers)
        return reply.status_code, reply.json() if reply.status_code >= 400 else None

    return call


def _turn(path: str) -> Call:
    def call(client: TestClient, dossier: str, _source: str, headers: dict[str, str]) -> Any:
        body = {"query": "a snižena?", "sessionId": dossier}
        reply = client.post(path, json=body, headers=headers)
        if reply.status_code == 200 and path.endswith("stream"):
            assert parse_ndjson(reply.content)[0]["sessionId"] == dossier
        return reply.status_code, reply.json() if reply.status_code >= 400 else None

    return call


def _websocket(client: TestClient, dossier: str, _source: str, headers: dict[str, str]) -> Any:
    """The WebSocket turn: 200 for an answer; 404 with the message for an unknown session;
    a refused handshake gives its HTTP status and body."""
    try:
        with client.websocket_connect("/ws", headers=headers) as ws:
            ws.send_text(orjson.dumps({"message": "a snižena?", "sessionId": dossier}).decode())
            reply = ws.receive_json()
    except WebSocketDenialResponse as denied:
        return denied.status_code, denied.json()
    if reply["status"] == "ok":
        assert reply["sessionId"] == dossier
        return 200, None
    return 404, {"ws": reply["error"]}


FACT = {"facts": [{"topic": "tax_efficiency_rmds", "fact_type": "birth_year", "value": 1961}]}
ROUTES: list[tuple[str, Call, int]] = [
    ("chat", _turn("/api/assistant/chat"), 200),
    ("stream", _turn("/api/assistant/chat/stream"), 200),
    ("websocket", _websocket, 200),
    ("read", _http("GET", "/api/dossiers/{id}"), 200),
    ("unselect", _http("POST", "/api/dossiers/{id}/sources/{ev}:unselect"), 200),
    ("select", _http("POST", "/api/dossiers/{id}/sources/{ev}:select"), 200),
    ("facts", _http("GET", "/api/dossiers/{id}/facts"), 200),
    ("add facts", _http("POST", "/api/dossiers/{id}/facts", FACT), 201),
    ("completeness", _http("GET", "/api/dossiers/{id}/completeness"), 200),
    ("delete", _http("DELETE", "/api/dossiers/{id}"), 204),
]
MALFORMED = ["Basic b3duZXI6cHc=", "Bearer", "Bearer navod_short", "Token abc"]


@pytest.mark.parametrize(("route", "call", "owner_status"), ROUTES, ids=[r[0] for r in ROUTES])
def test_a_keyed_conversation_is_reachable_only_with_its_key(
    world: World, keys: Keys, route: str, call: Call, owner_status: int
) -> None:
    client = world.client()
    dossier, source = start(client, keys.owner)
    _, absent_body = call(client, MISSING, source, keys.owner)  # what "no such id" looks like

    def as_missing(body: Any) -> Any:
        return orjson.loads(orjson.dumps(body).replace(dossier.encode(), MISSING.encode()))

    for who, headers in (("another key", keys.other), ("no key", {})):
        status, body = call(client, dossier, source, headers)
        assert status == 404, (route, who, status, body)
        assert as_missing(body) == absent_body, (route, who)  # no existence oracle
    for headers in (keys.revoked, *({"Authorization": m} for m in MALFORMED)):
        status, body = call(client, dossier, source, headers)
        assert status == 401, (route, headers, status, body)
        assert body["error"]["code"] == "unauthorized"
    assert call(client, dossier, source, keys.owner)[0] == owner_status
    if route != "delete":  # nobody else changed or removed it
        stored = world.service.find_dossier(dossier, keys.owner_id)
        assert stored is not None and stored.asker == keys.owner_id


def test_a_refused_request_carries_the_bearer_challenge(world: World, keys: Keys) -> None:
    client = world.client()
    for headers in (keys.revoked, {"Authorization": "Bearer navod_short"}):
        reply = client.get("/api/dossiers", headers=headers)
        assert reply.status_code == 401 and reply.headers["www-authenticate"] == "Bearer"
        assert reply.json()["error"]["field"] == "Authorization"


def test_listing_shows_only_the_keys_own_and_needs_a_key(world: World, keys: Keys) -> None:
    client = world.client()
    mine, _ = start(client, keys.owner)
    theirs, _ = start(client, keys.other)
    anonymous, _ = start(client, {})
    assert [
        d["id"] for d in client.get("/api/dossiers", headers=keys.owner).json()["dossiers"]
    ] == [mine]
    assert [
        d["id"] for d in client.get("/api/dossiers", headers=keys.other).json()["dossiers"]
    ] == [theirs]
    refused = client.get("/api/dossiers")
    assert refused.status_code == 401 and "API key" in refused.json()["error"]["message"]
    assert refused.headers["www-authenticate"] == "Bearer"
    assert anonymous not in refused.text


@pytest.mark.parametrize(("route", "call", "owner_status"), ROUTES, ids=[r[0] for r in ROUTES])
def test_an_anonymous_conversation_is_reachable_by_its_id_alone(
    world: World, keys: Keys, route: str, call: Call, owner_status: int
) -> None:
    client = world.client()
    dossier, source = start(client, {})
    assert world.service.find_dossier(dossier, "anonymous") is not None
    assert call(client, dossier, source, keys.other)[0] == owner_status  # the id is the key
    if route != "delete":
        assert call(client, dossier, source, {})[0] == owner_status


def test_single_questions_need_no_key_and_store_nothing(world: World) -> None:
    client = world.client()
    reply = client.post("/api/assistant/chat", json={"query": QUESTION, "use_memory": False})
    assert reply.status_code == 200 and "sessionId" not in reply.json()
    with world.engine.connect() as connection:
        assert connection.scalar(sa.text("SELECT count(*) FROM dossier")) == 0


def test_a_conversation_id_is_a_long_random_capability(world: World) -> None:
    client = world.client()
    ids = {start(client, {})[0] for _ in range(3)}
    assert len(ids) == 3
    assert all(len(i) == 36 and i.startswith("dos_") and int(i[4:], 16) >= 0 for i in ids)


def test_require_key_closes_every_endpoint_but_health_and_the_pages(
    world: World, keys: Keys
) -> None:
    client = world.client(require_key=True)
    for method, path, body in (
        ("POST", "/api/assistant/chat", {"query": QUESTION, "use_memory": False}),
        ("POST", "/api/assistant/chat/stream", {"query": QUESTION}),
        ("GET", "/api/kb/sources", None),
        ("GET", "/api/kb/concepts", None),
        ("GET", "/api/dossiers", None),
        ("GET", f"/api/dossiers/{MISSING}", None),
        ("GET", "/no/such/route", None),
    ):
        reply = client.request(method, path, json=body)
        assert reply.status_code == 401, (path, reply.text)
        assert reply.json()["error"]["code"] == "unauthorized"
        assert reply.headers["www-authenticate"] == "Bearer"
    with pytest.raises(WebSocketDenialResponse) as denied, client.websocket_connect("/ws"):
        pass
    assert denied.value.status_code == 401
    assert client.get("/health").status_code == 200
    assert client.get("/health", headers={"Authorization": "Basic x"}).status_code == 200
    # The page must load before it can ask for a key; the documentation is the same for all.
    for path in ("/", "/static/favicon.svg", "/docs", "/openapi.json"):
        assert client.get(path).status_code == 200, path
        assert client.get(path, headers=auth("navod_unknown")).status_code == 200, path
    answered = client.post("/api/assistant/chat", json={"query": QUESTION}, headers=keys.owner)
    assert answered.status_code == 200 and answered.json()["kind"] == "ANSWER"
    assert client.get("/api/kb/concepts", headers=keys.owner).status_code == 200


def test_rate_limit_per_key_with_retry_after(world: World, keys: Keys) -> None:
    client = world.client(rate_limit_per_minute=3)
    for _ in range(3):
        assert client.get("/api/kb/concepts", headers=keys.owner).status_code == 200
    refused = client.get("/api/kb/concepts", headers=keys.owner)
    assert refused.status_code == 429
    assert refused.headers["retry-after"] == "20"  # a token every 60 / 3 seconds
    assert refused.json()["error"] == {
        "status": 429,
        "code": "rate_limited",
        "message": "More than 3 requests a minute; retry in 20 s.",
        "field": None,
    }
    assert client.get("/api/kb/concepts", headers=keys.other).status_code == 200  # own bucket
    assert client.get("/api/kb/concepts").status_code == 200  # anonymous: the address's bucket
    world.clock.now += 19
    assert client.get("/api/kb/concepts", headers=keys.owner).status_code == 429
    world.clock.now += 1
    assert client.get("/api/kb/concepts", headers=keys.owner).status_code == 200
    assert client.get("/health").status_code == 200  # probes are never limited


def test_a_keys_own_limit_overrides_the_servers(world: World) -> None:
    _, slow = make_key(world.keys, "slow", rate_limit=1)
    _, fast = make_key(world.keys, "fast", rate_limit=100)
    client = world.client(rate_limit_per_minute=2)
    assert client.get("/api/kb/concepts", headers=auth(slow)).status_code == 200
    refused = client.get("/api/kb/concepts", headers=auth(slow))
    assert refused.status_code == 429 and refused.headers["retry-after"] == "60"
    assert all(
        client.get("/api/kb/concepts", headers=auth(fast)).status_code == 200 for _ in range(5)
    )


def test_anonymous_callers_are_limited_per_address(world: World) -> None:
    auth_config = AuthConfig(world.keys, clock=world.clock, rate_limit_per_minute=1)
    app = create_app(world.service, world.engine, auth_config)
    first = TestClient(app, client=("192.0.2.1", 5000))
    second = TestClient(app, client=("192.0.2.2", 5000))
    assert first.get("/api/kb/concepts").status_code == 200
    assert first.get("/api/kb/concepts").status_code == 429
    assert second.get("/api/kb/concepts").status_code == 200
    with (
        pytest.raises(WebSocketDenialResponse) as denied,
        first.websocket_connect("/ws"),
    ):  # a WebSocket counts too
        pass
    assert denied.value.status_code == 429 and denied.value.headers["retry-after"] == "60"


def test_origins_not_allowed_are_refused(world: World) -> None:
    client = world.client(allowed_origins=parse_origins("https://app.example, http://x.test/"))
    own = {"Origin": "http://testserver"}
    for headers, status in (
        ({}, 200),
        (own, 200),
        ({"Origin": "https://app.example"}, 200),
        ({"Origin": "http://X.test"}, 200),
        ({"Origin": "https://evil.example"}, 403),
        ({"Origin": "null"}, 403),
    ):
        reply = client.get("/api/kb/concepts", headers=headers)
        assert reply.status_code == status, headers
        if status == 403:
            assert reply.json()["error"]["code"] == "forbidden"
            with (
                pytest.raises(WebSocketDenialResponse) as denied,
                client.websocket_connect("/ws", headers=headers),
            ):
                pass
            assert denied.value.status_code == 403
        else:
            with client.websocket_connect("/ws", headers=headers) as ws:
                ws.send_text(orjson.dumps({"message": QUESTION, "use_memory": False}).decode())
                assert ws.receive_json()["status"] == "ok"


def ask_over_ws(client: TestClient, subprotocols: list[str]) -> tuple[str | None, dict[str, Any]]:
    with client.websocket_connect("/ws", subprotocols=subprotocols) as ws:
        ws.send_text(orjson.dumps({"message": QUESTION}).decode())
        return ws.accepted_subprotocol, ws.receive_json()


def test_the_websocket_takes_the_key_as_a_subprotocol(world: World, keys: Keys) -> None:
    client = world.client(require_key=True)
    secret = keys.owner["Authorization"].removeprefix("Bearer ")
    chosen, reply = ask_over_ws(client, ["navod", f"bearer.{secret}"])
    assert chosen == "navod" and reply["status"] == "ok"  # the secret is not echoed back
    stored = world.service.find_dossier(reply["sessionId"], keys.owner_id)
    assert stored is not None and stored.asker == keys.owner_id
    chosen, reply = ask_over_ws(client, [f"bearer.{secret}"])
    assert chosen == f"bearer.{secret}" and reply["status"] == "ok"  # browsers need an echo
    revoked = keys.revoked["Authorization"].removeprefix("Bearer ")
    other = keys.other["Authorization"].removeprefix("Bearer ")
    for offered, headers in (
        ([f"bearer.{revoked}"], {}),
        ([f"bearer.{secret}", f"bearer.{other}"], {}),
        ([f"bearer.{secret}"], keys.other),
    ):
        with (
            pytest.raises(WebSocketDenialResponse) as denied,
            client.websocket_connect("/ws", subprotocols=offered, headers=headers),
        ):
            pass
        assert denied.value.status_code == 401
    # never in the URL: a key there is not read
    with (
        pytest.raises(WebSocketDenialResponse),
        client.websocket_connect(f"/ws?access_token={secret}"),
    ):
        pass


def test_no_secret_is_stored_and_askers_are_key_ids(world: World) -> None:
    key_id, secret = make_key(world.keys, "scan")
    client = world.client()
    dossier, _ = start(client, auth(secret))
    with world.engine.connect() as connection:
        tables = sa.inspect(world.engine).get_table_names()
        dumped = " ".join(
            str(row) for t in tables for row in connection.execute(sa.text(f"SELECT * FROM {t}"))
        )
    assert secret not in dumped and secret[12:] not in dumped
    assert key_id in dumped
    stored = world.service.find_dossier(dossier, key_id)
    assert stored is not None and stored.asker == key_id
