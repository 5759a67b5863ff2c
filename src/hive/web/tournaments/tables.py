"""The tournaments' tables: each tournament, and the games of its rounds. The migrations in :mod:`~hive.web.migrations`
create them; a change here goes with a new migration."""

from __future__ import annotations

import sqlalchemy as sa

from ..shared.tables import metadata

#: Tournaments on the server: their settings, and their state as :class:`hive.tournament.Tournament` keeps it (JSON,
#: the players by account id); ``version`` counts its changes, each stored only over the one it was made from.
tournaments = sa.Table(
    "tournaments",
    metadata,
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("organiser", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    sa.Column("kind", sa.Text, nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("time_control", sa.Text),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("state", sa.Text, nullable=False),
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("bots", sa.Boolean, nullable=False),
    sa.Column("invited", sa.Text),
    sa.Column("forfeit_after", sa.Float),
    sa.Column("starts", sa.Float),
)

#: Each game of a tournament's rounds (a bye has none).
tournament_games = sa.Table(
    "tournament_games",
    metadata,
    sa.Column("tournament_id", sa.Text, sa.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("round", sa.Integer, primary_key=True),
    sa.Column("board", sa.Integer, primary_key=True),
    sa.Column("game_id", sa.Text, nullable=False, index=True),
)

__all__ = ["tournament_games", "tournaments"]
