"""JSON responses rendered with orjson: the engine already hands us plain dicts."""

from __future__ import annotations

from typing import Any

import orjson
from starlette.responses import Response


class JSONBytes(Response):
    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)
