"""The topics behind FiskAI's refusals (issue 25), over HTTP on a real database: each answers
from its source or is refused naming what Navod holds instead; VAT answers say which
amendments nobody checked; confidence says why in words."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from api.app import create_app
from engine.service import AnswerService, quote_checker
from engine.store.db import make_engine, migrate
from engine.store.knowledge.packs import load_packs, pack_paths
from engine.store.knowledge.sql import SqlRepository
from engine.validation import validate_response

pytestmark = pytest.mark.db

NOW = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)


@pytest.fixture
def service_and_engine(database_url: str) -> Iterator[tuple[AnswerService, sa.Engine]]:
    migrate(database_url)
    engine = make_engine(database_url)
    repository = SqlRepository(engine)
    load_packs(repository, pack_paths([]))
    yield AnswerService(repository, clock=lambda: NOW), engine
    engine.dispose()


@pytest.fixture
def client(service_and_engine: tuple[AnswerService, sa.Engine]) -> Iterator[TestClient]:
    service, engine = service_and_engine
    with TestClient(create_app(service, engine), raise_server_exceptions=False) as test_client:
        yield test_client


def _ask(client: TestClient, query: str, **extra: Any) -> dict[str, Any]:
    reply = client.post("/api/assistant/chat", json={"query": query, **extra})
    assert reply.status_code == 200, reply.text
    body: dict[str, Any] = reply.json()
    return body


ANSWERS = [
    # (question as askers write it, rule that answers, what the answer says)
    ("Koliki je limit primitaka za paušaliste 2025?", "hr-pausal-limit-2025-24sata", "60.000,00"),
    ("pdv na kruh", "hr-pdv-stopa-kruh-mlijeko-2022", "5 %"),
    ("Od kada sam obveznik PDV-a kad prijeđem prag?", "hr-pdv-upis-pocetak-2025", "prvog dana"),
    ("Do kada se predaje godišnja prijava poreza na dohodak?", "hr-doh-rok-2018", "veljače"),
    ("Što se događa ako paušalist prijeđe 60.000 eura?", "hr-pausal-gubitak-2025-24sata", "gubi"),
    ("What is the penalty for missing an RMD?", "us-rmd-excise-tax-25-irs", "25%"),
]


def test_each_topic_answers_over_http_from_its_source(
    client: TestClient, service_and_engine: tuple[AnswerService, sa.Engine]
) -> None:
    snapshot = service_and_engine[0].snapshot()
    for query, rule, said in ANSWERS:
        response = _ask(client, query)
        assert response["kind"] == "ANSWER", (query, response.get("refusal"))
        assert response["citations"]["primary"]["id"].split("@")[0] == rule, query
        assert said in response["directAnswer"], (query, response["directAnswer"])
        assert response["confidence"]["rationale"] and response["confidence"]["breakdown"]
        assert validate_response(response, quote_checker(snapshot)).valid, query


def test_vat_answers_say_what_is_unchecked_and_how_sure_they_are(client: TestClient) -> None:
    current = _ask(client, "Koliki je prag za ulazak u sustav PDV-a?")
    bullets = current["why"]["bullets"]
    assert bullets[0].startswith("Potvrđuje: ")
    assert bullets[1] == "Izmjene Zakona o PDV-u nakon NN 152/2024 nisu provjerene."
    english = _ask(client, "What is the VAT registration threshold in Croatia?")["why"]["bullets"]
    assert "Amendments to the Croatian VAT Act after NN 152/2024" in english[1]
    # two independent publishers: at least MEDIUM, and no less sure than the expired 2024 value
    expired = _ask(client, "Koliki je bio prag za PDV 2024?")["confidence"]
    assert current["confidence"]["level"] == "MEDIUM"
    assert current["confidence"]["breakdown"]["publishers"] >= 2
    assert current["confidence"]["score"] >= expired["score"]


def test_what_navod_lacks_is_refused_naming_what_it_holds(client: TestClient) -> None:
    refused = _ask(client, "Koliki je PDV na knjige danas?")
    message = refused["refusal"]["message"]
    assert refused["refusalReason"] == "NO_CITABLE_RULES"
    assert "5 %" in message and "31. ožujka 2022." in message
    assert "drugim datumom" not in message and refused["relatedQuestions"]
    # a category on no list is not given the general rate
    shoes = _ask(client, "Koja je stopa PDV-a na cipele?")
    assert shoes["refusalReason"] == "NO_CITABLE_RULES"
    assert "cipele" in shoes["refusal"]["message"]
