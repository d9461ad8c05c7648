"""The uvicorn options `navod serve` runs with: every wait and size a client controls, bounded."""

from __future__ import annotations

from typing import Any

from api.settings import Settings


def bounded_server_options(settings: Settings) -> dict[str, Any]:
    """uvicorn.run keyword arguments from the limit settings (docs/api.md, "Limits")."""
    return {
        # Imported by name so each worker process of `--workers N` loads it itself.
        "http": "api.limits.protocol:BoundedHttpProtocol",
        "ws": "api.limits.handshake:DenyingWebSocketProtocol",
        "timeout_keep_alive": settings.keep_alive_seconds,
        "ws_max_size": settings.ws_max_bytes,
        "ws_ping_interval": settings.ws_ping_seconds,
        "ws_ping_timeout": settings.ws_ping_seconds,
    }
