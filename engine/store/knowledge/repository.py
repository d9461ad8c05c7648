"""The knowledge repository interface: what the service and the CLI need from a store.

Two implementations keep the same behaviour: SqlRepository (sql.py, SQLite or PostgreSQL) and
MemoryRepository (memory.py, a fake for fast tests). tests/test_store.py runs one contract test
body against both.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Protocol

from engine.types import (
    Concept,
    ConflictResolution,
    Evidence,
    FaqEntry,
    KnowledgeBase,
    PlanningTopic,
    Rule,
    Source,
)

if TYPE_CHECKING:
    from engine.store.knowledge.packs import PackContents

COUNT_KEYS: tuple[str, ...] = (
    "sources",
    "evidence",
    "concepts",
    "rules",
    "pointers",
    "faqs",
    "topics",
    "resolutions",
)


class KnowledgeRepository(Protocol):
    """Read and replace-by-id the knowledge base; every write is one all-or-nothing transaction."""

    def version(self) -> int:
        """The knowledge-base version: 0 before the first load, +1 on every load."""
        ...

    def load_knowledge(self) -> KnowledgeBase:
        """Everything stored, each kind sorted by id (concepts by slug), pointers in order.

        FAQ entries are in `faqs`, sorted by id, each with its rule ids in pack order;
        planning topics in `topics`, by pack name, then in the order their pack declares them.
        """
        ...

    def save_knowledge(self, contents: PackContents, packs: Sequence[str]) -> int:
        """Insert or update every record of `contents` by id, bump the version, return it.

        Each record remembers the pack it came from (`contents.owners`); records that one of
        `packs` held before and `contents` no longer holds are removed, so the store holds
        exactly what the loaded packs hold. Records of other packs are kept. A rule's pointers
        are replaced by the new ones. A planning topic belongs to its own `pack`, and keeps its
        place among that pack's topics in `contents.topics`.
        Evidence whose key now names a different text (a new id) replaces the old row; if other
        rules still cite the old row the save fails. So does a stored FAQ entry that names a
        missing rule or a rule of another concept (see `faq_reference_problem`). On any failure
        nothing is written and StoreError is raised.
        """
        ...

    def counts(self) -> dict[str, int]:
        """Row counts keyed by COUNT_KEYS."""
        ...

    def owned(self, packs: Sequence[str]) -> frozenset[str]:
        """The record_key of every stored record that one of `packs` loaded."""
        ...

    def get_rule(self, rule_id: str) -> Rule | None:
        """One rule by id, or None."""
        ...

    def list_concepts(self) -> tuple[Concept, ...]:
        """All concepts sorted by slug."""
        ...


def record_key(kind: str, name: str) -> str:
    """How a record is named across packs and stores: "rule:hr-pdv-opca-stopa-2013"."""
    return f"{kind}:{name}"


class Records(Protocol):
    """Anything holding the seven kinds of records: a KnowledgeBase or PackContents."""

    @property
    def sources(self) -> Sequence[Source]: ...
    @property
    def evidence(self) -> Sequence[Evidence]: ...
    @property
    def concepts(self) -> Sequence[Concept]: ...
    @property
    def rules(self) -> Sequence[Rule]: ...
    @property
    def faqs(self) -> Sequence[FaqEntry]: ...
    @property
    def topics(self) -> Sequence[PlanningTopic]: ...
    @property
    def resolutions(self) -> Sequence[ConflictResolution]: ...


def keyed_records(records: Records) -> dict[str, object]:
    """Every record by its record_key."""
    return {
        **{record_key("source", r.id): r for r in records.sources},
        **{record_key("evidence", r.id): r for r in records.evidence},
        **{record_key("concept", r.slug): r for r in records.concepts},
        **{record_key("rule", r.id): r for r in records.rules},
        **{record_key("faq", r.id): r for r in records.faqs},
        # a topic with its place in its pack, so moving it is a change too
        **{record_key("topic", t.id): (at, t) for at, t in topic_positions(records.topics)},
        **{record_key("resolution", r.id): r for r in records.resolutions},
    }


def topic_positions(topics: Iterable[PlanningTopic]) -> list[tuple[int, PlanningTopic]]:
    """Each topic with its place among the topics of its own pack (0, 1, ...), as stored."""
    placed: dict[str, int] = {}
    positioned: list[tuple[int, PlanningTopic]] = []
    for topic in topics:
        positioned.append((placed.get(topic.pack, 0), topic))
        placed[topic.pack] = placed.get(topic.pack, 0) + 1
    return positioned


def merged_pack_names(previous: str, packs: Sequence[str]) -> str:
    """The comma-separated, sorted union of pack names loaded so far (kept in kb_meta)."""
    names = {name for name in previous.split(",") if name} | set(packs)
    return ",".join(sorted(names))


def faq_reference_problem(faqs: Iterable[FaqEntry], rule_concepts: Mapping[str, str]) -> str | None:
    """The first FAQ entry naming a rule that is missing or belongs to another concept, if any.

    The rule ids are a JSON list, out of reach of foreign keys, so both repositories run this
    over everything stored before committing; `rule_concepts` maps every rule id to its concept.
    """
    for faq in faqs:
        for rule_id in faq.rules:
            concept = rule_concepts.get(rule_id)
            if concept is None:
                return f"faq {faq.id!r} refers to missing rule {rule_id!r}"
            if concept != faq.concept:
                return (
                    f"faq {faq.id!r} names rule {rule_id!r} of concept {concept!r}, "
                    f"not of its concept {faq.concept!r}"
                )
    return None


def resolution_reference_problem(
    resolutions: Iterable[ConflictResolution], evidence_ids: AbstractSet[str]
) -> str | None:
    """The first resolution whose winner is not one of its two rules or whose evidence is
    not stored, if any: its evidence list is JSON, out of reach of foreign keys."""
    for resolution in resolutions:
        named = f"resolution {resolution.id!r}"
        if resolution.winner not in resolution.conflict:
            return f"{named} names winner {resolution.winner!r} outside its conflict"
        for pointer in resolution.evidence:
            if pointer.evidence_id not in evidence_ids:
                return f"{named} refers to missing evidence {pointer.evidence_id!r}"
    return None
