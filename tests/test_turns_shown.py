"""Every turn of a conversation reopens as it was answered (issue 26): the response a turn was
sent is kept beside its event, in the turn's own transaction, and `GET /api/dossiers/{id}/turns`
gives it back unchanged, to its owner only."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from engine.stream import merge_lines, parse_ndjson
from tests.clients import conversation_client
from tests.keys import bearer

pytestmark = pytest.mark.db
NOW = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)
# what differs between two sendings of one response: nothing else may
STAMPS = ("requestId", "traceId", "createdAt")


@pytest.fixture
def served(database_url: str) -> Iterator[tuple[TestClient, sa.Engine]]:
    with conversation_client(database_url, NOW) as both:
        yield both


def chat(client: TestClient, query: str, **extra: Any) -> dict[str, Any]:
    body = {"query": query, "explain": True, **extra}
    reply = client.post("/api/assistant/chat", json=body, headers=bearer(client, "ana"))
    assert reply.status_code == 200, reply.text
    answered: dict[str, Any] = reply.json()
    return answered


def turns(client: TestClient, session: str, asker: str = "ana") -> Any:
    return client.get(f"/api/dossiers/{session}/turns", headers=bearer(client, asker))


def test_every_turn_comes_back_with_the_response_it_was_sent(
    served: tuple[TestClient, sa.Engine],
) -> None:
    client, _ = served
    first = chat(client, "Koja je stopa PDV-a?")
    session = first["sessionId"]
    second = chat(client, "a snižena?", sessionId=session)
    refused = chat(client, "Koliko košta kava u Splitu?", sessionId=session)

    reply = turns(client, session)
    assert reply.status_code == 200
    shown = reply.json()
    assert shown["id"] == session
    assert [t["question"] for t in shown["turns"]] == [
        "Koja je stopa PDV-a?",
        "a snižena?",
        "Koliko košta kava u Splitu?",
    ]
    for turn, sent in zip(shown["turns"], (first, second, refused), strict=True):
        assert turn["response"] == sent, "the turn reopens exactly as it was answered"
        assert turn["headline"] == sent["headline"][: len(turn["headline"])]
    # the proof travels with it: quotes, evidence ids, why and the trace
    primary = shown["turns"][0]["response"]["citations"]["primary"]
    assert primary["quote"] and primary["evidenceId"].startswith("ev_")
    assert shown["turns"][0]["response"]["why"]["bullets"]
    assert shown["turns"][0]["response"]["trace"]


def test_a_streamed_turn_keeps_what_the_stream_sent(served: tuple[TestClient, sa.Engine]) -> None:
    client, _ = served
    headers = bearer(client, "ana")
    body = {"query": "Wat is het btw-tarief?", "explain": True}
    with client.stream("POST", "/api/assistant/chat/stream", json=body, headers=headers) as reply:
        merged = merge_lines(parse_ndjson(b"".join(reply.iter_bytes())))
    merged.pop("_done", None)
    kept = turns(client, merged["sessionId"]).json()["turns"][0]["response"]
    assert {k: v for k, v in kept.items()} == merged


def test_another_key_and_unknown_ids_get_404s(served: tuple[TestClient, sa.Engine]) -> None:
    client, _ = served
    session = chat(client, "Koja je stopa PDV-a?")["sessionId"]
    assert turns(client, session, asker="bob").status_code == 404
    assert turns(client, "dos_" + "0" * 32).status_code == 404
    assert turns(client, "not-an-id").status_code == 400


def test_deleting_a_conversation_deletes_its_kept_responses(
    served: tuple[TestClient, sa.Engine],
) -> None:
    client, engine = served
    session = chat(client, "Koja je stopa PDV-a?")["sessionId"]
    count = sa.text("SELECT count(*) FROM dossier_turn_shown WHERE dossier_id = :id")
    with engine.connect() as connection:
        assert connection.execute(count, {"id": session}).scalar_one() == 1
    assert (
        client.delete(f"/api/dossiers/{session}", headers=bearer(client, "ana")).status_code == 204
    )
    with engine.connect() as connection:
        assert connection.execute(count, {"id": session}).scalar_one() == 0


def test_a_turn_kept_before_responses_were_stored_reads_by_its_headline(
    served: tuple[TestClient, sa.Engine],
) -> None:
    client, engine = served
    session = chat(client, "Koja je stopa PDV-a?")["sessionId"]
    with engine.begin() as connection:
        connection.execute(sa.text("DELETE FROM dossier_turn_shown"))
    (turn,) = turns(client, session).json()["turns"]
    assert turn["response"] is None
    assert turn["headline"] and turn["question"] == "Koja je stopa PDV-a?"
