"""What Navod knows about the asker, over HTTP on a migrated database (issue 11): facts learnt
from questions, clientContext and the facts API; completeness and its history; facts reused in
later turns; and three scripted conversations, one per language."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient

from engine.stream import parse_ndjson
from tests.clients import conversation_client

pytestmark = pytest.mark.db
NOW = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)
US_TOPICS = [
    "income_cash_flow", "healthcare_medicare", "housing_geography", "tax_efficiency_rmds",
    "longevity_inflation", "long_term_care", "lifestyle_purpose", "estate_planning",
]  # fmt: skip


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    with conversation_client(database_url, NOW) as (test_client, _):
        yield test_client


def chat(client: TestClient, query: str, **extra: Any) -> dict[str, Any]:
    reply = client.post("/api/assistant/chat", json={"query": query, **extra})
    assert reply.status_code == 200, reply.text
    body: dict[str, Any] = reply.json()
    return body


def facts_of(client: TestClient, session: str) -> dict[str, Any]:
    """The latest value of each fact type the dossier holds."""
    found = client.get(f"/api/dossiers/{session}/facts")
    assert found.status_code == 200, found.text
    return {f["fact_type"]: f["value"] for f in found.json()["facts"]}


def scores_of(client: TestClient, session: str) -> dict[str, int]:
    body = client.get(f"/api/dossiers/{session}/completeness").json()
    return {s["topic"]: s["score"] for s in body["scores"]}


def test_the_topics_are_listed_in_each_packs_order(client: TestClient) -> None:
    topics = client.get("/api/kb/topics").json()["topics"]
    us = [t["id"] for t in topics if t["pack"] == "us-retirement"]
    assert us == US_TOPICS
    for topic in topics:
        assert topic["checklist"], topic["id"]
        for item in topic["checklist"]:
            assert item["weight"] > 0 and set(item["question"]) == {"hr", "nl", "en"}


def test_facts_by_api_are_recorded_scored_and_corrected(client: TestClient) -> None:
    session = chat(client, "What is the RMD age?")["sessionId"]
    assert client.get(f"/api/dossiers/{session}/facts").json() == {"facts": []}
    body = {"facts": [{"topic": "tax_efficiency_rmds", "fact_type": "birth_year", "value": 1961}]}
    posted = client.post(f"/api/dossiers/{session}/facts", json=body)
    assert posted.status_code == 201, posted.text
    (record,) = posted.json()["facts"]
    assert record["source"] == "api" and record["created_at"] == "2026-11-22T09:00:00Z"
    assert record["session_id"] == session and record["turn"] == 1
    first = scores_of(client, session)
    assert list(first) == US_TOPICS and 0 < first["tax_efficiency_rmds"] < 100
    again = {"facts": [{"topic": "tax_efficiency_rmds", "fact_type": "birth_year", "value": 1962}]}
    assert client.post(f"/api/dossiers/{session}/facts", json=again).status_code == 201
    assert facts_of(client, session)["birth_year"] == 1962  # the latest wins
    every = client.get(f"/api/dossiers/{session}/facts").json()["facts"]
    assert [f["value"] for f in every] == [1961, 1962]  # the history stays
    history = client.get(f"/api/dossiers/{session}/completeness").json()["history"]
    assert len(history) == 1, "the same score again appends no snapshot"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"facts": [{"topic": "retirement", "fact_type": "age", "value": 60}]}, "facts.topic"),
        ({"facts": [{"topic": "pdv", "fact_type": "Age!", "value": 60}]}, "facts.0.fact_type"),
        ({"facts": []}, "facts"),
        ({"facts": [{"topic": "pdv", "fact_type": "age", "value": 60, "confidence": 2}]},
         "facts.0.confidence"),
        ({"facts": [{"topic": "pdv", "fact_type": "age", "value": [1]}]}, "facts.0.value"),
    ],
)  # fmt: skip
def test_a_bad_fact_is_a_400_naming_it(client: TestClient, body: Any, field: str) -> None:
    session = chat(client, "Koja je stopa PDV-a?")["sessionId"]
    reply = client.post(f"/api/dossiers/{session}/facts", json=body)
    assert reply.status_code == 400, reply.text
    error = reply.json()["error"]
    assert error["field"].startswith(field)
    if field == "facts.topic":
        assert "'retirement'" in error["message"] and "tax_efficiency_rmds" in error["message"]


@pytest.mark.parametrize("value", [b"NaN", b"Infinity", b"-Infinity", b"1e999"])
def test_a_fact_that_is_no_finite_number_is_a_400(client: TestClient, value: bytes) -> None:
    session = chat(client, "Koja je stopa PDV-a?")["sessionId"]
    body = b'{"facts": [{"topic": "pdv", "fact_type": "annual_turnover_eur", "value": %s}]}' % value
    reply = client.post(
        f"/api/dossiers/{session}/facts", content=body, headers={"content-type": "application/json"}
    )
    assert reply.status_code == 400, reply.text
    assert reply.json()["error"]["field"].startswith("facts.0.value")
    assert facts_of(client, session) == {}


def test_facts_of_an_unknown_dossier_are_404(client: TestClient) -> None:
    missing = "dos_" + "f" * 32
    assert client.get(f"/api/dossiers/{missing}/facts").status_code == 404
    assert client.get(f"/api/dossiers/{missing}/completeness").status_code == 404


def test_without_memory_no_fact_is_stored(client: TestClient) -> None:
    reply = chat(client, "I was born in 1959, when is my first RMD?", use_memory=False)
    assert "sessionId" not in reply


def test_an_identifier_typed_into_a_text_fact_is_redacted(client: TestClient) -> None:
    session = chat(client, "What is the RMD age?")["sessionId"]
    body = {
        "facts": [
            {"topic": "lifestyle_purpose", "fact_type": "retirement_goal",
             "value": "Move to Ohio, SSN 536-90-4399"},
        ]
    }  # fmt: skip
    assert client.post(f"/api/dossiers/{session}/facts", json=body).status_code == 201
    assert "536-90-4399" not in str(facts_of(client, session))


def test_a_retirement_conversation_remembers_the_household(client: TestClient) -> None:
    first = chat(client, "I'm 64 and my wife is 58.", surface="APP")
    session = first["sessionId"]
    # the Dutch fiscal partner is no fact of a US retirement household
    assert facts_of(client, session) == {"age": 64, "spouse_age": 58}
    second = chat(client, "We want to retire next May.", surface="APP", sessionId=session)
    assert facts_of(client, session)["retirement_date"] == "2027-05"
    assert second["sessionId"] == session
    third = chat(client, "When do I have to take my first RMD?", surface="APP", sessionId=session)
    assert third["kind"] == "ANSWER", third.get("refusal")
    assert "75 years" in third["directAnswer"]  # the age stated two turns before decides
    used = third["clientContext"]["used"]
    assert ("question", "64") in {(u["source"], u["value"]) for u in used}
    history = client.get(f"/api/dossiers/{session}/completeness").json()["history"]
    assert len(history) >= 2, "completeness moved while the conversation ran"


def test_a_missing_fact_is_asked_with_its_question_then_the_reply_answers(
    client: TestClient,
) -> None:
    first = chat(client, "What is my full retirement age?", surface="APP")
    assert first["refusalReason"] == "MISSING_CLIENT_DATA"
    (missing,) = first["refusal"]["missingData"]
    assert missing["field"] == "birth_year" and missing["topic"] in US_TOPICS
    assert missing["question"] in first["refusal"]["message"]
    second = chat(client, "1962", surface="APP", sessionId=first["sessionId"])
    assert second["kind"] == "ANSWER" and "67" in second["directAnswer"]
    assert facts_of(client, first["sessionId"])["birth_year"] == 1962
    third = chat(
        client, "What is my full retirement age?", surface="APP", sessionId=first["sessionId"]
    )
    assert third["kind"] == "ANSWER", "a fact given once is not asked again"


def test_a_croatian_pausalist_conversation(client: TestClient) -> None:
    first = chat(client, "Imam paušalni obrt u Zagrebu, primici oko 38.000 eura godišnje.")
    session = first["sessionId"]
    told = facts_of(client, session)
    assert told["entity_type"] == "pausalni_obrt" and told["annual_receipts_eur"] == 38000
    second = chat(client, "Koliki mi je godišnji paušalni dohodak u 2024.?", sessionId=session)
    assert second["kind"] == "ANSWER" and "5.972,53" in second["directAnswer"]
    assert scores_of(client, session)


def test_a_dutch_ondernemer_conversation_streams_its_completeness(client: TestClient) -> None:
    first = chat(client, "Ik ben zzp'er en mijn vrouw en ik hebben samen spaargeld.")
    session = first["sessionId"]
    assert facts_of(client, session)["heeft_partner"] is True
    reply = client.post(
        "/api/assistant/chat/stream",
        json={"query": "Wat is de schuldendrempel in box 3?", "sessionId": session},
    )
    lines = parse_ndjson(reply.text)
    answer = next(line for line in lines if "directAnswer" in line)
    assert "7.600" in answer["directAnswer"] and "3.800" not in answer["directAnswer"]
    assert lines[-1].get("_done") is True


def test_a_fact_navod_inferred_is_marked_and_can_be_taken_back(client: TestClient) -> None:
    first = chat(client, "Imam paušalni obrt i promet od 45.000 eura. Moram li u sustav PDV-a?")
    session = first["sessionId"]
    records = client.get(f"/api/dossiers/{session}/facts").json()["facts"]
    # the turnover was said; that it is also the craft's receipts is Navod's reading
    assert {f["fact_type"]: f["inferred"] for f in records} == {
        "annual_turnover_eur": False,
        "annual_receipts_eur": True,
        "entity_type": False,
    }
    before = scores_of(client, session)["pausal"]
    taken = client.delete(f"/api/dossiers/{session}/facts/annual_receipts_eur")
    assert taken.status_code == 200, taken.text
    (record,) = taken.json()["facts"]
    assert record["retracted"] and record["fact_type"] == "annual_receipts_eur"
    # a new record: the history keeps both, the fact is unknown from now on
    history = client.get(f"/api/dossiers/{session}/facts").json()["facts"]
    assert [f["retracted"] for f in history if f["fact_type"] == "annual_receipts_eur"] == [
        False,
        True,
    ]
    assert scores_of(client, session)["pausal"] < before
    again = client.delete(f"/api/dossiers/{session}/facts/annual_receipts_eur")
    assert again.status_code == 404
    assert again.json()["error"]["field"] == "factType"
    assert client.delete(f"/api/dossiers/{session}/facts/Bad-Name").status_code == 400
    # stated again, it is known again
    assert (
        client.post(
            f"/api/dossiers/{session}/facts",
            json={
                "facts": [{"topic": "pausal", "fact_type": "annual_receipts_eur", "value": 41000}]
            },
        ).status_code
        == 201
    )
    assert facts_of(client, session)["annual_receipts_eur"] == 41000
    assert scores_of(client, session)["pausal"] == before
