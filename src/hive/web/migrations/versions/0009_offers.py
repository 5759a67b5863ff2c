"""When each open seek was last held by its seeker (``seeks.held``): a seek whose seeker has no page (or bot stream)
open for a while is cancelled.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-08
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("seeks", sa.Column("held", sa.Float))
    op.execute("UPDATE seeks SET held = created")


def downgrade() -> None:
    with op.batch_alter_table("seeks") as batch:
        batch.drop_column("held")
