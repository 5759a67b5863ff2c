"""The analysis' tables (SQLAlchemy Core, on the one schema's metadata; see :mod:`~hive.web.migrations`): the
lines explored beside a game's main line, and each game's engine review. Their moves and positions are JSON in text.
"""

from __future__ import annotations

import sqlalchemy as sa

from ..shared.tables import metadata

lines = sa.Table(
    "lines",
    metadata,
    sa.Column("game_id", sa.Text, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("line", sa.Integer, primary_key=True),
    sa.Column("parent", sa.Integer),
    sa.Column("moves", sa.Text, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
)

reviews = sa.Table(
    "reviews",
    metadata,
    sa.Column("game_id", sa.Text, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("level", sa.Text, nullable=False),
    sa.Column("moves", sa.Text, nullable=False),
    sa.Column("positions", sa.Text, nullable=False),
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("error", sa.Text),
    sa.Column("updated", sa.Float, nullable=False),
)

__all__ = ["lines", "reviews"]
