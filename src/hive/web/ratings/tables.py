"""The ratings' tables: each account's rating per game and speed, and each rated game's effect on them. The migrations
in :mod:`~hive.web.migrations` create them; a change here goes with a new migration."""

from __future__ import annotations

import sqlalchemy as sa

from ..shared.tables import metadata

#: Each account's rating in each game and speed (Glicko-2), with its record there.
ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("account_id", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("game", sa.Text, primary_key=True),
    sa.Column("speed", sa.Text, primary_key=True),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("deviation", sa.Float, nullable=False),
    sa.Column("volatility", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("wins", sa.Integer, nullable=False),
    sa.Column("draws", sa.Integer, nullable=False),
    sa.Column("losses", sa.Integer, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
)

#: Every rated game's effect on its players' ratings, stored in the transaction that ends the game (so exactly once):
#: the rating history of a profile, and the change shown at a game's end.
rated_games = sa.Table(
    "rated_games",
    metadata,
    sa.Column("game_id", sa.Text, primary_key=True),
    sa.Column("game", sa.Text, nullable=False),
    sa.Column("speed", sa.Text, nullable=False),
    sa.Column("account0", sa.Text, nullable=False, index=True),
    sa.Column("account1", sa.Text, nullable=False, index=True),
    sa.Column("score0", sa.Float, nullable=False),
    sa.Column("before0", sa.Float, nullable=False),
    sa.Column("after0", sa.Float, nullable=False),
    sa.Column("before1", sa.Float, nullable=False),
    sa.Column("after1", sa.Float, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

__all__ = ["rated_games", "ratings"]
