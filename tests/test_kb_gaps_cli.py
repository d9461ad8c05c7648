"""`navod kb gaps` end to end: conversations stored through the HTTP app on a migrated database
(SQLite, or PostgreSQL under `make test-postgres`), then the report read back by the CLI."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from api.app import create_app
from api.cli import app
from engine.service import AnswerService
from engine.store.bootstrap import open_store
from engine.store.dossiers.sql import SqlDossierRepository
from engine.store.guardrails.guards import load_guards
from tests.keys import bearer

pytestmark = pytest.mark.db
runner = CliRunner()
DAY1 = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
DAY = timedelta(days=1)
OIB = "12345678903"  # a valid OIB (mod 11,10)


class Clock:
    """The service's clock, moved on by the test: turns are stored at its moment."""

    def __init__(self) -> None:
        self.now = DAY1

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def stored(database_url: str) -> Iterator[dict[str, Any]]:
    """Conversations over five days, refusals and answers mixed, one question with an OIB;
    what the test must never see printed: the dossier ids and who asked."""
    engine, repository = open_store(database_url)
    clock = Clock()
    dossiers = SqlDossierRepository(engine)
    service = AnswerService(repository, clock=clock, guards=load_guards(), dossiers=dossiers)
    sessions: list[str] = []
    kinds: list[tuple[str, str]] = []
    with TestClient(create_app(service, engine), raise_server_exceptions=False) as client:

        def chat(day: int, query: str, session: str | None = None) -> str:
            clock.now = DAY1 + day * DAY
            extra = {"sessionId": session} if session else {}
            headers = bearer(client, "ana")
            reply = client.post(
                "/api/assistant/chat", json={"query": query, **extra}, headers=headers
            )
            assert reply.status_code == 200, reply.text
            sessions.append(reply.json()["sessionId"])
            kinds.append((query, reply.json()["kind"]))
            return sessions[-1]

        first = chat(0, "What is the RMD age in 2040?")
        chat(0, "Koja je stopa PDV-a?")
        chat(1, "How much is the dog tax?")
        chat(2, "What is the RMD age?", first)  # in the first conversation
        chat(2, "Koliki je prag za PDV?")
        chat(3, f"Moj OIB je {OIB}, koliki je porez na pse?")
        chat(3, "kakvo će biti vrijeme u Splitu")
        chat(4, "How much is the tax for a dog?")
        chat(4, "What is the RMD age in 2041?", first)
        askers = {dossier.asker for s in sessions if (dossier := dossiers.get(s)) is not None}
    engine.dispose()
    yield {"url": database_url, "sessions": sessions, "askers": askers, "kinds": kinds}


def gaps(stored: dict[str, Any], *args: str) -> tuple[str, dict[str, Any]]:
    result = runner.invoke(
        app, ["kb", "gaps", "--json", *args], env={"DATABASE_URL": stored["url"]}
    )
    assert result.exit_code == 0, result.output
    body: dict[str, Any] = json.loads(result.stdout)
    return result.stdout, body


def rows(body: dict[str, Any]) -> list[tuple[Any, ...]]:
    keys = ("reason", "subject", "named_by", "count", "first_seen", "last_seen", "example")
    return [tuple(gap[key] for key in keys) for gap in body["gaps"]]


def assert_nothing_personal(output: str, stored: dict[str, Any]) -> None:
    assert stored["askers"] and stored["sessions"], "the fixture stored keyed conversations"
    assert "dos_" not in output and "key_" not in output and OIB not in output
    for session in stored["sessions"]:
        assert session not in output
    for asker in stored["askers"]:
        assert asker not in output


def test_gaps_groups_the_refused_questions_of_every_conversation(stored: dict[str, Any]) -> None:
    answered = [query for query, kind in stored["kinds"] if kind == "ANSWER"]
    assert answered == ["Koja je stopa PDV-a?", "What is the RMD age?", "Koliki je prag za PDV?"]
    output, body = gaps(stored)
    assert (body["since"], body["refused"], body["groups"]) == (None, 6, 4)
    assert list(body["gaps"][0]) == [
        "reason",
        "subject",
        "named_by",
        "count",
        "first_seen",
        "last_seen",
        "example",
    ]
    assert rows(body) == [
        (
            "NO_CITABLE_RULES",
            "dog tax",
            "words",
            2,
            "2026-11-21",
            "2026-11-24",
            "How much is the dog tax?",
        ),
        (
            "NO_CITABLE_RULES",
            "us-rmd-required-beginning-age",
            "concepts",
            2,
            "2026-11-20",
            "2026-11-24",
            "What is the RMD age in 2040?",
        ),
        (
            "NO_CITABLE_RULES",
            "oib porez pse",
            "words",
            1,
            "2026-11-23",
            "2026-11-23",
            "Moj OIB je [OIB], koliki je porez na pse?",
        ),
        (
            "OUT_OF_SCOPE",
            "splitu vrijeme",
            "words",
            1,
            "2026-11-23",
            "2026-11-23",
            "kakvo će biti vrijeme u Splitu",
        ),
    ]
    assert_nothing_personal(output, stored)
    assert gaps(stored)[0] == output, "the same store gives the same bytes"


def test_since_and_limit(stored: dict[str, Any]) -> None:
    _, body = gaps(stored, "--since", "2026-11-22", "--limit", "2")
    assert (body["since"], body["refused"], body["groups"]) == ("2026-11-22", 4, 4)
    assert [(g["subject"], g["count"], g["first_seen"]) for g in body["gaps"]] == [
        ("dog tax", 1, "2026-11-24"),
        ("oib porez pse", 1, "2026-11-23"),
    ]


def test_the_human_report_names_reasons_subjects_and_examples_only(
    stored: dict[str, Any],
) -> None:
    result = runner.invoke(
        app, ["kb", "gaps"], env={"DATABASE_URL": stored["url"], "COLUMNS": "160"}
    )
    assert result.exit_code == 0, result.output
    assert "what askers miss" in result.output
    assert '"dog tax"' in result.output and "us-rmd-required-beginning-age" in result.output
    assert "Moj OIB je [OIB], koliki je porez na pse?" in result.output  # not read as markup
    assert "6 refused questions in 4 groups" in result.output
    assert_nothing_personal(result.output, stored)


def test_a_bad_since_teaches_the_format(stored: dict[str, Any]) -> None:
    result = runner.invoke(
        app, ["kb", "gaps", "--since", "22.11.2026"], env={"DATABASE_URL": stored["url"]}
    )
    assert result.exit_code == 2 and "YYYY-MM-DD" in result.output
