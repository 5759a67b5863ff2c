"""The game list by the seats a browser holds: the seat tokens indexed.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-06
"""

from __future__ import annotations

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_games_token0", "games", ["token0"])
    op.create_index("ix_games_token1", "games", ["token1"])


def downgrade() -> None:
    op.drop_index("ix_games_token1", "games")
    op.drop_index("ix_games_token0", "games")
