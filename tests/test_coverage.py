"""`navod kb coverage`: which figure-bearing evidence sentences a published rule cites."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from api.cli import app
from engine.errors import PackRefused
from engine.store.knowledge.coverage import coverage
from engine.store.knowledge.packs import read_packs

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
    done = body["covered"] + body["explained"]
    assert 0 < body["covered"] <= done <= body["sentences"]
    assert body["share"] == round(done / body["sentences"], 4)
    assert all(item["sentence"] for item in body["uncovered"])


def test_a_sentence_marked_not_a_fact_is_explained_and_must_exist(tmp_path: Path) -> None:
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    (folder / "25-not-facts.yaml").write_text(
        "not_facts:\n"
        "  - evidence: nl-wet-ob-art9-lid2\n"
        "    sentence: In afwijking van het eerste lid bedraagt\n"
        "    not_a_fact: introduces the list of rates below it\n",
        encoding="utf-8",
    )
    report = coverage(read_packs([folder]))
    explained = [s for s in report.sentences if s.not_a_fact]
    assert [s.not_a_fact for s in explained] == ["introduces the list of rates below it"]
    assert report.explained == 1
    (folder / "25-not-facts.yaml").write_text(
        "not_facts:\n"
        "  - evidence: nl-wet-ob-art9-lid2\n"
        "    sentence: words that are not in the text\n"
        "    not_a_fact: a reason\n",
        encoding="utf-8",
    )
    with pytest.raises(PackRefused, match="sentence not found in its evidence"):
        read_packs([folder])
