"""The Host check (api/auth/hosts.py, NAVOD_ALLOWED_HOSTS): a request or WebSocket naming a
host the server does not answer to, as a DNS-rebinding page's do, is a 400 in the error shape
before anything else runs; the allowed names pass with any port."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import httpx
import orjson
import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from api.app import create_app
from api.auth.hosts import host_name
from api.settings import Settings
from engine.service import AnswerService
from engine.store.knowledge.memory import MemoryRepository
from tests.servers import running_server

SERVED = "navod.example.com, *.navod.example.org, 10.0.0.5, ::1"


def _client(allowed: str, host: str = "127.0.0.1") -> TestClient:
    settings = Settings(NAVOD_ALLOWED_HOSTS=allowed, HOST=host)
    app = create_app(AnswerService(MemoryRepository()), settings=settings)
    return TestClient(app, raise_server_exceptions=False)


@pytest.fixture
def client() -> Iterator[TestClient]:
    with _client(SERVED) as test_client:
        yield test_client


def assert_refused_host(reply: httpx.Response, host: str) -> None:
    assert reply.status_code == 400, reply.text
    error = reply.json()["error"]
    assert error["code"] == "invalid_request" and error["field"] == "Host"
    assert repr(host) in error["message"] and "NAVOD_ALLOWED_HOSTS" in error["message"]


@pytest.mark.parametrize(
    "host",
    [
        "navod.example.com",
        "NAVOD.example.com:8443",  # any port, any case
        "navod.example.com.",  # the same name, fully qualified
        "api.navod.example.org:80",
        "10.0.0.5:8000",
        "[::1]:8000",
    ],
)
def test_an_allowed_host_passes_with_any_port(client: TestClient, host: str) -> None:
    assert client.get("/", headers={"host": host}).status_code == 200


@pytest.mark.parametrize(
    "host",
    [
        "evil.example",
        "evil.example:8000",
        "navod.example.com.evil.example",
        "navod.example.org",  # `*.navod.example.org` is its subdomains only
        "10.0.0.6",
        "testserver",
        "navod.example.com:80:80",
        "navod.example.com/x",
    ],
)
def test_another_host_is_a_400_naming_it(client: TestClient, host: str) -> None:
    for path in ("/health", "/", "/api/kb/concepts"):
        assert_refused_host(client.get(path, headers={"host": host}), host)


def test_the_refusal_comes_before_the_guard(client: TestClient) -> None:
    """No key is looked up and no rate budget spent for a rebinding page's request."""
    headers = {"host": "evil.example", "authorization": "Bearer navod_unknown"}
    assert_refused_host(client.post("/api/assistant/chat", headers=headers), "evil.example")


def test_a_websocket_naming_another_host_is_refused(client: TestClient) -> None:
    with (
        pytest.raises(WebSocketDenialResponse) as refused,
        client.websocket_connect("/ws", headers={"host": "evil.example:8000"}),
    ):
        pass
    assert refused.value.status_code == 400
    assert orjson.loads(refused.value.content)["error"]["field"] == "Host"


def test_a_websocket_naming_an_allowed_host_is_answered(client: TestClient) -> None:
    with client.websocket_connect("/ws", headers={"host": "navod.example.com:8000"}) as socket:
        socket.send_text('{"message": "Koja je stopa PDV-a?", "use_memory": false}')
        assert orjson.loads(socket.receive_text())["status"] == "ok"


def test_by_default_only_the_bound_address_and_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NAVOD_ALLOWED_HOSTS")
    monkeypatch.setenv("HOST", "192.168.1.20")
    assert Settings().trusted_hosts == ("192.168.1.20", "localhost", "127.0.0.1")
    with _client("", host="192.168.1.20") as test_client:
        for host in ("192.168.1.20:8000", "localhost:8000", "127.0.0.1:8000", "localhost"):
            assert test_client.get("/", headers={"host": host}).status_code == 200, host
        assert_refused_host(test_client.get("/health"), "testserver")  # TestClient's own


def test_a_star_answers_to_any_host() -> None:
    with _client("*") as test_client:
        assert test_client.get("/", headers={"host": "anything.example"}).status_code == 200


@pytest.mark.parametrize(
    ("header", "name"),
    [
        ("Localhost:8000", "localhost"),
        ("[::1]", "::1"),
        ("example.com.", "example.com"),
        ("example.com:", "example.com"),
        ("", None),
        (":8000", None),
        ("a b", None),
        ("[not-ipv6]:80", None),
        (None, None),
    ],
)
def test_host_name(header: str | None, name: str | None) -> None:
    assert host_name(header) == name


@pytest.fixture(scope="module")
def real_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`navod serve` with the default allowed hosts (HOST is 127.0.0.1)."""
    folder = tmp_path_factory.mktemp("hosts")
    database = f"sqlite:///{folder / 'navod.db'}"
    with running_server(database, folder / "server.log", {"NAVOD_ALLOWED_HOSTS": ""}) as base:
        yield base


def test_a_real_server_refuses_a_rebound_host(real_server: str) -> None:
    port = real_server.rsplit(":", 1)[1]
    assert httpx.get(f"{real_server}/health").status_code == 200  # Host: 127.0.0.1:<port>
    local = httpx.get(f"{real_server}/health", headers={"host": f"localhost:{port}"})
    assert local.status_code == 200
    rebound = f"evil.example:{port}"
    assert_refused_host(httpx.get(f"{real_server}/health", headers={"host": rebound}), rebound)
    # The connection goes to the server; the handshake names the attacker's host.
    sock = socket.create_connection(("127.0.0.1", int(port)))
    with pytest.raises(InvalidStatus) as refused:
        connect(f"ws://{rebound}/ws", sock=sock)
    assert refused.value.response.status_code == 400
    assert orjson.loads(refused.value.response.body)["error"]["field"] == "Host"
