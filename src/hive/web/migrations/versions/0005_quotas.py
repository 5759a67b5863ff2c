"""Quotas counted atomically: a row per key, its window's start and the uses in it.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "quotas",
        sa.Column("key", sa.Text, primary_key=True),
        sa.Column("start", sa.Float, nullable=False),
        sa.Column("used", sa.Integer, nullable=False),
    )
    op.create_index("ix_quotas_start", "quotas", ["start"])


def downgrade() -> None:
    op.drop_table("quotas")
