"""Talking to a running Navod server over HTTP (`navod ask --url`, the monitors), with the API
key given (`--key`), else NAVOD_API_KEY, as `Authorization: Bearer`; none: anonymous."""

from __future__ import annotations

from typing import Any

import httpx

from api.settings import get_settings
from engine.contract import ChatRequest
from engine.errors import NavodError

TIMEOUT = httpx.Timeout(10.0, connect=5.0)


class ServerUnreachable(NavodError):
    """The server could not be reached or answered with an error; the text says which."""


def ask_server(url: str, request: ChatRequest, key: str | None = None) -> dict[str, Any]:
    """POST the request to `url`'s chat route; the AssistantResponse it returns."""
    body = request.model_dump(mode="json", exclude_none=True)
    return get_json(url, "/api/assistant/chat", body, key=key)


def auth_headers(key: str | None) -> dict[str, str]:
    """The Authorization header for `key` (else NAVOD_API_KEY); none for anonymous use."""
    secret = key or get_settings().api_key
    return {"Authorization": f"Bearer {secret}"} if secret else {}


def get_json(
    url: str, path: str, body: dict[str, Any] | None = None, key: str | None = None
) -> dict[str, Any]:
    """GET (or POST `body` to) `path` on the server at `url`; its JSON object."""
    target = url.rstrip("/") + path
    try:
        with httpx.Client(timeout=TIMEOUT, headers=auth_headers(key)) as client:
            reply = client.post(target, json=body) if body is not None else client.get(target)
    except httpx.HTTPError as error:
        raise ServerUnreachable(f"{target}: {error}") from error
    if reply.status_code >= 400:
        raise ServerUnreachable(f"{target}: HTTP {reply.status_code} {reply.text[:200]}")
    found = reply.json()
    if not isinstance(found, dict):
        raise ServerUnreachable(f"{target}: the reply is not a JSON object")
    return found
