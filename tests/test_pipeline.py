"""Stage behaviour through the runner, on a small code-built knowledge base (no packs, no DB)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import Any

import pytest

from engine.pipeline.runner import run_pipeline
from engine.pipeline.state import State
from engine.snapshot import compile_snapshot
from engine.types import Source
from tests.factories import (
    EV_RATE,
    LAW,
    RULES,
    TODAY,
    evidence,
    knowledge,
    question,
    rule,
    snapshot,
)

SNAP = snapshot()


def ask(text: str, **extra: Any) -> State:
    return run_pipeline(question(text, **extra), SNAP)


def stage(state: State, name: str) -> str:
    return next(e.decision for e in state.trace if e.stage == name)


# (question, expected kind, refusal reason or None, primary rule id or None)
TABLE: list[tuple[str, dict[str, Any], str, str | None, str | None]] = [
    ("Koja je stopa PDV-a?", {}, "ANSWER", None, "rate-2013"),
    ("Koja je stopa PDV-a u Hrvatskoj za obrtnike i trgovce?", {}, "ANSWER", None, "rate-2013"),
    ("stopa pvd-a", {}, "ANSWER", None, "rate-2013"),  # typo corrected
    ("Koja je stopa PDV-a 2011?", {}, "ANSWER", None, "rate-2012"),  # history by year
    ("stopa pdv-a", {"as_of": date(2013, 6, 30)}, "ANSWER", None, "rate-2012"),  # until exclusive
    ("stopa pdv-a", {"as_of": date(2013, 7, 1)}, "ANSWER", None, "rate-2013"),  # from inclusive
    ("stopa pdv-a 2005", {}, "REFUSAL", "NO_CITABLE_RULES", None),
    ("snižena stopa PDV-a?", {}, "REFUSAL", "NEEDS_CLARIFICATION", None),
    ("Koliko je sati?", {}, "REFUSAL", "OUT_OF_SCOPE", None),
    ("What's the weather in Zagreb?", {}, "REFUSAL", "OUT_OF_SCOPE", None),
    ("Koja je stopa PDV-a u Njemačkoj?", {}, "REFUSAL", "UNSUPPORTED_JURISDICTION", None),
    ("VAT rate in Belgium", {}, "REFUSAL", "UNSUPPORTED_JURISDICTION", None),
    (
        "What is the full retirement age?",
        {"surface": "APP"},
        "REFUSAL",
        "MISSING_CLIENT_DATA",
        None,
    ),
    ("What is the full retirement age?", {}, "ANSWER", None, "fra-67"),  # conditions spelled out
    (
        "full retirement age",
        {"surface": "APP", "client_context": {"birth_year": 1962}},
        "ANSWER",
        None,
        "fra-67",
    ),
    ("full retirement age for someone born in 1950", {}, "ANSWER", None, "fra-66"),
    (
        "full retirement age",
        {"surface": "APP", "client_context": {"birth_year": 1957}},
        "REFUSAL",
        "NO_CITABLE_RULES",
        None,
    ),
    ("pdv prag 2024", {}, "ANSWER", None, "prag-guide"),  # authority beats the blog
]


@pytest.mark.parametrize(("text", "extra", "kind", "reason", "primary"), TABLE)
def test_question_table(
    text: str, extra: dict[str, Any], kind: str, reason: str | None, primary: str | None
) -> None:
    response = ask(text, **extra).response
    assert response is not None
    assert response["kind"] == kind, response
    assert response.get("refusalReason") == reason
    if primary:
        assert response["citations"]["primary"]["id"].startswith(primary + "@")


@pytest.mark.parametrize(
    "text",
    [
        "ukupni iznos stope pdv-a",
        "usavršavanje i stopa pdv-a",
        "Rimski stopa pdv-a",
        "stopa pdv-a za poljoprivrednike",
    ],
)
def test_ordinary_words_are_not_countries(text: str) -> None:
    response = ask(text).response
    assert response is not None and response.get("refusalReason") != "UNSUPPORTED_JURISDICTION"


@pytest.mark.parametrize(
    "text",
    [
        "PDV u NJEMAČKOJ",
        "pdv u njemackoj",
        "stopa pdv-a Češka",
        "pdv u ceskoj",
        "pdv Španjolska",
        "pdv u Mađarskoj",
        "pdv madjarska",
        "Mehrwertsteuer Deutschland",
    ],
)
def test_country_names_in_any_case_and_spelling(text: str) -> None:
    response = ask(text).response
    assert response is not None and response.get("refusalReason") == "UNSUPPORTED_JURISDICTION"


def test_filler_words_do_not_dilute_the_match() -> None:
    short, long = ask("stopa PDV-a"), ask("Molim vas, recite mi koja je stopa PDV-a u Hrvatskoj?")
    assert short.matching and long.matching
    assert short.matching.chosen[0].score == long.matching.chosen[0].score == 1.0


def test_two_concepts_in_one_question_are_both_answered() -> None:
    response = ask("stopa PDV-a i pdv prag").response
    assert response is not None and response["kind"] == "ANSWER"
    assert "25" in response["directAnswer"] and "40.000" in response["directAnswer"]


def test_clarification_offers_the_candidates() -> None:
    response = ask("snižena stopa PDV-a?").response
    assert response is not None
    assert len(response["relatedQuestions"]) == 2
    assert all(q.startswith("Snižena stopa PDV-a") for q in response["relatedQuestions"])


def test_resolved_conflict_is_explained() -> None:
    response = ask("pdv prag 2024").response
    assert response is not None
    conflict = response["conflict"]
    assert conflict["status"] == "RESOLVED"
    assert conflict["winningSourceId"].startswith("prag-guide@")
    assert {c["id"].split("@")[0] for c in conflict["sources"]} == {"prag-guide", "prag-blog"}


def test_equal_rules_with_different_values_refuse_citing_both_sides() -> None:
    twin = rule("rate-twin", "rate", "13", EV_RATE, "13 %", date(2013, 7, 1))
    state = run_pipeline(question("stopa pdv-a"), snapshot((*RULES, twin)))
    response = state.response
    assert response is not None
    assert response["refusalReason"] == "UNRESOLVED_CONFLICT"
    cited = [response["citations"]["primary"], *response["citations"]["supporting"]]
    assert {c["id"].split("@")[0] for c in cited} == {"rate-2013", "rate-twin"}


@pytest.mark.parametrize(
    ("newer_from", "answered"),
    [
        (date(2020, 1, 1), False),  # a lower source states another value later: unresolved
        (date(2013, 7, 1), True),  # the higher source speaks as recently: authority settles
    ],
)
def test_authority_settles_only_when_the_higher_source_is_as_recent(
    newer_from: date, answered: bool
) -> None:
    # rate-2013 is LAW from 2013-07-01; a publisher (PRACTICE) states 13 % from `newer_from`
    newer = rule("rate-newer", "rate", "13", EV_RATE, "13 %", newer_from, authority="PRACTICE")
    response = run_pipeline(question("stopa pdv-a"), snapshot((*RULES, newer))).response
    assert response is not None
    if answered:
        assert response["kind"] == "ANSWER" and response["conflict"]["status"] == "RESOLVED"
    else:
        assert response["refusalReason"] == "UNRESOLVED_CONFLICT"


def test_same_value_written_differently_is_not_a_conflict() -> None:
    twin = rule("rate-twin", "rate", "25.0", EV_RATE, "25 %", date(2013, 7, 1))
    response = run_pipeline(question("stopa pdv-a"), snapshot((*RULES, twin))).response
    assert response is not None and response["kind"] == "ANSWER"
    assert len(response["citations"]["supporting"]) >= 1


def test_unparseable_condition_makes_the_rule_ineligible() -> None:
    broken = tuple(
        replace(r, applies_when={"cmp": {"field": "x", "op": "like", "value": 1}})
        if r.id == "rate-2013"
        else r
        for r in RULES
    )
    state = run_pipeline(question("stopa pdv-a"), snapshot(broken))
    assert state.response is not None and state.response["refusalReason"] == "NO_CITABLE_RULES"
    assert "cannot be parsed" in str(state.trace)


@pytest.mark.parametrize("status", ["DRAFT", "REVIEW", "REVOKED"])
def test_only_published_rules_answer(status: str) -> None:
    unpublished = tuple(replace(r, status=status) if r.id == "rate-2013" else r for r in RULES)
    response = run_pipeline(question("stopa pdv-a"), snapshot(unpublished)).response
    assert response is not None and response["refusalReason"] == "NO_CITABLE_RULES"


def test_a_past_request_date_beats_the_questions_year() -> None:
    state = ask("stopa pdv-a 2011", as_of=date(2020, 1, 1))
    assert state.as_of == date(2020, 1, 1) and state.as_of_origin == "request"


def test_the_questions_year_beats_a_request_dated_today() -> None:
    # a client that sends today's date with every question still gets the year it asked for
    state = ask("stopa pdv-a 2011", as_of=TODAY)
    assert state.as_of == date(2011, 1, 1) and state.as_of_origin == "question_year"
    assert ask("stopa pdv-a", as_of=TODAY).as_of_origin == "request"


def test_birth_year_is_not_the_as_of_date() -> None:
    state = ask("full retirement age born in 1950")
    assert state.as_of_origin == "today"


def test_trace_names_every_stage() -> None:
    names = [e.stage for e in ask("stopa pdv-a").trace]
    assert names == [
        "analyse",
        "as_of",
        "typos",
        "classify",
        "match",
        "plan",
        "select",
        "conflicts",
        "compute",
        "citations",
        "compose",
    ]


def test_stages_after_a_refusal_are_skipped_but_compose_runs() -> None:
    state = ask("Koliko je sati?")
    assert stage(state, "match") == "skipped"
    assert state.response is not None and state.response["kind"] == "REFUSAL"


def test_primary_card_carries_evidence_fields() -> None:
    response = ask("stopa pdv-a").response
    assert response is not None
    card = response["citations"]["primary"]
    assert card["quote"] == "Opća stopa PDV-a iznosi 25 %"
    assert card["evidenceId"] == EV_RATE.id
    assert card["fetchedAt"] == "2026-11-01T00:00:00Z"
    assert card["url"].endswith("#rate") and card["effectiveFrom"] == "2013-07-01"


def test_public_surface_spells_out_the_conditions() -> None:
    response = ask("What is the full retirement age?").response
    assert response is not None and response["kind"] == "ANSWER"
    # the few values the rows hold are in the headline, the rows with their conditions below
    headline = "Full retirement age: 66 years or 67 years, depending on year of birth"
    assert response["headline"] == headline
    assert "67 years (year of birth ≥ 1960)" in response["directAnswer"]
    assert "66 years (year of birth 1943–1954)" in response["directAnswer"]
    assert response["obligationContext"]["type"] == "CONDITIONAL"
    cited = [response["citations"]["primary"], *response["citations"]["supporting"]]
    assert {c["id"].split("@")[0] for c in cited} == {"fra-67", "fra-66"}


def test_app_surface_without_the_data_asks_for_it() -> None:
    response = ask("What is the full retirement age?", surface="APP").response
    assert response is not None and response["refusalReason"] == "MISSING_CLIENT_DATA"
    assert response["refusal"]["missingData"][0]["label"] == "year of birth"
    assert response["refusal"]["missingData"][0]["field"] == "birth_year"


def test_conditional_answers_state_only_cited_values_once() -> None:
    fra_67 = next(r for r in RULES if r.id == "fra-67")
    twin = replace(fra_67, id="fra-67-twin")  # the same value and condition, cited twice
    response = run_pipeline(question("full retirement age"), snapshot((*RULES, twin))).response
    assert response is not None and response["kind"] == "ANSWER"
    assert response["directAnswer"].count("67 years") == 1
    cited = {
        c["id"].split("@")[0]
        for c in [response["citations"]["primary"], *response["citations"]["supporting"]]
    }
    for value_rule in ("fra-66",):
        assert value_rule in cited


@pytest.mark.parametrize(("reflects", "answered"), [((), True), (("Odluka 1/24",), False)])
def test_a_source_contradicting_the_instrument_it_restates_does_not_win_by_rank(
    reflects: tuple[str, ...], answered: bool
) -> None:
    # rate-2013 rests on LAW; a publisher quoting "Odluka 1/24" states 13 % as recently. When
    # the LAW page itself restates that instrument, rank cannot tell which reading is right.
    law = replace(LAW, reflects=reflects)
    publisher = Source(
        "notice-blog",
        "Savjetnik o odluci",
        "Odluka 1/24",
        "PRACTICE",
        "HR",
        "hr",
        "https://example.test/odluka",
    )
    text = "Prema Odluci 1/24 stopa iznosi 13 %."
    quoted = evidence(publisher, text, "odluka")
    other = rule("rate-odluka", "rate", "13", quoted, text, date(2013, 7, 1), authority="PRACTICE")
    base = knowledge((*RULES, other))
    kb = replace(
        base,
        sources=(law, *(s for s in base.sources if s.id != LAW.id), publisher),
        evidence=(*base.evidence, quoted),
    )
    response = run_pipeline(question("stopa pdv-a"), compile_snapshot(kb)).response
    assert response is not None
    if answered:
        assert response["kind"] == "ANSWER" and response["conflict"]["status"] == "RESOLVED"
    else:
        assert response["refusalReason"] == "UNRESOLVED_CONFLICT"
