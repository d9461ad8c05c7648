"""api_key: who may call Navod; conversations belong to a key, never to a header value

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25

Until now a dossier's `asker` was the X-Navod-Asker header as sent: anything a client chose,
possibly an e-mail address or an OIB. No key existed before this revision, so every stored
asker came from that header; each becomes "anonymous", the owner of capability conversations
(reachable by their unguessable id alone). So no raw header value stays in the database and no
conversation is lost: whoever holds a conversation's id can still continue it, as before.

The downgrade drops the key table; the old asker values are gone for good (that is the point).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ANONYMOUS = "anonymous"


def upgrade() -> None:
    op.create_table(
        "api_key",
        sa.Column("id", sa.String(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("prefix", sa.String(), nullable=False),
        sa.Column("secret_hash", sa.String(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("rate_limit_per_minute", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_api_key_prefix", "api_key", ["prefix"])
    dossier = sa.table("dossier", sa.column("asker", sa.String()))
    op.execute(dossier.update().where(dossier.c.asker != ANONYMOUS).values(asker=ANONYMOUS))


def downgrade() -> None:
    op.drop_index("ix_api_key_prefix", table_name="api_key")
    op.drop_table("api_key")
