"""`navod serve --workers N`: the store is opened (migrated, packs loaded) once before the
workers start, each worker only attaches to it, and SQLite is refused for more than one."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from api.cli import app
from engine.errors import ConfigError
from engine.store.bootstrap import attach_store, open_store
from tests.servers import running_server

runner = CliRunner()


def test_more_than_one_worker_on_sqlite_is_refused(tmp_path: Path) -> None:
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'navod.db'}"}
    result = runner.invoke(app, ["serve", "--workers", "2"], env=env)
    assert result.exit_code == 2
    assert "SQLite takes one writer at a time" in result.output
    assert "DATABASE_URL=postgresql" in result.output
    assert not (tmp_path / "navod.db").exists()  # refused before touching the database


@pytest.mark.db
def test_a_worker_attaches_only_to_a_store_at_the_schema_head(database_url: str) -> None:
    with pytest.raises(ConfigError, match=r"schema revision none.*navod serve"):
        attach_store(database_url)
    opened, _ = open_store(database_url)
    opened.dispose()
    engine, repository = attach_store(database_url)
    try:
        assert repository.version() > 0  # the packs open_store loaded
    finally:
        engine.dispose()


@pytest.mark.db
def test_two_workers_on_postgresql_continue_one_conversation(
    database_url: str, tmp_path: Path
) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("several workers need PostgreSQL (DATABASE_URL)")
    log = tmp_path / "server.log"
    with running_server(database_url, log, workers=2) as base, httpx.Client() as client:
        chat = f"{base}/api/assistant/chat"
        first = client.post(chat, json={"query": "Koja je stopa PDV-a?"}, timeout=30).json()
        session = first["sessionId"]
        for number in range(12):  # new connections: the turns spread over both workers
            with httpx.Client() as other:
                body = {"query": f"a snižena? ({number})", "sessionId": session}
                reply = other.post(chat, json=body, timeout=30)
                assert reply.status_code == 200, reply.text
                assert reply.json()["sessionId"] == session
        turns = client.get(f"{base}/api/dossiers/{session}", timeout=30).json()
        assert len([e for e in turns["events"] if e["type"] == "turn"]) == 13
