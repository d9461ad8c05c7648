"""A cap on the WebSockets one worker holds open at once."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


class SocketSlots:
    """At most `capacity` holders at a time. Used from the event loop only (no lock needed):
    taking and giving back never await, so no two handshakes interleave inside them."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.taken = 0

    @contextmanager
    def slot(self) -> Iterator[bool]:
        """Yields whether a slot was free (and holds it until the block ends)."""
        if self.taken >= self.capacity:
            yield False
            return
        self.taken += 1
        try:
            yield True
        finally:
            self.taken -= 1
