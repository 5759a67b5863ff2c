"""A game in play: created, moved, timed, flagged, offered, aborted, watched and listed; its page's state, its sockets
and their fan-out. The service (:class:`~hive.web.play.service.GameService`) has no HTTP and no SQL; the SQL is in
:mod:`~hive.web.play.tables` and the repositories (:mod:`~hive.web.play.repository`,
:mod:`~hive.web.play.presence_repository`), the HTTP in :mod:`~hive.web.play.routes` and :mod:`~hive.web.play.sockets`.

What other domains may use is exported here.
"""

from __future__ import annotations

from .repository import Effects, StaleError, games_in_progress
from .repository import stored as game_stored
from .service import GameService, damage, ended, summary
from .session import LiveGames, Session

__all__ = [
    "Effects",
    "GameService",
    "LiveGames",
    "Session",
    "StaleError",
    "damage",
    "ended",
    "game_stored",
    "games_in_progress",
    "summary",
]
