"""The AI queue's table (SQLAlchemy Core, on the one schema's metadata; see :mod:`~hive.web.migrations`)."""

from __future__ import annotations

import sqlalchemy as sa

from ..shared.tables import metadata

#: The AI's moves waiting or being worked out: one row per game whose AI is due, taken by one server process at a
#: time for as long as its lease lasts.
ai_jobs = sa.Table(
    "ai_jobs",
    metadata,
    sa.Column("game_id", sa.Text, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("ply", sa.Integer, nullable=False),
    sa.Column("client", sa.Text, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("owner", sa.Text),
    sa.Column("lease", sa.Float),
    sa.Column("tries", sa.Integer, nullable=False),
)

__all__ = ["ai_jobs"]
