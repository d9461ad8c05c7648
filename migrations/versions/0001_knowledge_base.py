"""knowledge base: sources, evidence, concepts, rules, pointers and the version row

Revision ID: 0001
Revises:
Create Date: 2026-11-22

Written by hand to match engine/store/knowledge/tables.py (tests/test_migrations.py checks
they agree).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "source",
        sa.Column("id", sa.String(), nullable=False),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("act_id", sa.String(), nullable=False),
        sa.Column("authority", sa.String(), nullable=False),
        sa.Column("jurisdiction", sa.String(), nullable=False),
        sa.Column("language", sa.String(), nullable=False),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("publisher", sa.Text(), nullable=False),
        sa.Column("licence", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "concept",
        sa.Column("slug", sa.String(), nullable=False),
        sa.Column("domain", sa.String(), nullable=False),
        sa.Column("jurisdiction", sa.String(), nullable=False),
        sa.Column("labels", sa.JSON(), nullable=False),
        sa.Column("aliases", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("slug"),
    )
    op.create_table(
        "evidence",
        sa.Column("id", sa.String(), nullable=False),
        sa.Column("key", sa.String(), nullable=False),
        sa.Column("source_id", sa.String(), nullable=False),
        sa.Column("locator", sa.Text(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("sha256", sa.String(), nullable=False),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("fetched_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("capture_method", sa.String(), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["source_id"], ["source.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("key", name="uq_evidence_key"),
    )
    op.create_index("ix_evidence_source_id", "evidence", ["source_id"])
    op.create_table(
        "rule",
        sa.Column("id", sa.String(), nullable=False),
        sa.Column("concept", sa.String(), nullable=False),
        sa.Column("title", sa.JSON(), nullable=False),
        sa.Column("explanation", sa.JSON(), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("value_type", sa.String(), nullable=False),
        sa.Column("unit", sa.String(), nullable=False),
        sa.Column("effective_from", sa.Date(), nullable=False),
        sa.Column("effective_until", sa.Date(), nullable=True),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("authority", sa.String(), nullable=False),
        sa.Column("obligation_type", sa.String(), nullable=False),
        sa.Column("risk_tier", sa.String(), nullable=False),
        sa.Column("applies_when", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("confidence", sa.Float(), nullable=False),
        sa.Column("verified_as_of", sa.Date(), nullable=True),
        sa.ForeignKeyConstraint(["concept"], ["concept.slug"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_rule_concept", "rule", ["concept"])
    op.create_table(
        "rule_pointer",
        sa.Column("rule_id", sa.String(), nullable=False),
        sa.Column("position", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("evidence_id", sa.String(), nullable=False),
        sa.Column("quote", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["evidence_id"], ["evidence.id"]),
        sa.ForeignKeyConstraint(["rule_id"], ["rule.id"]),
        sa.PrimaryKeyConstraint("rule_id", "position"),
    )
    kb_meta = op.create_table(
        "kb_meta",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("loaded_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("packs", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    # The single version row exists from the start: version 0 means "nothing loaded yet".
    op.bulk_insert(kb_meta, [{"id": 1, "version": 0, "loaded_at": None, "packs": ""}])


def downgrade() -> None:
    op.drop_table("kb_meta")
    op.drop_table("rule_pointer")
    op.drop_index("ix_rule_concept", table_name="rule")
    op.drop_table("rule")
    op.drop_index("ix_evidence_source_id", table_name="evidence")
    op.drop_table("evidence")
    op.drop_table("concept")
    op.drop_table("source")
