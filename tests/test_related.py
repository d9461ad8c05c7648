"""One click away (issue 23): a refusal of something Navod holds offers related questions that,
asked as they are in the same conversation, are answered; each carries the question's year."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from engine.contract import ChatRequest
from engine.service import AnswerService
from engine.store.dossiers.memory import MemoryDossierRepository
from engine.store.guardrails.guards import load_guards
from engine.store.knowledge.memory import MemoryRepository
from engine.store.knowledge.packs import load_packs, pack_paths

NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)


@pytest.fixture(scope="module")
def service() -> AnswerService:
    repository = MemoryRepository()
    load_packs(repository, pack_paths([]))
    return AnswerService(
        repository, clock=lambda: NOW, guards=load_guards(), dossiers=MemoryDossierRepository()
    )


def chat(service: AnswerService, text: str, session: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"query": text}
    if session:
        body["sessionId"] = session
    return service.answer(ChatRequest.model_validate(body))


@pytest.mark.parametrize(
    "text",
    [
        "Hoeveel belasting betaal je over inkomen uit aanmerkelijk belang?",
        "Koliki je PDV na knjige danas?",
        "all the box 1 brackets with their rates please, thanks a lot",
        "stopa pdv-a na cvijece 2020",
    ],
)
def test_every_related_question_of_a_refusal_is_answered_as_it_is(
    service: AnswerService, text: str
) -> None:
    refused = chat(service, text)
    assert refused["kind"] == "REFUSAL"
    related = refused.get("relatedQuestions", [])
    assert related, refused["refusal"]["message"]
    for question in related:
        assert len(question) <= 80
        answered = chat(service, question, refused["sessionId"])
        assert answered["kind"] == "ANSWER", question


def test_a_related_question_carries_the_questions_year(service: AnswerService) -> None:
    refused = chat(service, "stopa pdv-a na cvijece 2020")
    assert refused["kind"] == "REFUSAL"
    assert all(q.endswith("2020.?") for q in refused["relatedQuestions"])
    answered = chat(service, refused["relatedQuestions"][0], refused["sessionId"])
    assert answered["asOfDate"].startswith("2020")


def test_a_refusal_offers_only_facts_of_the_country_asked_about(service: AnswerService) -> None:
    refused = chat(service, "Pausalni prag za 2026.")
    assert all(
        "Nizozemska" not in q and "SAD" not in q for q in refused.get("relatedQuestions", [])
    )


def test_an_amount_a_duty_depends_on_is_never_answered_with_a_deadline(
    service: AnswerService,
) -> None:
    # whether VAT is owed on 15.000 EUR is the threshold's question; the payment deadline under
    # an "Obveza" badge was a wrong yes
    refused = chat(service, "Moram li plaćati PDV ako zarađujem 15.000 EUR?")
    assert refused["kind"] == "REFUSAL"
    assert refused["relatedQuestions"][0] == "Prag za ulazak u sustav PDV-a?"
    answered = chat(service, refused["relatedQuestions"][0], refused["sessionId"])
    assert answered["kind"] == "ANSWER" and "60.000,00 EUR" in answered["headline"]


def test_a_refusal_quotes_the_askers_words_as_written(service: AnswerService) -> None:
    refused = chat(service, "Moram li plaćati PDV ako zarađujem 15.000 EUR?")
    assert refused["understood"]["unexplained"] == ["15.000 EUR"]
    assert "15.000 EUR" in refused["refusal"]["message"]
