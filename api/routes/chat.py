"""POST /api/assistant/chat (JSON) and /api/assistant/chat/stream (NDJSON)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from api.auth.caller import Caller, CallerDep
from api.deps import ServiceDep
from api.errors import error_response, with_retry_after
from api.responses import JSONBytes
from api.schemas.chat import ChatReply
from api.schemas.errors import errors
from engine.contract import ChatRequest
from engine.errors import DossierNotFound, StoreUnavailable
from engine.service import AnswerService
from engine.stream import encode_line, stream_lines

router = APIRouter(prefix="/api/assistant", tags=["assistant"])

# The routes are async on purpose: answering is pure CPU work of about a millisecond that never
# waits on I/O (the snapshot is in memory), so a thread-pool hop would cost more than it saves.


_ERRORS = errors(400, 404, 413, 503)
_STREAM: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "NDJSON: one StreamLine per line, `_done` last",
        "content": {
            "application/x-ndjson": {"schema": {"$ref": "#/components/schemas/StreamLine"}}
        },
    },
    **_ERRORS,
}


@router.post("/chat", responses={200: {"model": ChatReply}, **_ERRORS})
async def chat(request: ChatRequest, service: ServiceDep, caller: CallerDep) -> JSONBytes:
    """Answer with a verified citation, or refuse with a typed reason. HTTP 200, except an
    unknown sessionId or another key's (404) and a database outage (503, a retriable
    refusal)."""
    try:
        _checked(caller)
        if not _uses_store(service, request):
            return JSONBytes(service.answer(request, caller.asker))
        # the dossier is read and written: a database round trip, off the event loop
        response: dict[str, Any] = await run_in_threadpool(service.answer, request, caller.asker)
    except DossierNotFound as missing:
        return _unknown_session(missing)
    except StoreUnavailable:
        return with_retry_after(JSONBytes(service.unavailable(request), status_code=503))
    return JSONBytes(response)


@router.post("/chat/stream", response_class=StreamingResponse, responses=_STREAM)
async def chat_stream(request: ChatRequest, service: ServiceDep, caller: CallerDep) -> Response:
    """The same response as NDJSON lines: metadata, citations, content, …, done last."""
    try:  # answered before the first byte, so an unknown session is still a 404
        _checked(caller)
        lines = await run_in_threadpool(lambda: list(service.stream(request, caller.asker)))
    except DossierNotFound as missing:
        return _unknown_session(missing)
    except StoreUnavailable:  # the refusal as a whole stream: its lines, then done
        lines = [encode_line(line) for line in stream_lines(service.unavailable(request))]
        failed = StreamingResponse(iter(lines), 503, media_type="application/x-ndjson")
        return with_retry_after(failed)
    return StreamingResponse(iter(lines), media_type="application/x-ndjson")


def _checked(caller: Caller) -> None:
    """A key the guard could not check (the key store is down) gets the outage refusal."""
    if caller.unverified:
        raise StoreUnavailable("keys.find", "the key could not be checked")


def _uses_store(service: AnswerService, request: ChatRequest) -> bool:
    return service.dossiers is not None and request.use_memory


def _unknown_session(missing: DossierNotFound) -> JSONBytes:
    message = f"No conversation {missing.dossier_id}: it ended, was deleted or never existed."
    return error_response(404, "not_found", message, "sessionId")
