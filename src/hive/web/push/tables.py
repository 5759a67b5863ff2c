"""Web Push's tables: the server's VAPID key pair and the browsers' push subscriptions. The migrations in
:mod:`~hive.web.migrations` create them; a change here goes with a new migration."""

from __future__ import annotations

import sqlalchemy as sa

from ..shared.tables import metadata

#: The server's VAPID key pair (RFC 8292), one row (``id`` 1) that every process shares: the P-256 private key's
#: 32 bytes and the public key's 65 (uncompressed point), both base64url without padding.
push_keys = sa.Table(
    "push_keys",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("private", sa.Text, nullable=False),
    sa.Column("public", sa.Text, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
)

#: A browser's push subscription (the Push API's ``PushSubscription``): where its push service takes messages
#: (``endpoint``, unique: one browser's), the keys its messages are encrypted to (RFC 8291: ``p256dh``, the
#: browser's P-256 public key; ``auth``, its 16-byte secret; base64url), which notifications it asked for (``kinds``,
#: comma-separated) and the page's language when it subscribed.
push_subscriptions = sa.Table(
    "push_subscriptions",
    metadata,
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("account_id", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    sa.Column("endpoint", sa.Text, nullable=False, unique=True),
    sa.Column("p256dh", sa.Text, nullable=False),
    sa.Column("auth", sa.Text, nullable=False),
    sa.Column("kinds", sa.Text, nullable=False),
    sa.Column("language", sa.Text),
    sa.Column("created", sa.Float, nullable=False),
)

__all__ = ["push_keys", "push_subscriptions"]
