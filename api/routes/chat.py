"""POST /api/assistant/chat (JSON) and /api/assistant/chat/stream (NDJSON)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import StreamingResponse

from api.deps import ServiceDep
from api.responses import JSONBytes
from engine.contract import AssistantResponse, ChatRequest

router = APIRouter(prefix="/api/assistant", tags=["assistant"])

# The routes are async on purpose: answering is pure CPU work of about a millisecond that never
# waits on I/O (the snapshot is in memory), so a thread-pool hop would cost more than it saves.


@router.post("/chat", response_model=AssistantResponse, response_class=JSONBytes)
async def chat(request: ChatRequest, service: ServiceDep) -> JSONBytes:
    """Answer with a verified citation, or refuse with a typed reason. Always HTTP 200."""
    response: dict[str, Any] = service.answer(request)
    return JSONBytes(response)


@router.post("/chat/stream", response_class=StreamingResponse)
async def chat_stream(request: ChatRequest, service: ServiceDep) -> StreamingResponse:
    """The same response as NDJSON lines: metadata, citations, content, …, done last."""
    return StreamingResponse(service.stream(request), media_type="application/x-ndjson")
