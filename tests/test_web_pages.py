"""The page at `/`, its static files and `/docs` over HTTP (api/web/pages.py): served from
api/web/static with the page's policy, open without a key, nothing outside the folder served,
and `/docs` pointing only at files of its own (tests/browser renders them)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote

import anyio
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.auth.guard import AuthConfig
from api.web.pages import PAGE_POLICY
from engine.service import AnswerService
from engine.store.keys.memory import MemoryKeyRepository
from engine.store.knowledge.memory import MemoryRepository
from tests.web_assets import STATIC, references

OPEN = ("/", "/docs", "/openapi.json", "/static/favicon.svg")


def _client(require_key: bool) -> Iterator[TestClient]:
    auth = AuthConfig(MemoryKeyRepository(), require_key=require_key)
    app = create_app(AnswerService(MemoryRepository()), auth=auth)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


@pytest.fixture
def client() -> Iterator[TestClient]:
    yield from _client(require_key=False)


@pytest.fixture
def keyed() -> Iterator[TestClient]:
    yield from _client(require_key=True)


def test_the_page_is_html_under_its_policy(client: TestClient) -> None:
    reply = client.get("/")
    assert reply.status_code == 200
    assert reply.headers["content-type"].startswith("text/html")
    assert reply.headers["content-security-policy"] == PAGE_POLICY
    assert "script-src 'self'" in PAGE_POLICY and "'unsafe-inline'" not in PAGE_POLICY
    assert reply.headers["x-content-type-options"] == "nosniff"
    assert reply.text == (STATIC / "index.html").read_text(encoding="utf-8")


def test_a_static_file_is_served(client: TestClient) -> None:
    reply = client.get("/static/favicon.svg")
    assert reply.status_code == 200
    assert reply.headers["content-type"].startswith("image/svg+xml")
    assert reply.content == (STATIC / "favicon.svg").read_bytes()


def test_docs_point_only_at_files_of_their_own(client: TestClient) -> None:
    reply = client.get("/docs")
    assert reply.status_code == 200 and reply.headers["content-type"].startswith("text/html")
    assert "http://" not in reply.text and "https://" not in reply.text
    found = references(reply.text)
    assert found and all(target.startswith("/static/") for target in found), found
    for target in found:  # each is there to load, none is a 404 waiting for a browser
        assert client.get(target).status_code == 200, target
    assert "'/openapi.json'" in reply.text


def test_redoc_is_not_served(client: TestClient) -> None:
    assert client.get("/redoc").status_code == 404


@pytest.mark.parametrize("path", OPEN)
def test_the_page_its_files_and_the_docs_need_no_key(keyed: TestClient, path: str) -> None:
    assert keyed.get(path).status_code == 200


def test_the_api_still_needs_one(keyed: TestClient) -> None:
    reply = keyed.get("/api/kb/concepts")
    assert reply.status_code == 401 and reply.json()["error"]["code"] == "unauthorized"


# Request targets as a client may send them. httpx (and so TestClient) would drop the dot
# segments before sending, so these go to the app as the ASGI scope a server builds:
# uvicorn percent-decodes the path and leaves `..` in it. pages.py sits beside the static
# folder and app.py two levels up, so a traversal that worked would find a file.
TRAVERSALS = [
    "/static/../pages.py",
    "/static/%2e%2e/pages.py",
    "/static/..%2fpages.py",
    "/static/%2e%2e/%2e%2e/app.py",
    "/static/..%2f..%2fapp.py",
]


@pytest.mark.parametrize("target", TRAVERSALS)
def test_nothing_outside_the_static_folder_is_served(client: TestClient, target: str) -> None:
    status, body = asgi_get(client.app, target)
    assert status == 404
    assert b"import" not in body


def test_the_same_raw_request_reaches_a_file_inside_it(client: TestClient) -> None:
    """The control for the test above: its 404s are the folder's boundary, not the helper's."""
    assert asgi_get(client.app, "/static/%66avicon.svg") == (
        200,
        (STATIC / "favicon.svg").read_bytes(),
    )


def asgi_get(app: Any, target: str) -> tuple[int, bytes]:
    """GET `target` straight through the ASGI app, with no client in between to tidy it."""
    sent: list[dict[str, Any]] = []
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": unquote(target),
        "raw_path": target.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }

    requests = [{"type": "http.request", "body": b"", "more_body": False}]

    async def receive() -> dict[str, Any]:
        if requests:
            return requests.pop()
        await anyio.sleep_forever()  # a client still connected: a file response waits on it
        raise AssertionError("unreachable")

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    anyio.run(app, scope, receive, send)
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    return status, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
