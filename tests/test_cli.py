"""The `navod` command line, run through typer's runner against a real SQLite/PostgreSQL store."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from api.cli import app

pytestmark = pytest.mark.db
runner = CliRunner()


@pytest.fixture
def env(database_url: str) -> dict[str, str]:
    return {"DATABASE_URL": database_url}


def test_ask_prints_a_readable_answer_with_its_citation(env: dict[str, str]) -> None:
    result = runner.invoke(app, ["ask", "Koja je stopa PDV-a?"], env=env)
    assert result.exit_code == 0, result.output
    assert "25 %" in result.output and "esavjetovanja.gov.hr" in result.output
    assert "Razumio sam: Opća stopa PDV-a" in result.output  # the frame, in one line


def test_ask_prints_each_ask_with_its_card_and_numbers_related_questions(
    env: dict[str, str],
) -> None:
    years = "What is the 401(k) contribution limit for 2024, 2025 and 2026?"
    result = runner.invoke(app, ["ask", years], env=env)
    assert result.exit_code == 0, result.output
    for year, value in [("2024", "$23,000"), ("2025", "$23,500"), ("2026", "$24,500")]:
        assert f"› 401(k)/403(b) elective deferral limit ({year}): {value}" in result.output
    assert "$23,000 [" in result.output  # the number of the card that proves it
    refused = runner.invoke(app, ["ask", "Moram li plaćati PDV ako zarađujem 15.000 EUR?"], env=env)
    assert "  1. Prag za ulazak u sustav PDV-a?" in refused.output


def test_ask_json_explain_and_as_of(env: dict[str, str]) -> None:
    result = runner.invoke(
        app, ["ask", "btw laag tarief", "--as-of", "2015-06-01", "--json", "--explain"], env=env
    )
    assert result.exit_code == 0, result.output
    response = json.loads(result.output)
    assert response["asOfDate"] == "2015-06-01" and "6" in response["directAnswer"]
    assert response["trace"][0]["stage"] == "analyse"


def test_ask_rejects_a_bad_date(env: dict[str, str]) -> None:
    result = runner.invoke(app, ["ask", "pdv", "--as-of", "2024-02-30"], env=env)
    assert result.exit_code == 2 and "--as-of" in result.output


def test_ask_with_client_context_facts(env: dict[str, str]) -> None:
    question = ["ask", "What is the full retirement age?", "--surface", "APP", "--json"]
    given = runner.invoke(app, [*question, "--client-context", "birth_year=1962"], env=env)
    assert given.exit_code == 0, given.output
    assert "67" in json.loads(given.output)["directAnswer"]
    fraction = runner.invoke(app, [*question, "--client-context", "birth_year=1962.5"], env=env)
    assert fraction.exit_code == 2 and "clientContext.birth_year" in fraction.output


def test_kb_load_verify_and_list(env: dict[str, str]) -> None:
    loaded = runner.invoke(app, ["kb", "load", "nl"], env=env)
    assert loaded.exit_code == 0 and "version 1" in loaded.output
    again = runner.invoke(app, ["kb", "load", "nl"], env=env)
    assert again.exit_code == 0 and "version 2" in again.output
    listing = runner.invoke(app, ["kb", "list"], env=env)
    assert "nl-btw-algemeen-tarief" in listing.output
    assert runner.invoke(app, ["kb", "verify"], env=env).exit_code == 0


def test_kb_diff_after_a_load_has_nothing_to_do(env: dict[str, str]) -> None:
    assert runner.invoke(app, ["kb", "load", "nl"], env=env).exit_code == 0
    diff = runner.invoke(app, ["kb", "diff", "nl", "--json"], env=env)
    assert diff.exit_code == 0
    assert json.loads(diff.output) == {"added": [], "changed": [], "removed": []}
    text = runner.invoke(app, ["kb", "diff", "nl"], env=env)
    assert "0 to add, 0 to change, 0 to remove" in text.output


def test_kb_load_and_verify_summarise_as_json(env: dict[str, str]) -> None:
    first = json.loads(runner.invoke(app, ["kb", "load", "nl", "--json"], env=env).output)
    assert first["packs"] == ["nl"] and "rule:nl-btw-algemeen-tarief-21" in first["added"]
    again = runner.invoke(app, ["kb", "load", "nl", "--json"], env=env)
    body = json.loads(again.output)
    assert again.exit_code == 0 and (body["added"], body["changed"], body["removed"]) == (
        [],
        [],
        [],
    )
    assert body["counts"]["rules"] == len(first["added"]) - sum(
        not key.startswith("rule:") for key in first["added"]
    )
    verified = runner.invoke(app, ["kb", "verify", "nl", "--json"], env=env)
    assert verified.exit_code == 0 and json.loads(verified.output)["ok"] is True
    text = runner.invoke(app, ["kb", "load", "nl"], env=env).output
    assert "0 added, 0 changed, 0 removed" in text and "{" not in text  # no raw Python value


def test_kb_load_of_an_unknown_pack_fails_naming_it(env: dict[str, str]) -> None:
    result = runner.invoke(app, ["kb", "load", "de"], env=env)
    assert result.exit_code == 1 and "unknown pack 'de'" in result.output


def test_validate_accepts_a_response_file_and_stdin(env: dict[str, str], tmp_path: Path) -> None:
    answer = runner.invoke(app, ["ask", "What is the RMD age?", "--json"], env=env).output
    path = tmp_path / "answer.json"
    path.write_text(answer, encoding="utf-8")
    assert runner.invoke(app, ["validate", str(path)]).exit_code == 0
    assert runner.invoke(app, ["validate", "-"], input=answer).exit_code == 0


def test_validate_accepts_a_stream(tmp_path: Path) -> None:
    from engine.stream import encode_line, stream_lines
    from tests.test_quality_gates import answer

    path = tmp_path / "answer.ndjson"
    path.write_bytes(b"".join(encode_line(line) for line in stream_lines(answer())))
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 0, result.output


def test_validate_reports_contract_errors(tmp_path: Path) -> None:
    bad = {
        "schemaVersion": "1.0.0",
        "requestId": "req_1",
        "traceId": "trace_1",
        "kind": "ANSWER",
        "topic": "REGULATORY",
        "surface": "APP",
        "createdAt": "2026-11-22T00:00:00Z",
        "asOfDate": "2026-11-22",
        "headline": "x" * 121,
        "directAnswer": "25 %",
    }
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 1
    assert "Headline exceeds 120 chars" in result.output
    assert "REGULATORY ANSWER requires citations (fail-closed)" in result.output


def test_validate_checks_stream_order(tmp_path: Path) -> None:
    path = tmp_path / "stream.ndjson"
    path.write_text('{"requestId": "req_1", "_done": true}\n{"requestId": "req_1"}\n')
    assert runner.invoke(app, ["validate", str(path)]).exit_code == 1


def test_kb_verify_prints_one_summary_and_every_quote_only_when_verbose(
    env: dict[str, str],
) -> None:
    summary = runner.invoke(app, ["kb", "verify", "nl"], env=env)
    assert summary.exit_code == 0
    assert "packs" in summary.output and "published rules" not in summary.output
    verbose = runner.invoke(app, ["kb", "verify", "nl", "--verbose"], env=env)
    assert "published rules" in verbose.output and "yes" in verbose.output  # each quote found


def test_kb_verify_names_the_file_and_record_of_every_problem(
    env: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = tmp_path / "mini"
    shutil.copytree(Path(__file__).parent / "data" / "packs" / "mini", broken)
    records = broken / "wet-ob-art9.yaml"
    text = records.read_text(encoding="utf-8")
    records.write_text(text.replace('value: "21"', 'value: "22"', 1), encoding="utf-8")
    monkeypatch.setattr("api.cli.pack_paths", lambda names: [broken])
    result = runner.invoke(app, ["kb", "verify"], env=env)
    assert result.exit_code == 1
    assert "refused: 1 problem(s) in 1 file(s); nothing was written" in result.output
    assert "is not stated" in " ".join(result.output.split()).replace("│", "")
    assert "Traceback" not in result.output


def test_kb_coverage_summarises_per_pack(env: dict[str, str]) -> None:
    result = runner.invoke(app, ["kb", "coverage"], env=env)
    assert result.exit_code == 0
    assert all(pack in result.output for pack in ("hr", "nl", "us-retirement"))
    assert "figure-bearing sentences" in result.output
