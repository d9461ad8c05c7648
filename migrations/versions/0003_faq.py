"""faq: frequently asked questions, each pointing at a concept's rules

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22

A new table only, so everything stored at 0002 keeps loading; its knowledge simply has no FAQ
entries until the packs are loaded again.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "faq",
        sa.Column("id", sa.String(), nullable=False),
        sa.Column("language", sa.String(), nullable=False),
        sa.Column("question", sa.Text(), nullable=False),
        sa.Column("concept", sa.String(), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["concept"], ["concept.slug"]),
        sa.PrimaryKeyConstraint("id"),
    )
    # As ix_rule_concept: the rows of one concept are found without a scan (foreign key checks).
    op.create_index("ix_faq_concept", "faq", ["concept"])


def downgrade() -> None:
    op.drop_index("ix_faq_concept", table_name="faq")
    op.drop_table("faq")
