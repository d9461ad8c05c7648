"""Conflict resolutions in packs (issue 25): what `kb verify` refuses, how the stores keep them,
and `navod kb conflicts`.

The test pack is the mini pack plus a publisher that states another general VAT rate, declared
in conflict, and a resolution of that conflict; each refusal case breaks one thing of it.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from api.cli import app
from engine.errors import PackRefused, StoreError
from engine.store.knowledge.packs import load_packs, verify_packs
from engine.store.knowledge.repository import KnowledgeRepository
from engine.types import ConflictResolution

MINI = Path(__file__).parent / "data" / "packs" / "mini"
BLOG_TEXT = "Het algemene btw-tarief is 19 procent. Dat schreven wij in 2001."
RATIONALE = {
    "hr": "Zakon navodi 21 posto.",
    "nl": "De wet noemt 21 procent.",
    "en": "The act states 21 percent.",
}
Edit = Callable[[dict[str, Any]], None]


def conflict_pack(tmp_path: Path, edit: Edit | None = None) -> Path:
    """The mini pack, a publisher stating 19 % (declared in conflict with the act's 21 %) and a
    resolution for the act; `edit` changes the added records first."""
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    records: dict[str, Any] = {
        "sources": [
            {
                "id": "nl-btw-blog",
                "title": "Btw-blog",
                "act": "BWBR0002629",
                "authority": "PRACTICE",
                "jurisdiction": "NL",
                "language": "nl",
                "url": "https://example.test/blog",
            }
        ],
        "evidence": [
            {
                "key": "nl-btw-blog-tarief",
                "source": "nl-btw-blog",
                "locator": "blog",
                "url": "https://example.test/blog",
                "fetched_at": "2026-11-22T00:00:00Z",
                "capture": "transcribed",
                "sha256": hashlib.sha256(BLOG_TEXT.encode()).hexdigest(),
                "text": BLOG_TEXT,
            }
        ],
        "rules": [
            {
                "id": "nl-btw-blog-19",
                "concept": "nl-btw-algemeen-tarief",
                "title": {"nl": "Algemeen tarief (blog)", "en": "Standard rate (blog)"},
                "explanation": {"nl": "Een blog noemt 19 procent.", "en": "A blog says 19."},
                "value": "19",
                "value_type": "percentage",
                "unit": "%",
                "effective_from": "2012-10-01",
                "status": "PUBLISHED",
                "authority": "PRACTICE",
                "obligation_type": "INFORMATIONAL",
                "risk_tier": "low",
                "confidence": 0.5,
                "verified_as_of": "2026-01-01",
                "conflicts_with": "nl-btw-algemeen-tarief-2012",
                "pointers": [
                    {
                        "evidence": "nl-btw-blog-tarief",
                        "quote": "Het algemene btw-tarief is 19 procent.",
                    }
                ],
            }
        ],
        "resolutions": [
            {
                "id": "mini-tarief-besluit",
                "conflict": ["nl-btw-algemeen-tarief-2012", "nl-btw-blog-19"],
                "winner": "nl-btw-algemeen-tarief-2012",
                "strategy": "HIGHER_AUTHORITY",
                "rationale": dict(RATIONALE),
                "decided_by": "test maintainers",
                "decided_at": "2026-11-29",
                "evidence": [
                    {
                        "evidence": "nl-wet-ob-art9-lid1",
                        "quote": "De belasting bedraagt 21 percent.",
                    }
                ],
            }
        ],
    }
    if edit is not None:
        edit(records)
    text = yaml.safe_dump(records, allow_unicode=True, sort_keys=False)
    (folder / "zz-conflict.yaml").write_text(text, encoding="utf-8")
    return folder


def resolution(records: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = records["resolutions"][0]
    return found


def test_a_resolution_is_read_with_its_evidence_resolved(tmp_path: Path) -> None:
    contents = verify_packs([conflict_pack(tmp_path)])
    (found,) = contents.resolutions
    act = next(e for e in contents.evidence if e.key == "nl-wet-ob-art9-lid1")
    assert found == ConflictResolution(
        id="mini-tarief-besluit",
        conflict=("nl-btw-algemeen-tarief-2012", "nl-btw-blog-19"),
        winner="nl-btw-algemeen-tarief-2012",
        strategy="HIGHER_AUTHORITY",
        rationale=RATIONALE,
        decided_by="test maintainers",
        decided_at=date(2026, 11, 29),
        evidence=found.evidence,
    )
    assert [p.evidence_id for p in found.evidence] == [act.id]
    assert found.loser == "nl-btw-blog-19"
    blog = next(rule for rule in contents.rules if rule.id == "nl-btw-blog-19")
    assert blog.conflicts_with == ("nl-btw-algemeen-tarief-2012",)


def _set(field: str, value: object) -> Edit:
    def edit(records: dict[str, Any]) -> None:
        resolution(records)[field] = value

    return edit


def _undeclared(records: dict[str, Any]) -> None:
    del records["rules"][0]["conflicts_with"]


def _never_together(records: dict[str, Any]) -> None:
    records["rules"][0]["effective_from"] = "2001-01-01"
    records["rules"][0]["effective_until"] = "2012-10-01"
    records["rules"][0]["verified_as_of"] = "2012-09-30"


def _twice(records: dict[str, Any]) -> None:
    records["resolutions"].append({**resolution(records), "id": "mini-tarief-besluit-2"})


def _quote(quote: str) -> Edit:
    return _set("evidence", [{"evidence": "nl-wet-ob-art9-lid1", "quote": quote}])


def _no_nl(records: dict[str, Any]) -> None:
    del resolution(records)["rationale"]["nl"]


BROKEN: list[tuple[str, Edit, str]] = [
    ("undeclared", _undeclared, "no longer exists: neither rule names the other in conflicts_with"),
    (
        "missing rule",
        _set("conflict", ["nl-btw-algemeen-tarief-2012", "nl-btw-weg"]),
        "no longer exists: rule 'nl-btw-weg' is in no loaded pack",
    ),
    ("never together", _never_together, "never in force on the same day"),
    ("twice", _twice, "is already resolved by 'mini-tarief-besluit'"),
    ("one rule", _set("conflict", ["nl-btw-blog-19"]), "conflict must name the two rules"),
    ("winner", _set("winner", "nl-btw-verlaagd-tarief-2019"), "is not one of the conflict's"),
    ("strategy", _set("strategy", "NEWEST_WINS"), "unknown strategy 'NEWEST_WINS'"),
    ("rationale", _no_nl, "rationale needs hr, nl and en (missing: nl)"),
    ("no evidence", _set("evidence", []), "evidence must be a non-empty list"),
    ("unknown key", _set("evidence", [{"evidence": "nope", "quote": "x"}]), "unknown evidence"),
    ("not verbatim", _quote("De belasting bedraagt 22 percent."), "not found verbatim"),
    ("part", _quote("bedraagt 21 percent."), "quote is part of a sentence"),
    (
        "other value",
        _set(
            "evidence", [{"evidence": "nl-btw-blog-tarief", "quote": "Dat schreven wij in 2001."}]
        ),
        "does not state the winner's value '21'",
    ),
]


@pytest.mark.parametrize(
    ("edit", "problem"), [(e, p) for _, e, p in BROKEN], ids=[n for n, *_ in BROKEN]
)
def test_kb_verify_refuses_a_bad_resolution_naming_file_and_record(
    tmp_path: Path, edit: Edit, problem: str
) -> None:
    with pytest.raises(PackRefused) as refused:
        verify_packs([conflict_pack(tmp_path, edit)])
    found = [p for p in refused.value.problems if problem in p.problem]
    assert found, [str(p) for p in refused.value.problems]
    assert found[0].file.endswith("mini/zz-conflict.yaml")
    assert found[0].record.startswith("resolution 'mini-tarief-besluit")


def test_the_store_keeps_resolutions_and_declared_conflicts(
    repo: KnowledgeRepository, tmp_path: Path
) -> None:
    pack = conflict_pack(tmp_path)
    contents = verify_packs([pack])
    load_packs(repo, [pack])
    stored = repo.load_knowledge()
    assert stored.resolutions == contents.resolutions
    blog = next(rule for rule in stored.rules if rule.id == "nl-btw-blog-19")
    assert blog.conflicts_with == ("nl-btw-algemeen-tarief-2012",)
    assert "resolution:mini-tarief-besluit" in repo.owned(["mini"])
    assert repo.counts()["resolutions"] == 1


def test_a_load_without_the_resolution_removes_it(
    repo: KnowledgeRepository, tmp_path: Path
) -> None:
    load_packs(repo, [conflict_pack(tmp_path)])

    def without(records: dict[str, Any]) -> None:
        del records["resolutions"]

    load_packs(repo, [conflict_pack(tmp_path / "again", without)])
    assert repo.load_knowledge().resolutions == ()
    assert repo.counts()["resolutions"] == 0


def test_a_resolution_naming_a_rule_the_store_lacks_is_refused_on_save(
    repo: KnowledgeRepository, tmp_path: Path
) -> None:
    """A bare save (no pack check) of a resolution whose rule is not stored fails like a
    foreign key, and writes nothing."""
    contents = verify_packs([conflict_pack(tmp_path)])
    rules = tuple(rule for rule in contents.rules if rule.id != "nl-btw-blog-19")
    broken = type(contents)(
        sources=contents.sources,
        evidence=contents.evidence,
        concepts=contents.concepts,
        rules=rules,
        topics=contents.topics,
        resolutions=contents.resolutions,
    )
    with pytest.raises(StoreError):
        repo.save_knowledge(broken, ["mini"])
    assert repo.version() == 0 and repo.load_knowledge().resolutions == ()


def test_kb_conflicts_lists_open_and_resolved_conflicts(database_url: str) -> None:
    runner = CliRunner()
    env = {"DATABASE_URL": database_url}
    assert runner.invoke(app, ["kb", "load", "us-retirement"], env=env).exit_code == 0
    listed = runner.invoke(app, ["kb", "conflicts", "--json"], env=env)
    assert listed.exit_code == 0, listed.output
    body = json.loads(listed.output)
    by_concept = {c["concept"]: c for c in body["conflicts"]}
    ira = by_concept["us-ira-contribution-limit"]
    assert ira["status"] == "resolved"
    assert {r["id"]: r["value"] for r in ira["rules"]} == {
        "us-ira-limit-2026-notice-2025-67": "7500",
        "us-ira-limit-7000": "7000",
    }
    assert ira["resolution"] == {
        "id": "us-ira-limit-2026-irs-announcement",
        "winner": "us-ira-limit-2026-notice-2025-67",
        "loser": "us-ira-limit-7000",
        "strategy": "INSTRUMENT_TEXT",
        "decidedBy": "Navod knowledge maintainers",
        "decidedAt": "2026-11-29",
    }
    # no official text states the $1,100 catch-up: that conflict stays open
    assert by_concept["us-ira-catch-up"]["status"] == "open"
    assert by_concept["us-ira-catch-up"]["resolution"] is None
    assert (body["resolved"], body["open"]) == (1, len(body["conflicts"]) - 1)
    text = runner.invoke(app, ["kb", "conflicts"], env=env)
    assert text.exit_code == 0
    assert "resolved  us-ira-contribution-limit" in text.output
    assert "open      us-ira-catch-up" in text.output
    assert f"{len(body['conflicts'])} conflicts declared: 1 resolved" in text.output
