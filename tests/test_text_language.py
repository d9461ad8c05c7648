"""detect_language on the short questions people really type."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.text.language import detect_language
from engine.types import Language

QUESTIONS: list[tuple[str, Language]] = [
    ("Koja je stopa PDV-a?", "hr"),
    ("kolki je prag za pdv 2024", "hr"),
    ("Koliko je sati?", "hr"),
    ("pdv", "hr"),
    ("porez", "hr"),
    ("stopa poreza", "hr"),
    ("Koliki je paušalni porez?", "hr"),
    ("Kada moram platiti doprinose?", "hr"),
    ("Tko plaća porez na dohodak?", "hr"),
    ("Gdje se prijavljuje obrt?", "hr"),
    ("Što je PDV?", "hr"),
    ("Je li potrebna registracija?", "hr"),
    ("Gdje je Zagreb?", "hr"),
    ("mirovina sa 65", "hr"),
    ("Wat is het algemene btw-tarief?", "nl"),
    ("Wat is de KOR?", "nl"),
    ("btw", "nl"),
    ("Hoeveel belasting betaal ik?", "nl"),
    ("Wanneer moet ik aangifte doen?", "nl"),
    ("Welke drempel geldt voor de KOR?", "nl"),
    ("Hoe hoog is de heffingskorting?", "nl"),
    ("Is er een vrijstelling?", "nl"),
    ("Wie betaalt de omzetbelasting?", "nl"),
    ("Mijn inkomen is hoog", "nl"),
    ("Wat kost dat?", "nl"),
    ("What is the RMD age?", "en"),
    ("When must I take my first RMD?", "en"),
    ("What's the weather in Zagreb?", "en"),
    ("How much can I contribute to an IRA?", "en"),
    ("Which age applies to RMDs?", "en"),
    ("Do I pay tax on Social Security?", "en"),
    ("Is there a penalty?", "en"),
    ("rmd", "en"),
    ("What is the VAT rate in Croatia?", "en"),
    ("Can I delay?", "en"),
]


@pytest.mark.parametrize(("question", "expected"), QUESTIONS)
def test_detects_language_of_short_questions(question: str, expected: Language) -> None:
    language, confidence = detect_language(question)
    assert language == expected
    assert 0.0 < confidence <= 1.0


@pytest.mark.parametrize("default", ["hr", "nl", "en"])
@pytest.mark.parametrize("text", ["", "   ", "12345", "?!", "Zagreb"])
def test_no_evidence_gives_default_with_zero_confidence(text: str, default: Language) -> None:
    assert detect_language(text, default) == (default, 0.0)


@pytest.mark.parametrize(
    ("stronger", "weaker"),
    [
        ("Koja je stopa PDV-a u Hrvatskoj?", "je"),
        ("Wat is het algemene btw-tarief?", "wat"),
        ("What is the required minimum distribution age?", "is"),
    ],
)
def test_more_evidence_means_more_confidence(stronger: str, weaker: str) -> None:
    assert detect_language(stronger)[1] > detect_language(weaker)[1]


def test_croatian_letters_alone_are_evidence() -> None:
    assert detect_language("čćšžđ", default="en")[0] == "hr"


def test_tie_goes_to_the_default() -> None:
    # "je" is Croatian and Dutch alike.
    assert detect_language("je", default="nl")[0] == "nl"
    assert detect_language("je", default="hr")[0] == "hr"


@given(st.text(max_size=80))
def test_confidence_is_always_in_range(text: str) -> None:
    language, confidence = detect_language(text)
    assert language in ("hr", "nl", "en")
    assert 0.0 <= confidence <= 1.0
