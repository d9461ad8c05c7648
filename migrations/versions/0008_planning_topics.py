"""topic: the planning topics each pack declares, with their checklists of facts

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25

A new table only, so everything stored at 0007 keeps loading; its knowledge simply has no
planning topics until the packs are loaded again. `pack` is the topic's own pack (never NULL:
no topic was stored before this revision) and `position` its place among that pack's topics.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "topic",
        sa.Column("id", sa.String(), nullable=False),
        sa.Column("pack", sa.String(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("label", sa.JSON(), nullable=False),
        sa.Column("checklist", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )


def downgrade() -> None:
    op.drop_table("topic")
