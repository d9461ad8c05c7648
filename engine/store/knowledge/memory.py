"""MemoryRepository: an in-process fake of the knowledge repository for fast tests.

It keeps the SQL repository's behaviour, foreign keys included: a save builds the new state
aside, checks every reference, and only then swaps it in, so a failed save changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from engine.errors import StoreError
from engine.store.knowledge.repository import (
    faq_reference_problem,
    keyed_records,
    merged_pack_names,
    record_key,
    resolution_reference_problem,
    topic_positions,
)
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

_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class _State:
    version: int = 0
    packs: str = ""
    sources: dict[str, Source] = field(default_factory=dict)
    evidence: dict[str, Evidence] = field(default_factory=dict)
    concepts: dict[str, Concept] = field(default_factory=dict)
    rules: dict[str, Rule] = field(default_factory=dict)
    faqs: dict[str, FaqEntry] = field(default_factory=dict)
    # topic id -> (its place among its pack's topics, the topic)
    topics: dict[str, tuple[int, PlanningTopic]] = field(default_factory=dict)
    resolutions: dict[str, ConflictResolution] = field(default_factory=dict)
    owners: dict[str, str] = field(default_factory=dict)  # record_key -> the pack it came from


class MemoryRepository:
    """KnowledgeRepository held in memory; starts empty at version 0."""

    def __init__(self) -> None:
        self._state = _State()

    def version(self) -> int:
        return self._state.version

    def load_knowledge(self) -> KnowledgeBase:
        state = self._state
        return KnowledgeBase(
            version=state.version,
            sources=tuple(state.sources[key] for key in sorted(state.sources)),
            evidence=tuple(state.evidence[key] for key in sorted(state.evidence)),
            concepts=tuple(state.concepts[key] for key in sorted(state.concepts)),
            rules=tuple(state.rules[key] for key in sorted(state.rules)),
            faqs=tuple(state.faqs[key] for key in sorted(state.faqs)),
            topics=tuple(
                topic
                for _, _, _, topic in sorted(
                    (topic.pack, place, key, topic) for key, (place, topic) in state.topics.items()
                )
            ),
            resolutions=tuple(state.resolutions[key] for key in sorted(state.resolutions)),
        )

    def save_knowledge(self, contents: PackContents, packs: Sequence[str]) -> int:
        state = self._state
        new_ids = {item.id for item in contents.evidence}
        replaced_keys = {item.key for item in contents.evidence}
        evidence = {
            ev_id: item
            for ev_id, item in state.evidence.items()
            if ev_id in new_ids or item.key not in replaced_keys
        }
        evidence.update({item.id: item for item in contents.evidence})
        held = set(keyed_records(contents))
        gone = {key for key, pack in state.owners.items() if pack in packs} - held
        # a record saved again belongs to the pack that saved it (none, for a bare save); a
        # topic always to its own pack, as the SQL store's topic.pack column says
        topic_owners = {record_key("topic", topic.id): topic.pack for topic in contents.topics}
        owners = {k: v for k, v in state.owners.items() if k not in held}
        owners |= dict(contents.owners) | topic_owners
        positioned = {topic.id: (at, topic) for at, topic in topic_positions(contents.topics)}

        def kept(kind: str, records: dict[str, _T]) -> dict[str, _T]:
            # what the loaded packs held before and hold no longer is removed, as in SQL
            return {k: v for k, v in records.items() if record_key(kind, k) not in gone}

        new_state = _State(
            version=state.version + 1,
            packs=merged_pack_names(state.packs, packs),
            sources=kept("source", {**state.sources, **{i.id: i for i in contents.sources}}),
            evidence=kept("evidence", evidence),
            concepts=kept("concept", {**state.concepts, **{i.slug: i for i in contents.concepts}}),
            rules=kept("rule", {**state.rules, **{item.id: item for item in contents.rules}}),
            faqs=kept("faq", {**state.faqs, **{item.id: item for item in contents.faqs}}),
            topics=kept("topic", {**state.topics, **positioned}),
            resolutions=kept(
                "resolution", {**state.resolutions, **{r.id: r for r in contents.resolutions}}
            ),
            owners={key: pack for key, pack in owners.items() if key not in gone},
        )
        _check_references(new_state)
        self._commit(new_state)
        return new_state.version

    def _commit(self, new_state: _State) -> None:
        """The last step of a save; tests replace it to inject a failure before the swap."""
        self._state = new_state

    def counts(self) -> dict[str, int]:
        state = self._state
        return {
            "sources": len(state.sources),
            "evidence": len(state.evidence),
            "concepts": len(state.concepts),
            "rules": len(state.rules),
            "pointers": sum(len(rule.pointers) for rule in state.rules.values()),
            "faqs": len(state.faqs),
            "topics": len(state.topics),
            "resolutions": len(state.resolutions),
        }

    def owned(self, packs: Sequence[str]) -> frozenset[str]:
        return frozenset(key for key, pack in self._state.owners.items() if pack in packs)

    def get_rule(self, rule_id: str) -> Rule | None:
        return self._state.rules.get(rule_id)

    def list_concepts(self) -> tuple[Concept, ...]:
        concepts = self._state.concepts
        return tuple(concepts[slug] for slug in sorted(concepts))


def _check_references(state: _State) -> None:
    """Fail like the database's foreign keys would, naming the first broken reference."""
    keys = [item.key for item in state.evidence.values()]
    if len(keys) != len(set(keys)):
        raise StoreError("saving the knowledge base failed: two evidence rows share a key")
    for item in state.evidence.values():
        if item.source_id not in state.sources:
            raise _broken(f"evidence {item.key!r}", f"source {item.source_id!r}")
    for rule in state.rules.values():
        if rule.concept not in state.concepts:
            raise _broken(f"rule {rule.id!r}", f"concept {rule.concept!r}")
        for pointer in rule.pointers:
            if pointer.evidence_id not in state.evidence:
                raise _broken(f"rule {rule.id!r}", f"evidence {pointer.evidence_id!r}")
    for faq in state.faqs.values():
        if faq.concept not in state.concepts:
            raise _broken(f"faq {faq.id!r}", f"concept {faq.concept!r}")
    rule_concepts = {rule.id: rule.concept for rule in state.rules.values()}
    faqs = (state.faqs[key] for key in sorted(state.faqs))
    problem = faq_reference_problem(faqs, rule_concepts)
    for resolution in state.resolutions.values():
        for rule_id in resolution.conflict:
            if rule_id not in state.rules:
                raise _broken(f"resolution {resolution.id!r}", f"rule {rule_id!r}")
    resolutions = (state.resolutions[key] for key in sorted(state.resolutions))
    problem = problem or resolution_reference_problem(resolutions, set(state.evidence))
    if problem:
        raise StoreError(f"saving the knowledge base failed and nothing was written: {problem}")


def _broken(record: str, target: str) -> StoreError:
    return StoreError(
        f"saving the knowledge base failed and nothing was written: {record} refers to "
        f"missing {target}"
    )
