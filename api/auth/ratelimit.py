"""Requests per minute per caller: a token bucket each, in this process.

A bucket holds up to `per_minute` tokens and refills at per_minute / 60 a second; a request
takes one. Memory is bounded: past `most` callers the one idle longest is forgotten (it starts
again with a full bucket, which a caller idle that long would mostly have anyway). Each worker
process keeps its own buckets, so N workers allow up to N times the limit (docs/api.md).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable


class RateLimiter:
    """Token buckets by caller; used from the event loop only, so it needs no lock."""

    def __init__(self, clock: Callable[[], float], most: int = 10_000) -> None:
        self._clock = clock
        self._most = most
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # tokens, when

    def take(self, caller: str, per_minute: int) -> int:
        """0 when `caller` may go ahead (a token is taken), else the whole seconds until a
        token is back (the Retry-After)."""
        now = self._clock()
        rate = per_minute / 60.0
        tokens, then = self._buckets.pop(caller, (float(per_minute), now))
        tokens = min(float(per_minute), tokens + max(now - then, 0.0) * rate)
        wait = 0
        if tokens >= 1.0:
            tokens -= 1.0
        else:
            wait = max(1, math.ceil((1.0 - tokens) / rate))
        self._buckets[caller] = (tokens, now)  # (re)inserted last: the most recently seen
        if len(self._buckets) > self._most:
            self._buckets.popitem(last=False)
        return wait

    def waiting(self, caller: str, per_minute: int) -> int:
        """What `take` would answer, without taking a token: 0 when a token is there."""
        tokens, then = self._buckets.get(caller, (float(per_minute), self._clock()))
        tokens = min(float(per_minute), tokens + max(self._clock() - then, 0.0) * per_minute / 60)
        return 0 if tokens >= 1.0 else max(1, math.ceil((1.0 - tokens) * 60 / per_minute))

    def __len__(self) -> int:
        return len(self._buckets)
