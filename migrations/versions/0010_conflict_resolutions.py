"""rule.conflicts_with and conflict_resolution: conflicts a maintainer settles on the record

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-29

A rule's `conflicts_with` (the rules it disagrees with on purpose) was checked when packs were
verified and then forgotten; it is now stored, so `navod kb conflicts` lists the declared
conflicts of the loaded knowledge. Nullable: rules stored before keep NULL (no declared
conflict) until their pack is loaded again.

conflict_resolution holds the maintainers' decisions (issue 25): of two rules in conflict, the
one that answers, why (strategy, rationale in hr/nl/en), who decided when, and the quotes it
rests on. Its two rules are foreign keys. A new table, so knowledge stored at 0009 keeps
loading; it has no resolutions until its packs are loaded again.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rule") as batch:
        batch.add_column(sa.Column("conflicts_with", sa.JSON(none_as_null=True), nullable=True))
    op.create_table(
        "conflict_resolution",
        sa.Column("id", sa.String(), nullable=False),
        sa.Column("rule_a", sa.String(), nullable=False),
        sa.Column("rule_b", sa.String(), nullable=False),
        sa.Column("winner", sa.String(), nullable=False),
        sa.Column("strategy", sa.String(), nullable=False),
        sa.Column("rationale", sa.JSON(), nullable=False),
        sa.Column("decided_by", sa.Text(), nullable=False),
        sa.Column("decided_at", sa.Date(), nullable=False),
        sa.Column("evidence", sa.JSON(), nullable=False),
        sa.Column("pack", sa.String(), nullable=True),
        sa.ForeignKeyConstraint(["rule_a"], ["rule.id"]),
        sa.ForeignKeyConstraint(["rule_b"], ["rule.id"]),
        sa.PrimaryKeyConstraint("id"),
    )


def downgrade() -> None:
    op.drop_table("conflict_resolution")
    with op.batch_alter_table("rule", recreate="never") as batch:
        batch.drop_column("conflicts_with")
