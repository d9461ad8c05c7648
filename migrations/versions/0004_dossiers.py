"""dossiers: one row per conversation and its append-only events

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23

New tables only, so everything stored at 0003 keeps loading. Event payloads are JSON read
field by field (engine/store/dossiers/convert.py): keys added later are optional there, so rows
written by this revision keep loading after later ones.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "dossier",
        sa.Column("id", sa.String(), nullable=False),
        sa.Column("asker", sa.String(), nullable=False),
        sa.Column("surface", sa.String(), nullable=False),
        sa.Column("language", sa.String(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("event_count", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    # An asker's dossiers newest first (recent, retention) without a scan.
    op.create_index("ix_dossier_asker_updated_at", "dossier", ["asker", "updated_at"])
    op.create_table(
        "dossier_event",
        sa.Column("dossier_id", sa.String(), nullable=False),
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["dossier_id"], ["dossier.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("dossier_id", "seq"),
    )


def downgrade() -> None:
    op.drop_table("dossier_event")
    op.drop_index("ix_dossier_asker_updated_at", table_name="dossier")
    op.drop_table("dossier")
