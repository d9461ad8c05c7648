"""What the chat routes return: the contract's AssistantResponse with the blocks Navod adds,
and the NDJSON stream's lines (each one a part of that response)."""

from __future__ import annotations

from typing import Any, Optional

from pydantic import BaseModel, Field, create_model

from api.schemas.dossiers import DossierBlock, TopicScore
from engine.contract import AssistantResponse


class ChatReply(AssistantResponse):
    """An ANSWER or a REFUSAL (HTTP 200 either way; docs/contract.md). Blocks not named here
    may be added later: clients keep the ones they do not know."""

    dossier: DossierBlock | None = Field(
        default=None, description="The conversation, unless `use_memory` was false"
    )
    completeness: list[TopicScore] | None = Field(
        default=None, description="The planning topics' scores, when this turn moved one"
    )
    understood: dict[str, Any] | None = Field(
        default=None, description="What Navod read from the question: facts, remembered ones"
    )
    redactions: dict[str, Any] | None = Field(
        default=None, description="What the input guard redacted before anything was stored"
    )


def _line_fields() -> dict[str, Any]:
    # Optional[...] rather than `| None`: a field's annotation is a runtime type form, which
    # mypy does not know supports `|`.
    fields: dict[str, Any] = {
        name: (Optional[info.annotation], Field(default=None, description=info.description))  # noqa: UP045
        for name, info in ChatReply.model_fields.items()
        if name != "requestId"
    }
    fields["done"] = (
        bool | None,
        Field(default=None, alias="_done", description="true on the last line, alone"),
    )
    return fields


StreamLine: type[BaseModel] = create_model(
    "StreamLine",
    __base__=BaseModel,
    __doc__=(
        "One line of `application/x-ndjson`: a part of the response, every line carrying"
        " `requestId`. In order: metadata (schemaVersion, requestId, traceId, kind, topic,"
        " surface, createdAt, asOfDate, sessionId, language, unreadLanguage); citations and"
        " additionalCitations, if any, before the answer text; content (headline,"
        " directAnswer, confidence); refusal (refusalReason, refusal); relatedQuestions; one"
        " line per remaining block; then"
        ' `{"requestId", "_done": true}`. A client merges the lines into one AssistantResponse.'
    ),
    requestId=(str, Field(description="req_ prefix; the same on every line")),
    **_line_fields(),
)
