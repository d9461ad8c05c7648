"""POST /api/assistant/chat (JSON) and /api/assistant/chat/stream (NDJSON)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Response
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from api.deps import ServiceDep
from api.errors import error_response
from api.responses import JSONBytes
from api.schemas.chat import ChatReply
from api.schemas.errors import errors
from engine.contract import ChatRequest
from engine.errors import DossierNotFound
from engine.service import DEFAULT_ASKER, AnswerService

router = APIRouter(prefix="/api/assistant", tags=["assistant"])

# The routes are async on purpose: answering is pure CPU work of about a millisecond that never
# waits on I/O (the snapshot is in memory), so a thread-pool hop would cost more than it saves.


AskerHeader = Annotated[str, Header(alias="X-Navod-Asker", min_length=1, max_length=100)]


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
async def chat(
    request: ChatRequest, service: ServiceDep, asker: AskerHeader = DEFAULT_ASKER
) -> JSONBytes:
    """Answer with a verified citation, or refuse with a typed reason. HTTP 200, except an
    unknown sessionId (404)."""
    if not _uses_store(service, request):
        return JSONBytes(service.answer(request, asker))
    try:  # the dossier is read and written: a database round trip, off the event loop
        response: dict[str, Any] = await run_in_threadpool(service.answer, request, asker)
    except DossierNotFound as missing:
        return _unknown_session(missing)
    return JSONBytes(response)


@router.post("/chat/stream", response_class=StreamingResponse, responses=_STREAM)
async def chat_stream(
    request: ChatRequest, service: ServiceDep, asker: AskerHeader = DEFAULT_ASKER
) -> Response:
    """The same response as NDJSON lines: metadata, citations, content, …, done last."""
    try:  # answered before the first byte, so an unknown session is still a 404
        lines = await run_in_threadpool(lambda: list(service.stream(request, asker)))
    except DossierNotFound as missing:
        return _unknown_session(missing)
    return StreamingResponse(iter(lines), media_type="application/x-ndjson")


def _uses_store(service: AnswerService, request: ChatRequest) -> bool:
    return service.dossiers is not None and request.use_memory


def _unknown_session(missing: DossierNotFound) -> JSONBytes:
    message = f"No conversation {missing.dossier_id}: it ended, was deleted or never existed."
    return error_response(404, "not_found", message, "sessionId")
