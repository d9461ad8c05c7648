"""Keys checked recently, so a database outage does not turn away every keyed caller.

While the key store answers, every request's key is looked up there; each valid key found is
remembered, by the SHA-256 of its secret (never the secret), for `ttl` seconds. While the store
cannot be reached, a key remembered within that time is served as before for what needs no
database (single questions answered from the snapshot in memory, knowledge reads); any other
key gets its route's typed outage response. The cost, said in docs/api.md: a key revoked less
than `ttl` seconds before an outage may still ask stateless questions until the outage ends
or the time runs out. Memory is bounded: past `most` keys the one seen longest ago goes.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

from engine.store.keys.repository import ApiKey
from engine.store.keys.secret import hash_secret

REMEMBER_SECONDS = 600.0


class RecentKeys:
    """Valid keys by the hash of their secret, with when they were last confirmed; used from
    the event loop only, so it needs no lock."""

    def __init__(
        self, clock: Callable[[], float], ttl: float = REMEMBER_SECONDS, most: int = 10_000
    ) -> None:
        self._clock = clock
        self._ttl = ttl
        self._most = most
        self._keys: OrderedDict[str, tuple[ApiKey, float]] = OrderedDict()

    def confirmed(self, secret: str, key: ApiKey | None) -> None:
        """What the key store said of `secret` just now: a valid key is remembered, anything
        else (unknown, revoked) forgotten at once."""
        digest = hash_secret(secret)
        self._keys.pop(digest, None)
        if key is None or key.revoked:
            return
        self._keys[digest] = (key, self._clock())
        if len(self._keys) > self._most:
            self._keys.popitem(last=False)

    def recall(self, secret: str) -> ApiKey | None:
        """The key `secret` belonged to when last confirmed, if that was within `ttl`."""
        seen = self._keys.get(hash_secret(secret))
        if seen is None or self._clock() - seen[1] > self._ttl:
            return None
        return seen[0]

    def count(self) -> int:
        """How many keys were confirmed within `ttl`: the keyed callers an outage still serves."""
        now = self._clock()
        return sum(1 for _key, when in self._keys.values() if now - when <= self._ttl)
