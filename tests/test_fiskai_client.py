"""A FiskAI-style client reads every golden response (issue 12, item 6).

The FiskAI assistant (github.com/Wandeon/FiskAI-App) is a real client of this kind of service.
What it does, ported to Python here from reading its source (no code copied):

- src/lib/assistant/streaming.ts: `fetchAssistantStream` posts `{query, surface, companyId}` to
  /api/assistant/chat/stream; `parseChunk` trims a line and JSON-parses it (a bad line is
  skipped); `mergeChunk` stops at a line whose `error` is truthy and the caller throws
  `new Error(state.error)`; a `_done` line completes the stream; otherwise it copies only the
  fields it knows (schemaVersion, requestId, traceId, kind, topic, surface, createdAt, headline,
  directAnswer, confidence, citations, refusalReason, refusal, relatedQuestions), each only when
  truthy, so a refusal's `directAnswer: ""` and every other block are dropped.
- src/lib/assistant/validation.ts: `validateResponse` (the required header fields, headline and
  directAnswer lengths, ANSWER with refusalReason, the citation matrix of
  `enforceEnforcementMatrix` and `validateCitationsForRegulatory`'s non-blank primary url,
  quote, evidenceId and fetchedAt).

Each golden case (fixtures/cases/*.yaml, as tests/test_golden.py reads them) is asked through the
JSON route and the stream route of the real app: the stream must parse, merge (Navod's way) to
the JSON response byte for byte, merge (FiskAI's way) to the JSON response's fields FiskAI knows,
pass FiskAI's validation and render, and carry unique card ids (FiskAI keys cards by id).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any, Final

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from engine.service import AnswerService, quote_checker
from engine.store.guardrails.guards import load_guards
from engine.store.knowledge.memory import MemoryRepository
from engine.store.knowledge.packs import load_packs, pack_paths
from engine.stream import merge_lines, parse_ndjson
from engine.validation import validate_response
from tests.test_golden import _cases

TODAY = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
KNOWN: Final = (
    "schemaVersion", "requestId", "traceId", "kind", "topic", "surface", "createdAt", "headline",
    "directAnswer", "confidence", "citations", "refusalReason", "refusal", "relatedQuestions",
)  # fmt: skip
HEADLINE_LIMIT, DIRECT_ANSWER_LIMIT = 120, 240


class StreamFailed(Exception):
    """What FiskAI's fetchAssistantStream throws: `new Error(state.error)`."""


def js_string(value: object) -> str:
    """`String(value)` in JavaScript, as `new Error(value)` makes its message."""
    if isinstance(value, str):
        return value
    return "[object Object]" if isinstance(value, dict) else json.dumps(value)


def fiskai_read_stream(body: str) -> dict[str, Any]:
    """The response FiskAI's parser builds from an NDJSON body, or StreamFailed."""
    response: dict[str, Any] = {}
    for raw in body.split("\n"):
        line = raw.strip()
        if not line:
            continue
        try:
            chunk = json.loads(line)
        except ValueError:
            continue  # parseChunk returns null and the line is skipped
        if chunk.get("error"):
            raise StreamFailed(js_string(chunk["error"]))
        if chunk.get("_done"):
            continue  # isComplete; a later line would still be merged
        response.update((key, chunk[key]) for key in KNOWN if chunk.get(key))
    return response


def fiskai_validate(response: dict[str, Any]) -> list[str]:
    """FiskAI's validateResponse; [] when valid."""
    errors = [
        f"Missing {name}"
        for name in ("schemaVersion", "requestId", "traceId", "kind", "topic", "surface")
        if not response.get(name)
    ]
    if len(response.get("headline") or "") > HEADLINE_LIMIT:
        errors.append(f"Headline exceeds {HEADLINE_LIMIT} chars")
    if len(response.get("directAnswer") or "") > DIRECT_ANSWER_LIMIT:
        errors.append(f"DirectAnswer exceeds {DIRECT_ANSWER_LIMIT} chars")
    kind, topic, reason = response.get("kind"), response.get("topic"), response.get("refusalReason")
    if kind == "ANSWER" and reason:
        errors.append("ANSWER cannot have refusalReason (invalid state)")
    required = (kind == "ANSWER" and topic == "REGULATORY") or (
        kind == "REFUSAL" and reason == "UNRESOLVED_CONFLICT"
    )
    forbidden = (kind == "ANSWER" and topic != "REGULATORY") or (
        kind == "REFUSAL" and reason not in ("UNRESOLVED_CONFLICT", "MISSING_CLIENT_DATA")
    )
    citations = response.get("citations")
    if required:
        primary = (citations or {}).get("primary")
        if not citations:
            errors.append("REGULATORY ANSWER requires citations (fail-closed)")
        elif not primary:
            errors.append("REGULATORY ANSWER requires citations.primary (fail-closed)")
        else:
            errors += [
                f"REGULATORY ANSWER requires citations.primary.{field} (fail-closed)"
                for field in ("url", "quote", "evidenceId", "fetchedAt")
                if not str(primary.get(field) or "").strip()
            ]
    if forbidden and citations:
        errors.append("Citations not allowed for this response type")
    return errors


def renders(response: dict[str, Any]) -> bool:
    """What FiskAI's answer card needs: a headline, and the answer or the refusal's message."""
    if not response.get("headline"):
        return False
    if response["kind"] == "REFUSAL":
        return bool((response.get("refusal") or {}).get("message"))
    return bool(response.get("directAnswer"))


def card_ids(response: dict[str, Any]) -> list[str]:
    citations = response.get("citations") or {}
    cards = [citations.get("primary"), *citations.get("supporting", [])]
    return [card["id"] for card in cards if card]


@pytest.fixture(scope="module")
def service() -> AnswerService:
    repository = MemoryRepository()
    load_packs(repository, pack_paths([]))
    # Fixed ids and clock: the JSON and the stream answer of one question are the same bytes.
    return AnswerService(
        repository, clock=lambda: TODAY, new_id=lambda kind: f"{kind}_golden", guards=load_guards()
    )


@pytest.fixture(scope="module")
def client(service: AnswerService) -> Iterator[TestClient]:
    with TestClient(create_app(service), raise_server_exceptions=False) as test_client:
        yield test_client


def fiskai_body(case: dict[str, Any]) -> dict[str, Any]:
    """The body FiskAI's client sends, plus the case's date and facts (APP surface: companyId)."""
    body: dict[str, Any] = {"query": case["query"], "surface": case.get("surface", "MARKETING")}
    if case.get("as_of"):
        body["asOfDate"] = str(case["as_of"])
    if case.get("client_context"):
        body["clientContext"] = case["client_context"]
    if body["surface"] == "APP":
        body["companyId"] = "cmp_fiskai_1"
    return body


@pytest.mark.parametrize("case", _cases())
def test_a_fiskai_client_reads_the_golden_response(
    case: dict[str, Any], client: TestClient, service: AnswerService
) -> None:
    body = fiskai_body(case)
    as_json = client.post("/api/assistant/chat", json=body)
    as_stream = client.post("/api/assistant/chat/stream", json=body)
    assert as_json.status_code == as_stream.status_code == 200, as_json.text
    response = as_json.json()
    assert validate_response(response, quote_checker(service.snapshot())).valid

    lines = parse_ndjson(as_stream.text)
    assert merge_lines(lines) == response
    seen = fiskai_read_stream(as_stream.text)
    assert seen == {key: response[key] for key in KNOWN if response.get(key)}
    assert fiskai_validate(seen) == []
    assert renders(seen)
    ids = card_ids(seen)
    assert len(ids) == len(set(ids)), ids


def test_a_failure_reaches_a_fiskai_client_as_its_message(
    client: TestClient, service: AnswerService, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unavailable() -> None:
        raise RuntimeError("the knowledge base is gone")

    monkeypatch.setattr(service, "snapshot", unavailable)
    body = {"query": "Koja je stopa PDV-a?", "surface": "APP", "companyId": "cmp_fiskai_1"}
    response = client.post("/api/assistant/chat", json=body).json()
    stream = client.post("/api/assistant/chat/stream", json=body).text
    assert response["error"]["retriable"] is True
    with pytest.raises(StreamFailed) as failed:
        fiskai_read_stream(stream)
    assert str(failed.value) == response["error"]["message"] != "[object Object]"
    assert merge_lines(parse_ndjson(stream)) == response
