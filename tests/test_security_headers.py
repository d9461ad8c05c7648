"""Every HTML response and every static file carries the page's security headers
(api/web/pages.py): a policy allowing only the server's own files and no inline script, no
framing, no MIME sniffing, no referrer. /docs needs no inline script to start Swagger UI."""

from __future__ import annotations

from collections.abc import Iterator
from html.parser import HTMLParser

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.web.pages import PAGE_POLICY
from engine.service import AnswerService
from engine.store.knowledge.memory import MemoryRepository

SECURITY = {
    "content-security-policy": PAGE_POLICY,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(AnswerService(MemoryRepository()))) as test_client:
        yield test_client


def test_the_policy_allows_no_inline_script_and_no_framing() -> None:
    directives = dict(part.strip().split(" ", 1) for part in PAGE_POLICY.split(";"))
    assert directives["script-src"] == "'self'" and directives["frame-ancestors"] == "'none'"
    assert "'unsafe-inline'" not in PAGE_POLICY and "'unsafe-eval'" not in PAGE_POLICY


@pytest.mark.parametrize(
    ("path", "content_type"),
    [
        ("/", "text/html"),
        ("/docs", "text/html"),
        ("/static/index.html", "text/html"),
        ("/static/docs.html", "text/html"),
        ("/static/js/main.js", "text/javascript"),
        ("/static/js/docs-init.js", "text/javascript"),
        ("/static/vendor/swagger-ui/swagger-ui-bundle.js", "text/javascript"),
        ("/static/app.css", "text/css"),
        ("/static/favicon.svg", "image/svg+xml"),
    ],
)
def test_the_security_headers_are_on_every_page_and_file(
    client: TestClient, path: str, content_type: str
) -> None:
    reply = client.get(path)
    assert reply.status_code == 200
    assert reply.headers["content-type"].startswith(content_type)
    assert {name: reply.headers.get(name) for name in SECURITY} == SECURITY


class _Scripts(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.inline: list[str] = []
        self.sources: list[str] = []
        self._open = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._open = tag == "script"
        source = dict(attrs).get("src") if tag == "script" else None
        if source:
            self.sources.append(source)
        if (tag == "script" and not source) or any(name.startswith("on") for name, _ in attrs):
            self.inline.append(tag)

    def handle_data(self, data: str) -> None:
        if self._open and data.strip():
            self.inline.append(data)

    def handle_endtag(self, tag: str) -> None:
        self._open = False


def test_the_docs_start_swagger_ui_from_files(client: TestClient) -> None:
    """FastAPI's own /docs page starts Swagger UI with an inline script, which the policy would
    block: this one loads the bundle and js/docs-init.js, and says where the document is."""
    html = client.get("/docs").text
    scripts = _Scripts()
    scripts.feed(html)
    assert scripts.inline == []
    assert scripts.sources == [
        "/static/vendor/swagger-ui/swagger-ui-bundle.js",
        "/static/js/docs-init.js",
    ]
    assert "data-openapi-url='/openapi.json'" in html
    start = client.get("/static/js/docs-init.js").text
    assert "SwaggerUIBundle(" in start and "openapiUrl" in start


def test_an_error_is_no_html(client: TestClient) -> None:
    """A missing file is the JSON error shape, not a page a browser would render."""
    reply = client.get("/static/nothing.html")
    assert reply.status_code == 404 and reply.headers["content-type"] == "application/json"
