"""One click away (issues 23 and 26): the related questions a response offers are answered when
asked as they are, in the same conversation or on their own; each carries the question's year.
A refusal says which dates Navod holds a fact for, or plainly that it holds none."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from engine.contract import ChatRequest
from engine.pipeline import runner
from engine.pipeline.lexicon import COUNTRY_NAMES_IN, UNSUPPORTED_COUNTRIES
from engine.service import AnswerService
from engine.store.db import REPO_ROOT
from engine.store.dossiers.memory import MemoryDossierRepository
from engine.store.guardrails.guards import load_guards
from engine.store.knowledge.memory import MemoryRepository
from engine.store.knowledge.packs import load_packs, pack_paths
from measure.eval import GOLD_DIR, TODAY, load_gold, request_body

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


# ---- Every related question offered, asked as it is, is answered (issue 26)

SAMPLE_EVERY = 5  # every fifth question of each gold and measure file
QUESTION_SETS = [GOLD_DIR, *sorted((REPO_ROOT / "fixtures" / "measure").glob("*.yaml"))]


@pytest.fixture(scope="module")
def fresh_service() -> AnswerService:
    """Questions on their own, as `navod eval` asks them without a conversation."""
    repository = MemoryRepository()
    load_packs(repository, pack_paths([]))
    return AnswerService(repository, clock=lambda: TODAY, guards=load_guards())


@pytest.mark.parametrize("questions", QUESTION_SETS, ids=lambda path: path.stem)
def test_no_related_question_leads_to_a_refusal(
    fresh_service: AnswerService, questions: Path
) -> None:
    """Refused and answered questions alike: each related question they offer, asked as a
    fresh question on the same date, with the same facts, is answered, in the language of
    the response that offered it, never refused (the refusal it came from included)."""
    sample = load_gold(questions)[::SAMPLE_EVERY]
    kinds: set[str] = set()
    for question in sample:
        body = request_body(question)
        offering = fresh_service.answer(ChatRequest.model_validate(body))
        kinds.add(offering["kind"])
        for related in offering.get("relatedQuestions", []):
            asked = fresh_service.answer(ChatRequest.model_validate({**body, "query": related}))
            where = f"{question.id}: {question.query!r} offered {related!r}"
            assert asked["kind"] == "ANSWER", f"{where}: {asked.get('refusal')}"
            assert asked["language"] == offering["language"], where
    assert kinds == {"ANSWER", "REFUSAL"}  # the sample holds both


def test_an_answer_offers_its_family_for_the_same_year(fresh_service: AnswerService) -> None:
    answered = fresh_service.answer(ChatRequest(query="HSA family contribution limit for 2025?"))
    related = answered["relatedQuestions"]
    assert "HSA contribution limit (self-only coverage), 2025?" in related
    assert all(question.endswith(", 2025?") for question in related)
    sibling = fresh_service.answer(ChatRequest(query=related[0]))
    assert sibling["kind"] == "ANSWER" and sibling["asOfDate"] == "2025-01-01"


def test_remembering_what_was_asked_changes_no_response(fresh_service: AnswerService) -> None:
    # the memo of related questions asked (engine/pipeline/runner.py) is the pipeline's answer
    request = ChatRequest(query="Koja je stopa PDV-a?")
    runner._ASKED[0] = (None, {})
    cold = fresh_service.answer(request)["relatedQuestions"]
    assert cold and fresh_service.answer(request)["relatedQuestions"] == cold


def test_a_fact_held_for_another_year_names_the_years_and_offers_one(
    fresh_service: AnswerService,
) -> None:
    service = fresh_service
    refused = service.answer(ChatRequest(query="HSA self-only contribution limit for 2026?"))
    message = refused["refusal"]["message"]
    assert refused["refusalReason"] == "NO_CITABLE_RULES"
    assert "Navod holds a value only for 2025, not for the date asked" in message
    assert message.endswith("Ask for a date in that period.")
    offered = refused["relatedQuestions"][0]
    assert offered == "HSA contribution limit (self-only coverage), 2025?"
    answered = service.answer(ChatRequest(query=offered))
    assert answered["kind"] == "ANSWER" and "$4,300" in answered["directAnswer"]


@pytest.mark.parametrize(
    ("text", "lacks"),
    [
        (
            "Hoeveel erfbelasting betaal je in Nederland?",
            "Navod kent hierover geen regel: de vraag past bij geen enkel begrip in de kennisbank.",
        ),
        (
            "Koliki je porez na promet nekretnina kad kupujem stan?",
            "Navod nema propis o tome: pitanje ne odgovara nijednom pojmu u bazi znanja.",
        ),
    ],
)
def test_a_fact_navod_lacks_is_said_plainly_without_a_date(
    fresh_service: AnswerService, text: str, lacks: str
) -> None:
    refused = fresh_service.answer(ChatRequest(query=text))
    assert refused["refusalReason"] == "NO_CITABLE_RULES"
    assert refused["refusal"]["message"] == lacks  # another date would not help: none named


@pytest.mark.parametrize(
    ("text", "named", "english"),
    [
        ("Koja je stopa PDV-a u Njemačkoj?", "Pitanje se odnosi na: Njemačka.", "Germany"),
        ("pdv u bih", "Pitanje se odnosi na: Bosna i Hercegovina.", "Bosnia"),
        ("Hoe hoog is de btw in België?", "De vraag gaat over: België.", "Belgium"),
    ],
)
def test_a_country_navod_does_not_cover_is_named_in_the_response_language(
    fresh_service: AnswerService, text: str, named: str, english: str
) -> None:
    refused = fresh_service.answer(ChatRequest(query=text))
    assert refused["refusalReason"] == "UNSUPPORTED_JURISDICTION"
    assert refused["refusal"]["message"].startswith(named)
    assert english not in refused["refusal"]["message"]


def test_every_country_navod_recognises_has_a_croatian_and_a_dutch_name() -> None:
    assert {name for name, _, _ in UNSUPPORTED_COUNTRIES} <= set(COUNTRY_NAMES_IN)
