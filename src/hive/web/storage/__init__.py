"""Where the server's records are kept, put together for the wiring: a database
(:class:`~hive.web.shared.database.Database`, SQLite or PostgreSQL) and each domain's repository, whose errors do not
depend on the database (:class:`~hive.web.shared.errors.Unavailable` while it cannot be reached,
:class:`~hive.web.play.repository.StaleError` for a change made from an old version). Only the app object opens it;
each domain is handed its own repository.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..ai import keep_job
from ..ai.repository import AIJobs
from ..analysis.line_repository import LineRepository
from ..analysis.review_repository import ReviewRepository
from ..chat.repository import ChatRepository
from ..lobby.repository import SeekRepository
from ..moderation.repository import AuditRepository
from ..play.presence_repository import Presence
from ..play.repository import Effects, GameRepository, StaleError
from ..players.follow_repository import FollowRepository
from ..players.repository import AccountRepository
from ..players.reset_repository import ResetRepository
from ..push.repository import PushRepository
from ..ratings.repository import RatingRepository
from ..shared.database import Database, DatabaseError, default_path
from ..shared.quotas import QuotaRepository
from ..tournaments.repository import TournamentRepository


@dataclass
class Store:
    """An open database and its repositories."""

    database: Database
    games: GameRepository
    lines: LineRepository
    reviews: ReviewRepository
    jobs: AIJobs
    presence: Presence
    accounts: AccountRepository
    ratings: RatingRepository
    seeks: SeekRepository
    tournaments: TournamentRepository
    chat: ChatRepository
    quotas: QuotaRepository
    push: PushRepository
    resets: ResetRepository
    audit: AuditRepository
    follows: FollowRepository

    def close(self) -> None:
        """Close the database."""
        self.database.close()


def open_store(
    database: str | os.PathLike[str],
    process: str,
    *,
    exclusive: bool = False,
    upgrade: bool | None = None,
    now: Callable[[], float] = time.time,
) -> Store:
    """Open ``database`` (see :class:`~hive.web.shared.database.Database`) for the server process ``process``.

    :raises DatabaseError: when it cannot be used.
    """
    db = Database(database, exclusive=exclusive, upgrade=upgrade)
    return Store(
        db,
        GameRepository(db, now, keep_job),
        LineRepository(db, now),
        ReviewRepository(db, now),
        AIJobs(db, now),
        Presence(db, process, now),
        AccountRepository(db, now),
        RatingRepository(db, now),
        SeekRepository(db, now),
        TournamentRepository(db, now),
        ChatRepository(db, now),
        QuotaRepository(db, now),
        PushRepository(db, now),
        ResetRepository(db, now),
        AuditRepository(db, now),
        FollowRepository(db, now),
    )


__all__ = [
    "Database",
    "DatabaseError",
    "Effects",
    "GameRepository",
    "StaleError",
    "Store",
    "default_path",
    "open_store",
]
