"""The one error shape (api/errors.py) as a model, and the `responses=` entries that document
it on a route for the statuses that route can send."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

ErrorCode = Literal[
    "invalid_request",
    "invalid_json",
    "unauthorized",
    "forbidden",
    "not_found",
    "method_not_allowed",
    "request_timeout",
    "payload_too_large",
    "headers_too_large",
    "rate_limited",
    "unavailable",
    "internal_error",
    "http_error",
]


class ErrorDetail(BaseModel):
    status: int = Field(description="The HTTP status, repeated")
    code: ErrorCode
    message: str = Field(description="What is wrong and how to fix it")
    field: str | None = Field(description="The offending input (`query.limit`, `sessionId`)")


class ErrorBody(BaseModel):
    """The one error shape of every route (api/errors.py)."""

    error: ErrorDetail


RETRY_AFTER: dict[str, Any] = {
    "description": "Seconds to wait before trying again",
    "schema": {"type": "integer", "minimum": 0},
}

_ERRORS: dict[int, dict[str, Any]] = {
    400: {"description": "The request is invalid: `field` names the offending input"},
    401: {
        "description": "No valid API key (`Authorization: Bearer …`) where one is required",
        "headers": {"WWW-Authenticate": {"description": "Bearer", "schema": {"type": "string"}}},
    },
    403: {"description": "The request's Origin is not allowed (NAVOD_ALLOWED_ORIGINS)"},
    404: {"description": "No such record (or not the asker's)"},
    413: {"description": "The request body is larger than the server accepts"},
    429: {
        "description": "Too many requests for this key: wait `Retry-After` seconds",
        "headers": {"Retry-After": RETRY_AFTER},
    },
    500: {"description": "Navod failed inside; the error is logged, never shown"},
    503: {
        "description": "The database is unavailable: retry after `Retry-After` seconds",
        "headers": {"Retry-After": RETRY_AFTER},
    },
}
ERROR_STATUSES = tuple(_ERRORS)
# Sent by any route: a key may be required (NAVOD_REQUIRE_KEY) and is rate limited, a browser's
# origin may be refused, and a server error has the same shape everywhere
# (api/schemas/document.py adds these).
EVERY_ROUTE = (401, 403, 429, 500)


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """`responses=` entries documenting the error shape for these statuses."""
    return {status: {"model": ErrorBody, **_ERRORS[status]} for status in statuses}


def error_response_object(status: int) -> dict[str, Any]:
    """The OpenAPI response object of an error status, for the document's post-processing."""
    return {
        **_ERRORS[status],
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}},
    }
