"""rule.value_label: how a text value reads in each language; source.reflects

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24

A rule whose value is a phrase in its source's language ("66 and 2 months", "drie jaren")
carries the same value worded in hr, nl and en, so an answer is entirely in the asker's
language while the quote stays verbatim. Nullable: numeric and date values need none.
source.reflects lists the instruments a page restates (an IRS table reflects the year's notice):
a page that contradicts the instrument others cite does not win a conflict by rank.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rule") as batch:
        batch.add_column(sa.Column("value_label", sa.JSON(none_as_null=True), nullable=True))
    with op.batch_alter_table("source") as batch:
        batch.add_column(sa.Column("reflects", sa.JSON(none_as_null=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("source", recreate="never") as batch:
        batch.drop_column("reflects")
    with op.batch_alter_table("rule", recreate="never") as batch:
        batch.drop_column("value_label")
