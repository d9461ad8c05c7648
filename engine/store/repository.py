"""The knowledge repository interface: what the service and the CLI need from a store.

Two implementations keep the same behaviour: SqlRepository (sql.py, SQLite or PostgreSQL) and
MemoryRepository (memory.py, a fake for fast tests). tests/test_store.py runs one contract test
body against both.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from engine.types import Concept, KnowledgeBase, Rule

if TYPE_CHECKING:
    from engine.store.packs import PackContents

COUNT_KEYS: tuple[str, ...] = ("sources", "evidence", "concepts", "rules", "pointers")


class KnowledgeRepository(Protocol):
    """Read and replace-by-id the knowledge base; every write is one all-or-nothing transaction."""

    def version(self) -> int:
        """The knowledge-base version: 0 before the first load, +1 on every load."""
        ...

    def load_knowledge(self) -> KnowledgeBase:
        """Everything stored, each kind sorted by id (concepts by slug), pointers in order."""
        ...

    def save_knowledge(self, contents: PackContents, packs: Sequence[str]) -> int:
        """Insert or update every record of `contents` by id, bump the version, return it.

        Records not in `contents` are kept. A rule's pointers are replaced by the new ones.
        Evidence whose key now names a different text (a new id) replaces the old row; if other
        rules still cite the old row the save fails. On any failure nothing is written and
        StoreError is raised.
        """
        ...

    def counts(self) -> dict[str, int]:
        """Row counts keyed by COUNT_KEYS."""
        ...

    def get_rule(self, rule_id: str) -> Rule | None:
        """One rule by id, or None."""
        ...

    def list_concepts(self) -> tuple[Concept, ...]:
        """All concepts sorted by slug."""
        ...


def merged_pack_names(previous: str, packs: Sequence[str]) -> str:
    """The comma-separated, sorted union of pack names loaded so far (kept in kb_meta)."""
    names = {name for name in previous.split(",") if name} | set(packs)
    return ",".join(sorted(names))
