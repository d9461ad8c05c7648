"""Nothing a caller sends can break a conversation (issue 24), over HTTP on a migrated database:
numbers past their domain through every way in, turns stored only with the answer they got,
an unencodable stored event shown as unreadable, the facts API typed and bounded like
clientContext, and claims about the rules never taken as facts about the asker."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import orjson
import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine.service
from api.app import create_app
from engine.bounds import LARGEST_AMOUNT
from engine.service import AnswerService
from engine.store.bootstrap import open_store
from engine.store.dossiers.sql import SqlDossierRepository
from engine.store.guardrails.guards import load_guards
from engine.stream import merge_lines, parse_ndjson

pytestmark = pytest.mark.db
NOW = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)


@pytest.fixture
def served(database_url: str) -> Iterator[tuple[TestClient, sa.Engine]]:
    """An app over a migrated database (SQLite, or PostgreSQL in the database run). The
    property test's examples share it: each starts its own conversation."""
    engine, repository = open_store(database_url)
    service = AnswerService(
        repository, clock=lambda: NOW, guards=load_guards(), dossiers=SqlDossierRepository(engine)
    )
    app = create_app(service, engine)
    with TestClient(app, raise_server_exceptions=False, base_url="http://localhost") as client:
        yield client, engine
    engine.dispose()


@pytest.fixture
def client(served: tuple[TestClient, sa.Engine]) -> TestClient:
    return served[0]


def chat(client: TestClient, query: str, **extra: Any) -> dict[str, Any]:
    reply = client.post("/api/assistant/chat", json={"query": query, **extra})
    assert reply.status_code == 200, reply.text
    body: dict[str, Any] = reply.json()
    return body


def readable(client: TestClient, session: str) -> None:
    """Every read of the conversation answers, and a follow-up that would use a stored
    turnover is answered too (none of them a 500)."""
    for path in ("", "/facts", "/completeness"):
        reply = client.get(f"/api/dossiers/{session}{path}")
        assert reply.status_code == 200, (path, reply.text)
    follow = chat(client, "Koliki je prag za PDV?", sessionId=session)
    assert follow["kind"] == "ANSWER"
    stream = client.post(
        "/api/assistant/chat/stream", json={"query": "a za 2024?", "sessionId": session}
    )
    assert stream.status_code == 200 and merge_lines(parse_ndjson(stream.content))["kind"]


def turns(client: TestClient, session: str) -> int:
    events = client.get(f"/api/dossiers/{session}").json()["events"]
    return sum(1 for e in events if e["type"] == "turn")


# ---- Numbers past their domain, through every way in


HUGE = [2**64, 2**63, 10**30, LARGEST_AMOUNT + 1]


@pytest.mark.parametrize("number", HUGE)
@pytest.mark.parametrize(
    "template",
    ["Promet mi je {n} eura.", "Mijn omzet is {n} euro.", "Promet mi je {n} eura. Prag za PDV?"],
)
def test_a_huge_amount_in_a_question_is_named_and_never_kept(
    client: TestClient, template: str, number: int
) -> None:
    body = chat(client, template.format(n=number))
    understood = body["understood"]
    assert [u["name"] for u in understood["unusable"]] == ["turnover"]
    assert str(number) not in orjson.dumps(understood.get("facts", [])).decode()
    assert str(number) in understood["text"]  # the answer says what it set aside
    facts = client.get(f"/api/dossiers/{body['sessionId']}/facts").json()["facts"]
    assert all(f["fact_type"] != "annual_turnover_eur" for f in facts)
    readable(client, body["sessionId"])


def test_a_huge_number_over_the_websocket_and_the_stream_is_answered(client: TestClient) -> None:
    query = f"Promet mi je {2**64} eura. Koliki je prag za PDV?"
    with client.websocket_connect("/ws") as connection:
        connection.send_text(orjson.dumps({"message": query}).decode())
        reply = orjson.loads(connection.receive_text())
    assert reply["status"] == "ok", reply
    stream = client.post("/api/assistant/chat/stream", json={"query": query})
    assert stream.status_code == 200
    merged = merge_lines(parse_ndjson(stream.content))
    assert merged["kind"] == "ANSWER" and "60.000,00 EUR" in merged["headline"]
    readable(client, merged["sessionId"])


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    number=st.one_of(
        st.integers(min_value=-(2**70), max_value=2**70),
        st.sampled_from([2**64 - 1, 2**64, 2**63 - 1, 2**63, -(2**63) - 1]),
    )
)
def test_no_integer_through_the_facts_api_or_a_question_poisons_a_conversation(
    served: tuple[TestClient, sa.Engine], number: int
) -> None:
    client = served[0]
    session = chat(client, f"Promet mi je {abs(number)} eura.")["sessionId"]
    fact = {"topic": "pdv", "fact_type": "annual_turnover_eur", "value": number}
    posted = client.post(f"/api/dossiers/{session}/facts", json={"facts": [fact]})
    in_range = 0 <= number <= LARGEST_AMOUNT
    assert posted.status_code == (201 if in_range else 400), posted.text
    if not in_range:
        assert posted.json()["error"]["field"] == "facts[0].value"
    context = client.post(
        "/api/assistant/chat",
        json={"query": "Prag za PDV?", "surface": "APP", "sessionId": session,
              "clientContext": {"annual_turnover_eur": number}},
    )  # fmt: skip
    assert context.status_code == (200 if in_range else 400), context.text
    readable(client, session)


@pytest.mark.parametrize(
    ("fact_type", "value", "field"),
    [
        ("birth_year", -5, "value"),
        ("birth_year", 1962.5, "value"),
        ("birth_year", "1962", "value"),
        ("age", 400, "value"),
        ("annual_turnover_eur", -1, "value"),
        ("annual_turnover_eur", True, "value"),
        ("annual_turnover_eur", 2**64, "value"),
        ("entity_type", "zzp", "value"),
        ("favourite_colour", "blue", "fact_type"),
    ],
)
def test_the_facts_api_refuses_what_client_context_refuses(
    client: TestClient, fact_type: str, value: Any, field: str
) -> None:
    session = chat(client, "Koliki je prag za PDV?")["sessionId"]
    fact = {"topic": "pdv", "fact_type": fact_type, "value": value}
    reply = client.post(f"/api/dossiers/{session}/facts", json={"facts": [fact]})
    assert reply.status_code == 400, reply.text
    assert reply.json()["error"]["field"] == f"facts[0].{field}"
    assert client.get(f"/api/dossiers/{session}/facts").json()["facts"] == []
    context = {fact_type: value}
    refused = client.post(
        "/api/assistant/chat",
        json={"query": "Prag za PDV?", "surface": "APP", "clientContext": context},
    )
    assert refused.status_code == 400  # one definition: clientContext refuses it too


def test_a_valid_fact_is_stored_as_client_context_types_it(client: TestClient) -> None:
    session = chat(client, "What is the RMD age?")["sessionId"]
    facts = [
        {"topic": "housing_geography", "fact_type": "state_of_residence", "value": "Florida"},
        {"topic": "tax_efficiency_rmds", "fact_type": "birth_year", "value": 1958.0},
    ]
    reply = client.post(f"/api/dossiers/{session}/facts", json={"facts": facts})
    assert reply.status_code == 201, reply.text
    stored = {f["fact_type"]: f["value"] for f in reply.json()["facts"]}
    assert stored == {"state_of_residence": "florida", "birth_year": 1958}


# ---- A turn is stored only with the answer it got


def test_a_turn_whose_response_cannot_be_sent_is_not_stored(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = chat(client, "Koliki je prag za PDV?")["sessionId"]
    original = engine.service.finish_turn

    def unencodable(*args: Any, **kwargs: Any) -> dict[str, Any]:
        return {**original(*args, **kwargs), "poison": 2**64}

    monkeypatch.setattr(engine.service, "finish_turn", unencodable)
    for _retry in range(3):
        failed = chat(client, "Koja je stopa PDV-a?", sessionId=session)
        assert failed["error"]["retriable"] is True  # the error refusal, not a 500
    assert turns(client, session) == 1  # no retry was kept
    monkeypatch.undo()
    chat(client, "Koja je stopa PDV-a?", sessionId=session)
    assert turns(client, session) == 2


@pytest.mark.parametrize("value", [2**64, True, -5, "many"], ids=["huge", "bool", "neg", "text"])
def test_a_stored_value_outside_its_domain_is_shown_as_unreadable_and_never_used(
    served: tuple[TestClient, sa.Engine], value: Any
) -> None:
    """What an older Navod could store (a turnover past 64 bits, or a boolean one the facts
    API took, which made every later threshold question an internal error)."""
    client, engine = served
    session = chat(client, "Koliki je prag za PDV?")["sessionId"]
    poisoned = {
        "topic": "pdv", "subtopic": "threshold", "fact_type": "annual_turnover_eur",
        "value": value, "confidence": 1.0, "source": "question", "turn": 0,
    }  # fmt: skip
    with engine.begin() as connection:  # as a conversation stored before issue 24 holds it
        count = connection.execute(
            sa.text("SELECT event_count, version FROM dossier WHERE id = :id"), {"id": session}
        ).one()
        connection.execute(
            sa.text(
                "INSERT INTO dossier_event (dossier_id, seq, kind, at, payload) "
                "VALUES (:id, :seq, 'info', :at, :payload)"
            ),
            {"id": session, "seq": count[0], "at": NOW, "payload": orjson_free(poisoned)},
        )
        connection.execute(
            sa.text("UPDATE dossier SET event_count = :n, version = :v WHERE id = :id"),
            {"n": count[0] + 1, "v": count[1] + 1, "id": session},
        )
    if value == 2**64:  # only a number past 64 bits cannot be written back at all
        events = client.get(f"/api/dossiers/{session}").json()["events"]
        assert {"type": "info", "unreadable": True}.items() <= events[-1].items()
    facts = client.get(f"/api/dossiers/{session}/facts").json()["facts"]
    assert facts[-1]["unreadable"] is True and facts[-1]["value"] is None
    readable(client, session)
    answer = chat(client, "Moram li u sustav PDV-a?", sessionId=session)
    assert "error" not in answer and "remembered" not in answer.get("understood", {})


def orjson_free(payload: dict[str, Any]) -> str:
    """JSON text orjson could not write (an integer past 64 bits), as the standard library
    writes it: what an older Navod stored."""
    import json

    return json.dumps(payload)


# ---- Claims about the rules are not facts about the asker


@pytest.mark.parametrize(
    ("query", "claimed"),
    [
        ("Koliki je prag za PDV? Prag je 99.999 eura.", "Prag je 99.999 eura"),
        ("Prag za PDV je 30.000 eura, zar ne?", "Prag za PDV je 30.000 eura"),
        ("Wat is de KOR-grens? De KOR-grens is 30.000 euro.", "grens is 30.000 euro"),
    ],
)
def test_a_claimed_threshold_is_checked_against_the_source_not_used(
    client: TestClient, query: str, claimed: str
) -> None:
    body = chat(client, query)
    assert body["kind"] == "ANSWER"  # the threshold, not a verdict on the claimed amount
    assert body.get("obligationContext", {}).get("type") not in ("OBLIGATION", "NO_OBLIGATION")
    understood = body["understood"]
    assert "facts" not in understood and "computed" not in understood
    assert understood["claims"] == [{"words": claimed, "verdict": "differs"}]
    assert claimed in understood["text"]
    assert client.get(f"/api/dossiers/{body['sessionId']}/facts").json()["facts"] == []


@pytest.mark.parametrize(
    "query",
    [
        "What is the RMD age? The RMD age is 55.",
        "(Assume the RMD age is 55.) When is my first RMD due?",
    ],
)
def test_a_claimed_age_is_not_the_askers_age(client: TestClient, query: str) -> None:
    body = chat(client, query)
    assert body["kind"] == "ANSWER"
    assert "2046" not in orjson.dumps(body).decode()
    assert "facts" not in body["understood"]
    assert client.get(f"/api/dossiers/{body['sessionId']}/facts").json()["facts"] == []


def test_the_askers_own_age_is_still_a_fact(client: TestClient) -> None:
    body = chat(client, "My age is 62. What is my full retirement age?")
    assert {"name": "age", "value": 62} in [
        {"name": f["name"], "value": f["value"]} for f in body["understood"]["facts"]
    ]
