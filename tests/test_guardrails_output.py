"""Output guardrail (engine/guardrails/output.py) and tone check (engine/guardrails/tone.py)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.guardrails.output import check_output, safe_refusal
from engine.guardrails.tone import check_tone, drop_trailing_question
from engine.store.guardrails.guards import load_tone_config
from engine.validation import validate_response

TONE = load_tone_config()
URL = "https://esavjetovanja.gov.hr/ECon/MainScreen?entityId=28472"


def _answer(language: str = "hr", **changes: Any) -> dict[str, Any]:
    """A real answer as the pipeline writes it (hr-pdv-threshold, as of 1 January 2024)."""
    response: dict[str, Any] = {
        "schemaVersion": "1.0.0",
        "requestId": "req_1",
        "traceId": "trace_1",
        "createdAt": "2026-11-22T12:00:00Z",
        "topic": "REGULATORY",
        "surface": "MARKETING",
        "asOfDate": "2024-01-01",
        "language": language,
        "kind": "ANSWER",
        "headline": "Prag za ulazak u sustav PDV-a: 40.000,00 EUR",
        "directAnswer": "Prag za ulazak u sustav PDV-a iznosi 40.000,00 EUR. "
        "Vrijedilo od 1. siječnja 2024. do 31. prosinca 2024.",
        "keyDetails": [
            "Vrijedilo od 1. siječnja 2024. do 31. prosinca 2024.",
            "Izvor: ZPDV, NN 73/13, II. a) Ocjena stanja",
            "Stanje na dan 1. siječnja 2024.",
        ],
        "why": {"bullets": ["U 2024. primjenjivao se prag od 40.000,00 eura."]},
        "citations": {
            "primary": {
                "id": "hr-pdv-prag-2024@ev_2036d414e2eceec9",
                "title": "Nacrt prijedloga Zakona o izmjenama Zakona o PDV-u, II. Ocjena stanja",
                "authority": "GUIDANCE",
                "reference": "ZPDV, NN 73/13, II. a) Ocjena stanja",
                "quote": "Za upis u registar obveznika PDV-a primjenjuje se prag u iznosu od "
                "40.000,00 eura",
                "url": URL,
                "effectiveFrom": "2024-01-01",
                "confidence": 0.8,
                "status": "ACTIVE",
                "evidenceId": "ev_2036d414e2eceec9",
                "fetchedAt": "2026-11-22T00:00:00Z",
            },
            "supporting": [],
        },
        "obligationContext": {"type": "CONDITIONAL", "badge": {"text": "Uvjet", "level": "high"}},
        "disclaimer": {
            "short": "Informativni sažetak propisa, nije porezni savjet.",
            "expanded": "Odgovor se temelji isključivo na citiranim izvorima.",
            "highRiskWarning": None,
        },
        "relatedQuestions": ["Opća stopa PDV-a?", "Snižena stopa PDV-a od 13 %?"],
    }
    response.update(changes)
    return response


def _with_quote(quote: str, **changes: Any) -> dict[str, Any]:
    response = _answer(**changes)
    response["citations"]["primary"]["quote"] = quote
    return response


def test_clean_answer_passes() -> None:
    verdict = check_output(_answer())
    assert verdict.safe, verdict.issues
    assert verdict.issues == ()


@pytest.mark.parametrize(
    ("language", "direct", "quote"),
    [
        (
            "hr",
            "Prag iznosi 60.000,00 EUR. Na snazi od 1. siječnja 2025.",
            "prag od 60.000,00 eura",
        ),
        ("hr", "Stopa iznosi 25 %. Na snazi od 1. srpnja 2013.", "stope PDV-a 25 % od 1.7.2013."),
        ("nl", "Verlaagd btw-tarief: 9%. Geldt sinds 1 januari 2019.", "bedraagt 9 percent"),
        ("nl", "KOR: € 20.000. Geldt van 1 januari 2020 tot en met 31 december 2029.", "€ 20 000"),
        ("en", "The threshold is €40,000. In force since January 1, 2024.", "40.000,00 eura"),
        ("en", "RMD age is 73 years. Applied from January 1, 2023 to December 31, 2032.", "age 73"),
        ("en", "Full retirement age: 66 and 6 months. In force since April 20, 1983.", "66 and 6"),
    ],
)
def test_values_stated_in_a_quote_and_dates_pass(language: str, direct: str, quote: str) -> None:
    response = _with_quote(
        quote, language=language, headline="Navod", directAnswer=direct, keyDetails=[]
    )
    verdict = check_output(response)
    assert verdict.safe, verdict.issues


@pytest.mark.parametrize(
    ("field", "value", "issue"),
    [
        ("directAnswer", "Prag iznosi 5 %.", "directAnswer states 5 not found in any cited quote"),
        ("headline", "Prag: 45.000,00 EUR", "headline states 45000 not found in any cited quote"),
        ("keyDetails", ["Rok je 30 dana."], "keyDetails[0] states 30 not found in any cited"),
        ("directAnswer", "RMD age is 75 years.", "directAnswer states 75 not found in any cited"),
        ("directAnswer", "Leeftijd: 6 maanden", "directAnswer states 6 not found in any cited"),
        ("directAnswer", "Moj OIB je 69435151530.", "directAnswer contains personal data (OIB)"),
        ("nextStep", "Pišite na ana.horvat@example.com", "nextStep contains personal data"),
        ("nextStep", "Vidi https://evil.example.org/x", "nextStep links to a URL that is not a"),
        ("refusal", {"message": "Vidi www.porezna-uprava.hr"}, "refusal.message links to a URL"),
        ("why", {"bullets": ["Traceback (most recent call last):"]}, "why.bullets[0] exposes a"),
        ("nextStep", 'File "/work/main/engine/x.py", line 3', "nextStep exposes a source path"),
        ("nextStep", "SELECT value FROM rules WHERE id = 1", "nextStep exposes SQL"),
        ("nextStep", "Datoteka /etc/passwd", "nextStep exposes a file path"),
        ("nextStep", r"Datoteka C:\navod\db", "nextStep exposes a file path"),
        ("nextStep", "DATABASE_URL nije postavljen", "nextStep exposes configuration"),
        ("nextStep", "postgresql://navod@db/navod", "nextStep exposes configuration"),
        ("nextStep", "sqlite:///navod.db", "nextStep exposes configuration"),
        ("relatedQuestions", ["KeyError: 'rate'"], "relatedQuestions[0] exposes an exception"),
        ("missingContext", {"ruleCount": 1, "message": "/work/x"}, "missingContext.message"),
    ],
)
def test_each_violation_is_found(field: str, value: Any, issue: str) -> None:
    verdict = check_output(_answer(**{field: value}))
    assert not verdict.safe
    assert any(found.startswith(issue) for found in verdict.issues), verdict.issues


def test_cited_url_and_its_host_pass() -> None:
    response = _answer(
        nextStep=f"Izvor: {URL}.", relatedQuestions=["Što kaže esavjetovanja.gov.hr?"]
    )
    assert check_output(response).safe


def test_placeholders_are_not_personal_data() -> None:
    response = _answer(nextStep="Vaš [OIB] i [IBAN] nisu potrebni.")
    assert check_output(response).safe


@pytest.mark.parametrize(
    "direct",
    [
        "Tarief box 3 (sparen en beleggen): 40.000,00 EUR.",  # a number in a concept's name
        "Limit uplate u 401(k) za 50+ (SAD) iznosi 40.000,00 EUR.",
        "Oude KOR (tot 2020): 40.000,00 EUR.",
        "Catch-up for ages 60-63 years: 40.000,00 EUR.",  # a range bounds a condition
        "40.000,00 EUR (primici > 30526.25 i dob ≥ 71).",
    ],
)
def test_names_and_conditions_are_not_values(direct: str) -> None:
    verdict = check_output(_answer(directAnswer=direct))
    assert verdict.safe, verdict.issues


def test_numbers_are_only_checked_in_the_answer_proper() -> None:
    response = _answer(missingContext={"ruleCount": 3, "message": "3 pravila nisu primijenjena."})
    assert check_output(response).safe


def test_value_from_the_askers_own_data_passes() -> None:
    response = _answer(
        directAnswer="Prag iznosi 40.000,00 EUR; vaši primici 31.500,00 EUR.",
        clientContext={"used": [{"label": "Primici", "value": "31500", "source": "APP"}]},
    )
    assert check_output(response).safe


def test_refusal_text_is_checked_too() -> None:
    refusal = {
        **safe_refusal(_answer(), check_output(_answer())),
        "refusal": {"message": "Pošaljite OIB 69435151530 na www.example.com"},
    }
    issues = check_output(refusal).issues
    assert "refusal.message contains personal data (OIB)" in issues
    assert "refusal.message links to a URL that is not a citation" in issues


@pytest.mark.parametrize("language", ["hr", "nl", "en"])
def test_safe_refusal_is_a_valid_no_citable_rules_refusal(language: str) -> None:
    unsafe = _answer(language=language, directAnswer="Stopa je 5 %.")
    verdict = check_output(unsafe)
    refusal = safe_refusal(unsafe, verdict)
    assert refusal["kind"] == "REFUSAL" and refusal["refusalReason"] == "NO_CITABLE_RULES"
    assert refusal["directAnswer"] == "" and "citations" not in refusal
    assert refusal["language"] == language and refusal["topic"] == "REGULATORY"
    for key in ("schemaVersion", "requestId", "traceId", "createdAt", "surface", "asOfDate"):
        assert refusal[key] == unsafe[key]
    assert validate_response(refusal).valid
    assert check_output(refusal).safe
    assert "5" not in json.dumps(refusal["refusal"])


def test_check_output_does_not_change_its_input() -> None:
    response = _answer(directAnswer="Stopa je 5 %.")
    before = copy.deepcopy(response)
    check_output(response)
    check_tone(response, TONE)
    assert response == before


# --- tone -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "direct", "quote", "appropriate"),
    [
        ("hr", "Prag se uvijek primjenjuje.", "prag od 40.000,00 eura", False),
        ("hr", "Prag se UVIJEK primjenjuje.", "prag se uvijek primjenjuje", True),
        ("hr", "Ovo nije zajamčeno.", "prag", False),
        ("nl", "De KOR geldt altijd.", "de KOR", False),
        ("nl", "Dit is nooit verplicht.", "dit is nooit verplicht", True),
        ("en", "You never pay this.", "rate of 9 percent", False),
        ("en", "The rate always applies.", "the rate always applies", True),
        ("en", "The rate applies to nevermore items.", "rate", True),  # whole words only
        ("en", "A reduced rate applies.", "rate", True),
    ],
)
def test_absolute_words_need_quote_support(
    language: str, direct: str, quote: str, appropriate: bool
) -> None:
    response = _with_quote(quote, language=language, directAnswer=direct)
    adjusted, verdict = check_tone(response, TONE)
    assert verdict.appropriate is appropriate, verdict.adjustments
    assert adjusted["directAnswer"] == direct  # legal meaning is never rewritten
    assert bool(verdict.adjustments) is not appropriate


def test_absolute_word_in_key_details_is_named() -> None:
    response = _answer(keyDetails=["Vrijedi uvijek."])
    _, verdict = check_tone(response, TONE)
    assert verdict.adjustments == (
        "keyDetails[0] uses the absolute word 'uvijek' that no cited quote uses",
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Stopa iznosi 25 %. Želite li znati više?", "Stopa iznosi 25 %."),
        ("Na snazi od 1. srpnja 2013. Trebate li još nešto?", "Na snazi od 1. srpnja 2013."),
        ("Het tarief is 21%! Nog vragen?", "Het tarief is 21%!"),
        (
            "The age is 73. In force since January 1, 2023. Anything else?",
            "The age is 73. In force since January 1, 2023.",
        ),
        ("Is it 25 %?", ""),
        ("Stopa iznosi 25 %.", "Stopa iznosi 25 %."),
        ("", ""),
    ],
)
def test_drop_trailing_question(text: str, expected: str) -> None:
    assert drop_trailing_question(text) == expected


def test_trailing_question_is_removed_from_an_answer() -> None:
    direct = "Prag iznosi 40.000,00 EUR. Želite li znati više?"
    adjusted, verdict = check_tone(_answer(directAnswer=direct), TONE)
    assert adjusted["directAnswer"] == "Prag iznosi 40.000,00 EUR."
    assert verdict.appropriate
    assert verdict.adjustments == ("directAnswer: trailing question removed",)


def test_refusal_questions_are_left_alone() -> None:
    refusal = {**_answer(kind="REFUSAL"), "directAnswer": "Mislite li na prag?"}
    adjusted, verdict = check_tone(refusal, TONE)
    assert adjusted["directAnswer"] == "Mislite li na prag?"
    assert verdict.adjustments == ()


def test_answer_that_is_only_a_question_is_flagged_not_emptied() -> None:
    adjusted, verdict = check_tone(_answer(directAnswer="Koji prag?"), TONE)
    assert adjusted["directAnswer"] == "Koji prag?"
    assert not verdict.appropriate


# --- robustness -------------------------------------------------------------------------------

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=40),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=20,
)
_FIELDS = st.sampled_from(
    [
        "headline",
        "directAnswer",
        "keyDetails",
        "why",
        "nextStep",
        "refusal",
        "relatedQuestions",
        "disclaimer",
        "citations",
        "conflict",
        "clientContext",
        "asOfDate",
        "language",
        "kind",
        "topic",
        "obligationContext",
        "missingContext",
    ]
)


@settings(max_examples=200)
@given(st.dictionaries(_FIELDS | st.text(max_size=8), _JSON, max_size=8))
def test_checks_never_raise_on_arbitrary_dicts(response: dict[str, Any]) -> None:
    verdict = check_output(response)
    assert verdict.safe is (not verdict.issues)
    refusal = safe_refusal(response, verdict)
    assert refusal["kind"] == "REFUSAL"
    adjusted, tone = check_tone(response, TONE)
    assert isinstance(adjusted, dict) and isinstance(tone.appropriate, bool)


@given(st.text(max_size=300), st.text(max_size=300), st.sampled_from(["hr", "nl", "en", "xx"]))
def test_checks_never_raise_on_arbitrary_text(direct: str, quote: str, language: str) -> None:
    response = _with_quote(quote, language=language, directAnswer=direct, headline=direct)
    check_output(response)
    check_tone(response, TONE)
    drop_trailing_question(direct)
