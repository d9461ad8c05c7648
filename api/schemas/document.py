"""The OpenAPI document as the wire is: FastAPI's, minus the 422 it adds to every route with
parameters (Navod sends its validation errors as 400 with the error shape), plus what every
route can send (401, 429, 500), the optional bearer key, and the NDJSON stream's line model."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from pydantic.json_schema import models_json_schema

from api.schemas.chat import StreamLine
from api.schemas.errors import EVERY_ROUTE, ErrorBody, error_response_object

BEARER = "HTTPBearer"  # the name FastAPI's HTTPBearer dependency gives the scheme
_METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")


def install_openapi(app: FastAPI) -> None:
    """Make `app.openapi()` (and /openapi.json, /docs) return the corrected document."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = corrected(generate())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def corrected(document: dict[str, Any]) -> dict[str, Any]:
    components = document.setdefault("components", {})
    schemas = components.setdefault("schemas", {})
    for unused in ("HTTPValidationError", "ValidationError"):
        schemas.pop(unused, None)
    for name, schema in _component_schemas().items():
        schemas.setdefault(name, schema)
    components.setdefault("securitySchemes", {})[BEARER] = {
        "type": "http",
        "scheme": "bearer",
        "description": "An API key (`navod keys create`); required when NAVOD_REQUIRE_KEY=1",
    }
    for path_item in document.get("paths", {}).values():
        for method, operation in path_item.items():
            if method in _METHODS:
                _correct_operation(operation)
    return document


def _correct_operation(operation: dict[str, Any]) -> None:
    responses = operation.setdefault("responses", {})
    responses.pop("422", None)
    for status in EVERY_ROUTE:
        responses.setdefault(str(status), error_response_object(status))
    # `{}` first: a key is optional unless the server is configured to require one.
    security = [s for s in operation.get("security", []) if s and BEARER not in s]
    operation["security"] = [{}, {BEARER: []}, *security]


def _component_schemas() -> dict[str, Any]:
    _, top = models_json_schema(
        [(ErrorBody, "serialization"), (StreamLine, "serialization")],
        ref_template="#/components/schemas/{model}",
    )
    defs: dict[str, Any] = top.get("$defs", {})
    return defs
