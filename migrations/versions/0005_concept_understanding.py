"""concept.understanding: how questions about a concept are understood

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24

A nullable JSON column with the concept's family, what its value answers, the qualifier
dimensions it varies by, a threshold a stated amount is compared with, and a date derived from
an age. Concepts loaded before this revision declare none and keep loading.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("concept") as batch:
        batch.add_column(sa.Column("understanding", sa.JSON(none_as_null=True), nullable=True))


def downgrade() -> None:
    # In place (SQLite 3.35+ drops a column itself): recreating the table would trip the
    # foreign keys that rules hold on it.
    with op.batch_alter_table("concept", recreate="never") as batch:
        batch.drop_column("understanding")
