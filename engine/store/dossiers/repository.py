"""The dossier repository: the protocol the service uses.

    DossierRepository        the protocol (below); implemented by SqlDossierRepository (sql.py)
                             and MemoryDossierRepository (memory.py)

A dossier changes only through `update` (lock, read, make the patch, append: one transaction),
`create` (with its first patch) or `apply`, which appends a patch's events if the dossier is
still at the version the patch was made from (engine/dossier/model.py).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Protocol

from engine.dossier.model import Dossier, Event, Patch
from engine.store.dossiers.convert import DossierSummary
from engine.types import Language, Surface


class DossierRepository(Protocol):
    """Dossiers by id; every write is one all-or-nothing transaction."""

    def create(
        self,
        dossier_id: str,
        asker: str,
        surface: Surface,
        language: Language,
        now: datetime,
        make_patch: Callable[[Dossier], Patch] | None = None,
    ) -> Dossier:
        """A new empty dossier at version 0, or, given `make_patch`, with the patch it makes
        from the empty dossier already applied (version 1), in the same transaction.
        StoreError if the id is taken."""
        ...

    def get(self, dossier_id: str) -> Dossier | None:
        """The dossier with all its events in seq order, or None."""
        ...

    def update(
        self, dossier_id: str, make_patch: Callable[[Dossier], Patch], now: datetime
    ) -> Dossier:
        """Lock the dossier, make the patch from it as stored and append it, in ONE
        transaction; concurrent updates of one dossier wait for each other, so none fails
        for being concurrent and `make_patch` runs once. Unknown id: DossierNotFound."""
        ...

    def apply(self, dossier_id: str, patch: Patch, now: datetime) -> Dossier:
        """Append patch.records as the next events, bump version, set updated_at (and language
        when patch.language is given) in ONE transaction, only if the stored version equals
        patch.base_version; else raise VersionConflict. Unknown id: DossierNotFound.

        An empty patch writes nothing and returns the stored dossier (checked the same way).
        """
        ...

    def shown(self, dossier_id: str) -> dict[int, bytes]:
        """The responses the dossier's turns were answered with, encoded, by the seq of their
        turn event (turns stored without one are absent)."""
        ...

    def delete(self, dossier_id: str) -> bool:
        """Delete the dossier and its events; False if there was none."""
        ...

    def recent(self, asker: str, limit: int) -> tuple[DossierSummary, ...]:
        """The asker's `limit` most recently updated dossiers, newest first (ties by id)."""
        ...

    def prune(self, now: datetime, max_age: timedelta, max_per_asker: int) -> int:
        """Delete dossiers not updated since `now - max_age`, then each key's beyond the
        newest `max_per_asker` (anonymous ones only by age), with their events; return how
        many dossiers went."""
        ...

    def refused_turns(self, since: datetime | None = None) -> tuple[Event, ...]:
        """Every stored turn that was refused, at or after `since` if given, oldest first (ties
        by dossier, then seq); the events alone, so no dossier id or asker leaves the store."""
        ...
