"""KnownDossiers: the latest state this process read or wrote of its recently used dossiers.

Events are append-only, so once the first n events of a dossier are known they never need
reading again: the SQL repository still reads the dossier row every time (the row is the
truth: version, count, language), but only fetches and decodes the events after those known.
Without it every turn would read and decode every event of its dossier again (and with
several workers a dossier's turns alternate between processes, so only the few events another
worker appended are read). A dossier deleted and created again under the
same id is told apart by its created_at. Bounded (least recently used out first), thread-safe.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from datetime import datetime

from engine.dossier.model import Dossier

# A few hundred conversations in flight per process; a 200-event dossier is some 100 kB.
CAPACITY = 256


class KnownDossiers:
    def __init__(self, capacity: int = CAPACITY) -> None:
        self._capacity = capacity
        self._dossiers: OrderedDict[str, Dossier] = OrderedDict()
        self._lock = threading.Lock()

    def lookup(self, dossier_id: str, created_at: datetime) -> Dossier | None:
        """The known state of this incarnation of the dossier, or None."""
        with self._lock:
            known = self._dossiers.get(dossier_id)
            if known is None or known.created_at != created_at:
                return None
            self._dossiers.move_to_end(dossier_id)
            return known

    def remember(self, dossier: Dossier) -> None:
        """Keep `dossier` unless a newer state of the same incarnation is already known."""
        with self._lock:
            known = self._dossiers.get(dossier.id)
            if (
                known is not None
                and known.created_at == dossier.created_at
                and known.version > dossier.version
            ):
                return  # another thread wrote or read a later version meanwhile
            self._dossiers[dossier.id] = dossier
            self._dossiers.move_to_end(dossier.id)
            while len(self._dossiers) > self._capacity:
                self._dossiers.popitem(last=False)

    def forget(self, dossier_id: str) -> None:
        with self._lock:
            self._dossiers.pop(dossier_id, None)
