"""Who is online: each account's last request, as any server process saw it.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "online",
        sa.Column("account_id", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seen", sa.Float, nullable=False),
    )
    op.create_index("ix_online_seen", "online", ["seen"])


def downgrade() -> None:
    op.drop_table("online")
