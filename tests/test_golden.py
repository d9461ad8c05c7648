"""Golden end-to-end cases (fixtures/cases/*.yaml) through the service on the bundled packs.

Each case names the question and what must come back: kind, refusal reason, topic, language,
the rules cited as primary and substrings of the direct answer. Every response also passes
validate_response with the quote check against the stored evidence.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.contract import ChatRequest
from engine.service import AnswerService, quote_checker
from engine.store.knowledge.memory import MemoryRepository
from engine.store.knowledge.packs import load_packs, pack_paths
from engine.validation import validate_response

CASES_DIR = Path(__file__).resolve().parents[1] / "fixtures" / "cases"
TODAY = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


def _cases() -> list[Any]:
    found = []
    for path in sorted(CASES_DIR.glob("*.yaml")):
        for case in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
            found.append(pytest.param(case, id=f"{path.stem}:{case['id']}"))
    return found


@pytest.fixture(scope="module")
def service() -> AnswerService:
    repository = MemoryRepository()
    load_packs(repository, pack_paths([]))
    return AnswerService(repository, clock=lambda: TODAY)


def _request(case: dict[str, Any]) -> ChatRequest:
    as_of = case.get("as_of")
    return ChatRequest(
        query=case["query"],
        surface=case.get("surface", "MARKETING"),
        asOfDate=date.fromisoformat(str(as_of)) if as_of else None,
        clientContext=case.get("client_context") or {},
        explain=True,
    )


@pytest.mark.parametrize("case", _cases())
def test_golden_case(case: dict[str, Any], service: AnswerService) -> None:
    response = service.answer(_request(case))
    expect = case["expect"]
    trace = "\n".join(f"{e['stage']}: {e['decision']}" for e in response.get("trace", []))
    assert response["kind"] == expect["kind"], trace
    assert response.get("refusalReason") == expect.get("refusal_reason"), trace
    if "topic" in expect:
        assert response["topic"] == expect["topic"]
    if "language" in expect:
        assert response["language"] == expect["language"]
    if expect.get("rules"):
        primary = response["citations"]["primary"]["id"].split("@")[0]
        assert primary in expect["rules"], trace
    for fragment in expect.get("answer_contains") or []:
        assert str(fragment) in response["directAnswer"], response["directAnswer"]
    if expect.get("obligation"):
        assert response["obligationContext"]["type"] == expect["obligation"], trace
    result = validate_response(response, quote_checker(service.snapshot()))
    assert result.valid, result.errors


def test_there_are_enough_golden_cases() -> None:
    assert len(_cases()) >= 40
