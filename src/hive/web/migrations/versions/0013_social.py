"""API tokens with a label and when each was last used (several per account, listed and revoked from the page), and
who follows whom (``follows``).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("api_tokens", sa.Column("label", sa.Text, nullable=False, server_default=""))
    op.add_column("api_tokens", sa.Column("used", sa.Float))
    op.create_table(
        "follows",
        sa.Column("follower_id", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("followed_id", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_follows_followed_id", "follows", ["followed_id"])


def downgrade() -> None:
    op.drop_index("ix_follows_followed_id", "follows")
    op.drop_table("follows")
    with op.batch_alter_table("api_tokens") as batch:
        batch.drop_column("used")
        batch.drop_column("label")
