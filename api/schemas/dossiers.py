"""What the conversation routes return: a dossier (its selection, memory layers and events),
the asker's list of them, and the facts and completeness scores of issue 11."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.types import Language, Surface

DOSSIER_ID_PATTERN = r"^dos_[0-9a-f]{32}$"


class SourceRef(BaseModel):
    evidenceId: str
    title: str
    authority: str


class SourceChange(BaseModel):
    action: Literal["added", "unselected", "restored"]
    evidenceId: str
    title: str


class DossierBlock(BaseModel):
    """The conversation as a chat response shows it: its selection and what this turn changed."""

    id: str = Field(pattern=DOSSIER_ID_PATTERN)
    selected: list[SourceRef]
    unselected: list[SourceRef]
    changed: list[SourceChange] | None = Field(
        default=None, description="Present when this turn selected or unselected a source"
    )


class DossierSummary(BaseModel):
    id: str = Field(pattern=DOSSIER_ID_PATTERN)
    surface: Surface
    language: Language
    createdAt: str = Field(description="ISO-8601, UTC")
    updatedAt: str = Field(description="ISO-8601, UTC")
    turns: int
    lastQuestion: str | None = Field(description="Redacted, as stored")


class DossierList(BaseModel):
    dossiers: list[DossierSummary] = Field(description="Most recently updated first")


class RecentTurn(BaseModel):
    question: str
    answer: str = Field(description="The answer's headline")
    kind: str
    asOfDate: str


class IndexEntry(BaseModel):
    turn: int
    topics: list[str] = Field(description="The concepts the turn was about")
    question: str
    answer: str
    sources: list[str] = Field(description="Evidence ids")


class DossierEvent(BaseModel):
    """One stored event. The other fields depend on `type`: a turn's question and what was
    answered; a source action's `evidence_id`, title, authority and publisher; an info's fact;
    a completeness snapshot's scores."""

    model_config = ConfigDict(extra="allow")

    seq: int
    at: str = Field(description="ISO-8601, UTC")
    type: str = Field(description="turn, added, unselected, restored, info or completeness")


class DossierView(BaseModel):
    id: str = Field(pattern=DOSSIER_ID_PATTERN)
    surface: Surface
    language: Language
    createdAt: str
    updatedAt: str
    version: int
    selected: list[SourceRef]
    unselected: list[SourceRef]
    summary: str = Field(description="The rolling summary, in the dossier's language")
    recent: list[RecentTurn]
    index: list[IndexEntry]
    events: list[DossierEvent] = Field(description="Oldest first")


class ShownTurn(BaseModel):
    seq: int = Field(description="The turn's event seq")
    at: str = Field(description="ISO-8601, UTC")
    question: str = Field(description="Redacted, as stored")
    headline: str = Field(description="The answer's headline, as stored")
    response: dict[str, Any] | None = Field(
        description=(
            "The response the turn was answered with, as it was sent (an AssistantResponse with"
            " the conversation blocks); null for a turn stored before responses were kept"
        )
    )


class ShownTurns(BaseModel):
    """A conversation's turns with the responses they were answered with, oldest first."""

    id: str = Field(pattern=DOSSIER_ID_PATTERN)
    turns: list[ShownTurn]


class FactView(BaseModel):
    id: str = Field(description="<dossier id>-<event seq>")
    session_id: str
    topic: str
    subtopic: str
    fact_type: str
    value: str | int | float | bool
    confidence: float = Field(ge=0, le=1)
    source: Literal["question", "api", "clientContext"]
    inferred: bool = Field(
        default=False,
        description="Navod's reading of other words (a turnover taken as receipts), not stated",
    )
    retracted: bool = Field(
        default=False, description="The asker took the fact back: unknown from this record on"
    )
    turn: int
    created_at: str


class FactList(BaseModel):
    facts: list[FactView] = Field(description="Oldest first")


class TopicScore(BaseModel):
    topic: str
    score: int = Field(ge=0, le=100)
    reason: str = Field(description='What is still missing; "" when complete')


class CompletenessSnapshot(BaseModel):
    session_id: str
    scores: list[TopicScore]
    created_at: str


class CompletenessView(BaseModel):
    session_id: str
    scores: list[TopicScore] = Field(description="The latest score of each topic in play")
    history: list[CompletenessSnapshot] = Field(description="Every snapshot, oldest first")
