"""The dossier repository: the protocol the service uses, and `update_dossier`, the retry.

    DossierRepository        the protocol (below); implemented by SqlDossierRepository (sql.py)
                             and MemoryDossierRepository (memory.py)
    update_dossier           read, make a patch, apply it; again on a version conflict

A dossier changes only through `apply`, which appends a patch's events in one transaction if
the dossier is still at the version the patch was made from (engine/dossier/model.py).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Protocol

from engine.dossier.model import Dossier, Patch
from engine.errors import DossierNotFound, VersionConflict
from engine.store.dossiers.convert import DossierSummary
from engine.types import Language, Surface

# Seconds. The bound doubles from FIRST with every loss, up to MOST. Measured with 8 writers x
# 25 patches on one PostgreSQL dossier: a 50 ms cap left one call needing 29 of its 50 attempts,
# 200 ms at most 16 (and the run took less time); SQLite needs fewer either way.
_BACKOFF_FIRST = 0.001
_BACKOFF_MOST = 0.2


class DossierRepository(Protocol):
    """Dossiers by id; every write is one all-or-nothing transaction."""

    def create(
        self, dossier_id: str, asker: str, surface: Surface, language: Language, now: datetime
    ) -> Dossier:
        """A new empty dossier at version 0; StoreError if the id is taken."""
        ...

    def get(self, dossier_id: str) -> Dossier | None:
        """The dossier with all its events in seq order, or None."""
        ...

    def apply(self, dossier_id: str, patch: Patch, now: datetime) -> Dossier:
        """Append patch.records as the next events, bump version, set updated_at (and language
        when patch.language is given) in ONE transaction, only if the stored version equals
        patch.base_version; else raise VersionConflict. Unknown id: DossierNotFound.

        An empty patch writes nothing and returns the stored dossier (checked the same way).
        """
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


def update_dossier(
    repo: DossierRepository,
    dossier_id: str,
    make_patch: Callable[[Dossier], Patch],
    now: datetime,
    attempts: int = 50,
) -> Dossier:
    """Read the dossier, make the patch from it and apply it; on a VersionConflict (another
    writer got there first) read again and remake the patch, up to `attempts` times.

    `make_patch` must be pure: it runs once per attempt. DossierNotFound if the id is unknown;
    the last VersionConflict if every attempt lost.
    """
    if attempts < 1:
        raise ValueError(f"update_dossier: attempts must be at least 1, got {attempts}")
    for lost in range(attempts - 1):
        try:
            return _read_and_apply(repo, dossier_id, make_patch, now)
        except VersionConflict:
            _back_off(lost)  # another writer got there first: wait a little, then read again
    return _read_and_apply(repo, dossier_id, make_patch, now)


def _back_off(lost: int) -> None:
    """Sleep a random time up to a bound that doubles with each loss ("full jitter").

    Writers that lost together would otherwise reread and collide again at once; spread out,
    most find the dossier free. Without it, eight busy writers on one PostgreSQL dossier left
    some call losing all 50 of its attempts.
    """
    time.sleep(random.uniform(0, min(_BACKOFF_MOST, _BACKOFF_FIRST * 2**lost)))


def _read_and_apply(
    repo: DossierRepository,
    dossier_id: str,
    make_patch: Callable[[Dossier], Patch],
    now: datetime,
) -> Dossier:
    dossier = repo.get(dossier_id)
    if dossier is None:
        raise DossierNotFound(dossier_id)
    return repo.apply(dossier_id, make_patch(dossier), now)
