"""One JSON error shape for every HTTP error: {"error": {"status", "code", "message", "field"}}.

A server error never shows a stack trace: it is logged, and the client gets the same shape.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException

from api.responses import JSONBytes

log = logging.getLogger("navod.api")
BODY_NOT_AN_OBJECT = "The request body must be a JSON object with the route's fields."


def error_body(status: int, code: str, message: str, field: str | None = None) -> dict[str, Any]:
    return {"error": {"status": status, "code": code, "message": message, "field": field}}


def error_response(status: int, code: str, message: str, field: str | None = None) -> JSONBytes:
    return JSONBytes(error_body(status, code, message, field), status_code=status)


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, _invalid_request)  # type: ignore[arg-type]
    app.add_exception_handler(HTTPException, _http_error)  # type: ignore[arg-type]
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


async def _server_error(request: Request, exc: Exception) -> JSONBytes:
    log.error("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return error_response(500, "internal_error", "Something went wrong inside Navod.", None)
