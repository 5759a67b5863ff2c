"""The lobby's table: its seeks, challenges and rematch offers. The migrations in :mod:`~hive.web.migrations` create
them; a change here goes with a new migration."""

from __future__ import annotations

import sqlalchemy as sa

from ..shared.tables import metadata

#: Open seeks of the lobby: a game one account offers, which another accepts.
seeks = sa.Table(
    "seeks",
    metadata,
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("account_id", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    sa.Column("kind", sa.Text, nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("time_control", sa.Text),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("colour", sa.Text, nullable=False),
    sa.Column("low", sa.Float),
    sa.Column("high", sa.Float),
    sa.Column("created", sa.Float, nullable=False),
    #: the game that accepting it started (``None`` while it is open)
    sa.Column("game_id", sa.Text),
    #: a challenge's one possible opponent (``None``: a seek anyone may accept)
    sa.Column("target", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE")),
    #: a rematch offer's finished game (the challenge asks for its rematch, the colours swapped)
    sa.Column("rematch_of", sa.Text, index=True),
    #: when a page or bot stream of the seeker's was last seen open (an open seek not held for a while is
    #: cancelled); a taken seek's: when it was taken
    sa.Column("held", sa.Float),
)

__all__ = ["seeks"]
