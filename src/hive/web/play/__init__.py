"""A game in play: created, moved, timed, flagged, offered, aborted, watched and listed; its page's state, its sockets
and their fan-out. The service (:class:`~hive.web.play.service.GameService`) has no HTTP and no SQL; the SQL is in
:mod:`~hive.web.play.tables` and the repositories (:mod:`~hive.web.play.repository`,
:mod:`~hive.web.play.presence_repository`), the HTTP in :mod:`~hive.web.play.routes` and :mod:`~hive.web.play.sockets`.

What other domains may use is exported here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..shared.lazy import lazy_exports

if TYPE_CHECKING:
    from .newgame import RANDOM
    from .repository import Effects, StaleError
    from .rows import games_in_progress, playing_in
    from .rows import stored as game_stored
    from .service import GameService, damage, ended, summary
    from .session import LiveGames, Session

#: Each name of the public face, and the module it comes from (imported when first asked for, so that a worker
#: process importing one module of the package does not import the rest).
_FROM = {
    "Effects": (".repository", "Effects"),
    "StaleError": (".repository", "StaleError"),
    "games_in_progress": (".rows", "games_in_progress"),
    "playing_in": (".rows", "playing_in"),
    "game_stored": (".rows", "stored"),
    "GameService": (".service", "GameService"),
    "damage": (".service", "damage"),
    "ended": (".service", "ended"),
    "summary": (".service", "summary"),
    "LiveGames": (".session", "LiveGames"),
    "Session": (".session", "Session"),
    "RANDOM": (".newgame", "RANDOM"),
}

__getattr__ = lazy_exports(__name__, _FROM)


__all__ = [
    "RANDOM",
    "Effects",
    "GameService",
    "LiveGames",
    "Session",
    "StaleError",
    "damage",
    "ended",
    "game_stored",
    "games_in_progress",
    "playing_in",
    "summary",
]
