"""The tables, as the repositories read and write them (SQLAlchemy Core). The migrations in
:mod:`~hive.web.migrations` create them; a change here goes with a new migration.

Texts that hold JSON (options, offers, clocks, moves of a line, a review's positions) are stored as text, the same on
SQLite and PostgreSQL; times are seconds since the epoch.
"""

from __future__ import annotations

import sqlalchemy as sa

from ..shared.tables import metadata, quotas

games = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("kind", sa.Text, nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("mode", sa.Text, nullable=False),
    sa.Column("ai_level", sa.Text),
    sa.Column("ai_seat", sa.Integer),
    sa.Column("token0", sa.Text, index=True),
    sa.Column("token1", sa.Text, index=True),
    sa.Column("length", sa.Integer, nullable=False),
    sa.Column("result", sa.Text),
    sa.Column("reason", sa.Text),
    sa.Column("offer", sa.Text),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
    sa.Column("name0", sa.Text),
    sa.Column("name1", sa.Text),
    sa.Column("help0", sa.Integer),
    sa.Column("help1", sa.Integer),
    sa.Column("joined", sa.Integer, nullable=False),
    sa.Column("rematch", sa.Text),
    sa.Column("clock", sa.Text),
    sa.Column("start", sa.Text),
    sa.Column("version", sa.Integer, nullable=False),
    #: the rows of the moves table the game has: its moves in effect, then those taken back
    sa.Column("stored", sa.Integer, nullable=False),
    #: when the running clock's flag falls, while the game is on
    sa.Column("deadline", sa.Float),
    sa.Column("ai_error", sa.Text),
    #: the accounts playing each seat, and whether the game is rated (a game from a seek on ``hive serve``)
    sa.Column("account0", sa.Text),
    sa.Column("account1", sa.Text),
    sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
)

moves = sa.Table(
    "moves",
    metadata,
    sa.Column("game_id", sa.Text, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("ply", sa.Integer, primary_key=True),
    sa.Column("move", sa.Text, nullable=False),
    #: the game's version that wrote the row
    sa.Column("written", sa.Integer, nullable=False),
)

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

#: The server processes sharing the database, each with the last time it said it was alive.
processes = sa.Table(
    "processes",
    metadata,
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("host", sa.Text, nullable=False),
    sa.Column("pid", sa.Integer, nullable=False),
    sa.Column("started", sa.Float, nullable=False),
    sa.Column("beat", sa.Float, nullable=False),
)

#: The sockets each process has open on each game with a seat's token, counted (who is present).
watchers = sa.Table(
    "watchers",
    metadata,
    sa.Column("process", sa.Text, sa.ForeignKey("processes.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("game_id", sa.Text, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("sockets", sa.Integer, nullable=False),
)

__all__ = [
    "ai_jobs",
    "games",
    "lines",
    "metadata",
    "moves",
    "processes",
    "quotas",
    "reviews",
    "watchers",
]
