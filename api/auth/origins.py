"""Which origins a browser request or a WebSocket may come from.

No Origin header (a program, not a browser page) and the server's own origin are always
allowed; NAVOD_ALLOWED_ORIGINS adds more (a comma list of scheme://host[:port], or * for any).
The own origin is compared by host and port only, so the check holds behind a TLS proxy where
the server itself sees plain http.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.datastructures import Headers

ANY = "*"


def parse_origins(setting: str) -> frozenset[str]:
    """NAVOD_ALLOWED_ORIGINS as a set of normalised origins."""
    return frozenset(_normalise(part) for part in setting.split(",") if part.strip())


def origin_allowed(headers: Headers, allowed: frozenset[str]) -> bool:
    origin = headers.get("origin")
    if origin is None or ANY in allowed or _normalise(origin) in allowed:
        return True
    host = headers.get("host")
    netloc = urlsplit(origin.strip()).netloc
    return host is not None and netloc != "" and netloc.lower() == host.strip().lower()


def _normalise(origin: str) -> str:
    return origin.strip().rstrip("/").lower()
