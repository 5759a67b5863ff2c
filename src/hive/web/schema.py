"""The whole schema: every domain's tables on the one :data:`~hive.web.shared.tables.metadata`, as the migrations in
:mod:`~hive.web.migrations` make it (the tests compare the two). Nothing in the server imports it: each repository
imports its own domain's tables module.
"""

from __future__ import annotations

from .ai.tables import ai_jobs
from .analysis.tables import lines, reviews
from .chat.tables import blocks, chat, chat_reports, mutes
from .lobby.tables import seeks
from .moderation.tables import audit
from .play.tables import games, moves, processes, watchers
from .players.tables import accounts, api_tokens, follows, online, password_resets, sessions, trusted
from .push.tables import push_keys, push_subscriptions
from .ratings.tables import rated_games, ratings
from .shared.tables import metadata, quotas
from .tournaments.tables import tournament_games, tournaments

__all__ = [
    "accounts",
    "ai_jobs",
    "api_tokens",
    "audit",
    "blocks",
    "chat",
    "chat_reports",
    "follows",
    "games",
    "lines",
    "metadata",
    "moves",
    "mutes",
    "online",
    "password_resets",
    "processes",
    "push_keys",
    "push_subscriptions",
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
