"""What a conversation learns about the asker and how complete it is (engine/dossier/profile.py,
issue 11), on hand-made topics: records, corrections, scores, snapshots and the next question."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from engine.dossier.followup import reply_to_missing_data
from engine.dossier.model import (
    CompletenessRecord,
    Dossier,
    Event,
    InfoRecord,
    TopicScore,
    TurnRecord,
)
from engine.dossier.profile import (
    Told,
    completeness_record,
    completeness_view,
    fact_views,
    facts_patch,
    known_facts,
    new_records,
    next_question,
    remembered,
    score,
    scores,
    unknown_topics,
)
from engine.dossier.steps import reply_value
from engine.types import ChecklistItem, Concept, PlanningTopic

AT = datetime(2026, 11, 22, 9, tzinfo=UTC)
ASK = {"en": "?", "hr": "?", "nl": "?"}


def item(fact: str, weight: int) -> ChecklistItem:
    return ChecklistItem(fact, weight, {**ASK, "en": f"What is your {fact}?"})


RMDS = PlanningTopic(
    "tax_efficiency_rmds", "us", {"en": "Tax & RMDs"}, (item("birth_year", 4), item("ira", 2))
)
CARE = PlanningTopic("long_term_care", "us", {"en": "LTC"}, (item("age", 3), item("ltc", 1)))
VAT = PlanningTopic("pdv", "hr", {"en": "VAT"}, (item("annual_turnover_eur", 1),))
TOPICS = (RMDS, CARE, VAT)


def dossier(*records: object) -> Dossier:
    events = tuple(Event(i, AT, r) for i, r in enumerate(records))  # type: ignore[arg-type]
    return Dossier("dos_" + "0" * 32, "ana", "APP", "en", AT, AT, len(events), events)


def info(
    fact: str, value: object, topic: str = "tax_efficiency_rmds", **extra: object
) -> InfoRecord:
    return InfoRecord(topic, fact, value, "question", **extra)  # type: ignore[arg-type]


def test_a_stated_fact_is_recorded_under_the_topic_whose_checklist_lists_it() -> None:
    found = new_records(dossier(), {"birth_year": 1959, "name": "Ana"}, "question", TOPICS)
    assert found == (InfoRecord("tax_efficiency_rmds", "birth_year", 1959, "question"),)


def test_the_topic_asked_about_is_preferred_for_a_fact_two_checklists_list() -> None:
    both = PlanningTopic("income_cash_flow", "us", {"en": "Income"}, (item("birth_year", 1),))
    topics = (both, RMDS)
    plain = new_records(dossier(), {"birth_year": 1959}, "question", topics)
    asked = new_records(
        dossier(), {"birth_year": 1959}, "question", topics, ["tax_efficiency_rmds"]
    )
    assert (plain[0].topic, asked[0].topic) == ("income_cash_flow", "tax_efficiency_rmds")


def test_a_fact_said_again_is_not_recorded_twice_and_a_correction_is() -> None:
    said = dossier(info("birth_year", 1959))
    assert new_records(said, {"birth_year": 1959}, "question", TOPICS) == ()
    corrected = new_records(said, {"birth_year": 1960}, "clientContext", TOPICS)
    assert [(r.value, r.source) for r in corrected] == [(1960, "clientContext")]
    later = dossier(info("birth_year", 1959), info("birth_year", 1960))
    assert known_facts(later)["birth_year"].record.value == 1960  # the latest wins
    assert [e.record.value for e in later.infos] == [1959, 1960]  # the history stays


def test_the_score_is_the_known_weight_over_the_whole_and_names_what_is_missing() -> None:
    known = known_facts(dossier(info("birth_year", 1959)))
    assert score(RMDS, known) == TopicScore("tax_efficiency_rmds", 67, "missing: ira")
    assert score(CARE, known) == TopicScore("long_term_care", 0, "missing: age, ltc")
    half = known_facts(dossier(info("birth_year", 1959, confidence=0.5)))
    assert score(RMDS, half).score == 33  # a fact known with confidence 0.5 counts half
    full = known_facts(dossier(info("birth_year", 1959), info("ira", 1000)))
    assert score(RMDS, full) == TopicScore("tax_efficiency_rmds", 100, "")


def test_only_the_topics_of_packs_the_asker_told_about_are_scored_in_pack_order() -> None:
    found = scores(dossier(info("age", 64, topic="long_term_care")), TOPICS)
    assert [s.topic for s in found] == ["tax_efficiency_rmds", "long_term_care"]
    assert scores(dossier(), TOPICS) == ()


def test_a_snapshot_is_appended_only_when_a_score_moves() -> None:
    before = dossier()
    after = dossier(info("birth_year", 1959))
    first = completeness_record(before, after, TOPICS)
    assert isinstance(first, CompletenessRecord)
    settled = dossier(info("birth_year", 1959), first)
    again = dossier(info("birth_year", 1959), first, info("birth_year", 1959))
    assert completeness_record(settled, again, TOPICS) is None


def test_facts_given_by_api_are_all_recorded_then_scored() -> None:
    told = (Told("tax_efficiency_rmds", "birth_year", 1959), Told("long_term_care", "age", 67, 0.5))
    patch = facts_patch(told, TOPICS)(dossier())
    infos = [r for r in patch.records if isinstance(r, InfoRecord)]
    assert [(r.fact_type, r.source, r.confidence) for r in infos] == [
        ("birth_year", "api", 1.0),
        ("age", "api", 0.5),
    ]
    (snapshot,) = [r for r in patch.records if isinstance(r, CompletenessRecord)]
    assert [(s.topic, s.score) for s in snapshot.scores] == [
        ("tax_efficiency_rmds", 67),
        ("long_term_care", 38),
    ]


def test_an_unknown_topic_is_named() -> None:
    told = (Told("pdv", "x", 1), Told("retirement", "x", 1), Told("retirement", "y", 2))
    assert unknown_topics(told, TOPICS) == ["retirement"]


def test_the_views_show_records_and_the_latest_scores_with_history() -> None:
    first = CompletenessRecord((TopicScore("tax_efficiency_rmds", 67, "missing: ira"),))
    held = dossier(info("birth_year", 1959), first)
    (fact,) = fact_views(held)
    assert fact["id"] == f"{held.id}-0" and fact["created_at"] == "2026-11-22T09:00:00Z"
    assert (fact["fact_type"], fact["value"], fact["source"]) == ("birth_year", 1959, "question")
    view = completeness_view(held)
    assert view["scores"] == [
        {"topic": "tax_efficiency_rmds", "score": 67, "reason": "missing: ira"}
    ]
    assert len(view["history"]) == 1
    assert completeness_view(dossier()) == {"session_id": held.id, "scores": [], "history": []}


def test_remembered_facts_carry_how_and_when_they_were_learnt() -> None:
    found = remembered(dossier(info("birth_year", 1959)))
    assert (found["birth_year"].value, found["birth_year"].source) == (1959, "question")
    assert found["birth_year"].on == date(2026, 11, 22)


def test_the_next_question_is_the_heaviest_missing_fact_of_the_topic_talked_about() -> None:
    turn = TurnRecord(
        "rmd?", "en", "ANSWER", "REGULATORY", None, "2026-11-22", "today", "pipeline", "",
        concepts=("us-rmd-age",),
    )  # fmt: skip
    concepts = {"us-rmd-age": Concept("us-rmd-age", "retirement.tax_efficiency_rmds", "US", {})}
    found = next_question(dossier(turn), TOPICS, concepts)
    assert found is not None and found[1].fact == "birth_year"
    told = dossier(turn, info("birth_year", 1959))
    after = next_question(told, TOPICS, concepts)
    assert after is not None and after[1].fact == "ira"


@pytest.mark.parametrize(
    ("reply", "language", "completed"),
    [
        ("1959", "en", "I was born in 1959. What is my full retirement age?"),
        ("64", "en", "I am 64 years old. What is my full retirement age?"),
        ("born in 1959", "en", "I was born in 1959. What is my full retirement age?"),
        ("1959.", "hr", "Rođen sam 1959. What is my full retirement age?"),
        ("the 401k limit", "en", None),
        ("3", "en", None),
    ],
)
def test_a_bare_number_after_missing_data_answers_navods_question(
    reply: str, language: str, completed: str | None
) -> None:
    previous = TurnRecord(
        "What is my full retirement age?", language, "REFUSAL", "REGULATORY",  # type: ignore[arg-type]
        "MISSING_CLIENT_DATA", "2026-11-22", "today", "pipeline", "",
    )  # fmt: skip
    assert reply_to_missing_data(reply, previous, date(2026, 11, 22)) == completed


def test_a_number_after_an_answer_is_not_taken_for_missing_data() -> None:
    previous = TurnRecord(
        "rmd age", "en", "ANSWER", "REGULATORY", None, "2026-11-22", "today", "pipeline", ""
    )
    assert reply_to_missing_data("1959", previous, date(2026, 11, 22)) is None


def test_a_bare_reply_value_is_yes_no_or_a_whole_number() -> None:
    assert [reply_value(t) for t in ("yes", "Nee.", "da!", "1962", "45.000", "maybe", "12a")] == [
        True,
        False,
        True,
        1962,
        45000,
        None,
        None,
    ]


def test_a_question_no_topic_plans_has_no_next_step_from_another_topic() -> None:
    wage = TurnRecord(
        "minimalna plaća?", "hr", "ANSWER", "REGULATORY", None, "2026-11-22", "today",
        "pipeline", "", concepts=("hr-minimalna-placa",),
    )  # fmt: skip
    concepts = {
        "us-rmd-age": Concept("us-rmd-age", "retirement.tax_efficiency_rmds", "US", {}),
        "hr-minimalna-placa": Concept("hr-minimalna-placa", "labour.wages", "HR", {}),
    }
    told = dossier(info("birth_year", 1959), wage)
    assert next_question(told, TOPICS, concepts) is None
    # a turn that only told a fact keeps the topic of that fact
    noted = TurnRecord(
        "I was born in 1959", "en", "ANSWER", "REGULATORY", None, "2026-11-22", "today",
        "dossier", "",
    )  # fmt: skip
    found = next_question(dossier(info("birth_year", 1959), noted), TOPICS, concepts)
    assert found is not None and found[1].fact == "ira"
