"""Citations a person can use: whole sentences, a card excerpt that keeps the value, a truthful
reference, and a text value worded in the asker's language."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime

import orjson

from engine.contract import ChatRequest
from engine.pipeline.citations import QUOTE_LIMIT, excerpt, reference
from engine.service import AnswerService
from engine.store.knowledge.memory import MemoryRepository
from engine.store.knowledge.packs import load_packs, pack_paths
from engine.text.formatting import rule_value
from engine.text.sentences import sentences, whole_sentences, widen_to_sentences
from engine.types import Source
from tests.factories import EV_RATE, GUIDE, LAW, rule

TEXT = (
    "Članak 38.\n"
    "(1) PDV se obračunava i plaća po stopi od 25 %. Snižena stopa iznosi 13 %.\n"
    "• Porez se plaća do 1. siječnja 2021. godine.\n"
    "| Dob | Faktor |\n| 72 | 27.4 |"
)


def test_a_text_splits_into_sentences_and_table_rows() -> None:
    assert sentences(TEXT) == [
        "Članak 38.",
        "(1) PDV se obračunava i plaća po stopi od 25 %.",
        "Snižena stopa iznosi 13 %.",
        "• Porez se plaća do 1. siječnja 2021. godine.",
        "| Dob | Faktor |",
        "| 72 | 27.4 |",
    ]


def test_a_quote_is_whole_sentences_or_it_is_a_fragment() -> None:
    assert whole_sentences("Snižena stopa iznosi 13 %.", TEXT)
    assert whole_sentences("po stopi od 25 %. Snižena stopa iznosi 13 %.", TEXT) is False
    assert whole_sentences("(1) PDV se obračunava i plaća po stopi od 25 %. Snižena", TEXT) is False
    assert whole_sentences("iznosi 13 %.", TEXT) is False
    # a bullet may be left out; a header row with its row is two whole lines
    assert whole_sentences("Porez se plaća do 1. siječnja 2021. godine.", TEXT)
    assert whole_sentences("| Dob | Faktor |\n| 72 | 27.4 |", TEXT)


def test_a_fragment_widens_to_the_sentences_that_hold_it_verbatim() -> None:
    assert widen_to_sentences("stopi od 25 %", TEXT) == (
        "(1) PDV se obračunava i plaća po stopi od 25 %."
    )
    assert widen_to_sentences("25 %. Snižena", TEXT) == (
        "(1) PDV se obračunava i plaća po stopi od 25 %. Snižena stopa iznosi 13 %."
    )
    assert widen_to_sentences("do 1. siječnja", TEXT) == (
        "Porez se plaća do 1. siječnja 2021. godine."
    )
    assert widen_to_sentences("not in the text", TEXT) is None


def test_a_long_sentence_is_shown_as_the_verbatim_span_that_states_the_value() -> None:
    padding = " ".join(["Ova se odredba primjenjuje na sve obveznike"] * 8)
    long_quote = f"{padding}, a stopa iznosi 13 % od osnovice."
    cited = rule("r", "c", "13", EV_RATE, long_quote, date(2013, 7, 1))
    shown = excerpt(long_quote, cited)
    assert len(shown) <= QUOTE_LIMIT and shown in long_quote
    assert "13 %" in shown
    short = rule("s", "c", "25", EV_RATE, "Stopa iznosi 25 %.", date(2013, 7, 1))
    assert excerpt("Stopa iznosi 25 %.", short) == "Stopa iznosi 25 %."


def test_a_cut_quote_ends_where_a_clause_ends_and_keeps_the_value() -> None:
    sentence = (
        "Prema članku 90. stavak 1. Zakona o izmjenama i dopunama Zakona o porezu na dodanu "
        "vrijednost (u nastavku teksta: ZID PDV), povećan je prag za ulazak u sustav PDV-a na "
        "iznos od 60.000,00 eura umjesto dosadašnjeg iznosa od 40.000,00 eura, s primjenom od "
        "1 siječnja 2025."
    )
    cited = rule("r", "c", "60000.00", EV_RATE, sentence, date(2025, 1, 1))
    shown = excerpt(sentence, cited)
    assert sentence.startswith(shown)  # verbatim: the page marks the cut with "…"
    assert shown.endswith("od 40.000,00 eura")  # not "…eura, s"
    # no clause end late enough: the cut falls between two words
    words = "Stopa iznosi 13 % " + " ".join(["riječ"] * 60)
    shown = excerpt(words, rule("w", "c", "13", EV_RATE, words, date(2025, 1, 1)))
    assert len(shown) <= QUOTE_LIMIT and words.startswith(shown) and "13 %" in shown
    assert shown.endswith("riječ") and words[len(shown)] == " "


def test_only_an_act_is_cited_as_the_act() -> None:
    assert reference(LAW, "čl. 38 st. 1") == "NN 1/24, čl. 38 st. 1"
    draft = Source(
        "draft",
        "Nacrt prijedloga zakona",
        "ZPDV, NN 73/13",
        "GUIDANCE",
        "HR",
        "hr",
        "https://example.test/draft",
        publisher="Vlada RH",
    )
    assert reference(draft, "II. Ocjena stanja") == "Vlada RH, II. Ocjena stanja"
    assert reference(GUIDE, "pitanje 1.") == "pitanje 1."  # no publisher named: the place alone


def test_a_text_value_is_shown_in_the_askers_language() -> None:
    base = rule("fra", "c", "66 and 2 months", EV_RATE, "66 and 2 months", date(2020, 1, 1))
    worded = replace(
        base,
        value_type="text",
        value_label={
            "hr": "66 godina i 2 mjeseca",
            "nl": "66 jaar en 2 maanden",
            "en": "66 and 2 months",
        },
    )
    assert rule_value(worded, "hr") == "66 godina i 2 mjeseca"
    assert rule_value(worded, "nl") == "66 jaar en 2 maanden"
    assert rule_value(replace(base, value_type="text"), "hr") == "66 and 2 months"


def test_an_answer_from_a_source_in_another_language_is_worded_in_the_askers() -> None:
    repository = MemoryRepository()
    load_packs(repository, pack_paths([]))
    service = AnswerService(repository, clock=lambda: datetime(2026, 11, 22, 12, tzinfo=UTC))
    for query, foreign in (
        ("Do kada se plaća PDV?", "before the last day"),  # an English publisher's phrase
        ("Wat is de volledige pensioenleeftijd in de VS?", "and 2 months"),  # SSA's table
    ):
        response = service.answer(ChatRequest.model_validate({"query": query}))
        shown = {
            k: v
            for k, v in response.items()
            if k not in ("citations", "additionalCitations", "trace")  # the quotes: verbatim
        }
        assert response["kind"] == "ANSWER", query
        assert foreign not in orjson.dumps(shown).decode(), query
        # the card still quotes the source verbatim
        assert all(card.get("quote") for card in _cards(response))


def _cards(response: dict[str, object]) -> list[dict[str, str]]:
    citations = response["citations"]
    assert isinstance(citations, dict)
    return [citations["primary"], *citations.get("supporting", [])]
