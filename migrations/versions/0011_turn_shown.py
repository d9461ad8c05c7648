"""dossier_turn_shown: the response each conversation turn was answered with

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-29

A turn event keeps ids and short texts only; the response it was answered with (quote,
sources, why, trace) is kept beside it, one row per turn event, so an earlier turn reopens in
full after a reload (issue 26). Turns stored before this revision have no row: clients show
them by their headline, as before.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "dossier_turn_shown",
        sa.Column("dossier_id", sa.String(), nullable=False),
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["dossier_id"], ["dossier.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("dossier_id", "seq"),
    )


def downgrade() -> None:
    op.drop_table("dossier_turn_shown")
