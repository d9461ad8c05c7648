"""Strict request input (issue 12, item 5): a typed clientContext, strict booleans, and a body that
is not a JSON object named as such, on both chat routes; the model's ranges at their edges."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from api.app import create_app
from engine.client_context import ClientContextIn
from engine.conditions import parse_condition
from engine.service import AnswerService
from engine.store.knowledge.memory import MemoryRepository
from engine.store.knowledge.packs import load_packs, pack_paths

ROUTES = ["/api/assistant/chat", "/api/assistant/chat/stream"]
RMD = "What is the RMD age?"
THIS_YEAR = datetime.now(UTC).year


@pytest.fixture(scope="module")
def repository() -> MemoryRepository:
    repository = MemoryRepository()
    load_packs(repository, pack_paths([]))
    return repository


@pytest.fixture(scope="module")
def client(repository: MemoryRepository) -> Iterator[TestClient]:
    service = AnswerService(repository)
    with TestClient(create_app(service), raise_server_exceptions=False) as test_client:
        yield test_client


def app_context(fields: str) -> bytes:
    """A raw APP body whose clientContext holds `fields`, JSON text as written."""
    return f'{{"query": "{RMD}", "surface": "APP", "clientContext": {{{fields}}}}}'.encode()


BAD_FACTS: dict[str, tuple[str, object]] = {
    # JSON text, so NaN, Infinity and 1e999 reach the parser as sent
    "birth-year-nan": ("birth_year", "NaN"),
    "birth-year-1e999": ("birth_year", "1e999"),
    "birth-year-1e30": ("birth_year", "1e30"),
    "birth-year-fraction": ("birth_year", "1962.5"),
    "birth-year-text": ("birth_year", '"1962"'),
    "birth-year-too-early": ("birth_year", "1899"),
    "birth-year-future": ("birth_year", str(THIS_YEAR + 1)),
    "age-negative": ("age", "-1"),
    "age-131": ("age", "131"),
    "amount-negative": ("annual_receipts_eur", "-0.01"),
    "amount-infinite": ("annual_receipts_eur", "Infinity"),
    "amount-nan": ("eigenwoningwaarde", "NaN"),
    "amount-1e30": ("savings_usd", "1e30"),
    "amount-bool": ("savings_usd", "true"),
    "flag-as-number": ("heeft_partner", "1"),
    "entity-unknown": ("entity_type", '"gmbh"'),
    "municipality-unknown": ("municipality_type", '"selo"'),
    "state-unknown": ("state_of_residence", '"ontario"'),
    "retirement-date-day": ("retirement_date", '"2030-01-15"'),
    "unknown-fact": ("foo", "1"),
}
BAD_BODIES: dict[str, tuple[bytes, str]] = {
    **{name: (app_context(f'"{fact}": {value}'), f"clientContext.{fact}")
       for name, (fact, value) in BAD_FACTS.items()},
    "context-not-an-object": (b'{"query": "pdv", "clientContext": [1962]}', "clientContext"),
    "use-memory-zero": (b'{"query": "pdv", "use_memory": 0}', "use_memory"),
    "use-memory-text": (b'{"query": "pdv", "use_memory": "false"}', "use_memory"),
    "explain-yes": (b'{"query": "pdv", "explain": "yes"}', "explain"),
    "explain-one": (b'{"query": "pdv", "explain": 1}', "explain"),
    "company-id-empty": (b'{"query": "pdv", "companyId": ""}', "companyId"),
    "company-id-long": (b'{"query": "pdv", "companyId": "' + b"c" * 129 + b'"}', "companyId"),
    "company-id-number": (b'{"query": "pdv", "companyId": 42}', "companyId"),
}  # fmt: skip


@pytest.mark.parametrize("path", ROUTES)
@pytest.mark.parametrize(("body", "field"), BAD_BODIES.values(), ids=BAD_BODIES.keys())
def test_a_bad_field_is_a_400_naming_it(
    client: TestClient, path: str, body: bytes, field: str
) -> None:
    reply = client.post(path, content=body, headers={"content-type": "application/json"})
    assert reply.status_code == 400, reply.text
    error = reply.json()["error"]
    assert (error["code"], error["field"]) == ("invalid_request", field)
    assert f"'{field}'" in error["message"]


@pytest.mark.parametrize("path", ROUTES)
@pytest.mark.parametrize("body", [b"", b"null", b"[]", b'"x"', b"5", b"true"])
def test_a_body_that_is_not_an_object_says_so(client: TestClient, path: str, body: bytes) -> None:
    reply = client.post(path, content=body, headers={"content-type": "application/json"})
    assert reply.status_code == 400
    error = reply.json()["error"]
    assert error["field"] == "body" and "must be a JSON object" in error["message"]


def chat(client: TestClient, body: dict[str, Any]) -> dict[str, Any]:
    reply = client.post("/api/assistant/chat", json=body)
    assert reply.status_code == 200, reply.text
    answer: dict[str, Any] = reply.json()
    return answer


def test_a_typed_fact_still_decides_the_answer(client: TestClient) -> None:
    body = {"query": "What is the full retirement age?", "surface": "APP",
            "clientContext": {"birth_year": 1962}, "companyId": "cmp_1"}  # fmt: skip
    answer = chat(client, body)
    assert answer["kind"] == "ANSWER" and "67" in answer["directAnswer"]


def test_company_id_is_accepted_and_changes_nothing(client: TestClient) -> None:
    body = {"query": "Koja je stopa PDV-a?", "surface": "APP", "use_memory": False}
    plain, with_company = chat(client, body), chat(client, {**body, "companyId": "cmp_42"})
    for varying in ("requestId", "traceId", "createdAt"):
        plain.pop(varying), with_company.pop(varying)
    assert plain == with_company


FIELD_EDGES: list[tuple[str, object, bool]] = [
    ("birth_year", 1900, True), ("birth_year", 1899, False), ("birth_year", THIS_YEAR, True),
    ("birth_year", THIS_YEAR + 1, False), ("birth_year", 1962.0, True),
    ("birth_year", True, False),
    ("age", 0, True), ("age", 130, True), ("age", 131, False), ("age", 64.5, False),
    ("annual_receipts_eur", 0, True), ("annual_receipts_eur", 39_816.85, True),
    ("annual_receipts_eur", 1e12, True), ("annual_receipts_eur", 1e12 + 1, False),
    ("annual_receipts_eur", float("nan"), False), ("annual_receipts_eur", float("-inf"), False),
    ("partner_uren", 8784, True), ("partner_uren", 8785, False),
    ("startersaftrek_ao_eerdere_jaren", 2, True), ("startersaftrek_ao_eerdere_jaren", -1, False),
    ("entity_type", "pausalni_obrt", True), ("entity_type", "Pausalni_obrt", False),
    ("retirement_date", "2030", True), ("retirement_date", "2030-07", True),
    ("retirement_date", "2030-13", False), ("city", " ", False), ("city", "x" * 201, False),
]  # fmt: skip


@pytest.mark.parametrize(("field", "value", "accepted"), FIELD_EDGES)
def test_each_range_at_its_edges(field: str, value: object, accepted: bool) -> None:
    if accepted:
        assert ClientContextIn.model_validate({field: value}).facts() == {field: value}
    else:
        with pytest.raises(ValidationError) as caught:
            ClientContextIn.model_validate({field: value})
        assert caught.value.errors()[0]["loc"][0] == field


def test_places_are_folded_as_the_packs_write_them() -> None:
    facts = ClientContextIn.model_validate(
        {"city": " Poreč ", "state_of_residence": "New York", "annual_income_usd": 52000.0}
    ).facts()
    assert facts == {"city": "porec", "state_of_residence": "new york", "annual_income_usd": 52000}
    assert isinstance(facts["annual_income_usd"], int)


def test_every_fact_a_pack_reads_can_be_sent(repository: MemoryRepository) -> None:
    """A condition field or checklist fact clientContext does not declare could never be given:
    the rule reading it would always be 'missing client data'."""
    knowledge = repository.load_knowledge()
    read: set[str] = set()
    for rule in knowledge.rules:
        read |= fields_of(parse_condition(rule.applies_when))
    read |= {item.fact for topic in knowledge.topics for item in topic.checklist}
    assert read and read <= set(ClientContextIn.model_fields)


def fields_of(condition: object) -> set[str]:
    field = getattr(condition, "field", None)
    found = {field} if isinstance(field, str) else set()
    for part in (*getattr(condition, "parts", ()), getattr(condition, "part", None)):
        if part is not None:
            found |= fields_of(part)
    return found
