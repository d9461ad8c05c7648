"""Planning topics (issue 11): read from pack.yaml, checked, stored and carried by the snapshot."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.conditions import fields_of, parse_condition
from engine.errors import PackRefused
from engine.service import AnswerService
from engine.snapshot import compile_snapshot
from engine.store.knowledge.packs import (
    PackContents,
    PackDiff,
    diff_packs,
    load_packs,
    pack_paths,
    read_packs,
    verify_packs,
)
from engine.store.knowledge.repository import KnowledgeRepository
from engine.types import LANGUAGES, ChecklistItem, PlanningTopic

MINI = Path(__file__).parent / "data" / "packs" / "mini"
VAT_TABLE = ChecklistItem(
    fact="vat_table",
    weight=3,
    question={
        "en": "Which VAT table do your goods or services fall under (I or II)?",
        "hr": "U koju tablicu PDV-a spadaju vaša dobra ili usluge (I ili II)?",
        "nl": "Onder welke btw-tabel vallen uw goederen of diensten (I of II)?",
    },
    kind="fact",
)
MINI_TOPIC = PlanningTopic(
    id="mini_btw",
    pack="mini",
    label={"en": "VAT rates", "hr": "Stope PDV-a", "nl": "Btw-tarieven"},
    checklist=(VAT_TABLE,),
)
US_TOPICS = [
    ("income_cash_flow", "Income Stability & Cash Flow"),
    ("healthcare_medicare", "Healthcare & Medicare Strategy"),
    ("housing_geography", "Housing & Geography"),
    ("tax_efficiency_rmds", "Tax Efficiency & RMDs"),
    ("longevity_inflation", "Longevity & Inflation Risk"),
    ("long_term_care", "Long-Term Care"),
    ("lifestyle_purpose", "Lifestyle Design & Purpose"),
    ("estate_planning", "Estate Planning"),
]
HR_TOPICS = ["pdv", "pausal", "dohodak", "doprinosi", "dobit", "fiskalizacija"]
NL_TOPICS = ["btw", "inkomstenbelasting", "ondernemer"]


@pytest.fixture(scope="module")
def bundled() -> PackContents:
    return verify_packs(pack_paths([]))


def edited_pack(tmp_path: Path, name: str, edit: Any) -> Path:
    """A copy of the mini pack called `name` whose pack.yaml `edit` changed."""
    folder = tmp_path / name
    shutil.copytree(MINI, folder)
    meta = yaml.safe_load((folder / "pack.yaml").read_text(encoding="utf-8"))
    edit(meta)
    (folder / "pack.yaml").write_text(yaml.safe_dump(meta, allow_unicode=True, sort_keys=False))
    return folder


def test_the_mini_pack_declares_its_topic() -> None:
    contents = read_packs([MINI])
    assert contents.topics == (MINI_TOPIC,)
    assert contents.owners["topic:mini_btw"] == "mini"


def test_subtopic_and_kind_have_defaults(tmp_path: Path) -> None:
    def bare_item(meta: Any) -> None:
        item = meta["topics"][0]["checklist"][0]
        del item["kind"]
        item["subtopic"] = "rates"

    (topic,) = read_packs([edited_pack(tmp_path, "mini", bare_item)]).topics
    assert topic.checklist == (dataclasses.replace(VAT_TABLE, subtopic="rates"),)


def test_us_retirement_topics_are_the_eight_in_order(bundled: PackContents) -> None:
    us = [topic for topic in bundled.topics if topic.pack == "us-retirement"]
    assert [(topic.id, topic.label["en"]) for topic in us] == US_TOPICS


def test_hr_and_nl_topics(bundled: PackContents) -> None:
    assert [topic.id for topic in bundled.topics if topic.pack == "hr"] == HR_TOPICS
    assert [topic.id for topic in bundled.topics if topic.pack == "nl"] == NL_TOPICS


def test_every_bundled_topic_is_complete(bundled: PackContents) -> None:
    for topic in bundled.topics:
        assert set(topic.label) == set(LANGUAGES), topic.id
        assert 3 <= len(topic.checklist) <= 6, topic.id
        heaviest = max(item.weight for item in topic.checklist)
        assert topic.checklist[0].weight == heaviest, topic.id  # the most decisive fact first
        for item in topic.checklist:
            assert set(item.question) == set(LANGUAGES), (topic.id, item.fact)
            assert all(text.endswith("?") for text in item.question.values()), item.fact


def test_tax_efficiency_asks_for_the_birth_year_first(bundled: PackContents) -> None:
    topic = next(t for t in bundled.topics if t.id == "tax_efficiency_rmds")
    first = topic.checklist[0]
    assert (first.fact, first.subtopic, first.kind) == ("birth_year", "rmds", "fact")
    assert first.question == {
        "en": "In which year were you born?",
        "hr": "U kojoj ste godini rođeni?",
        "nl": "In welk jaar bent u geboren?",
    }


def test_every_condition_field_of_a_bundled_pack_is_on_its_checklists(
    bundled: PackContents,
) -> None:
    for pack in ("hr", "nl", "us-retirement"):
        facts = {i.fact for t in bundled.topics if t.pack == pack for i in t.checklist}
        rules = (r for r in bundled.rules if bundled.owners[f"rule:{r.id}"] == pack)
        read = set().union(*(fields_of(parse_condition(r.applies_when)) for r in rules))
        assert read and read <= facts, (pack, read - facts)


def test_a_broken_item_does_not_make_the_conditions_look_uncovered(tmp_path: Path) -> None:
    def zero_weight(meta: Any) -> None:
        meta["topics"][0]["checklist"][0]["weight"] = 0

    with pytest.raises(PackRefused) as refused:
        verify_packs([edited_pack(tmp_path, "mini", zero_weight)])
    assert [p.record for p in refused.value.problems] == ["topic 'mini_btw' item 'vat_table'"]


def test_another_packs_checklist_does_not_cover_a_pack(tmp_path: Path) -> None:
    """Each pack asks for what its own conditions read."""

    def other_fact(meta: Any) -> None:
        meta["topics"][0]["checklist"][0]["fact"] = "vat_category"

    def renamed(meta: Any) -> None:
        meta["topics"][0]["id"] = "other_btw"

    with pytest.raises(PackRefused) as refused:
        read_packs([edited_pack(tmp_path, "mini", other_fact), edited_pack(tmp_path, "x", renamed)])
    uncovered = [p for p in refused.value.problems if "which no topic of pack 'mini'" in p.problem]
    assert [p.record for p in uncovered] == [
        "rule 'nl-btw-verlaagd-tarief-2019'",
        "rule 'nl-btw-nultarief'",
    ]
    assert all(p.file.endswith("mini/wet-ob-art9.yaml") for p in uncovered)


def second_topic(contents: PackContents) -> PackContents:
    """The mini pack with a second topic, declared before the first (declared order wins)."""
    extra = PlanningTopic(
        id="a_first",
        pack="mini",
        label={"en": "First", "hr": "Prvo", "nl": "Eerst"},
        checklist=(
            dataclasses.replace(VAT_TABLE, weight=1, subtopic="x", kind="preference"),
            ChecklistItem("birth_year", 2, {"en": "Year?", "hr": "Godina?", "nl": "Jaar?"}),
        ),
    )
    return dataclasses.replace(contents, topics=(extra, *contents.topics))


def test_topics_round_trip_in_pack_then_declared_order(repo: KnowledgeRepository) -> None:
    mini = second_topic(read_packs([MINI]))
    other = PlanningTopic("aaa", "another", {"en": "A", "hr": "A", "nl": "A"}, (VAT_TABLE,))
    repo.save_knowledge(mini, ["mini"])
    repo.save_knowledge(PackContents((), (), (), (), topics=(other,)), ["another"])
    knowledge = repo.load_knowledge()
    assert knowledge.topics == (other, *mini.topics)  # "another" < "mini"; then as declared
    assert repo.counts()["topics"] == 3
    assert repo.owned(["mini"]) >= {"topic:a_first", "topic:mini_btw"}
    assert repo.owned(["another"]) == {"topic:aaa"}
    assert repo.load_knowledge() == knowledge  # reads are deterministic


def test_a_pack_load_replaces_the_topics_it_held(repo: KnowledgeRepository) -> None:
    other = PlanningTopic("aaa", "another", {"en": "A", "hr": "A", "nl": "A"}, (VAT_TABLE,))
    repo.save_knowledge(PackContents((), (), (), (), topics=(other,)), ["another"])
    repo.save_knowledge(second_topic(read_packs([MINI])), ["mini"])
    load_packs(repo, [MINI])
    assert [t.id for t in repo.load_knowledge().topics] == ["aaa", "mini_btw"]
    assert repo.counts()["topics"] == 2


def test_kb_diff_sees_a_topic_added_changed_or_moved(
    repo: KnowledgeRepository, tmp_path: Path
) -> None:
    load_packs(repo, [MINI])
    assert diff_packs(repo, [MINI]) == PackDiff((), (), ())

    def reworded_and_preceded(meta: Any) -> None:
        meta["topics"][0]["label"]["en"] = "VAT"
        meta["topics"].insert(0, {**meta["topics"][0], "id": "mini_new"})

    diff = diff_packs(repo, [edited_pack(tmp_path, "mini", reworded_and_preceded)])
    assert diff == PackDiff(("topic:mini_new",), ("topic:mini_btw",), ())


def test_the_snapshot_carries_the_topics_in_order(repo: KnowledgeRepository) -> None:
    load_packs(repo, pack_paths([]))
    snapshot = compile_snapshot(repo.load_knowledge())
    assert [topic.pack for topic in snapshot.topics] == ["hr"] * 6 + ["nl"] * 3 + [
        "us-retirement"
    ] * 8
    ids = [topic.id for topic in snapshot.topics]
    assert ids == HR_TOPICS + NL_TOPICS + [topic_id for topic_id, _ in US_TOPICS]
    assert snapshot.topics == verify_packs(pack_paths([])).topics
    assert AnswerService(repo).snapshot().topics == snapshot.topics
