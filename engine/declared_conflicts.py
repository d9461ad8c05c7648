"""The conflicts a knowledge base declares (`conflicts_with`), each open or resolved on the
record (`resolutions:`), for `navod kb conflicts`. Pure: a KnowledgeBase in, values out."""

from __future__ import annotations

from dataclasses import dataclass

from engine.types import ConflictResolution, KnowledgeBase, Rule


@dataclass(frozen=True, slots=True)
class DeclaredConflict:
    """Two rules a pack declares in conflict, in id order, and the resolution settling them."""

    concept: str
    rules: tuple[Rule, Rule]
    resolution: ConflictResolution | None

    @property
    def status(self) -> str:
        return "resolved" if self.resolution is not None else "open"


def declared_conflicts(knowledge: KnowledgeBase) -> tuple[DeclaredConflict, ...]:
    """Every pair of stored rules one of which names the other in `conflicts_with`, once,
    ordered by concept then rule ids; a pair naming a rule that is not stored is left out."""
    rules = {rule.id: rule for rule in knowledge.rules}
    decided = {frozenset(r.conflict): r for r in knowledge.resolutions}
    pairs = {
        tuple(sorted((rule.id, other)))
        for rule in knowledge.rules
        for other in rule.conflicts_with
        if other in rules and other != rule.id
    }
    found = [
        DeclaredConflict(rules[a].concept, (rules[a], rules[b]), decided.get(frozenset((a, b))))
        for a, b in pairs
    ]
    return tuple(sorted(found, key=lambda c: (c.concept, c.rules[0].id, c.rules[1].id)))
