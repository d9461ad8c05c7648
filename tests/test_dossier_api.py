"""The conversation API over HTTP on a migrated database: sessions through chat and stream, the
dossier routes (read, list, delete, select/unselect), and their 400/404 errors."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient

from engine.stream import merge_lines, parse_ndjson
from tests.clients import conversation_client
from tests.keys import bearer

pytestmark = pytest.mark.db
NOW = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    with conversation_client(database_url, NOW) as (test_client, _):
        yield test_client


def chat(client: TestClient, query: str, asker: str = "ana", **extra: Any) -> dict[str, Any]:
    """A turn as the key called `asker` (made on first use)."""
    reply = client.post(
        "/api/assistant/chat", json={"query": query, **extra}, headers=bearer(client, asker)
    )
    assert reply.status_code == 200, reply.text
    body: dict[str, Any] = reply.json()
    return body


def test_a_conversation_keeps_its_session_and_carries_the_topic(client: TestClient) -> None:
    first = chat(client, "Koja je stopa PDV-a?")
    session = first["sessionId"]
    assert session.startswith("dos_") and first["dossier"]["id"] == session
    assert first["dossier"]["selected"], "the sources the answer cited join the dossier"
    second = chat(client, "a snižena?", sessionId=session)
    assert second["sessionId"] == session
    assert any(line.startswith("followup: CARRIED") for line in second["triage"]["log"])
    assert "13" in second["directAnswer"] and "5" in second["directAnswer"]

    dossier = client.get(f"/api/dossiers/{session}", headers=bearer(client, "ana")).json()
    turns = [e for e in dossier["events"] if e["type"] == "turn"]
    assert [t["question"] for t in turns] == ["Koja je stopa PDV-a?", "a snižena?"]
    assert dossier["version"] == 2 and len(dossier["recent"]) == 2 and dossier["summary"]
    assert [line["turn"] for line in dossier["index"]] == [1, 2]


def test_the_stream_names_the_session_in_its_metadata(client: TestClient) -> None:
    reply = client.post("/api/assistant/chat/stream", json={"query": "What is the RMD age?"})
    lines = parse_ndjson(reply.content)
    assert lines[0]["sessionId"].startswith("dos_")
    assert merge_lines(lines)["dossier"]["id"] == lines[0]["sessionId"]


def test_a_stored_question_is_redacted(client: TestClient) -> None:
    session = chat(client, "Moj OIB je 12345678903, koja je stopa PDV-a?")["sessionId"]
    body = client.get(f"/api/dossiers/{session}", headers=bearer(client, "ana")).text
    assert "12345678903" not in body and "[OIB]" in body


def test_without_memory_nothing_is_read_or_written(client: TestClient) -> None:
    response = chat(client, "Koja je stopa PDV-a?", use_memory=False)
    assert "sessionId" not in response and "dossier" not in response
    assert client.get("/api/dossiers", headers=bearer(client, "ana")).json() == {"dossiers": []}


def test_sources_can_be_unselected_and_selected_by_api(client: TestClient) -> None:
    first = chat(client, "Koliki je prag za ulazak u sustav PDV-a?")
    session, selected = first["sessionId"], first["dossier"]["selected"]
    assert len(selected) >= 2  # three publishers state the 2025 threshold
    for item in selected:  # the answer rests on every one of them: remove them all
        url = f"/api/dossiers/{session}/sources/{item['evidenceId']}"
        after = client.post(f"{url}:unselect", headers=bearer(client, "ana")).json()
        assert item["evidenceId"] in [s["evidenceId"] for s in after["unselected"]]
    refused = chat(client, "Koliki je prag za ulazak u sustav PDV-a?", sessionId=session)
    assert refused["refusalReason"] == "NO_CITABLE_RULES"
    assert selected[0]["title"][:20] in refused["refusal"]["message"]
    restored = client.post(f"{url}:select", headers=bearer(client, "ana")).json()
    assert selected[-1]["evidenceId"] in [s["evidenceId"] for s in restored["selected"]]
    again = chat(client, "Koliki je prag za ulazak u sustav PDV-a?", sessionId=session)
    assert again["kind"] == "ANSWER"


def test_an_instruction_in_the_chat_changes_the_selection(client: TestClient) -> None:
    session = chat(client, "Koliki je prag za ulazak u sustav PDV-a?")["sessionId"]
    reply = chat(client, "ukloni prvi izvor", sessionId=session)
    assert reply["triage"]["route"] == "dossier"
    assert [c["action"] for c in reply["dossier"]["changed"]] == ["unselected"]
    assert reply["dossier"]["unselected"] and "Uklonjeno" in reply["directAnswer"]


def test_list_is_per_key_newest_first_and_limited(client: TestClient) -> None:
    ids = [chat(client, q, asker="iva")["sessionId"] for q in ("Koja je stopa PDV-a?", "bok")]
    chat(client, "hello", asker="someone-else")
    listed = client.get("/api/dossiers?limit=5", headers=bearer(client, "iva")).json()
    assert {d["id"] for d in listed["dossiers"]} == set(ids)
    one = client.get("/api/dossiers?limit=1", headers=bearer(client, "iva")).json()
    assert len(one["dossiers"]) == 1


def test_delete_is_real(client: TestClient) -> None:
    session = chat(client, "Koja je stopa PDV-a?")["sessionId"]
    ana = bearer(client, "ana")
    assert client.delete(f"/api/dossiers/{session}", headers=ana).status_code == 204
    assert client.get(f"/api/dossiers/{session}", headers=ana).status_code == 404
    body = {"query": "a snižena?", "sessionId": session}
    reply = client.post("/api/assistant/chat", json=body, headers=ana)
    assert reply.status_code == 404 and reply.json()["error"]["field"] == "sessionId"


@pytest.mark.parametrize(
    ("method", "path", "status", "field"),
    [
        ("get", "/api/dossiers/not-an-id", 400, "dossierId"),
        ("get", "/api/dossiers/dos_" + "0" * 32, 404, "dossierId"),
        ("delete", "/api/dossiers/dos_" + "0" * 32, 404, "dossierId"),
        ("post", "/api/dossiers/dos_" + "0" * 32 + "/sources/ev_x:select", 404, "dossierId"),
        ("get", "/api/dossiers?limit=0", 400, "query.limit"),
    ],
)
def test_bad_ids_are_400_and_unknown_ones_404(
    client: TestClient, method: str, path: str, status: int, field: str
) -> None:
    reply = client.request(method, path, headers=bearer(client, "ana"))
    assert reply.status_code == status, reply.text
    assert reply.json()["error"]["field"] == field


def test_malformed_session_in_chat_is_400_naming_it(client: TestClient) -> None:
    reply = client.post("/api/assistant/chat", json={"query": "hi", "sessionId": "abc"})
    assert reply.status_code == 400 and reply.json()["error"]["field"] == "sessionId"


def test_unknown_source_of_a_dossier_is_404(client: TestClient) -> None:
    session = chat(client, "Koja je stopa PDV-a?")["sessionId"]
    path = f"/api/dossiers/{session}/sources/ev_0000000000000000:unselect"
    reply = client.post(path, headers=bearer(client, "ana"))
    assert reply.status_code == 404 and reply.json()["error"]["field"] == "evidenceId"
