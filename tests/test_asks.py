"""Questions that ask several things (issue 23): the reading of years and coordinations
(engine/understanding/asks.py), the plan of asks (engine/pipeline/plan.py), the one response
composed from them (engine/pipeline/joint.py) and every row of a conditional answer."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

import pytest

from engine.contract import ChatRequest
from engine.guardrails.output import check_output
from engine.service import AnswerService, quote_checker
from engine.store.guardrails.guards import load_guards
from engine.store.knowledge.memory import MemoryRepository
from engine.store.knowledge.packs import load_packs, pack_paths
from engine.stream import merge_lines, stream_lines
from engine.text.normalize import fold
from engine.types import Language
from engine.understanding.read import read_question
from engine.validation import validate_response

TODAY = date(2026, 11, 22)


def _years(text: str, language: Language) -> tuple[tuple[int, ...], bool] | None:
    found = read_question(text, language, TODAY)[0].years
    return (found.years, found.change) if found is not None else None


@pytest.mark.parametrize(
    ("text", "language", "years"),
    [
        ("Kolika je minimalna plaća 2024., 2025. i 2026.?", "hr", ((2024, 2025, 2026), False)),
        ("IRA limit 2024 and 2025", "en", ((2024, 2025), False)),
        ("IRA limit 2022-2025", "en", ((2022, 2023, 2024, 2025), False)),
        ("minimalna plaća svake godine od 2023.", "hr", ((2023, 2024, 2025, 2026), False)),
        ("How did the 401(k) limit change from 2025 to 2026?", "en", ((2025, 2026), True)),
        ("za koliko je porasla minimalna placa od 2025 do 2026", "hr", ((2025, 2026), True)),
        ("How much did the 401k limit go up in 2026?", "en", ((2025, 2026), True)),
        ("Hoeveel is het minimumloon gestegen?", "nl", ((2025, 2026), True)),
        # one time asked, however the question is worded
        ("Welke vrijstellingen gelden dit jaar in de VS?", "nl", None),
        ("How much does my check grow for each year I wait past full retirement age?", "en", None),
        ("Ako sam 2024. imao promet 45.000, koliki je prag 2025.?", "hr", None),
        # a change told in the story is not asked
        ("My sister said the limit went up again. What is the most I can put in?", "en", None),
        ("verlaagd btw tarief 2018", "nl", None),
    ],
)
def test_the_years_a_question_asks(
    text: str, language: Language, years: tuple[tuple[int, ...], bool] | None
) -> None:
    assert _years(text, language) == years


@pytest.mark.parametrize(
    ("text", "language", "parts"),
    [
        ("Koja je opća i snižena stopa PDV-a?", "hr", ["koja je opca", "snizena stopa pdv-a?"]),
        ("the 401k limit and the catch-up", "en", ["the 401k limit", "the catch-up"]),
        ("btw hoog, laag en nul", "nl", ["btw hoog", "laag", "nul"]),
        ("the ira limit as well as the hsa limit", "en", ["the ira limit", "the hsa limit"]),
        # not a coordination: a genitive ending, an English "I", brackets, a correction
        ("stopa pdv-a na smještaj", "hr", []),
        ("At what age am I allowed to make the extra contribution?", "en", []),
        ("box 3 (savings and investments) in 2026", "en", []),
        ("srednja stopa, ne ona najniža nego ova druga", "hr", []),
    ],
)
def test_the_parts_of_a_coordination(text: str, language: Language, parts: list[str]) -> None:
    reading, _ = read_question(text, language, TODAY)
    folded = fold(text)
    found = [folded[c.start : c.end].strip(" ,;:") for c in reading.conjuncts]
    assert found == parts


# ---- Through the service


@pytest.fixture(scope="module")
def service() -> AnswerService:
    repository = MemoryRepository()
    load_packs(repository, pack_paths([]))
    now = datetime(2026, 11, 22, 12, tzinfo=UTC)
    return AnswerService(repository, clock=lambda: now, guards=load_guards())


def ask(service: AnswerService, text: str, **extra: Any) -> dict[str, Any]:
    response = service.answer(ChatRequest(query=text, **extra))
    assert validate_response(response, quote_checker(service.snapshot())).valid
    return response


def cited(response: dict[str, Any]) -> list[tuple[str, str]]:
    """(rule id, quote) of every card, the contract's four and the ones beyond."""
    citations = response.get("citations") or {}
    cards = [citations.get("primary"), *citations.get("supporting", [])]
    cards += response.get("additionalCitations", [])
    return [(str(c["id"]).split("@")[0], c["quote"]) for c in cards if c]


def values(response: dict[str, Any]) -> list[tuple[str, str]]:
    return [
        (value["concept"], value["value"])
        for item in response["understood"]["asks"]
        for value in item.get("values", [])
    ]


def test_two_facts_named_together_are_both_answered(service: AnswerService) -> None:
    response = ask(service, "Koja je opća i snižena stopa PDV-a?")
    assert response["kind"] == "ANSWER"
    assert [a["subject"] for a in response["understood"]["asks"]] == [
        ["hr-pdv-opca-stopa"],
        ["hr-pdv-snizena-stopa-13", "hr-pdv-snizena-stopa-5"],
    ]
    assert sorted(values(response)) == [
        ("hr-pdv-opca-stopa", "25"),
        ("hr-pdv-snizena-stopa-13", "13"),
        ("hr-pdv-snizena-stopa-5", "5"),
    ]
    lines = response["directAnswer"].split("\n")
    assert len(lines) == 2 and "25 %" in lines[0] and "13 %" in lines[1] and "5 %" in lines[1]
    # every value has its own card, and the card cites that value
    cards = {rule for rule, _ in cited(response)}
    assert {"hr-pdv-opca-stopa-2013", "hr-pdv-snizena-stopa-13-2017"} <= cards
    assert all(
        "card" in value for item in response["understood"]["asks"] for value in item["values"]
    )


def test_one_fact_for_several_years_states_each_year(service: AnswerService) -> None:
    response = ask(service, "Kolika je minimalna plaća 2024., 2025. i 2026.?")
    assert response["headline"] == "Minimalna plaća (bruto): 2024., 2025. i 2026."
    assert response["directAnswer"].split("\n") == [
        "2024.: 840,00 EUR",
        "2025.: 970,00 EUR",
        "2026.: 1.050,00 EUR",
    ]
    assert [a["asOfDate"] for a in response["understood"]["asks"]] == [
        "2024-01-01",
        "2025-01-01",
        "2026-11-22",
    ]
    rules = [rule for rule, _ in cited(response)]
    assert rules[:3] == [
        "hr-minimalna-placa-2024",
        "hr-minimalna-placa-2025",
        "hr-minimalna-placa-2026",
    ]


def test_a_year_with_no_citable_rule_is_named_and_the_others_answered(
    service: AnswerService,
) -> None:
    response = ask(service, "minimalna plaća 2023. i 2024.")
    assert response["kind"] == "ANSWER"
    first, second = response["directAnswer"].split("\n")
    assert first == "2023.: nemam propis koji mogu citirati za taj datum"
    assert second == "2024.: 840,00 EUR"
    statuses = [a["status"] for a in response["understood"]["asks"]]
    assert statuses == ["unanswered", "answered"]


def test_a_change_is_computed_from_the_two_cited_values_only(service: AnswerService) -> None:
    response = ask(service, "How did the 401(k) limit change from 2025 to 2026?")
    lines = response["directAnswer"].split("\n")
    assert lines == [
        "2025: $23,500",
        "2026: $24,500",
        "Change from 2025 to 2026: +$1,000 ($23,500 → $24,500)",
    ]
    # the value now leads the cards
    assert cited(response)[0][0] == "us-401k-deferral-2026"
    [change] = [c for c in response["understood"]["computed"] if c["kind"] == "change"]
    assert (change["from"], change["to"], change["value"]) == ("23500", "24500", "1000")
    assert check_output(response).safe


def test_a_computed_change_that_is_not_the_difference_is_refused(service: AnswerService) -> None:
    response = ask(service, "How did the 401(k) limit change from 2025 to 2026?")
    tampered = {**response, "directAnswer": response["directAnswer"].replace("1,000", "1,500")}
    computed = [
        {**c, "value": "1500"} if c["kind"] == "change" else c
        for c in response["understood"]["computed"]
    ]
    tampered["understood"] = {**response["understood"], "computed": computed}
    verdict = check_output(tampered)
    assert not verdict.safe and any("1500" in issue for issue in verdict.issues)


@pytest.mark.parametrize(
    "text",
    [
        "kruh i mlijeko pdv 2020",  # one fact's name holds the "i"
        "stopa pdv-a na smještaj u 2020",
        "Koliko iznosi ona srednja snižena stopa PDV-a, ne ona najniža nego ova druga?",
    ],
)
def test_one_thing_asked_stays_one_ask(service: AnswerService, text: str) -> None:
    response = ask(service, text)
    asks = response.get("understood", {}).get("asks", [])
    assert len(asks) <= 1


def test_a_conditional_answer_shows_every_row_in_force(service: AnswerService) -> None:
    response = ask(service, "When do I have to take RMDs?")
    assert response["obligationContext"]["type"] == "CONDITIONAL"
    rows = [
        (v["value"], v.get("condition"))
        for item in response["understood"]["asks"]
        for v in item["values"]
    ]
    assert rows[0] == ("73", "year of birth 1951–1959")  # the row for most askers leads
    assert {value for value, _ in rows} >= {"73", "75", "72"}
    assert "75 years" in response["directAnswer"] and "73 years" in response["directAnswer"]


def test_a_narrower_row_of_the_same_fact_is_shown_beside_it(service: AnswerService) -> None:
    response = ask(service, "401(k) catch-up 2026")
    assert set(values(response)) == {
        ("us-401k-catch-up", "8000"),
        ("us-401k-catch-up-60-63", "11250"),
    }
    assert "$8,000" in response["directAnswer"] and "$11,250" in response["directAnswer"]
    assert "60" in response["headline"]  # the headline states no less than the text


def test_the_stated_age_still_picks_the_row(service: AnswerService) -> None:
    response = ask(service, "I'm 61, what is my 401k catch-up in 2026?")
    assert values(response) == [("us-401k-catch-up-60-63", "11250")]


def test_a_whole_table_cites_every_row_beyond_the_contracts_four(service: AnswerService) -> None:
    response = ask(service, "what are the irs rmd divisors for ages 72 through 76")
    assert len(cited(response)) >= 5 and len(response["additionalCitations"]) >= 1
    assert {c for c, _ in values(response)} == {f"us-rmd-ult-{age}" for age in range(72, 77)}
    assert response["directAnswer"].startswith(
        "Uniform Lifetime Table distribution period at age: 72:"
    )
    lines = stream_lines({**response, "requestId": "req_x"})
    assert "additionalCitations" in lines[1] and "citations" in lines[1]
    assert merge_lines(lines)["additionalCitations"] == response["additionalCitations"]


def test_validation_keeps_the_cards_beyond_four_honest(service: AnswerService) -> None:
    response = ask(service, "what are the irs rmd divisors for ages 72 through 76")
    more = response["additionalCitations"]
    without = {k: v for k, v in response.items() if k != "citations"}
    assert (
        "additionalCitations are only allowed beside citations" in validate_response(without).errors
    )
    repeated = {**response, "additionalCitations": [*more, response["citations"]["primary"]]}
    errors = validate_response(repeated).errors
    assert any("appears more than once" in e for e in errors)
    forged = {**response, "additionalCitations": [{**more[0], "quote": "made up"}]}
    assert validate_response(forged, quote_checker(service.snapshot())).errors
    too_many = {**response, "additionalCitations": [dict(more[0], id=f"x{n}") for n in range(13)]}
    assert "additionalCitations exceed 12 cards" in validate_response(too_many).errors


def test_the_difference_is_exact(service: AnswerService) -> None:
    response = ask(service, "za koliko je porasla minimalna placa od 2025 do 2026")
    [change] = [c for c in response["understood"]["computed"] if c["kind"] == "change"]
    assert Decimal(change["to"]) - Decimal(change["from"]) == Decimal(change["value"]) == 80
    assert "+80,00 EUR" in response["directAnswer"]


def test_most_goods_are_at_the_standard_rate(service: AnswerService) -> None:
    # "većinu proizvoda" says which rate (the one most goods carry), it names no other fact
    for text, value in [
        ("Koliko iznosi porez na dodanu vrijednost na većinu proizvoda?", "25"),
        ("Wat is het btw-tarief voor de meeste producten?", "21"),
    ]:
        response = ask(service, text)
        assert response["kind"] == "ANSWER", text
        assert response["citations"]["primary"]["id"].startswith(("hr-pdv-opca", "nl-btw-alg"))
        assert value in response["headline"]


def test_every_fact_of_a_long_list_is_an_ask(service: AnswerService) -> None:
    # the whole read four of these facts; each part names one, so all six are answered, and
    # "13 %," ends a part (a unit sign before the comma)
    text = (
        "Koja je opća stopa PDV-a, snižena stopa od 13 %, snižena stopa od 5 %, prag za "
        "ulazak u sustav PDV-a, minimalna plaća i osobni odbitak za 2026.?"
    )
    response = ask(service, text, asOfDate="2026-11-22")
    asked = [a["subject"] for a in response["understood"]["asks"]]
    assert asked == [
        ["hr-pdv-opca-stopa"],
        ["hr-pdv-snizena-stopa-13"],
        ["hr-pdv-snizena-stopa-5"],
        ["hr-pdv-prag"],
        ["hr-minimalna-placa"],
        ["hr-osobni-odbitak"],
    ]
    assert all(a["status"] == "answered" for a in response["understood"]["asks"])


def test_an_elided_compound_is_one_thing_asked(service: AnswerService) -> None:
    # "speur- en ontwikkelingswerk" is research and development work, not "speur-" and a second
    response = ask(service, "hoeveel uren speur- en ontwikkelingswerk voor de aftrek")
    assert "asks" not in response["understood"] or len(response["understood"]["asks"]) == 1
    assert response["understood"]["subject"] == ["nl-so-aftrek-urengrens"]


def test_a_pasted_list_longer_than_the_asks_is_read_whole(service: AnswerService) -> None:
    # nine coordinated facts: more parts than asks, so none is read and matched again
    text = (
        "Koja je opća stopa PDV-a, snižena stopa od 13 %, snižena stopa od 5 %, prag za ulazak "
        "u sustav PDV-a, minimalna plaća, osobni odbitak, niža stopa poreza na dobit, viša "
        "stopa poreza na dobit i doprinos za mirovinsko osiguranje?"
    )
    response = ask(service, text, explain=True)
    plan = next(entry for entry in response["trace"] if entry["stage"] == "plan")
    assert plan["decision"] == "one ask"
