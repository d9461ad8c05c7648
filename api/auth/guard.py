"""The guard every HTTP request and WebSocket handshake passes before any route (ASGI
middleware), in this order:

1. origin: a browser page (or WebSocket) from an origin not allowed: 403 `forbidden`;
2. key: a malformed, unknown or revoked key: 401 `unauthorized` with `WWW-Authenticate:
   Bearer`; no key is anonymous, or a 401 when NAVOD_REQUIRE_KEY=1;
3. rate: over the key's (or the client address's) requests per minute: 429 `rate_limited`
   with `Retry-After`.

`GET /health` skips 2 and 3 (it reads no credential at all): load balancers and orchestrators
probe it without one, and it shows only whether the database is reachable and the schema and
knowledge versions. So do the web page, its static files and the API documentation: they are
the same for everyone and the page has to load before it can ask for a key.
A refused WebSocket gets the same HTTP response in place of the handshake.

Refusals are limited too: an address refused more than `refusals_per_minute` times a minute
(wrong keys, foreign origins) gets 429 before its key is even looked up, so guessing keys
costs the server nothing. While the key store is down (api/auth/recent.py) a key confirmed in
the last minutes is served as before; an unconfirmed one reaches only the question routes,
marked unverified, which answer with their own typed outage response (a contract-valid
refusal, an NDJSON stream, a WebSocket error message); every other route gets its 503.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import anyio.to_thread
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from api.auth.caller import KEY_NEEDED, Caller, unauthorized
from api.auth.credentials import Unauthorized, presented
from api.auth.origins import origin_allowed
from api.auth.ratelimit import RateLimiter
from api.auth.recent import RecentKeys
from api.errors import error_body, error_response, unavailable_response
from api.responses import JSONBytes, refuse_before_route
from engine.errors import StoreUnavailable
from engine.store.keys.repository import ApiKey, KeyRepository
from engine.store.keys.secret import find_key

OPEN_PATHS = frozenset({"/health", "/", "/docs", "/openapi.json"})
OPEN_PREFIX = "/static/"  # the page's own files: it must load before it can ask for a key
# The routes that answer an outage with a typed response of their own (api/routes/chat.py,
# ws.py): an unverified key reaches them, and only them, while the key store is down.
QUESTION_PATHS = frozenset({"/api/assistant/chat", "/api/assistant/chat/stream", "/ws"})
UNKNOWN_KEY = "The API key is unknown or revoked: ask the server's operator for a valid one."


@dataclass
class AuthConfig:
    """What the guard needs: the key store and the three settings (api/settings.py)."""

    keys: KeyRepository
    require_key: bool = False
    allowed_origins: frozenset[str] = frozenset()
    rate_limit_per_minute: int = 600
    refusals_per_minute: int = 30
    clock: Callable[[], float] = time.monotonic
    limiter: RateLimiter = field(init=False)
    refusals: RateLimiter = field(init=False)
    recent: RecentKeys = field(init=False)

    def __post_init__(self) -> None:
        self.limiter = RateLimiter(self.clock)
        self.refusals = RateLimiter(self.clock)
        self.recent = RecentKeys(self.clock)


class Guard:
    def __init__(self, app: ASGIApp, config: AuthConfig) -> None:
        self.app = app
        self.config = config

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        refusal, caller, subprotocol = await self._check(scope)
        if refusal is not None:
            await refuse_before_route(refusal, scope, receive, send)
            return
        scope["state"] = {**scope.get("state", {}), "caller": caller, "subprotocol": subprotocol}
        await self.app(scope, receive, send)

    async def _check(self, scope: Scope) -> tuple[JSONBytes | None, Caller, str | None]:
        headers = Headers(scope=scope)
        address = _client_address(scope)
        if scope["path"] in OPEN_PATHS or scope["path"].startswith(OPEN_PREFIX):
            if not origin_allowed(headers, self.config.allowed_origins):
                return self._refused(address, _foreign(headers)), Caller(), None
            return None, Caller(), None
        wait = self.config.refusals.waiting(address, self.config.refusals_per_minute)
        if wait:  # refused too often: not even the key is looked up
            return _rate_limited(self.config.refusals_per_minute, wait, "refused "), Caller(), None
        if not origin_allowed(headers, self.config.allowed_origins):
            return self._refused(address, _foreign(headers)), Caller(), None
        try:
            offered = presented(headers, websocket=scope["type"] == "websocket")
        except Unauthorized as bad:
            return self._refused(address, unauthorized(str(bad))), Caller(), None
        if offered.secret is None:
            if self.config.require_key:
                return self._refused(address, unauthorized(KEY_NEEDED)), Caller(), None
            return self._within_rate("address:" + address, None), Caller(), None
        # The key store may be a database: looked up off the event loop.
        try:
            key = await anyio.to_thread.run_sync(find_key, self.config.keys, offered.secret)
        except StoreUnavailable:  # the key cannot be checked: retriable, not "unknown key"
            return self._unchecked(scope, offered.secret, offered.subprotocol)
        self.config.recent.confirmed(offered.secret, key)
        if key is None or key.revoked:
            return self._refused(address, unauthorized(UNKNOWN_KEY)), Caller(), None
        return self._keyed(key), Caller(key.id), offered.subprotocol

    def _unchecked(
        self, scope: Scope, secret: str, subprotocol: str | None
    ) -> tuple[JSONBytes | None, Caller, str | None]:
        """A key presented while the key store is down: served when confirmed recently,
        else left to a question route's own outage response (or a plain 503)."""
        key = self.config.recent.recall(secret)
        if key is not None:
            return self._keyed(key), Caller(key.id), subprotocol
        if scope["path"] in QUESTION_PATHS:
            return None, Caller(unverified=True), subprotocol
        return unavailable_response(), Caller(), None

    def _keyed(self, key: ApiKey) -> JSONBytes | None:
        return self._within_rate(key.id, key.rate_limit_per_minute)

    def _within_rate(self, who: str, limit: int | None) -> JSONBytes | None:
        limit = limit or self.config.rate_limit_per_minute
        wait = self.config.limiter.take(who, limit)
        return _rate_limited(limit, wait) if wait else None

    def _refused(self, address: str, response: JSONBytes) -> JSONBytes:
        """A refusal, counted against the address's budget of refusals."""
        self.config.refusals.take(address, self.config.refusals_per_minute)
        return response


def _foreign(headers: Headers) -> JSONBytes:
    message = f"Requests from the origin {headers.get('origin')!r} are not allowed here."
    return error_response(403, "forbidden", message, "Origin")


def _client_address(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def _rate_limited(limit: int, wait: int, which: str = "") -> JSONBytes:
    message = f"More than {limit} {which}requests a minute; retry in {wait} s."
    return JSONBytes(
        error_body(429, "rate_limited", message, None),
        status_code=429,
        headers={"Retry-After": str(wait)},
    )
