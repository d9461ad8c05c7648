"""The knowledge-base tables (SQLModel). Rows only: conversion to domain types is convert.py.

Enum-like columns are plain strings: the pack loader validates them, and the migrations stay
free of database enum types. JSON columns use SQLAlchemy's portable JSON type, so the same
schema runs on SQLite and PostgreSQL. Keep migrations/versions in step with this file
(tests/test_migrations.py fails when they drift).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

# Python None in a nullable JSON column is stored as SQL NULL, not the JSON literal null.
_JSON_OR_NULL = sa.JSON(none_as_null=True)


class SourceRow(SQLModel, table=True):
    """A published act or document that evidence is quoted from."""

    __tablename__ = "source"

    id: str = Field(primary_key=True, sa_type=sa.String)
    title: str = Field(sa_type=sa.Text)
    act_id: str = Field(sa_type=sa.String)
    authority: str = Field(sa_type=sa.String)
    jurisdiction: str = Field(sa_type=sa.String)
    language: str = Field(sa_type=sa.String)
    url: str = Field(sa_type=sa.Text)
    publisher: str = Field(sa_type=sa.Text)
    licence: str = Field(sa_type=sa.Text)
    pack: str | None = Field(default=None, sa_type=sa.String, nullable=True)  # its pack
    # the instruments the page restates (Source.reflects); NULL when it names none
    reflects: list[str] | None = Field(default=None, sa_type=_JSON_OR_NULL)


class EvidenceRow(SQLModel, table=True):
    """A verbatim text from a source, identified by the hash of its content."""

    __tablename__ = "evidence"
    __table_args__ = (
        sa.UniqueConstraint("key", name="uq_evidence_key"),
        sa.Index("ix_evidence_source_id", "source_id"),
    )

    id: str = Field(primary_key=True, sa_type=sa.String)
    key: str = Field(sa_type=sa.String)
    source_id: str = Field(foreign_key="source.id", sa_type=sa.String)
    locator: str = Field(sa_type=sa.Text)
    text: str = Field(sa_type=sa.Text)
    sha256: str = Field(sa_type=sa.String)
    url: str = Field(sa_type=sa.Text)
    fetched_at: datetime = Field(sa_type=sa.DateTime(timezone=True))
    capture_method: str = Field(sa_type=sa.String)
    note: str = Field(sa_type=sa.Text)
    pack: str | None = Field(default=None, sa_type=sa.String, nullable=True)  # its pack


class ConceptRow(SQLModel, table=True):
    """A thing people ask about (a rate, a threshold), with labels and aliases per language."""

    __tablename__ = "concept"

    slug: str = Field(primary_key=True, sa_type=sa.String)
    domain: str = Field(sa_type=sa.String)
    jurisdiction: str = Field(sa_type=sa.String)
    labels: dict[str, str] = Field(sa_type=sa.JSON)
    aliases: dict[str, list[str]] = Field(sa_type=sa.JSON)
    # How questions about it are understood: family, answers, varies_by, threshold,
    # date_from_age (engine/types.py Concept); NULL for a concept that declares none.
    understanding: dict[str, Any] | None = Field(default=None, sa_type=_JSON_OR_NULL)
    pack: str | None = Field(default=None, sa_type=sa.String, nullable=True)  # its pack


class RuleRow(SQLModel, table=True):
    """A dated value of a concept, resting on pointers into evidence."""

    __tablename__ = "rule"
    __table_args__ = (sa.Index("ix_rule_concept", "concept"),)

    id: str = Field(primary_key=True, sa_type=sa.String)
    concept: str = Field(foreign_key="concept.slug", sa_type=sa.String)
    title: dict[str, str] = Field(sa_type=sa.JSON)
    explanation: dict[str, str] = Field(sa_type=sa.JSON)
    value: str = Field(sa_type=sa.Text)
    value_type: str = Field(sa_type=sa.String)
    unit: str = Field(sa_type=sa.String)
    effective_from: date = Field(sa_type=sa.Date)
    effective_until: date | None = Field(default=None, sa_type=sa.Date, nullable=True)
    status: str = Field(sa_type=sa.String)
    authority: str = Field(sa_type=sa.String)
    obligation_type: str = Field(sa_type=sa.String)
    risk_tier: str = Field(sa_type=sa.String)
    applies_when: Any = Field(default=None, sa_type=_JSON_OR_NULL, nullable=True)
    confidence: float = Field(sa_type=sa.Float)
    verified_as_of: date | None = Field(default=None, sa_type=sa.Date, nullable=True)
    stability: str | None = Field(default=None, sa_type=sa.String, nullable=True)
    pack: str | None = Field(default=None, sa_type=sa.String, nullable=True)  # its pack
    # a text value in each language (Rule.value_label); NULL when the value needs none
    value_label: dict[str, str] | None = Field(default=None, sa_type=_JSON_OR_NULL)
    # the rule ids it disagrees with on purpose (Rule.conflicts_with); NULL when none
    conflicts_with: list[str] | None = Field(default=None, sa_type=_JSON_OR_NULL)


class RulePointerRow(SQLModel, table=True):
    """The `position`-th citation of a rule: a quote that must occur in the evidence text."""

    __tablename__ = "rule_pointer"

    rule_id: str = Field(primary_key=True, foreign_key="rule.id", sa_type=sa.String)
    position: int = Field(
        primary_key=True, sa_type=sa.Integer, sa_column_kwargs={"autoincrement": False}
    )
    evidence_id: str = Field(foreign_key="evidence.id", sa_type=sa.String)
    quote: str = Field(sa_type=sa.Text)


class FaqRow(SQLModel, table=True):
    """A frequently asked question: it names the rules that answer it and holds no answer text.

    `rules` lists rule ids of `concept` in pack order; empty means every rule of the concept.
    The list is JSON, so the database cannot enforce it: the repositories check it on save.
    """

    __tablename__ = "faq"
    __table_args__ = (sa.Index("ix_faq_concept", "concept"),)

    id: str = Field(primary_key=True, sa_type=sa.String)
    language: str = Field(sa_type=sa.String)
    question: str = Field(sa_type=sa.Text)
    concept: str = Field(foreign_key="concept.slug", sa_type=sa.String)
    rules: list[str] = Field(sa_type=sa.JSON)
    pack: str | None = Field(default=None, sa_type=sa.String, nullable=True)  # its pack


class TopicRow(SQLModel, table=True):
    """A planning topic a pack declares (issue 11): its label and its checklist of facts.

    `position` is its place among its pack's topics; the knowledge base lists topics by pack,
    then position. `checklist` is a JSON list of {fact, weight, question, subtopic, kind}.
    """

    __tablename__ = "topic"

    id: str = Field(primary_key=True, sa_type=sa.String)
    pack: str = Field(sa_type=sa.String)  # its pack: the topic's own, and the one that owns it
    position: int = Field(sa_type=sa.Integer)
    label: dict[str, str] = Field(sa_type=sa.JSON)
    checklist: list[dict[str, Any]] = Field(sa_type=sa.JSON)


class ResolutionRow(SQLModel, table=True):
    """A maintainer's decision of a declared conflict (issue 25): which of two rules answers.

    The two rules are foreign keys, so a load that removes a rule a resolution still names
    fails. `evidence` is a JSON list of {evidence_id, quote}, out of reach of foreign keys:
    the repositories check it on save, as they do FAQ rule lists.
    """

    __tablename__ = "conflict_resolution"

    id: str = Field(primary_key=True, sa_type=sa.String)
    rule_a: str = Field(foreign_key="rule.id", sa_type=sa.String)
    rule_b: str = Field(foreign_key="rule.id", sa_type=sa.String)
    winner: str = Field(sa_type=sa.String)
    strategy: str = Field(sa_type=sa.String)
    rationale: dict[str, str] = Field(sa_type=sa.JSON)
    decided_by: str = Field(sa_type=sa.Text)
    decided_at: date = Field(sa_type=sa.Date)
    evidence: list[dict[str, str]] = Field(sa_type=sa.JSON)
    pack: str | None = Field(default=None, sa_type=sa.String, nullable=True)  # its pack


class KbMetaRow(SQLModel, table=True):
    """The single row (id 1) holding the knowledge-base version and what was loaded last."""

    __tablename__ = "kb_meta"

    id: int = Field(primary_key=True, sa_type=sa.Integer, sa_column_kwargs={"autoincrement": False})
    version: int = Field(sa_type=sa.Integer)
    loaded_at: datetime | None = Field(
        default=None, sa_type=sa.DateTime(timezone=True), nullable=True
    )
    packs: str = Field(sa_type=sa.Text)


KB_META_ID = 1
