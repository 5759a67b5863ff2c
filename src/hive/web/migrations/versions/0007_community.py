"""A rematch offer's game on its challenge (``seeks.rematch_of``), and chat reports kept once per message and reporter
(``chat_reports``).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("seeks", sa.Column("rematch_of", sa.Text))
    op.create_index("ix_seeks_rematch_of", "seeks", ["rematch_of"])
    op.create_table(
        "chat_reports",
        sa.Column("message_id", sa.Integer, sa.ForeignKey("chat.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("account_id", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    # the reports made before: one each, by the one reporter a message kept
    op.execute(
        "INSERT INTO chat_reports (message_id, account_id, at) SELECT id, reported, at FROM chat"
        " WHERE reported IS NOT NULL AND reported IN (SELECT id FROM accounts)"
    )


def downgrade() -> None:
    op.drop_table("chat_reports")
    op.drop_index("ix_seeks_rematch_of", "seeks")
    op.drop_column("seeks", "rematch_of")
