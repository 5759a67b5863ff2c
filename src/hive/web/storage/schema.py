"""The tables, as the repositories read and write them (SQLAlchemy Core). The migrations in
:mod:`~hive.web.migrations` create them; a change here goes with a new migration.

Texts that hold JSON (options, offers, clocks, moves of a line, a review's positions) are stored as text, the same on
SQLite and PostgreSQL; times are seconds since the epoch.
"""

from __future__ import annotations

import sqlalchemy as sa

from ..ai.tables import ai_jobs
from ..analysis.tables import lines, reviews
from ..play.tables import games, moves, processes, watchers
from ..shared.tables import metadata, quotas

#: The players' accounts (``hive serve``). ``key`` is the name as compared for uniqueness (see
#: :func:`hive.web.accounts.names.name_key`); ``password`` an argon2id hash.
accounts = sa.Table(
    "accounts",
    metadata,
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("key", sa.Text, nullable=False, unique=True),
    sa.Column("password", sa.Text, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("admin", sa.Boolean, nullable=False),
    sa.Column("banned", sa.Boolean, nullable=False),
    #: a bot's account: an engine plays it, through the bot API (marked BOT wherever its name shows)
    sa.Column("bot", sa.Boolean, nullable=False, server_default=sa.false()),
)

#: API tokens (the SHA-256 of each): ``Authorization: Bearer <token>`` acts as the account (a bot's engine), within
#: its scope (``bot``: play and read; see :data:`hive.web.accounts.service.SCOPES`).
api_tokens = sa.Table(
    "api_tokens",
    metadata,
    sa.Column("token", sa.Text, primary_key=True),
    sa.Column("account_id", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("scope", sa.Text, nullable=False, server_default="bot"),
)

#: Signed-in sessions: the SHA-256 of the cookie's token (the token itself is never stored), the CSRF token that
#: every change made with the cookie must carry, and when the session lapses unless used.
sessions = sa.Table(
    "sessions",
    metadata,
    sa.Column("token", sa.Text, primary_key=True),
    sa.Column("account_id", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    sa.Column("csrf", sa.Text, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("seen", sa.Float, nullable=False),
    sa.Column("expires", sa.Float, nullable=False),
)

#: Who is online: each account's last request (its pages' or its bot's), as any server process saw it; marked at most
#: once a minute by each process (see :meth:`hive.web.accounts.service.Accounts.seen`).
online = sa.Table(
    "online",
    metadata,
    sa.Column("account_id", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seen", sa.Float, nullable=False, index=True),
)

#: Where each account signed in from before (``address:<address>``, ``device:<SHA-256 of a device cookie>``) and
#: when last: sign-ins from there are not held by the lock a stranger's guesses put on the name.
trusted = sa.Table(
    "trusted",
    metadata,
    sa.Column("account_id", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("key", sa.Text, primary_key=True),
    sa.Column("seen", sa.Float, nullable=False, index=True),
)

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
    #: when a page or bot stream of the seeker's was last seen open (an open seek not held for a while is cancelled)
    sa.Column("held", sa.Float),
)

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

#: Chat: each game's players' room and its spectators' room; a message reported goes to the admins.
chat = sa.Table(
    "chat",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.Text, sa.ForeignKey("games.id", ondelete="CASCADE"), index=True),
    #: a tournament's organiser-and-players room (``game_id`` is then ``None``)
    sa.Column("tournament_id", sa.Text, sa.ForeignKey("tournaments.id", ondelete="CASCADE"), index=True),
    sa.Column("room", sa.Text, nullable=False),
    sa.Column("account_id", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("reported", sa.Text),
)

#: Who reported which message, once each: a report by a reader of the message's room (see ``chat.reported``, the first).
chat_reports = sa.Table(
    "chat_reports",
    metadata,
    sa.Column("message_id", sa.Integer, sa.ForeignKey("chat.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("account_id", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("at", sa.Float, nullable=False),
)

#: Who blocked whom: a blocked account's chat is hidden from the blocker, and it cannot challenge them.
blocks = sa.Table(
    "blocks",
    metadata,
    sa.Column("account_id", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("blocked", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
)

__all__ = [
    "accounts",
    "ai_jobs",
    "api_tokens",
    "blocks",
    "chat",
    "chat_reports",
    "games",
    "lines",
    "metadata",
    "moves",
    "online",
    "processes",
    "quotas",
    "rated_games",
    "ratings",
    "reviews",
    "seeks",
    "sessions",
    "tournament_games",
    "tournaments",
    "trusted",
    "watchers",
]
