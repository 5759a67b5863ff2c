"""The moderation's table: the audit list of every admin's action. The migrations in :mod:`~hive.web.migrations`
create it; a change here goes with a new migration."""

from __future__ import annotations

import sqlalchemy as sa

from ..shared.tables import metadata

#: Every admin's action, once it was done: who did it (their name then), what (``ban``, ``unban``, ``mute``,
#: ``unmute``, ``delete``, ``password``, ``reset_link``, ``handled``, ``reopened``), to whom (an account's name: a
#: report's, its line's writer, the line's id in ``detail``), when, and what more it said (never a secret: no
#: password, no link). Names are kept as text, so that a row outlives a deleted account.
audit = sa.Table(
    "audit",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("at", sa.Float, nullable=False, index=True),
    sa.Column("admin", sa.Text, nullable=False),
    sa.Column("action", sa.Text, nullable=False),
    sa.Column("target", sa.Text, nullable=False),
    sa.Column("detail", sa.Text, nullable=False, server_default=""),
)

__all__ = ["audit"]
