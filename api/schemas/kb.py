"""What the knowledge-base routes return beyond api/kb_views.py: the planning topics, every
concept as stored, and one rule with its pointers (the records as the store holds them)."""

from __future__ import annotations

from datetime import date
from typing import Any

from pydantic import BaseModel, Field

from engine.types import (
    AnswerKind,
    Authority,
    FactKind,
    Jurisdiction,
    ObligationType,
    QualifierDimension,
    RiskTier,
    RuleStatus,
    Stability,
    ValueType,
)


class ChecklistItemView(BaseModel):
    fact: str = Field(description="The fact type, as rules' conditions name it")
    weight: int = Field(gt=0)
    kind: FactKind
    subtopic: str
    question: dict[str, str] = Field(description="The question asking for it, per language")


class TopicView(BaseModel):
    id: str
    pack: str
    label: dict[str, str]
    checklist: list[ChecklistItemView]


class TopicList(BaseModel):
    topics: list[TopicView] = Field(description="In the packs' order")


class ThresholdView(BaseModel):
    facts: list[str]
    above: str
    at_or_below: str
    since: date | None


class DateFromAgeView(BaseModel):
    age_concept: str
    after_years: int


class ConceptRecord(BaseModel):
    slug: str
    domain: str
    jurisdiction: Jurisdiction
    labels: dict[str, str]
    aliases: dict[str, list[str]]
    family: str = Field(description='"" for a family of one')
    answers: list[AnswerKind]
    varies_by: list[QualifierDimension]
    threshold: ThresholdView | None
    date_from_age: DateFromAgeView | None


class ConceptList(BaseModel):
    version: int
    concepts: list[ConceptRecord]


class PointerView(BaseModel):
    evidence_id: str
    quote: str


class RuleRecord(BaseModel):
    id: str
    concept: str
    title: dict[str, str]
    explanation: dict[str, str]
    value: str
    value_type: ValueType
    unit: str
    effective_from: date
    effective_until: date | None = Field(description="Exclusive; null while in force")
    status: RuleStatus
    authority: Authority
    obligation_type: ObligationType
    risk_tier: RiskTier
    applies_when: Any = Field(description="The condition on the asker's facts; null: always")
    pointers: list[PointerView]
    confidence: float
    verified_as_of: date | None
    stability: Stability | None
    value_label: dict[str, str]
