"""rule.stability: how often a rule's value changes, which sets its horizon

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22

Nullable, so every rule loaded before this revision keeps loading: a missing stability is
derived from the value type (engine/horizons.py).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rule") as batch:
        batch.add_column(sa.Column("stability", sa.String(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rule") as batch:
        batch.drop_column("stability")
