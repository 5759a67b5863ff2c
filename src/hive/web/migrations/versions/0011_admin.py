"""Moderation: the admins' audit list (``audit``), muted accounts (``mutes``), a report marked handled
(``chat.handled``), an account's e-mail address (``accounts.email``) and the one-time links that set a forgotten
password (``password_resets``).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-09
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("accounts", sa.Column("email", sa.Text))
    op.add_column("chat", sa.Column("handled", sa.Float))
    op.create_table(
        "password_resets",
        sa.Column("token", sa.Text, primary_key=True),
        sa.Column("account_id", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("used", sa.Float),
    )
    op.create_index("ix_password_resets_account_id", "password_resets", ["account_id"])
    op.create_table(
        "mutes",
        sa.Column("account_id", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "audit",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("admin", sa.Text, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("target", sa.Text, nullable=False),
        sa.Column("detail", sa.Text, nullable=False, server_default=""),
    )
    op.create_index("ix_audit_at", "audit", ["at"])


def downgrade() -> None:
    op.drop_index("ix_audit_at", "audit")
    op.drop_table("audit")
    op.drop_table("mutes")
    op.drop_index("ix_password_resets_account_id", "password_resets")
    op.drop_table("password_resets")
    with op.batch_alter_table("chat") as batch:
        batch.drop_column("handled")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("email")
