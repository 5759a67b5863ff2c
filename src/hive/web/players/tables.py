"""The players' tables: their accounts, API tokens, sessions, who is online, where each signed in from, the links
that set a forgotten password, and whom each follows. The migrations in :mod:`~hive.web.migrations` create them; a
change here goes with a new migration."""

from __future__ import annotations

import sqlalchemy as sa

from ..shared.tables import metadata

#: The players' accounts (``hive serve``). ``key`` is the name as compared for uniqueness (see
#: :func:`hive.web.players.names.name_key`); ``password`` an argon2id hash.
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
    #: where a forgotten password's link is mailed (the player's own; never shown to others)
    sa.Column("email", sa.Text),
    #: the language the player chose (a code of hive.web.shared.i18n.languages); NULL: the browser's
    sa.Column("language", sa.Text),
)

#: API tokens (the SHA-256 of each): ``Authorization: Bearer <token>`` acts as the account (a bot's engine), within
#: its scope (``bot``: play and read; see :data:`hive.web.players.service.SCOPES`); ``label`` is the owner's name for
#: it, ``used`` when it was last used (noted at most once a minute).
api_tokens = sa.Table(
    "api_tokens",
    metadata,
    sa.Column("token", sa.Text, primary_key=True),
    sa.Column("account_id", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("scope", sa.Text, nullable=False, server_default="bot"),
    sa.Column("label", sa.Text, nullable=False, server_default=""),
    sa.Column("used", sa.Float),
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
#: once a minute by each process (see :meth:`hive.web.players.service.Accounts.seen`).
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

#: One-time links that set a forgotten password (see :mod:`hive.web.players.resets`): the SHA-256 of the link's
#: token (the token itself is never stored), when it lapses, and when it was used (once).
password_resets = sa.Table(
    "password_resets",
    metadata,
    sa.Column("token", sa.Text, primary_key=True),
    sa.Column("account_id", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("expires", sa.Float, nullable=False),
    sa.Column("used", sa.Float),
)

#: Who follows whom: a player sees the players they follow online or playing (see :mod:`hive.web.players.follows`).
follows = sa.Table(
    "follows",
    metadata,
    sa.Column("follower_id", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("followed_id", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True, index=True),
    sa.Column("created", sa.Float, nullable=False),
)

__all__ = ["accounts", "api_tokens", "follows", "online", "password_resets", "sessions", "trusted"]
