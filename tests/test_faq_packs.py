"""The `faq` section of knowledge packs: reading, refusal reasons, loading, the bundled entries."""

from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.errors import PackProblem, PackRefused
from engine.store.knowledge.packs import load_packs, pack_paths, read_packs, verify_packs
from engine.store.knowledge.repository import KnowledgeRepository
from engine.types import FaqEntry

MINI = Path(__file__).parent / "data" / "packs" / "mini"
FAQ_FILE = "90-faq.yaml"
GENERAL = "nl-btw-algemeen-tarief"
SPECIAL = "nl-btw-bijzondere-tarieven"
DELETE = object()


def faq_records() -> list[dict[str, Any]]:
    """Two valid entries for the mini pack; tests break one field at a time."""
    return [
        {"id": "mini-faq-tarief-nl", "language": "nl", "question": "Wat is het btw-tarief?",
         "concept": GENERAL},
        {"id": "mini-faq-laag-en", "language": "en",
         "question": "What is the reduced VAT rate in the Netherlands?", "concept": SPECIAL,
         "rules": ["nl-btw-verlaagd-tarief-2019"]},
    ]  # fmt: skip


def mini_with_faq(
    tmp_path: Path, edit: Callable[[list[dict[str, Any]]], None] | None = None
) -> Path:
    """A copy of the mini pack plus a 90-faq.yaml of `faq_records()`, with `edit` applied."""
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    records = faq_records()
    if edit is not None:
        edit(records)
    text = yaml.safe_dump({"faq": records}, allow_unicode=True, sort_keys=False)
    (folder / FAQ_FILE).write_text(text, encoding="utf-8")
    return folder


def setting(index: int, field: str, value: object) -> Callable[[list[dict[str, Any]]], None]:
    """An edit that sets (or with DELETE removes) one field of record `index`."""

    def edit(records: list[dict[str, Any]]) -> None:
        if value is DELETE:
            del records[index][field]
        else:
            records[index][field] = value

    return edit


def adding(**record: object) -> Callable[[list[dict[str, Any]]], None]:
    """An edit that appends `record` after the two valid ones."""

    def edit(records: list[dict[str, Any]]) -> None:
        records.append(record)

    return edit


def problems_of(folder: Path) -> tuple[PackProblem, ...]:
    with pytest.raises(PackRefused) as caught:
        verify_packs([folder])
    return caught.value.problems


def test_faq_entries_are_read_in_file_order(tmp_path: Path) -> None:
    contents = verify_packs([mini_with_faq(tmp_path)])
    assert contents.faqs == (
        FaqEntry("mini-faq-tarief-nl", "nl", "Wat is het btw-tarief?", GENERAL),
        FaqEntry(
            "mini-faq-laag-en",
            "en",
            "What is the reduced VAT rate in the Netherlands?",
            SPECIAL,
            ("nl-btw-verlaagd-tarief-2019",),
        ),
    )


def test_the_same_question_in_two_languages_is_two_entries(tmp_path: Path) -> None:
    same = adding(id="mini-faq-tarief-en", language="en", question="Wat is het btw-tarief?",
                  concept=GENERAL)  # fmt: skip
    assert len(verify_packs([mini_with_faq(tmp_path, same)]).faqs) == 3


TARIEF = "faq 'mini-faq-tarief-nl'"
LAAG = "faq 'mini-faq-laag-en'"
SECOND_TARIEF = f"{TARIEF} (first in "
BAD_FAQS = [
    pytest.param(setting(0, "answer", "21 %"), TARIEF, "unknown field 'answer'",
                 id="unknown-field"),
    pytest.param(setting(0, "concept", DELETE), TARIEF, "missing required field 'concept'",
                 id="missing-concept-field"),
    pytest.param(setting(0, "language", DELETE), TARIEF, "missing required field 'language'",
                 id="missing-language"),
    pytest.param(setting(0, "id", DELETE), "faq #1", "missing required field 'id'",
                 id="missing-id"),
    pytest.param(setting(0, "question", DELETE), TARIEF, "missing required field 'question'",
                 id="missing-question"),
    pytest.param(setting(0, "language", "de"), TARIEF, "unknown language 'de'",
                 id="bad-language"),
    pytest.param(setting(0, "question", ""), TARIEF, "missing required field 'question'",
                 id="empty-question"),
    pytest.param(setting(0, "question", "   "), TARIEF, "question is empty",
                 id="blank-question"),
    pytest.param(setting(0, "question", 21), TARIEF, "question must be a string",
                 id="question-not-text"),
    pytest.param(adding(id="mini-faq-tarief-nl", language="nl", question="Hoeveel btw?",
                        concept=GENERAL), TARIEF, "duplicate faq id 'mini-faq-tarief-nl'",
                 id="duplicate-id"),
    pytest.param(adding(id="mini-faq-tarief-nl-2", language="nl",
                        question="  WAT is het   BTW-tarief ", concept=GENERAL),
                 "faq 'mini-faq-tarief-nl-2'",
                 "duplicate faq question 'nl: wat is het btw-tarief' (first in",
                 id="duplicate-folded-question"),
    pytest.param(setting(0, "concept", "nl-no-such-concept"), TARIEF,
                 "unknown concept 'nl-no-such-concept'", id="unknown-concept"),
    pytest.param(setting(1, "rules", ["nl-no-such-rule"]), LAAG, "unknown rule 'nl-no-such-rule'",
                 id="unknown-rule"),
    pytest.param(setting(1, "rules", ["nl-btw-algemeen-tarief-2012"]), LAAG,
                 "rule 'nl-btw-algemeen-tarief-2012' belongs to concept 'nl-btw-algemeen-tarief', "
                 "not 'nl-btw-bijzondere-tarieven'", id="rule-of-another-concept"),
    pytest.param(setting(1, "rules", "nl-btw-verlaagd-tarief-2019"), LAAG,
                 "rules must be a list of non-empty strings", id="rules-not-a-list"),
    pytest.param(setting(1, "rules", ["nl-btw-verlaagd-tarief-2019"] * 2), LAAG,
                 "rules lists 'nl-btw-verlaagd-tarief-2019' more than once", id="rule-twice"),
]  # fmt: skip


@pytest.mark.parametrize(("edit", "record", "problem"), BAD_FAQS)
def test_each_bad_faq_is_reported_with_file_and_record(
    tmp_path: Path, edit: Callable[[list[dict[str, Any]]], None], record: str, problem: str
) -> None:
    folder = mini_with_faq(tmp_path, edit)
    found = [(p.file, p.record) for p in problems_of(folder) if problem in p.problem]
    assert found == [(str(folder / FAQ_FILE), record)], problems_of(folder)


def test_every_problem_is_reported_in_one_run(tmp_path: Path) -> None:
    def break_both(records: list[dict[str, Any]]) -> None:
        records[0]["language"] = "de"
        records[1]["concept"] = "nl-no-such-concept"

    problems = problems_of(mini_with_faq(tmp_path, break_both))
    assert [(p.record, p.problem.split(";")[0]) for p in problems] == [
        (TARIEF, "unknown language 'de'"),
        (LAAG, "unknown concept 'nl-no-such-concept'"),
        (LAAG, "rule 'nl-btw-verlaagd-tarief-2019' belongs to concept "
               "'nl-btw-bijzondere-tarieven', not 'nl-no-such-concept'"),
    ]  # fmt: skip


def test_faq_section_must_be_a_list_of_mappings(tmp_path: Path) -> None:
    folder = mini_with_faq(tmp_path)
    (folder / FAQ_FILE).write_text("faq: {id: x}\n", encoding="utf-8")
    assert [p.problem for p in problems_of(folder)] == ["faq must be a list"]
    (folder / FAQ_FILE).write_text('faq: ["Wat is het btw-tarief?"]\n', encoding="utf-8")
    assert [(p.record, p.problem) for p in problems_of(folder)] == [
        ("faq #1", "must be a mapping of fields")
    ]


def test_a_faq_may_point_at_a_concept_of_another_pack_loaded_with_it(tmp_path: Path) -> None:
    """References resolve across the packs loaded together, and only across those."""
    other = tmp_path / "other"
    other.mkdir()
    # the same pack.yaml, but topic ids are unique across the packs loaded together
    meta = (MINI / "pack.yaml").read_text(encoding="utf-8").replace("id: mini_", "id: other_")
    (other / "pack.yaml").write_text(meta, encoding="utf-8")
    records = {"faq": [faq_records()[1]]}
    (other / FAQ_FILE).write_text(yaml.safe_dump(records), encoding="utf-8")
    assert [f.id for f in read_packs([MINI, other]).faqs] == ["mini-faq-laag-en"]
    problems = [p for p in problems_of(other) if p.record.startswith("faq")]
    assert [(p.record, p.problem) for p in problems] == [
        (LAAG, "unknown concept 'nl-btw-bijzondere-tarieven'"),
        (LAAG, "unknown rule 'nl-btw-verlaagd-tarief-2019'"),
    ]


def test_loading_saves_faqs_and_reports_their_count(
    repo: KnowledgeRepository, tmp_path: Path
) -> None:
    messages: list[str] = []
    assert load_packs(repo, [mini_with_faq(tmp_path)], messages.append) == 1
    assert messages[1].endswith("3 rules, 2 FAQ entries, 1 planning topics")
    assert [f.id for f in repo.load_knowledge().faqs] == ["mini-faq-laag-en", "mini-faq-tarief-nl"]
    assert repo.counts()["faqs"] == 2


@pytest.mark.parametrize("preloaded", [False, True])
def test_a_refused_pack_with_a_bad_faq_writes_nothing(
    repo: KnowledgeRepository, tmp_path: Path, preloaded: bool
) -> None:
    if preloaded:
        load_packs(repo, [mini_with_faq(tmp_path / "good")])
    before = (repo.version(), repo.counts(), repo.load_knowledge())
    bad = mini_with_faq(tmp_path / "bad", setting(1, "rules", ["nl-btw-algemeen-tarief-2012"]))
    with pytest.raises(PackRefused, match="belongs to concept"):
        load_packs(repo, [bad])
    assert (repo.version(), repo.counts(), repo.load_knowledge()) == before


@pytest.fixture(scope="module")
def bundled() -> dict[str, tuple[FaqEntry, ...]]:
    """Each bundled pack's FAQ entries, read with every bundled pack loaded."""
    contents = verify_packs(pack_paths([]))
    return {
        path.name: tuple(f for f in contents.faqs if f.id.startswith(_prefix(path.name)))
        for path in pack_paths([])
    }


def _prefix(pack: str) -> str:
    return f"{pack.split('-')[0]}-faq-"


def test_every_bundled_pack_has_faq_entries_in_its_languages(
    bundled: dict[str, tuple[FaqEntry, ...]],
) -> None:
    languages = {pack: Counter(f.language for f in faqs) for pack, faqs in bundled.items()}
    assert languages == {
        "hr": Counter({"hr": 11, "en": 8, "nl": 6}),
        "nl": Counter({"nl": 13, "en": 8}),
        "us-retirement": Counter({"en": 14}),
    }
    total = sum(len(faqs) for faqs in bundled.values())
    assert total == len(verify_packs(pack_paths([])).faqs)  # every id carries its pack prefix


def test_every_bundled_faq_points_at_its_own_packs_concept_and_rules(
    bundled: dict[str, tuple[FaqEntry, ...]],
) -> None:
    for pack, faqs in bundled.items():
        contents = verify_packs(pack_paths([pack]))  # alone: no other pack's concepts
        concepts = {c.slug for c in contents.concepts}
        rule_concepts = {r.id: r.concept for r in contents.rules}
        for faq in faqs:
            assert faq.concept in concepts, faq
            assert all(rule_concepts.get(rule) == faq.concept for rule in faq.rules), faq
            assert faq.question.endswith("?") and faq.id.endswith(f"-{faq.language}"), faq


def test_bundled_packs_load_with_their_faq_entries(repo: KnowledgeRepository) -> None:
    expected = verify_packs(pack_paths([])).faqs
    load_packs(repo, pack_paths([]))
    assert repo.load_knowledge().faqs == tuple(sorted(expected, key=lambda f: f.id))
    assert repo.counts()["faqs"] == len(expected)
