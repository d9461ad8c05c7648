"""What the server's log lines may hold: no secret, no capability, and not a line per refusal.

uvicorn logs each request as `client - "METHOD path?query HTTP/1.1" status` (logger
"uvicorn.access") and each WebSocket handshake as `client - "WebSocket path?query" …`
("uvicorn.error"). AccessLogFilter rewrites those records before any handler sees them:

- the query string goes: a key someone put in a URL is not written down;
- the id in `/api/dossiers/<id>/…` becomes `sha256:` and the first 10 hex digits of its
  SHA-256. An anonymous conversation's id is the right to use it, and the page reads its
  conversation after every turn. One id always gives one digest, so an operator can still
  follow a conversation, or find a known id's lines by hashing it;
- a refusal (401, 403, 429) is logged at most once per client address a minute; the next one
  logged says how many were not, so a client hammering a wrong key cannot flood the log.

`navod serve` installs the filter on both loggers through `log_config()`. Each worker process
counts its own refusals.
"""

from __future__ import annotations

import copy
import hashlib
import logging
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from uvicorn.config import LOGGING_CONFIG
from uvicorn.logging import AccessFormatter as UvicornAccessFormatter

REFUSED = frozenset({401, 403, 429})
REFUSED_LOG_SECONDS = 60.0
MOST_ADDRESSES = 10_000  # addresses whose refusals are counted; past that the oldest goes
DIGEST_LENGTH = 10
DOSSIER_ID = re.compile(r"(/api/dossiers/)([^/?]+)")
ACCESS_PREFIX = '%s - "%s %s HTTP/%s"'  # uvicorn's access line; its args are a 5-tuple
WEBSOCKET_PREFIX = '%s - "WebSocket %s"'  # uvicorn's handshake lines: (client, target[, status])
NOT_LOGGED = "not_logged"  # the record attribute: refusals from this address left out before it


def scrub_target(target: str) -> str:
    """A request target as it may be logged: no query string, no dossier id."""
    path = target.split("?", 1)[0]  # uvicorn percent-quotes the path: its first ? starts the query
    return DOSSIER_ID.sub(lambda found: found[1] + dossier_digest(found[2]), path, count=1)


def dossier_digest(dossier_id: str) -> str:
    """`sha256:` and the first 10 hex digits of the id's SHA-256: the id's name in the logs."""
    return "sha256:" + hashlib.sha256(dossier_id.encode()).hexdigest()[:DIGEST_LENGTH]


class AccessLogFilter(logging.Filter):
    """Scrubs uvicorn's access and WebSocket lines, and thins out repeated refusals."""

    def __init__(
        self,
        interval: float = REFUSED_LOG_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        most: int = MOST_ADDRESSES,
    ) -> None:
        super().__init__()
        self.interval = interval
        self._clock = clock
        self._most = most
        # address → (when its last refusal was logged, refusals left out since), oldest first
        self._refused: OrderedDict[str, tuple[float, int]] = OrderedDict()
        self._lock = threading.Lock()  # uvicorn logs from its event loop; others may not

    def filter(self, record: logging.LogRecord) -> bool:
        args, message = record.args, record.msg
        if not isinstance(args, tuple) or not isinstance(message, str):
            return True
        if message.startswith(ACCESS_PREFIX) and len(args) == 5:
            client, method, target, version, status = args
            record.args = (client, method, scrub_target(str(target)), version, status)
        elif message.startswith(WEBSOCKET_PREFIX) and len(args) >= 2:
            client, status = args[0], (args[2] if len(args) == 3 else None)
            if message.endswith('" 403'):
                status = 403
            record.args = (client, scrub_target(str(args[1])), *args[2:])
        else:
            return True
        if status not in REFUSED:
            return True
        left_out = self._refusal(_address(str(client)))
        if left_out is None:
            return False
        if left_out:
            setattr(record, NOT_LOGGED, left_out)
            if message.startswith(WEBSOCKET_PREFIX):  # formatted from msg % args: say it there
                record.msg = message + _note(left_out)
        return True

    def _refusal(self, address: str) -> int | None:
        """None if this refusal is to be left out; else how many were since the last logged."""
        now = self._clock()
        with self._lock:
            seen = self._refused.get(address)
            if seen is not None and now - seen[0] < self.interval:
                self._refused[address] = (seen[0], seen[1] + 1)
                return None
            self._refused.pop(address, None)
            self._refused[address] = (now, 0)  # last: the order stays oldest logged first
            while len(self._refused) > self._most:
                self._refused.popitem(last=False)
            return seen[1] if seen is not None else 0


class AccessFormatter(UvicornAccessFormatter):
    """uvicorn's access line, with the count of refusals AccessLogFilter left out before it."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        line = super().formatMessage(record)
        left_out = getattr(record, NOT_LOGGED, 0)
        return line + _note(left_out) if left_out else line


def log_config() -> dict[str, Any]:
    """uvicorn's logging configuration with AccessLogFilter on its access and error loggers."""
    config = copy.deepcopy(LOGGING_CONFIG)
    config["filters"] = {"navod": {"()": f"{__name__}.AccessLogFilter"}}
    config["formatters"]["access"]["()"] = f"{__name__}.AccessFormatter"
    for name in ("uvicorn.access", "uvicorn.error"):
        config["loggers"][name]["filters"] = ["navod"]
    return config


def _address(client: str) -> str:
    """The address of uvicorn's `host:port` (any port: each connection has its own)."""
    host, colon, _port = client.rpartition(":")
    return host if colon else client


def _note(left_out: int) -> str:
    return f" (+{left_out} refused from this address not logged)"
