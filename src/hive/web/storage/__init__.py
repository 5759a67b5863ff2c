"""Where the games are kept: a database (:class:`~hive.web.shared.database.Database`, SQLite or PostgreSQL) and one
repository per kind of record, whose errors do not depend on the database (:class:`~hive.web.shared.errors.Unavailable`
while it cannot be reached, :class:`~hive.web.storage.games.StaleError` for a change made from an old version).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..shared.database import Database, DatabaseError, default_path
from ..shared.quotas import QuotaRepository
from .games import Effects, GameRepository, StaleError
from .jobs import AIJobs
from .lines import LineRepository
from .presence import Presence
from .reviews import ReviewRepository

if TYPE_CHECKING:
    from ..chat.repository import ChatRepository
    from ..lobby.repository import SeekRepository
    from ..players.repository import AccountRepository
    from ..ratings.repository import RatingRepository
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
    # the community domains' repositories stand on the game side, which imports this package: imported once it is
    from ..chat.repository import ChatRepository
    from ..lobby.repository import SeekRepository
    from ..players.repository import AccountRepository
    from ..ratings.repository import RatingRepository
    from ..tournaments.repository import TournamentRepository

    db = Database(database, exclusive=exclusive, upgrade=upgrade)
    return Store(
        db,
        GameRepository(db, now),
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
