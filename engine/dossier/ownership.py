"""Who may reach a conversation (issue 12).

A conversation belongs to the API key that started it (its id is the stored asker). One started
without a key belongs to nobody: its id, 128 random bits returned only to its creator, is the
capability, so whoever holds the id may use it. A key never reaches another key's conversation;
to the caller it is indistinguishable from one that does not exist.
"""

from __future__ import annotations

from engine.dossier.model import Dossier

ANONYMOUS = "anonymous"


def reachable(dossier: Dossier, asker: str) -> bool:
    """Whether `asker` (a key id, or ANONYMOUS) may read and change `dossier`."""
    return dossier.asker in (ANONYMOUS, asker)
