"""source/evidence/concept/rule/faq.pack: the pack a record was loaded from

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24

A load makes the database hold exactly what its packs hold: records of a loaded pack that the
pack no longer contains are removed. Records loaded before this revision carry no pack; the
next load of the pack that holds them claims them.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("source", "evidence", "concept", "rule", "faq")


def upgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("pack", sa.String(), nullable=True))


def downgrade() -> None:
    # In place (SQLite 3.35+ drops a column itself): recreating the tables would trip the
    # foreign keys between them.
    for table in reversed(TABLES):
        with op.batch_alter_table(table, recreate="never") as batch:
            batch.drop_column("pack")
