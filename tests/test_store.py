"""Contract tests for KnowledgeRepository: one body, run on MemoryRepository and SqlRepository."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from engine.errors import StoreError
from engine.store.knowledge.pack_records import evidence_id
from engine.store.knowledge.packs import PackContents, read_packs
from engine.store.knowledge.repository import COUNT_KEYS, KnowledgeRepository
from engine.types import Pointer

MINI = Path(__file__).parent / "data" / "packs" / "mini"
MINI_COUNTS = {
    "sources": 1, "evidence": 2, "concepts": 2, "rules": 3, "pointers": 3, "faqs": 0, "topics": 1,
    "resolutions": 0,
}  # fmt: skip
EMPTY_COUNTS = dict.fromkeys(COUNT_KEYS, 0)


@pytest.fixture(scope="module")
def mini() -> PackContents:
    return read_packs([MINI])


def test_empty_store(repo: KnowledgeRepository) -> None:
    assert repo.version() == 0
    assert repo.counts() == EMPTY_COUNTS
    knowledge = repo.load_knowledge()
    assert (knowledge.version, knowledge.rules, knowledge.concepts) == (0, (), ())
    assert repo.get_rule("nl-btw-algemeen-tarief-2012") is None
    assert repo.list_concepts() == ()


def test_save_round_trips_every_field(repo: KnowledgeRepository, mini: PackContents) -> None:
    assert repo.save_knowledge(mini, ["mini"]) == 1
    knowledge = repo.load_knowledge()
    assert knowledge.version == 1
    assert knowledge.sources == tuple(sorted(mini.sources, key=lambda s: s.id))
    assert knowledge.evidence == tuple(sorted(mini.evidence, key=lambda e: e.id))
    assert knowledge.concepts == tuple(sorted(mini.concepts, key=lambda c: c.slug))
    assert knowledge.rules == tuple(sorted(mini.rules, key=lambda r: r.id))
    assert all(e.fetched_at.tzinfo is not None for e in knowledge.evidence)
    assert repo.counts() == MINI_COUNTS


def test_reads_are_sorted_and_deterministic(repo: KnowledgeRepository, mini: PackContents) -> None:
    repo.save_knowledge(mini, ["mini"])
    first, second = repo.load_knowledge(), repo.load_knowledge()
    assert first == second
    assert [r.id for r in first.rules] == sorted(r.id for r in mini.rules)
    assert [c.slug for c in repo.list_concepts()] == sorted(c.slug for c in mini.concepts)


def test_get_rule_returns_pointers_in_order(repo: KnowledgeRepository, mini: PackContents) -> None:
    rule = dataclasses.replace(
        mini.rules[0], pointers=(mini.rules[0].pointers[0], mini.rules[1].pointers[0])
    )
    repo.save_knowledge(dataclasses.replace(mini, rules=(rule, *mini.rules[1:])), ["mini"])
    assert repo.get_rule(rule.id) == rule
    assert repo.counts()["pointers"] == 4


def test_saving_again_only_bumps_the_version(repo: KnowledgeRepository, mini: PackContents) -> None:
    repo.save_knowledge(mini, ["mini"])
    before = repo.load_knowledge()
    assert repo.save_knowledge(mini, ["mini"]) == 2
    after = repo.load_knowledge()
    assert dataclasses.replace(after, version=1) == before
    assert repo.counts() == MINI_COUNTS


def test_upsert_updates_by_id_and_keeps_the_rest(
    repo: KnowledgeRepository, mini: PackContents
) -> None:
    repo.save_knowledge(mini, ["mini"])
    concept = dataclasses.replace(mini.concepts[0], labels={"nl": "btw", "en": "VAT"})
    rule = dataclasses.replace(mini.rules[0], confidence=0.5, pointers=mini.rules[0].pointers * 2)
    partial = PackContents(sources=(), evidence=(), concepts=(concept,), rules=(rule,))
    repo.save_knowledge(partial, ["other"])
    assert repo.list_concepts()[0].labels == {"en": "VAT", "nl": "btw"}
    assert repo.get_rule(rule.id) == rule
    assert repo.counts() == {**MINI_COUNTS, "pointers": 4}


def test_new_text_for_an_evidence_key_replaces_the_old_row(
    repo: KnowledgeRepository, mini: PackContents
) -> None:
    repo.save_knowledge(mini, ["mini"])
    old = mini.evidence[0]
    text = old.text + " "
    new = dataclasses.replace(old, text=text, id=evidence_id(old.url, text))
    rules = tuple(
        dataclasses.replace(
            r,
            pointers=tuple(
                Pointer(new.id, p.quote) if p.evidence_id == old.id else p for p in r.pointers
            ),
        )
        for r in mini.rules
    )
    repo.save_knowledge(
        dataclasses.replace(mini, evidence=(new, mini.evidence[1]), rules=rules), []
    )
    ids = {e.id for e in repo.load_knowledge().evidence}
    assert new.id in ids and old.id not in ids
    assert repo.counts() == MINI_COUNTS


@pytest.mark.parametrize("broken", ["pointer", "concept", "source", "still_cited"])
def test_a_failed_save_writes_nothing(
    repo: KnowledgeRepository, mini: PackContents, broken: str
) -> None:
    repo.save_knowledge(mini, ["mini"])
    before = repo.load_knowledge()
    rule = mini.rules[0]
    if broken == "pointer":
        bad = dataclasses.replace(rule, pointers=(Pointer("ev_0000000000000000", "x"),))
        contents = dataclasses.replace(mini, rules=(bad,))
    elif broken == "concept":
        contents = dataclasses.replace(mini, rules=(dataclasses.replace(rule, concept="nope"),))
    elif broken == "source":
        evidence = dataclasses.replace(mini.evidence[0], source_id="nope")
        contents = dataclasses.replace(mini, evidence=(evidence,))
    else:  # evidence gets a new text but rules outside this save still cite the old one
        text = mini.evidence[0].text + "!"
        evidence = dataclasses.replace(
            mini.evidence[0], text=text, id=evidence_id(mini.evidence[0].url, text)
        )
        contents = PackContents(sources=(), evidence=(evidence,), concepts=(), rules=())
    with pytest.raises(StoreError, match="nothing was written"):
        repo.save_knowledge(contents, ["broken"])
    assert repo.load_knowledge() == before
    assert repo.counts() == MINI_COUNTS


def test_sql_store_keeps_fetched_at_in_utc(
    sql_repo: KnowledgeRepository, mini: PackContents
) -> None:
    amsterdam_winter = timezone(timedelta(hours=1))
    evidence = dataclasses.replace(
        mini.evidence[0], fetched_at=datetime(2026, 11, 22, 2, 30, tzinfo=amsterdam_winter)
    )
    sql_repo.save_knowledge(dataclasses.replace(mini, evidence=(evidence, mini.evidence[1])), [])
    stored = {e.id: e for e in sql_repo.load_knowledge().evidence}[evidence.id]
    assert stored.fetched_at == datetime(2026, 11, 22, 1, 30, tzinfo=UTC)
    assert stored.fetched_at.tzinfo == UTC
