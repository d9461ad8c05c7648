"""`navod kb coverage`: which figure-bearing evidence sentences a published rule cites."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from typer.testing import CliRunner

from api.cli import app
from engine.store.coverage import coverage
from engine.store.packs import read_packs

MINI = Path(__file__).parent / "data" / "packs" / "mini"


def test_a_sentence_is_covered_when_a_published_rule_quotes_it() -> None:
    mini = read_packs([MINI])
    report = coverage(mini)
    cited = {s.text: s.cited_by for s in report.sentences}
    assert cited["1 De belasting bedraagt 21 percent."] == ("nl-btw-algemeen-tarief-2012",)
    assert "b. nihil" in " ".join(cited)  # a list marker stays with its item
    assert not any(text.startswith(("http", "[ref")) for text in cited)
    assert all(any(ch.isdigit() for ch in s.text) for s in report.sentences)
    # a rule that is not published covers nothing
    drafts = tuple(dataclasses.replace(r, status="DRAFT") for r in mini.rules)
    assert coverage(dataclasses.replace(mini, rules=drafts)).covered == 0


def test_the_cli_reports_the_share_as_json(tmp_path: Path) -> None:
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'navod.db'}"}
    result = CliRunner().invoke(app, ["kb", "coverage", "nl", "--json"], env=env)
    assert result.exit_code == 0, result.output
    body = json.loads(result.output)
    assert 0 < body["covered"] <= body["sentences"] and body["share"] == round(
        body["covered"] / body["sentences"], 4
    )
    assert all(item["sentence"] for item in body["uncovered"])
