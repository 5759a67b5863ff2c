"""The chat's tables: the rooms' messages, the reports of them, who blocked whom, and who is muted. The migrations in
:mod:`~hive.web.migrations` create them; a change here goes with a new migration."""

from __future__ import annotations

import sqlalchemy as sa

from ..shared.tables import metadata

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
    #: when an admin marked its report handled (``None``: open, or never reported)
    sa.Column("handled", sa.Float),
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

#: Accounts an admin muted: they read the chat, but write in no room.
mutes = sa.Table(
    "mutes",
    metadata,
    sa.Column("account_id", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("at", sa.Float, nullable=False),
)

__all__ = ["blocks", "chat", "chat_reports", "mutes"]
