"""MemoryDossierRepository: the dossier store in process, for fast tests; same behaviour as SQL.

One lock makes every call atomic, which is what the SQL transactions give. Records pass
through the same payload conversion as the SQL rows, and moments are kept in UTC, so what comes
back equals what the SQL repository would return.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta

from engine.dossier.model import Dossier, Event, Patch, TurnRecord
from engine.dossier.ownership import ANONYMOUS
from engine.errors import DossierNotFound, StoreError, VersionConflict
from engine.store.db import as_utc
from engine.store.dossiers.convert import (
    REFUSAL,
    DossierSummary,
    event_kind,
    event_record,
    shown_seq,
    stored_payload,
    summarise,
)
from engine.types import Language, Surface


class MemoryDossierRepository:
    """DossierRepository held in a dict; safe to share between threads."""

    def __init__(self) -> None:
        self._dossiers: dict[str, Dossier] = {}
        self._shown: dict[str, dict[int, bytes]] = {}  # dossier id → turn seq → response
        self._lock = threading.Lock()
        # Held across an update's read, patch making and write; `_lock` guards the dict alone,
        # so readers are never held up by a patch being made.
        self._update_lock = threading.Lock()

    def create(
        self,
        dossier_id: str,
        asker: str,
        surface: Surface,
        language: Language,
        now: datetime,
        make_patch: Callable[[Dossier], Patch] | None = None,
    ) -> Dossier:
        moment = as_utc(now)
        dossier = Dossier(dossier_id, asker, surface, language, moment, moment, version=0)
        patch = make_patch(dossier) if make_patch is not None else Patch(0, ())
        with self._lock:
            if dossier_id in self._dossiers:
                raise StoreError(f"a dossier with id {dossier_id!r} already exists")
            self._dossiers[dossier_id] = _appended(dossier, patch, moment)
            self._keep_shown(dossier_id, 0, patch)
            return self._dossiers[dossier_id]

    def get(self, dossier_id: str) -> Dossier | None:
        with self._lock:
            return self._dossiers.get(dossier_id)

    def update(
        self, dossier_id: str, make_patch: Callable[[Dossier], Patch], now: datetime
    ) -> Dossier:
        moment = as_utc(now)
        with self._update_lock:  # the row lock: concurrent updates wait for each other
            current = self.get(dossier_id)
            if current is None:
                raise DossierNotFound(dossier_id)
            return self.apply(dossier_id, make_patch(current), moment)

    def apply(self, dossier_id: str, patch: Patch, now: datetime) -> Dossier:
        moment = as_utc(now)
        with self._lock:
            current = self._dossiers.get(dossier_id)
            if current is None:
                raise DossierNotFound(dossier_id)
            if current.version != patch.base_version:
                raise VersionConflict(dossier_id, patch.base_version)
            updated = _appended(current, patch, moment)
            self._dossiers[dossier_id] = updated
            self._keep_shown(dossier_id, len(current.events), patch)
            return updated

    def _keep_shown(self, dossier_id: str, first: int, patch: Patch) -> None:
        seq = shown_seq(first, patch)
        if seq is not None:
            self._shown.setdefault(dossier_id, {})[seq] = patch.shown

    def shown(self, dossier_id: str) -> dict[int, bytes]:
        with self._lock:
            return dict(self._shown.get(dossier_id, {}))

    def delete(self, dossier_id: str) -> bool:
        with self._lock:
            self._shown.pop(dossier_id, None)
            return self._dossiers.pop(dossier_id, None) is not None

    def recent(self, asker: str, limit: int) -> tuple[DossierSummary, ...]:
        with self._lock:
            mine = [d for d in self._dossiers.values() if d.asker == asker]
        return tuple(summarise(d) for d in _newest_first(mine)[: max(limit, 0)])

    def prune(self, now: datetime, max_age: timedelta, max_per_asker: int) -> int:
        cutoff = as_utc(now) - max_age
        with self._lock:
            kept = [d for d in self._dossiers.values() if d.updated_at >= cutoff]
            by_asker: dict[str, list[Dossier]] = {}
            for dossier in kept:
                by_asker.setdefault(dossier.asker, []).append(dossier)
            # Anonymous dossiers share one asker but not an owner: only their age limits them.
            survivors = {
                d.id: d
                for asker, dossiers in by_asker.items()
                for d in (
                    dossiers
                    if asker == ANONYMOUS
                    else _newest_first(dossiers)[: max(max_per_asker, 0)]
                )
            }
            deleted = len(self._dossiers) - len(survivors)
            self._dossiers = survivors
            self._shown = {k: v for k, v in self._shown.items() if k in survivors}
            return deleted

    def refused_turns(self, since: datetime | None = None) -> tuple[Event, ...]:
        cutoff = None if since is None else as_utc(since)
        with self._lock:
            dossiers = list(self._dossiers.values())
        found = [
            (event.at, dossier.id, event.seq, event)
            for dossier in dossiers
            for event in dossier.events
            if isinstance(event.record, TurnRecord)
            and event.record.kind == REFUSAL
            and (cutoff is None or event.at >= cutoff)
        ]
        return tuple(event for *_, event in sorted(found, key=lambda item: item[:3]))


def _appended(current: Dossier, patch: Patch, moment: datetime) -> Dossier:
    """`current` with the patch's records appended as events, passed through the payload
    conversion the SQL rows get; an empty patch changes nothing."""
    if patch.empty:
        return current
    first = len(current.events)
    added = tuple(
        Event(first + offset, moment, event_record(event_kind(r), stored_payload(r)))
        for offset, r in enumerate(patch.records)
    )
    return replace(
        current,
        language=current.language if patch.language is None else patch.language,
        updated_at=moment,
        version=current.version + 1,
        events=(*current.events, *added),
    )


def _newest_first(dossiers: list[Dossier]) -> list[Dossier]:
    """Newest update first, ties by id: the SQL repository's order."""
    by_id = sorted(dossiers, key=lambda d: d.id)
    return sorted(by_id, key=lambda d: d.updated_at, reverse=True)
