"""A question is a question (issue 23): a message is only noted when it names nothing Navod
knows and asks nothing; facts supposed or told of someone else answer the question but are not
kept as the asker's; a fact of another country's rules is not the asker's; a stated fact that
differs from a remembered one is a correction, and the answer says which value it used."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import pytest

from engine.contract import ChatRequest
from engine.dossier.profile import remembered
from engine.service import AnswerService
from engine.store.dossiers.memory import MemoryDossierRepository
from engine.store.guardrails.guards import load_guards
from engine.store.knowledge.memory import MemoryRepository
from engine.store.knowledge.packs import load_packs, pack_paths
from engine.types import Language
from engine.understanding.read import read_question

NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)


@pytest.fixture
def service() -> AnswerService:
    repository = MemoryRepository()
    load_packs(repository, pack_paths([]))
    return AnswerService(
        repository, clock=lambda: NOW, guards=load_guards(), dossiers=MemoryDossierRepository()
    )


def conversation(
    service: AnswerService, *messages: str
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Every response of the messages in one conversation, and the profile it keeps."""
    responses: list[dict[str, Any]] = []
    session = None
    for message in messages:
        body: dict[str, Any] = {"query": message}
        if session is not None:
            body["sessionId"] = session
        response = service.answer(ChatRequest.model_validate(body))
        session = response["sessionId"]
        responses.append(response)
    assert session is not None
    profile = {
        k: v.value for k, v in remembered(service.find_dossier(session, "anonymous")).items()
    }
    return responses, profile


@pytest.mark.parametrize(
    "message",
    [
        "Pausalni prag",
        "full retirement age if I was born in 1950",
        "rmd age born 1955",
        "I am 64 and I want to know the RMD age",
        "kakvo ce biti vrijeme u splitu sutra",
        "btw laag tarief 2019",
    ],
)
def test_a_terse_search_is_never_noted(service: AnswerService, message: str) -> None:
    [response], _ = conversation(service, message)
    assert response["triage"]["route"] != "dossier", response["headline"]


@pytest.mark.parametrize(
    ("message", "profile"),
    [
        (
            "Imam paušalni obrt u Zagrebu.",
            {"entity_type": "pausalni_obrt", "municipality_type": "grad_zagreb"},
        ),
        ("Promet mi je 45.000 eura.", {"annual_turnover_eur": 45000, "annual_receipts_eur": 45000}),
        (
            "Ik ben zzp'er en mijn vrouw en ik hebben samen spaargeld.",
            {"entity_type": "freelancer", "heeft_partner": True},
        ),
        # an American's wife is no Dutch fiscal partner
        ("I am 64 and my wife is 58.", {"age": 64, "spouse_age": 58}),
    ],
)
def test_a_message_that_only_tells_is_noted(
    service: AnswerService, message: str, profile: dict[str, Any]
) -> None:
    [response], kept = conversation(service, message)
    assert response["triage"]["route"] == "dossier"
    assert kept == profile
    assert "partner" not in response["directAnswer"] or "partner" in str(profile)


@pytest.mark.parametrize(
    ("text", "language", "owns"),
    [
        ("If I was born in 1960, when is my RMD?", "en", {"birth_year": False}),
        ("My father is 76, when must he take his RMD?", "en", {"age": False}),
        ("For a client born in 1955: what is the RMD age?", "en", {"birth_year": False}),
        ("Za klijenta rođenog 1955. koja je dob za RMD?", "hr", {"birth_year": False}),
        ("Stel dat ik 30.000 omzet heb, moet ik btw?", "nl", {"turnover": False}),
        ("Koja je stopa poreza na dobit za mali d.o.o.?", "hr", {"entity_type": False}),
        ("Imam d.o.o., koja je stopa poreza na dobit?", "hr", {"entity_type": True}),
        ("I'm 61, what is my catch-up?", "en", {"age": True}),
        ("I'm 64 and my wife is 58.", "en", {"age": True, "spouse_age": True}),
    ],
)
def test_whose_facts_a_question_states(
    text: str, language: Language, owns: dict[str, bool]
) -> None:
    reading, _ = read_question(text, language, date(2026, 11, 22))
    found = {f.name: f.own for f in (*reading.facts, *reading.amounts)}
    assert {name: found.get(name) for name in owns} == owns


def test_a_supposed_fact_answers_the_question_and_is_not_kept(service: AnswerService) -> None:
    [answer], profile = conversation(service, "If I was born in 1960, what is my RMD age?")
    assert answer["kind"] == "ANSWER" and "75" in answer["directAnswer"]
    assert profile == {}
    [fact] = answer["understood"]["facts"]
    assert fact["own"] is False and "supposed" in answer["understood"]["text"]


def test_a_question_about_a_kind_of_business_keeps_nothing(service: AnswerService) -> None:
    [answer], profile = conversation(service, "Koja je stopa poreza na dobit za mali d.o.o.?")
    assert answer["kind"] == "ANSWER" and profile == {}


def test_a_correction_is_recorded_and_the_answer_says_which_value_it_used(
    service: AnswerService,
) -> None:
    (noted, answer), profile = conversation(
        service, "I am 60.", "I am 64, what is my 401k catch-up for 2026?"
    )
    assert noted["triage"]["route"] == "dossier"
    assert profile["age"] == 64
    assert answer["understood"]["corrected"] == [{"name": "age", "value": 64, "was": 60}]
    assert "you said 60 earlier" in answer["understood"]["text"]
    assert "$8,000" in answer["directAnswer"]  # 64: the catch-up from 50, not the 60-63 one


def test_an_off_topic_message_keeps_no_fact(service: AnswerService) -> None:
    [refused], profile = conversation(service, "kakvo ce biti vrijeme u splitu sutra")
    assert refused["refusalReason"] == "OUT_OF_SCOPE" and profile == {}


@pytest.mark.parametrize(
    ("text", "code", "name"),
    [
        ("Wie hoch ist die Mehrwertsteuer in Kroatien?", "de", "German"),
        ("Kolikšna je stopnja DDV na Hrvaškem?", "sl", "Slovenian"),
        ("Quel est le taux de TVA aux Pays-Bas?", "fr", "French"),
        ("Qual è l'aliquota IVA in Croazia?", "it", "Italian"),
    ],
)
def test_a_question_in_a_language_navod_does_not_read_is_refused_as_such(
    service: AnswerService, text: str, code: str, name: str
) -> None:
    [refused], _ = conversation(service, text)
    assert refused["refusalReason"] == "UNSUPPORTED_JURISDICTION"
    assert refused["language"] == "en" and refused["unreadLanguage"] == code
    assert name in refused["refusal"]["message"]
    # in the language the client asks for, never read as Dutch or Croatian
    croatian = service.answer(ChatRequest(query=text, language="hr", use_memory=False))
    assert croatian["language"] == "hr" and "Navod čita pitanja" in croatian["refusal"]["message"]


@pytest.mark.parametrize(
    "text",
    ["Wie is de minister van Financiën?", "Moet ik btw betalen als ik in Duitsland verkoop?"],
)
def test_dutch_that_looks_german_is_read_as_dutch(service: AnswerService, text: str) -> None:
    [response], _ = conversation(service, text)
    assert "unreadLanguage" not in response and response["language"] == "nl"


def test_a_corrected_turnover_is_said_once_in_the_languages_notation(
    service: AnswerService,
) -> None:
    (_, answer), _ = conversation(
        service,
        "Ik heb een eenmanszaak met 45000 euro omzet.",
        "Ik heb 15000 euro omzet, geldt de KOR voor mij?",
    )
    text = answer["understood"]["text"]
    # the turnover also stands for receipts: two fields, one correction to tell
    assert text.count("eerder zei u") == 1, text
    assert "ik gebruik 15.000,00 EUR (eerder zei u 45.000,00 EUR)" in text


def test_a_question_that_matches_no_rule_keeps_no_place(service: AnswerService) -> None:
    [refused], profile = conversation(service, "Koliko košta kava u Splitu?")
    assert refused["kind"] == "REFUSAL" and profile == {}


def test_a_question_about_something_else_with_a_place_is_no_follow_up(
    service: AnswerService,
) -> None:
    (answered, refused), profile = conversation(
        service, "Kada se predaje JOPPD?", "Koliko košta kava u Splitu?"
    )
    assert answered["kind"] == "ANSWER"
    # not the JOPPD deadline again "for Split": a question of its own, and no fact kept
    assert refused["kind"] == "REFUSAL", refused["headline"]
    assert not any(line.startswith("followup: CARRIED") for line in refused["triage"]["log"])
    assert profile == {}


def test_the_facts_of_a_question_navod_asks_to_clarify_are_kept(service: AnswerService) -> None:
    [asked], profile = conversation(
        service, "Ik heb een eenmanszaak met 30.000 euro omzet. Geldt de KOR voor mij?"
    )
    assert asked["refusalReason"] == "NEEDS_CLARIFICATION"
    assert profile["annual_turnover_eur"] == 30000
