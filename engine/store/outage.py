"""A database that cannot be reached is a typed outcome: StoreUnavailable, not a bug.

    translates_outage   decorator for a SQL repository method: SQLAlchemy's connection errors
                        (OperationalError, InterfaceError, a pool timeout, a dropped
                        connection) become StoreUnavailable naming the method
    ThrottledLog        one log line per failure kind per interval, however many requests fail

During an outage every request fails the same way; a traceback each would bury the one line
an operator needs (3,000 in 20 s were measured), so each kind is logged once per interval with
the count of the ones held back.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import sqlalchemy as sa

from engine.errors import StoreUnavailable

P = ParamSpec("P")
R = TypeVar("R")

# Errors SQLAlchemy raises when it cannot talk to the database at all; an IntegrityError or a
# ProgrammingError is a bug or a conflict and keeps its own meaning.
_UNREACHABLE = (
    sa.exc.OperationalError,
    sa.exc.InterfaceError,
    sa.exc.DisconnectionError,
    sa.exc.TimeoutError,
)
LOG_INTERVAL_SECONDS = 10.0

log = logging.getLogger("navod.store")


def is_unreachable(error: BaseException) -> bool:
    """Whether `error` says the database could not be reached (rather than a bug)."""
    if isinstance(error, sa.exc.DBAPIError) and error.connection_invalidated:
        return True
    return isinstance(error, _UNREACHABLE)


def unavailable(operation: str, error: BaseException) -> StoreUnavailable:
    """The StoreUnavailable for `error` raised by `operation`, logged (throttled)."""
    cause = getattr(error, "orig", None) or error
    reason = (str(cause).strip().splitlines() or [type(cause).__name__])[0]
    OUTAGE_LOG.warning("database", f"database unreachable ({operation}): {reason}")
    return StoreUnavailable(operation, reason)


def translates_outage(operation: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Make a store method raise StoreUnavailable when the database cannot be reached."""

    def decorate(method: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(method)
        def translated(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                return method(*args, **kwargs)
            except sa.exc.SQLAlchemyError as error:
                if not is_unreachable(error):
                    raise
                raise unavailable(operation, error) from error

        return translated

    return decorate


class ThrottledLog:
    """At most one line per kind per `interval` seconds; the next line says how many were held
    back. Thread-safe: the server's worker threads share it."""

    def __init__(
        self,
        logger: logging.Logger,
        interval: float = LOG_INTERVAL_SECONDS,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._logger = logger
        self._interval = interval
        self._monotonic = monotonic
        self._lock = threading.Lock()
        self._last: dict[str, float] = {}
        self._held: dict[str, int] = {}

    def warning(self, kind: str, message: str) -> bool:
        """Log `message` unless `kind` was logged less than an interval ago; True if logged."""
        now = self._monotonic()
        with self._lock:
            last = self._last.get(kind)
            if last is not None and now - last < self._interval:
                self._held[kind] = self._held.get(kind, 0) + 1
                return False
            self._last[kind] = now
            held = self._held.pop(kind, 0)
        suffix = f" ({held} more like it in the last {self._interval:g} s)" if held else ""
        self._logger.warning("%s%s", message, suffix)
        return True


OUTAGE_LOG = ThrottledLog(log)
