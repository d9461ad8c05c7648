"""The HTTP API through a real ASGI client, on a migrated database with the bundled packs."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import orjson
import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from api.app import create_app
from engine.service import AnswerService, quote_checker
from engine.store.bootstrap import open_store
from engine.store.knowledge.sql import SqlRepository
from engine.stream import merge_lines, parse_ndjson, validate_stream
from engine.validation import validate_response

pytestmark = pytest.mark.db


@pytest.fixture
def store(database_url: str) -> Iterator[tuple[sa.Engine, SqlRepository]]:
    engine, repository = open_store(database_url)
    yield engine, repository
    engine.dispose()


@pytest.fixture
def service(store: tuple[sa.Engine, SqlRepository]) -> AnswerService:
    return AnswerService(store[1], clock=lambda: datetime(2026, 11, 22, 9, 0, tzinfo=UTC))


@pytest.fixture
def client(service: AnswerService, store: tuple[sa.Engine, SqlRepository]) -> Iterator[TestClient]:
    with TestClient(create_app(service, store[0]), raise_server_exceptions=False) as test_client:
        yield test_client


def chat(client: TestClient, **body: Any) -> dict[str, Any]:
    reply = client.post("/api/assistant/chat", json={"surface": "MARKETING", **body})
    assert reply.status_code == 200, reply.text
    data: dict[str, Any] = reply.json()
    return data


def test_answers_with_a_verified_citation(client: TestClient, service: AnswerService) -> None:
    response = chat(client, query="Koja je stopa PDV-a?")
    assert response["kind"] == "ANSWER" and response["topic"] == "REGULATORY"
    assert "25" in response["directAnswer"]
    primary = response["citations"]["primary"]
    assert primary["quote"] and primary["url"] and primary["evidenceId"] and primary["fetchedAt"]
    assert response["requestId"].startswith("req_") and response["traceId"].startswith("trace_")
    assert validate_response(response, quote_checker(service.snapshot())).valid


def test_refusal_is_http_200_with_reason(client: TestClient) -> None:
    response = chat(client, query="Koliko je sati?")
    assert response["kind"] == "REFUSAL" and response["refusalReason"] == "OUT_OF_SCOPE"
    assert response["directAnswer"] == "" and "citations" not in response


def test_explain_returns_the_trace(client: TestClient) -> None:
    response = chat(client, query="Koja je stopa PDV-a?", explain=True)
    assert [entry["stage"] for entry in response["trace"]][:2] == ["analyse", "as_of"]
    assert "trace" not in chat(client, query="Koja je stopa PDV-a?")


def test_the_trace_of_a_question_with_an_amount_is_json(client: TestClient) -> None:
    # the stated turnover is a Decimal in the pipeline; the trace carries its digits
    response = chat(
        client, query="moram li u sustav PDV-a ako imam 45.000 eura prometa?", explain=True
    )
    assert response["trace"][0]["details"]["facts"]["annual_turnover_eur"] == "45000"


def test_as_of_date_is_echoed(client: TestClient) -> None:
    assert chat(client, query="Koja je stopa PDV-a?", asOfDate="2024-05-01")["asOfDate"] == (
        "2024-05-01"
    )


BAD_REQUESTS: list[tuple[Any, str | None]] = [
    (b"{not json", None),
    ({}, "query"),
    ({"query": ""}, "query"),
    ({"query": "   "}, "query"),
    ({"query": "x" * 4001}, "query"),
    ({"query": "pdv", "surface": "KIOSK"}, "surface"),
    ({"query": "pdv", "asOfDate": "2024-13-01"}, "asOfDate"),
    ({"query": "pdv", "asOfDate": "yesterday"}, "asOfDate"),
    ({"query": "pdv", "language": "de"}, "language"),
    ({"query": "pdv", "colour": "blue"}, "colour"),
    ([1, 2], None),
]


@pytest.mark.parametrize(("body", "field"), BAD_REQUESTS)
@pytest.mark.parametrize("path", ["/api/assistant/chat", "/api/assistant/chat/stream"])
def test_bad_requests_are_400_naming_the_field(
    client: TestClient, path: str, body: Any, field: str | None
) -> None:
    content = body if isinstance(body, bytes) else orjson.dumps(body)
    reply = client.post(path, content=content, headers={"content-type": "application/json"})
    assert reply.status_code == 400
    error = reply.json()["error"]
    assert set(error) == {"status", "code", "message", "field"} and error["status"] == 400
    if field is not None:
        assert error["field"] == field and field in error["message"]


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/nowhere", 404),
        ("GET", "/api/assistant/chat", 405),
        ("GET", "/api/kb/rules/no-such-rule", 404),
    ],
)
def test_every_http_error_has_the_same_shape(
    client: TestClient, method: str, path: str, status: int
) -> None:
    reply = client.request(method, path)
    assert reply.status_code == status
    assert set(reply.json()["error"]) == {"status", "code", "message", "field"}


def test_internal_failure_is_a_retriable_refusal(
    client: TestClient, service: AnswerService, monkeypatch: pytest.MonkeyPatch
) -> None:
    def explode() -> None:
        raise RuntimeError("secret detail /etc/passwd")

    monkeypatch.setattr(service, "snapshot", explode)
    reply = client.post("/api/assistant/chat", json={"query": "Koja je stopa PDV-a?"})
    assert reply.status_code == 200
    body = reply.json()
    assert body["kind"] == "REFUSAL" and body["error"]["retriable"] is True
    assert "secret" not in reply.text and "Traceback" not in reply.text
    assert validate_response(body).valid


def test_stream_lines_follow_the_contract(client: TestClient) -> None:
    reply = client.post("/api/assistant/chat/stream", json={"query": "Koja je stopa PDV-a?"})
    assert reply.status_code == 200
    assert reply.headers["content-type"].startswith("application/x-ndjson")
    lines = parse_ndjson(reply.text)
    assert "schemaVersion" in lines[0] and lines[-1] == {
        "requestId": lines[0]["requestId"],
        "_done": True,
    }
    keys = [next(k for k in line if k != "requestId") for line in lines]
    assert keys.index("citations") < keys.index("headline")
    assert validate_stream(lines).valid
    assert merge_lines(lines)["kind"] == "ANSWER"


def test_stream_of_a_refusal_ends_with_done(client: TestClient) -> None:
    lines = parse_ndjson(
        client.post(
            "/api/assistant/chat/stream", json={"query": "What's the weather in Zagreb?"}
        ).text
    )
    assert lines[-1]["_done"] is True
    assert validate_stream(lines).valid


def test_health_reports_database_migration_and_kb(client: TestClient) -> None:
    body = client.get("/health").json()
    assert body["status"] == "ok" and body["database"] == "reachable"
    assert body["migration"]["current"] == body["migration"]["head"]
    assert body["kbVersion"] >= 1 and body["counts"]["rules"] > 0


def test_browse_concepts_and_a_rule(client: TestClient) -> None:
    concepts = client.get("/api/kb/concepts").json()["concepts"]
    assert any(c["slug"] == "hr-pdv-opca-stopa" for c in concepts)
    answer = chat(client, query="Koja je stopa PDV-a?")
    rule_id = answer["citations"]["primary"]["id"].split("@")[0]
    rule = client.get(f"/api/kb/rules/{rule_id}").json()
    assert rule["id"] == rule_id and rule["pointers"]


def test_openapi_docs_are_served(client: TestClient) -> None:
    assert client.get("/docs").status_code == 200
    assert "/api/assistant/chat" in client.get("/openapi.json").json()["paths"]


def test_a_failure_while_streaming_still_ends_with_refusal_and_done(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(_response: object) -> list[dict[str, Any]]:
        raise RuntimeError("boom")

    monkeypatch.setattr("engine.service.stream_lines", broken)
    reply = client.post("/api/assistant/chat/stream", json={"query": "Koja je stopa PDV-a?"})
    lines = parse_ndjson(reply.text)
    assert lines[-1] == {"requestId": lines[0]["requestId"], "_done": True}
    assert lines[0]["kind"] == "REFUSAL" and lines[0]["errorDetail"]["retriable"] is True
    assert lines[0]["error"] == lines[0]["errorDetail"]["message"]  # a string, for FiskAI
    assert merge_lines(lines)["error"]["retriable"] is True
    assert "boom" not in reply.text
    assert validate_stream(lines).valid


def test_kb_sources_name_publisher_licence_and_evidence(client: TestClient) -> None:
    body = client.get("/api/kb/sources").json()
    assert body["version"] >= 1 and len(body["sources"]) > 10
    with_evidence = [s for s in body["sources"] if s["evidence"]]
    assert with_evidence and all(s["fetched"] and s["url"] for s in with_evidence)
    assert {"publisher", "authority", "licence"} <= set(with_evidence[0])


def test_kb_rules_filter_and_page(client: TestClient) -> None:
    first = client.get("/api/kb/rules", params={"jurisdiction": "HR", "limit": 5}).json()
    assert len(first["rules"]) == 5 and first["next_cursor"] == first["rules"][-1]["id"]
    assert all(rule["jurisdiction"] == "HR" for rule in first["rules"])
    second = client.get(
        "/api/kb/rules", params={"jurisdiction": "HR", "limit": 5, "cursor": first["next_cursor"]}
    ).json()
    assert second["rules"][0]["id"] > first["rules"][-1]["id"]
    in_force = client.get(
        "/api/kb/rules", params={"concept": "hr-pdv-prag", "asOf": "2024-06-01"}
    ).json()
    assert [r["value"] for r in in_force["rules"]] == ["40000.00"]
    assert in_force["next_cursor"] is None


@pytest.mark.parametrize(
    ("params", "field"),
    [({"limit": 0}, "query.limit"), ({"limit": 1000}, "query.limit"),
     ({"jurisdiction": "hrv"}, "query.jurisdiction"),
     ({"asOf": "2024-02-30"}, "query.asOf")],
)  # fmt: skip
def test_kb_rules_refuse_bad_parameters_naming_them(
    client: TestClient, params: dict[str, Any], field: str
) -> None:
    reply = client.get("/api/kb/rules", params=params)
    assert reply.status_code == 400 and reply.json()["error"]["field"] == field


def test_a_concept_shows_the_history_of_its_value(client: TestClient) -> None:
    body = client.get("/api/kb/concepts/hr-pdv-prag").json()
    starts = [entry["effective_from"] for entry in body["history"]]
    assert starts == sorted(starts) and body["history"][0]["value"] == "300000"
    missing = client.get("/api/kb/concepts/no-such-concept")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"


def test_the_browse_routes_document_their_shapes(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    rules = paths["/api/kb/rules"]["get"]["responses"]
    assert rules["200"]["content"]["application/json"]["schema"]["$ref"].endswith("RulePage")
    assert rules["400"]["content"]["application/json"]["schema"]["$ref"].endswith("ErrorBody")
    concept = paths["/api/kb/concepts/{slug}"]["get"]["responses"]
    assert concept["404"]["content"]["application/json"]["schema"]["$ref"].endswith("ErrorBody")
