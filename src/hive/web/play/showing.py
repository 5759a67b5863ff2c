"""A game's state shown to its sockets in this process: built once a change (its JSON without the seats), then sent
to every socket watching the game, each with its own seats (see :func:`~hive.web.play.fanout.with_seats`); the text
just sent also answers the request that made the change (:meth:`Showing.shown_now`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable

from ...sdk.view import JSON
from .fanout import Fanout, Watcher, dumps, with_seats
from .presence import Watching
from .service import GameService
from .session import Session

log = logging.getLogger("hive.web")
#: Seconds for which the state just sent to a game's sockets answers the request that changed it (its clock's
#: remaining times are those of that moment).
SHOWN_FOR = 0.25
#: Seconds a state built is kept at most (for :meth:`Showing.last` and :meth:`Showing.shown_now`, which ask for it at
#: once): the games a process ever showed are not all kept.
KEPT_FOR = 5.0

#: What a game's state adds about its accounts (the community's facts, handed in).
Facts = Callable[[Session], Awaitable[JSON]]


async def _no_facts(session: Session) -> JSON:
    return {}


class Showing:
    """Each game's state as this process's sockets are sent it.

    :param service: the games.
    :param fanout: the sockets watching each game here.
    :param watching: who is present at each game.
    :param facts: what a game's state adds about its accounts (their names, ratings, tournament, rematch offer).
    """

    def __init__(self, service: GameService, fanout: Fanout, watching: Watching, facts: Facts = _no_facts) -> None:
        self.service = service
        self.fanout = fanout
        self.watching = watching
        self.facts = facts
        #: Each game's state as last sent to its sockets: its version, when, and its JSON without the seats; the
        #: oldest first.
        self._shown: dict[str, tuple[int, float, str]] = {}

    def last(self, game_id: str, version: int) -> str | None:
        """The state last built for the game's sockets (its JSON without ``seats``), if it was at ``version``."""
        found = self._shown.get(game_id)
        return found[2] if found is not None and found[0] == version else None

    def shown_now(self, session: Session) -> str | None:
        """The state of ``session`` as its sockets were just sent it (its JSON without ``seats``, see
        :func:`~hive.web.play.fanout.with_seats`), if that was at its current version and a moment ago: the
        answer to the request that made the change is then the same text, not encoded again."""
        found = self._shown.pop(session.record.id, None)
        if found is None:
            return None
        version, when, text = found
        return text if version == session.record.version and time.monotonic() - when < SHOWN_FOR else None

    async def broadcast(self, game_id: str, version: int | None = None) -> None:
        """Queue the game's state as stored for every socket watching it here, each with its own seats; never waits
        on one (``version``: the version just stored, when it is known to be the one in memory)."""
        if not self.fanout.watched(game_id):
            return
        shared = await self._shared(game_id, version)
        if shared is not None:
            self.send(game_id, shared)

    def send(self, game_id: str, shared: str) -> None:
        """Queue a state (its JSON without ``seats``) for every socket watching the game here, each with its seats:
        the text of each set of seats made once."""
        texts: dict[frozenset[int], str] = {}

        def text(seats: frozenset[int]) -> str:
            if seats not in texts:
                texts[seats] = with_seats(shared, seats)
            return texts[seats]

        self.fanout.publish(game_id, text)

    async def show(self, game_id: str, watcher: Watcher) -> None:
        """Queue the game's state as stored for one socket (one just opened, when nothing changed for the others)."""
        shared = await self._shared(game_id, None)
        if shared is not None:
            self.fanout.send(game_id, watcher, with_seats(shared, watcher.seats))

    def shown(self, game_id: str, version: int, shared: str) -> None:
        """Queue a state built already (its JSON without ``seats``) at ``version`` for every socket watching the game
        here, and keep it as the last one shown (see :meth:`last`, :meth:`shown_now`)."""
        self._keep(game_id, version, shared)
        self.send(game_id, shared)

    async def _shared(self, game_id: str, version: int | None) -> str | None:
        """The game's state as its sockets are sent it, without ``seats`` (see :func:`with_seats`); ``None`` when
        it cannot be read now (logged)."""
        try:
            session = self.service.sessions.get(game_id)
            if session is None or version is None or session.record.version != version:
                session = await self.service.session(game_id)
        except Exception as err:
            log.warning("game %s could not be shown to its watchers: %s", game_id, err)
            return None
        shared = await self.build(session)
        if shared is not None:
            self._keep(game_id, session.record.version, shared)
        return shared

    async def build(self, session: Session) -> str | None:
        """The state of the game in memory as its sockets are to be sent it, without ``seats`` (see
        :func:`with_seats`), neither sent nor kept; ``None`` when it cannot be worked out now (logged)."""
        game_id = session.record.id
        try:
            present = await self.watching.present(game_id)
        except Exception as err:
            log.warning("game %s could not be shown to its watchers: %s", game_id, err)
            return None
        base = self.service.state(session, present=present)
        del base["seats"]
        try:
            base.update(await self.facts(session))
        except Exception as err:
            log.warning("game %s's accounts could not be read: %s", game_id, err)
        return dumps(base)[:-1]  # encoded once; each socket's seats are added at the end

    def _keep(self, game_id: str, version: int, shared: str) -> None:
        """Keep the state just built, and let go of those built more than :data:`KEPT_FOR` seconds ago."""
        now = time.monotonic()
        self._shown.pop(game_id, None)  # kept in the order they were built
        self._shown[game_id] = (version, now, shared)
        while True:
            oldest = next(iter(self._shown))
            if now - self._shown[oldest][1] < KEPT_FOR:
                break
            del self._shown[oldest]


__all__ = ["KEPT_FOR", "SHOWN_FOR", "Facts", "Showing"]
