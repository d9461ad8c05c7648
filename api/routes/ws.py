"""WebSocket /ws: one JSON question per connection, one JSON reply, then a normal close.

The shape the TESS clients expect: {"message", "sessionId"?, "surface"?, "language"?,
"use_memory"?, "explain"?, "companyId"?} in (companyId: FiskAI's, accepted and ignored);
{"status": "ok", "response", "sessionId"} or {"status": "error", "error", "retriable"} out. A
turn that failed is never "ok": `retriable` says whether asking again can help (the database was
unreachable, or Navod failed inside) or the message must change first. The key, origin and rate
checks happened before the handshake (api/auth/guard.py); the key may come as the subprotocol
bearer.<secret>, and the subprotocol the guard chose is echoed.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool
from pydantic import ValidationError

from api.auth.caller import Caller
from api.limits.sockets import SocketSlots
from api.settings import Settings
from engine.contract import ChatRequest
from engine.errors import DossierNotFound, StoreUnavailable
from engine.service import AnswerService

router = APIRouter(tags=["assistant"])
log = logging.getLogger("navod.api")

OPTIONAL_FIELDS = ("sessionId", "surface", "language", "use_memory", "explain", "companyId")
KNOWN_FIELDS = ("message", *OPTIONAL_FIELDS)
EXAMPLE = '{"message": "Koja je stopa PDV-a?"}'
INTERNAL_ERROR = "internal error; please retry"
UNAVAILABLE = "the database is unreachable; nothing was answered, please retry in a few seconds"
TOO_MANY = "too many open connections; try again later"


class BadMessage(ValueError):
    """The client's message cannot become a ChatRequest; the text says what to change."""


@router.websocket("/ws")
async def ask_over_websocket(websocket: WebSocket) -> None:
    """Receive one question, send one reply, close with 1000; never a second exchange."""
    slots: SocketSlots = websocket.app.state.websockets
    with slots.slot() as free:
        await websocket.accept(subprotocol=websocket.state.subprotocol)
        if not free:
            await websocket.close(code=1013, reason=TOO_MANY)
            return
        await _answer_one(websocket)


async def _answer_one(websocket: WebSocket) -> None:
    caller: Caller = websocket.state.caller
    limits: Settings = websocket.app.state.limits
    try:
        frame = await asyncio.wait_for(websocket.receive(), limits.ws_receive_timeout_seconds)
    except TimeoutError:
        # An idle socket holds a slot and a file descriptor: the question comes first, or not.
        reason = f"no question within {limits.ws_receive_timeout_seconds:g} s of connecting"
        await websocket.close(code=1008, reason=reason)
        return
    if frame["type"] == "websocket.disconnect":
        return  # the client left before asking: nobody to answer
    try:
        request = parse_message(frame.get("text"), frame.get("bytes"))
        if caller.unverified:  # the key store is down and this key was not seen recently
            raise StoreUnavailable("keys.find", "the key could not be checked")
        service: AnswerService = websocket.app.state.service
        # The answer may read and write the conversation's dossier: database I/O stays off the
        # event loop so one slow turn does not stall every other connection.
        response: dict[str, Any] = await run_in_threadpool(service.answer, request, caller.asker)
        reply = _reply(response)
    except BadMessage as exc:
        reply = {"status": "error", "error": str(exc), "retriable": False}
    except DossierNotFound as missing:
        reply = {
            "status": "error",
            "error": f"no conversation {missing.dossier_id!r}: it ended, was deleted or never "
            "existed; leave out sessionId to start a new one",
            "retriable": False,
        }
    except StoreUnavailable:  # logged, throttled, by the store: no traceback per turn
        reply = {"status": "error", "error": UNAVAILABLE, "retriable": True}
    except Exception:  # the client learns only that it may retry; the log keeps the traceback
        log.exception("websocket turn failed")
        reply = {"status": "error", "error": INTERNAL_ERROR, "retriable": True}
    try:
        await websocket.send_text(orjson.dumps(reply).decode())
        await websocket.close(code=1000)
    except WebSocketDisconnect:
        log.info("websocket client left before its reply was sent")


def _reply(response: dict[str, Any]) -> dict[str, Any]:
    """The reply to an answered turn: "ok" with the response, unless the service answered
    with its error refusal (a failure inside Navod, already logged): that turn failed, and the
    client may retry it."""
    if "error" in response:
        return {"status": "error", "error": INTERNAL_ERROR, "retriable": True}
    return {"status": "ok", "response": response, "sessionId": response.get("sessionId")}


def parse_message(text: str | None, data: bytes | None) -> ChatRequest:
    """The ChatRequest a text frame asks for; BadMessage names the problem otherwise."""
    if data is not None or text is None:
        raise BadMessage(f"binary frames are not accepted; send a JSON text message like {EXAMPLE}")
    try:
        payload = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise BadMessage(f"the message is not valid JSON ({exc}); send {EXAMPLE}") from exc
    if not isinstance(payload, dict):
        raise BadMessage(f"the message must be a JSON object like {EXAMPLE}")
    unknown = sorted(key for key in payload if key not in KNOWN_FIELDS)
    if unknown:
        raise BadMessage(
            f"unknown field(s) {', '.join(map(repr, unknown))}; "
            f"known fields: {', '.join(KNOWN_FIELDS)}"
        )
    if "message" not in payload:
        raise BadMessage(f"'message' is required: send {EXAMPLE}")
    fields = {"query": payload["message"]}
    fields.update((key, payload[key]) for key in OPTIONAL_FIELDS if key in payload)
    try:
        # Strict: a JSON client sending "yes" for a bool or 5 for a string made a mistake worth
        # naming rather than a value to coerce.
        return ChatRequest.model_validate(fields, strict=True)
    except ValidationError as exc:
        raise BadMessage(_explain(exc)) from exc


def _explain(exc: ValidationError) -> str:
    """The first validation error, in the client's field names."""
    first = exc.errors()[0]
    location = [str(part) for part in first["loc"]]
    field = ".".join(["message" if part == "query" else part for part in location]) or "message"
    kind = first["type"]
    context = first.get("ctx") or {}
    if kind == "string_too_short":
        return f"'{field}' is empty; ask a question"
    if kind == "string_too_long":
        return f"'{field}' is too long: at most {context.get('max_length')} characters"
    return f"'{field}': {first['msg']}"
