"""Answers to a conflict the maintainers settled on the record (issue 25), on a real database:
the 2026 IRA limit answers $7,500 from the IRS announcement, shows the $7,000 it sets aside and
why, in the asker's language; without the resolution the same question is refused as before.
Also over HTTP and the stream, and the validation of the new `conflict` fields."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
import yaml
from fastapi.testclient import TestClient

from api.app import create_app
from engine.contract import ChatRequest
from engine.service import AnswerService, quote_checker
from engine.store.db import make_engine, migrate
from engine.store.knowledge.packs import load_packs, pack_paths
from engine.store.knowledge.sql import SqlRepository
from engine.stream import merge_lines, parse_ndjson, validate_stream
from engine.text.sentences import sentences
from engine.validation import validate_response

NOW = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)
US = pack_paths(["us-retirement"])[0]
RESOLUTIONS = US / "55-resolutions.yaml"
QUESTIONS = {
    "en": "What is the IRA contribution limit for 2026?",
    "hr": "Koliki je limit uplate na IRA za 2026?",
    "nl": "Wat is de IRA-inleglimiet voor 2026?",
}
SHOWN = {
    "en": ("$7,500", "$7,000"),
    "hr": ("7.500,00 USD", "7.000,00 USD"),
    "nl": ("$ 7.500", "$ 7.000"),
}
RECORD = yaml.safe_load(RESOLUTIONS.read_text(encoding="utf-8"))["resolutions"][0]


@pytest.fixture
def engine(database_url: str) -> Iterator[sa.Engine]:
    migrate(database_url)
    found = make_engine(database_url)
    yield found
    found.dispose()


def _service(engine: sa.Engine, pack: Path) -> AnswerService:
    repository = SqlRepository(engine)
    load_packs(repository, [pack])
    return AnswerService(repository, clock=lambda: NOW)


@pytest.fixture
def service(engine: sa.Engine) -> AnswerService:
    return _service(engine, US)


def ask(service: AnswerService, query: str) -> dict[str, Any]:
    return service.answer(ChatRequest(query=query, surface="MARKETING", explain=True))


@pytest.mark.parametrize("language", ["en", "hr", "nl"])
def test_the_2026_ira_limit_answers_the_winner_with_the_losing_side_and_the_rationale(
    service: AnswerService, language: str
) -> None:
    response = ask(service, QUESTIONS[language])
    won, lost = SHOWN[language]
    assert (response["kind"], response["language"]) == ("ANSWER", language)
    assert won in response["directAnswer"] and lost not in response["directAnswer"]
    primary = response["citations"]["primary"]
    # cited from the IRS's own announcement, the text the decision rests on
    assert (
        primary["authority"] == "GUIDANCE" and "IRA limit increases to $7,500" in primary["quote"]
    )
    assert primary["id"].startswith("us-ira-limit-2026-notice-2025-67@")
    conflict = response["conflict"]
    assert conflict["status"] == "RESOLVED"
    assert conflict["resolutionId"] == RECORD["id"] == "us-ira-limit-2026-irs-announcement"
    assert (conflict["strategy"], conflict["decidedBy"]) == (
        RECORD["strategy"],
        RECORD["decided_by"],
    )
    assert conflict["decidedAt"] == "2026-11-29" == conflict["resolvedAt"]
    assert conflict["rationale"] == RECORD["rationale"][language]
    assert (conflict["winner"]["value"], conflict["winner"]["valueText"]) == ("7500", won)
    assert (conflict["loser"]["ruleId"], conflict["loser"]["value"]) == (
        "us-ira-limit-7000",
        "7000",
    )
    assert conflict["loser"]["valueText"] == lost
    cards = {card["id"]: card for card in conflict["sources"]}
    loser = cards[conflict["loser"]["sourceId"]]
    assert "$7,000" in loser["quote"] and loser["evidenceId"] == conflict["loser"]["evidenceId"]
    assert conflict["winningSourceId"] == primary["id"] == conflict["winner"]["sourceId"]
    assert primary["id"] in conflict["evidence"]
    assert won in conflict["description"] and lost in conflict["description"]
    # why says it in the asker's language: the decision, what it set aside, the rationale
    bullets = response["why"]["bullets"]
    assert any(lost in bullet for bullet in bullets[1:])
    assert sentences(RECORD["rationale"][language])[0] in bullets
    assert any(
        " by record us-ira-limit-2026-irs-announcement" in e["decision"] for e in response["trace"]
    )
    result = validate_response(response, quote_checker(service.snapshot()))
    assert result.valid, result.errors


def test_without_the_resolution_the_question_is_refused_as_before(
    engine: sa.Engine, tmp_path: Path
) -> None:
    pack = tmp_path / "us-retirement"
    shutil.copytree(US, pack)
    (pack / RESOLUTIONS.name).unlink()
    service = _service(engine, pack)
    response = ask(service, QUESTIONS["en"])
    assert (response["kind"], response["refusalReason"]) == ("REFUSAL", "UNRESOLVED_CONFLICT")
    assert response["directAnswer"] == ""
    conflict = response["conflict"]
    assert conflict["status"] == "UNRESOLVED" and "resolutionId" not in conflict
    sides = {card["id"].split("@")[0] for card in response["refusal"]["conflictingSources"]}
    assert sides == {"us-ira-limit-2026-notice-2025-67", "us-ira-limit-7000"}
    assert validate_response(response, quote_checker(service.snapshot())).valid


def test_the_open_ira_catch_up_conflict_is_still_refused(service: AnswerService) -> None:
    response = service.answer(
        ChatRequest(
            query="ira catch up contribution 2026", surface="APP", clientContext={"age": 55}
        )
    )
    assert (response["kind"], response["refusalReason"]) == ("REFUSAL", "UNRESOLVED_CONFLICT")


def test_other_years_are_not_touched_by_the_resolution(service: AnswerService) -> None:
    response = ask(service, "ira limit 2025")
    assert response["kind"] == "ANSWER" and "$7,000" in response["directAnswer"]
    assert "conflict" not in response


@pytest.fixture
def client(engine: sa.Engine, service: AnswerService) -> Iterator[TestClient]:
    with TestClient(create_app(service, engine), raise_server_exceptions=False) as test_client:
        yield test_client


def test_over_http_and_the_stream_the_resolved_conflict_travels_whole(
    client: TestClient, service: AnswerService
) -> None:
    body = {"query": QUESTIONS["nl"], "surface": "MARKETING"}
    reply = client.post("/api/assistant/chat", json=body)
    assert reply.status_code == 200
    response = reply.json()
    assert response["kind"] == "ANSWER" and response["conflict"]["resolutionId"]
    assert response["conflict"]["rationale"] == RECORD["rationale"]["nl"]
    assert validate_response(response, quote_checker(service.snapshot())).valid
    streamed = client.post("/api/assistant/chat/stream", json=body)
    lines = parse_ndjson(streamed.text)
    assert validate_stream(lines).valid
    merged = merge_lines(lines)
    assert merged["conflict"]["loser"] == response["conflict"]["loser"]
    assert merged["conflict"]["winner"] == response["conflict"]["winner"]
