"""POST /api/assistant/chat (JSON) and /api/assistant/chat/stream (NDJSON)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import StreamingResponse
from starlette.concurrency import iterate_in_threadpool

from api.deps import ServiceDep
from api.responses import JSONBytes
from engine.contract import AssistantResponse, ChatRequest

router = APIRouter(prefix="/api/assistant", tags=["assistant"])


@router.post("/chat", response_model=AssistantResponse, response_class=JSONBytes)
def chat(request: ChatRequest, service: ServiceDep) -> JSONBytes:
    """Answer with a verified citation, or refuse with a typed reason. Always HTTP 200."""
    response: dict[str, Any] = service.answer(request)
    return JSONBytes(response)


@router.post("/chat/stream", response_class=StreamingResponse)
def chat_stream(request: ChatRequest, service: ServiceDep) -> StreamingResponse:
    """The same response as NDJSON lines: metadata, citations, content, …, done last."""
    return StreamingResponse(
        iterate_in_threadpool(service.stream(request)), media_type="application/x-ndjson"
    )
