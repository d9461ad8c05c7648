"""The monitors' screens (api/monitor_render.py), line by line against the issue's examples."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from api.monitor import _from_store
from api.monitor_render import (
    AWAITING,
    bar,
    completeness_lines,
    profile_lines,
    prompt,
    topic_question,
)
from engine.contract import ChatRequest
from engine.service import AnswerService
from engine.store.dossiers.memory import MemoryDossierRepository
from engine.store.guardrails.guards import load_guards
from engine.store.knowledge.memory import MemoryRepository
from engine.store.knowledge.packs import load_packs, pack_paths

US = [
    "income_cash_flow", "healthcare_medicare", "housing_geography", "tax_efficiency_rmds",
    "longevity_inflation", "long_term_care", "lifestyle_purpose", "estate_planning",
]  # fmt: skip


def topic(topic_id: str, pack: str = "us-retirement", *items: dict[str, Any]) -> dict[str, Any]:
    return {"id": topic_id, "pack": pack, "checklist": list(items)}


def item(fact: str, weight: int, kind: str = "fact") -> dict[str, Any]:
    return {"fact": fact, "weight": weight, "kind": kind, "question": {"en": f"Your {fact}?"}}


def fact(topic_id: str, subtopic: str, fact_type: str, value: object) -> dict[str, Any]:
    return {"topic": topic_id, "subtopic": subtopic, "fact_type": fact_type, "value": value}


TOPICS = [topic(t) for t in US] + [topic("pdv", "hr")]


@pytest.mark.parametrize(
    ("score", "drawn"),
    [(85, "================> 85"), (0, " 0"), (4, " 4"), (5, "> 5"), (100, "=" * 19 + "> 100")],
)
def test_each_character_of_the_bar_is_five_points(score: int, drawn: str) -> None:
    assert bar(score) == drawn


def test_one_line_per_topic_in_the_packs_order_with_the_bars_in_one_column() -> None:
    scores = [
        {"topic": "income_cash_flow", "score": 85},
        {"topic": "tax_efficiency_rmds", "score": 40},
    ]
    assert completeness_lines(TOPICS, scores) == [
        "1. income_cash_flow     |================> 85",
        "2. healthcare_medicare  | 0",
        "3. housing_geography    | 0",
        "4. tax_efficiency_rmds  |=======> 40",
        "5. longevity_inflation  | 0",
        "6. long_term_care       | 0",
        "7. lifestyle_purpose    | 0",
        "8. estate_planning      | 0",
    ]


def test_no_score_yet_is_awaiting_data() -> None:
    assert completeness_lines(TOPICS, []) == [AWAITING]
    assert profile_lines(TOPICS, []) == [AWAITING]


def test_the_prompt_names_the_numbers_on_screen() -> None:
    assert prompt(8) == "Help me explore a specific topic (enter number 1-8)> "


def test_a_number_gives_the_question_for_the_topics_heaviest_missing_fact() -> None:
    rmds = topic("tax_efficiency_rmds", "us-retirement", item("birth_year", 4), item("ira", 2))
    topics = [topic("income_cash_flow"), rmds]
    scores = [{"topic": "income_cash_flow", "score": 0}]
    assert topic_question("2", topics, scores, []) == "Your birth_year?"
    known = [{"fact_type": "birth_year"}]
    assert topic_question("2", topics, scores, known) == "Your ira?"
    assert topic_question("9", topics, scores, []) is None
    assert topic_question("x", topics, scores, []) is None


def test_the_profile_groups_records_by_topic_and_subtopic_in_time_order() -> None:
    rmds = topic(
        "tax_efficiency_rmds",
        "us-retirement",
        item("birth_year", 4),
        item("retirement_date", 3, "goal"),
    )
    facts = [
        fact("tax_efficiency_rmds", "rmds", "birth_year", 1962),
        fact("income_cash_flow", "", "age", 64),
        fact("tax_efficiency_rmds", "plans", "retirement_date", "2027-05"),
        fact("tax_efficiency_rmds", "rmds", "birth_year", 1961),
    ]
    assert profile_lines([topic("income_cash_flow"), rmds], facts) == [
        "income_cash_flow",
        "    general",
        "        Fact: age = 64",
        "tax_efficiency_rmds",
        "    rmds",
        "        Fact: birth_year = 1962",
        "        Fact: birth_year = 1961",
        "    plans",
        "        Goal: retirement_date = 2027-05",
    ]


def test_the_monitors_read_the_latest_dossier_from_the_store() -> None:
    repository = MemoryRepository()
    load_packs(repository, pack_paths([]))
    service = AnswerService(
        repository,
        clock=lambda: datetime(2026, 11, 22, 9, tzinfo=UTC),
        guards=load_guards(),
        dossiers=MemoryDossierRepository(),
    )
    assert _from_store(service, None, "ana").scores == []  # no dossier yet: awaiting data
    service.answer(ChatRequest(query="I'm 64 and my wife is 58.", surface="APP"), "ana")
    view = _from_store(service, None, "ana")
    assert completeness_lines(view.topics, view.scores)[1] == "2. healthcare_medicare  |=======> 41"
    assert "        Fact: age = 64" in profile_lines(view.topics, view.facts)
