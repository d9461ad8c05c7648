"""One JSON error shape for every HTTP error: {"error": {"status", "code", "message", "field"}}.

A server error never shows a stack trace: it is logged, and the client gets the same shape.
"""

from __future__ import annotations

import logging
from typing import Any, TypeVar

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException

from api.responses import JSONBytes
from engine.errors import StoreUnavailable

log = logging.getLogger("navod.api")
ResponseT = TypeVar("ResponseT", bound=Response)
# Seconds a client waits before retrying a request the database was down for: a restart or a
# failover takes a few seconds, and an earlier retry would only add load while it recovers.
RETRY_AFTER_SECONDS = 5
UNAVAILABLE_MESSAGE = (
    f"Navod cannot reach its database right now; retry in {RETRY_AFTER_SECONDS} seconds."
)
BODY_NOT_AN_OBJECT = "The request body must be a JSON object with the route's fields."


def error_body(status: int, code: str, message: str, field: str | None = None) -> dict[str, Any]:
    return {"error": {"status": status, "code": code, "message": message, "field": field}}


def error_response(status: int, code: str, message: str, field: str | None = None) -> JSONBytes:
    return JSONBytes(error_body(status, code, message, field), status_code=status)


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, _invalid_request)  # type: ignore[arg-type]
    app.add_exception_handler(HTTPException, _http_error)  # type: ignore[arg-type]
    app.add_exception_handler(StoreUnavailable, _store_unavailable)  # type: ignore[arg-type]
    app.add_exception_handler(Exception, _server_error)


async def _invalid_request(_request: Request, exc: RequestValidationError) -> JSONBytes:
    first = exc.errors()[0] if exc.errors() else {}
    location = [str(part) for part in first.get("loc", ()) if part != "body"]
    field = ".".join(location) or None
    kind = first.get("type", "")
    if kind == "json_invalid":
        return error_response(400, "invalid_json", "The request body is not valid JSON.", None)
    if field is None and first.get("loc", ())[:1] == ("body",):  # no body, null, [], "x", 5
        return error_response(400, "invalid_request", BODY_NOT_AN_OBJECT, "body")
    if kind == "missing":
        message = f"'{field}' is required."
    elif kind == "extra_forbidden":
        message = f"'{field}' is not a known field."
    elif kind == "value_error":  # our validators' own words, without pydantic's prefix
        message = f"'{field}': {first.get('ctx', {}).get('error', 'invalid value')}."
    else:
        message = f"'{field}': {first.get('msg', 'invalid value')}."
    return error_response(400, "invalid_request", message, field)


async def _http_error(_request: Request, exc: HTTPException) -> JSONBytes:
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
    return error_response(exc.status_code, code, str(exc.detail), None)


def unavailable_response() -> JSONBytes:
    """503 `unavailable` with Retry-After: the database could not be reached (not a bug, so no
    traceback; the store layer logs it, throttled)."""
    return with_retry_after(error_response(503, "unavailable", UNAVAILABLE_MESSAGE, None))


def with_retry_after(response: ResponseT) -> ResponseT:
    response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


async def _store_unavailable(_request: Request, _exc: StoreUnavailable) -> JSONBytes:
    return unavailable_response()


async def _server_error(request: Request, exc: Exception) -> JSONBytes:
    log.error("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return error_response(500, "internal_error", "Something went wrong inside Navod.", None)
