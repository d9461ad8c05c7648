"""tokenize and keywords: inflected forms must meet, filler must go."""

from __future__ import annotations

import time

import pytest

from engine.text.tokens import STOPWORDS, keywords, tokenize, warm_up
from engine.types import LANGUAGES, Language


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Koja je stopa PDV-a?", ("koja", "je", "stopa", "pdv", "a")),
        ("btw-tarief", ("btw", "tarief")),
        ("Rođen sam 1960.", ("roden", "sam", "1960")),
        ("What's the RMD age?", ("what", "s", "the", "rmd", "age")),
        ("401(k) plan", ("401k", "plan")),
        ("€ 20.000", ("20", "000")),
        ("ŠTO, gdje; kada!", ("sto", "gdje", "kada")),
        ("snake_case", ("snake", "case")),
        ("", ()),
    ],
)
def test_tokenize(text: str, expected: tuple[str, ...]) -> None:
    assert tokenize(text) == expected


@pytest.mark.parametrize(
    ("language", "forms"),
    [
        ("hr", ("porezu", "poreza", "porez", "porezom", "POREZ")),
        ("hr", ("doprinosa", "doprinosi", "doprinos", "doprinosima")),
        ("hr", ("stope", "stopa", "stopu", "stopom")),
        ("hr", ("rodjen", "rođen")),
        ("hr", ("mirovine", "mirovina", "mirovinu")),
        ("hr", ("obveznika", "obveznik")),
        ("hr", ("pausalnog", "pausalni")),
        ("hr", ("Hrvatska", "Hrvatskoj", "hrvatske")),
        ("nl", ("tarieven", "tarief")),
        ("nl", ("drempels", "drempel")),
        ("nl", ("belastingen", "belasting")),
        ("nl", ("algemene", "algemeen")),
        ("en", ("distributions", "distribution")),
        ("en", ("ages", "age")),
        ("en", ("contributions", "contribution")),
        ("en", ("IRAs", "IRA")),
        ("en", ("RMDs", "RMD", "rmd")),
    ],
)
def test_inflected_forms_meet(language: Language, forms: tuple[str, ...]) -> None:
    keys = {keywords(form, language) for form in forms}
    assert len(keys) == 1, keys
    assert keys.pop() != ()


@pytest.mark.parametrize(
    ("language", "question", "expected"),
    [
        ("hr", "Koja je stopa PDV-a u Hrvatskoj?", ("stopa", "pdv", "hrvatski")),
        ("hr", "kolki je prag za pdv 2024", ("prag", "pdv")),
        ("hr", "Molim te reci mi koliki je porez", ("porez",)),
        ("hr", "Koliko je sati?", ("sat",)),
        ("nl", "Wat is het algemene btw-tarief?", ("algemeen", "btw", "tarief")),
        ("nl", "Wat is de KOR?", ("kor",)),
        ("nl", "Kunt u mij vertellen wat de drempel is?", ("drempel",)),
        ("en", "What is the RMD age?", ("rmd", "age")),
        ("en", "Please tell me the 401(k) limit", ("401k", "limit")),
        ("en", "What is the what is the", ()),
    ],
)
def test_keywords_of_questions(
    language: Language, question: str, expected: tuple[str, ...]
) -> None:
    assert keywords(question, language) == expected


@pytest.mark.parametrize(
    ("language", "question", "must_keep"),
    [
        ("hr", "Koja je stopa PDV-a u Hrvatskoj?", ("stopa", "PDV")),
        ("hr", "Koliki su doprinosi za mirovinu?", ("doprinos", "mirovina")),
        ("nl", "Wat zijn de btw-tarieven?", ("btw", "tarief")),
        ("en", "When must I take my first required minimum distribution?", ("distribution",)),
    ],
)
def test_question_keeps_the_keys_of_its_content_words(
    language: Language, question: str, must_keep: tuple[str, ...]
) -> None:
    question_keys = keywords(question, language)
    for word in must_keep:
        assert set(keywords(word, language)) <= set(question_keys)


@pytest.mark.parametrize(
    ("language", "filler"),
    [
        ("hr", "koja koji koliko kolki je u za od molim mi reci"),
        ("nl", "wat is het de van een hoeveel welke"),
        ("en", "what is the please tell me how much which"),
    ],
)
def test_filler_yields_no_keys(language: Language, filler: str) -> None:
    assert keywords(filler, language) == ()


@pytest.mark.parametrize("language", LANGUAGES)
def test_stopwords_are_folded(language: Language) -> None:
    assert all(word == word.lower() and word.isascii() for word in STOPWORDS[language])


@pytest.mark.parametrize(
    ("language", "country"), [("hr", "hrvatska"), ("nl", "nederland"), ("en", "croatia")]
)
def test_country_names_are_content_words(language: Language, country: str) -> None:
    assert country not in STOPWORDS[language]
    assert keywords(country, language) != ()


def test_single_letters_years_and_amounts_are_not_keys() -> None:
    assert keywords("a b c 2024 60.000 1 134 2,5 007", "en") == ()


@pytest.mark.parametrize(
    ("language", "text", "expected"),
    [
        ("hr", "stopa PDV-a 13 %", ("stopa", "pdv", "13")),
        ("hr", "pdv 5%", ("pdv", "5")),
        ("en", "401 plan", ("401", "plan")),
    ],
)
def test_small_numbers_that_name_things_are_keys(
    language: Language, text: str, expected: tuple[str, ...]
) -> None:
    assert keywords(text, language) == expected


@pytest.mark.parametrize(
    ("language", "first", "second"),
    [
        ("hr", "snižena stopa PDV-a", "snizena stopa pdv-a"),
        ("hr", "paušalist", "pausalist"),
        ("hr", "mađarska", "madjarska"),
        ("hr", "mađarska", "madarska"),
        ("hr", "rođen", "rodjen"),
        ("hr", "doprinosa", "doprinos"),
        ("hr", "snižene stope", "snižena stopa"),
    ],
)
def test_spellings_with_and_without_diacritics_meet(
    language: Language, first: str, second: str
) -> None:
    assert keywords(first, language) == keywords(second, language)


def test_keywords_are_unique_and_in_reading_order() -> None:
    assert keywords("porez porezu stopa poreza", "hr") == ("porez", "stopa")


def test_keywords_are_fast_once_warm() -> None:
    warm_up()
    question = "Koliki je prag za ulazak u sustav PDV-a u 2024. godini?"
    keywords(question, "hr")
    started = time.perf_counter()
    for _ in range(200):
        keywords(question, "hr")
    assert (time.perf_counter() - started) / 200 < 0.001
