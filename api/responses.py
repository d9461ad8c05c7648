"""JSON responses rendered with orjson: the engine already hands us plain dicts."""

from __future__ import annotations

from typing import Any

import orjson
from starlette.responses import JSONResponse


class JSONBytes(JSONResponse):
    """A JSONResponse (so the OpenAPI page documents a route's model, not "a string")."""

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)
