"""FAQ entries in the repositories: one contract body run on MemoryRepository and SqlRepository."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from engine.errors import StoreError
from engine.store.knowledge.packs import PackContents, read_packs
from engine.store.knowledge.repository import KnowledgeRepository
from engine.types import FaqEntry

MINI = Path(__file__).parent / "data" / "packs" / "mini"
GENERAL = "nl-btw-algemeen-tarief"
SPECIAL = "nl-btw-bijzondere-tarieven"
RATE = FaqEntry("faq-rate-nl", "nl", "Wat is het btw-tarief?", GENERAL)
REDUCED = FaqEntry(
    "faq-reduced-en",
    "en",
    "What is the reduced VAT rate in the Netherlands?",
    SPECIAL,
    ("nl-btw-verlaagd-tarief-2019",),
)
BOTH = FaqEntry(
    "faq-both-nl",
    "nl",
    "Welke bijzondere btw-tarieven zijn er?",
    SPECIAL,
    ("nl-btw-nultarief", "nl-btw-verlaagd-tarief-2019"),  # pack order, not sorted
)


@pytest.fixture(scope="module")
def mini() -> PackContents:
    return read_packs([MINI])


def with_faqs(contents: PackContents, *faqs: FaqEntry) -> PackContents:
    return dataclasses.replace(contents, faqs=faqs)


def test_faqs_round_trip_sorted_by_id(repo: KnowledgeRepository, mini: PackContents) -> None:
    assert repo.save_knowledge(with_faqs(mini, RATE, REDUCED, BOTH), ["mini"]) == 1
    knowledge = repo.load_knowledge()
    assert knowledge.faqs == (BOTH, RATE, REDUCED)
    assert knowledge.faqs[0].rules == ("nl-btw-nultarief", "nl-btw-verlaagd-tarief-2019")
    assert repo.counts()["faqs"] == 3
    assert repo.load_knowledge() == knowledge  # reads are deterministic


def test_a_store_without_faqs_loads_an_empty_tuple(
    repo: KnowledgeRepository, mini: PackContents
) -> None:
    repo.save_knowledge(mini, ["mini"])
    assert repo.load_knowledge().faqs == ()
    assert repo.counts()["faqs"] == 0


def test_reload_updates_faqs_by_id_and_keeps_the_others(
    repo: KnowledgeRepository, mini: PackContents
) -> None:
    repo.save_knowledge(with_faqs(mini, RATE, REDUCED), ["mini"])
    reworded = dataclasses.replace(RATE, question="Hoeveel btw betaal ik?", rules=())
    narrowed = dataclasses.replace(REDUCED, rules=("nl-btw-nultarief",))
    assert repo.save_knowledge(with_faqs(mini, reworded, narrowed), ["mini"]) == 2
    assert repo.load_knowledge().faqs == (reworded, narrowed)
    assert repo.save_knowledge(with_faqs(mini, BOTH), ["other"]) == 3
    assert repo.load_knowledge().faqs == (BOTH, reworded, narrowed)
    assert repo.counts()["faqs"] == 3


BROKEN = [
    pytest.param(
        dataclasses.replace(RATE, concept="nl-no-such-concept"),
        None,  # the database's foreign key words this one itself
        id="missing-concept",
    ),
    pytest.param(
        dataclasses.replace(RATE, rules=("nl-no-such-rule",)),
        "faq 'faq-rate-nl' refers to missing rule 'nl-no-such-rule'",
        id="missing-rule",
    ),
    pytest.param(
        dataclasses.replace(RATE, rules=("nl-btw-nultarief",)),
        "faq 'faq-rate-nl' names rule 'nl-btw-nultarief' of concept 'nl-btw-bijzondere-tarieven'",
        id="rule-of-another-concept",
    ),
]


@pytest.mark.parametrize("preloaded", [False, True])
@pytest.mark.parametrize(("faq", "message"), BROKEN)
def test_a_broken_faq_reference_fails_the_save_and_writes_nothing(
    repo: KnowledgeRepository,
    mini: PackContents,
    faq: FaqEntry,
    message: str | None,
    preloaded: bool,
) -> None:
    if preloaded:
        repo.save_knowledge(with_faqs(mini, BOTH), ["mini"])
    before = (repo.version(), repo.counts(), repo.load_knowledge())
    changed_rule = dataclasses.replace(mini.rules[0], value="22")
    contents = dataclasses.replace(mini, rules=(changed_rule, *mini.rules[1:]), faqs=(faq,))
    with pytest.raises(StoreError, match="nothing was written") as caught:
        repo.save_knowledge(contents, ["mini"])
    assert message is None or message in str(caught.value)
    assert (repo.version(), repo.counts(), repo.load_knowledge()) == before


def test_moving_a_rule_away_from_a_stored_faqs_concept_fails(
    repo: KnowledgeRepository, mini: PackContents
) -> None:
    """The check covers FAQ entries saved earlier, not only the ones being saved."""
    repo.save_knowledge(with_faqs(mini, REDUCED), ["mini"])
    before = repo.load_knowledge()
    moved = [
        dataclasses.replace(rule, concept=GENERAL) if rule.id in REDUCED.rules else rule
        for rule in mini.rules
    ]
    with pytest.raises(StoreError, match="names rule 'nl-btw-verlaagd-tarief-2019'"):
        repo.save_knowledge(dataclasses.replace(mini, rules=tuple(moved)), ["mini"])
    assert repo.load_knowledge() == before
