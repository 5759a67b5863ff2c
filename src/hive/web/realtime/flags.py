"""The server's side of the clocks: a timer on each timed game in progress, so that a flag falls on time even when
nobody moves, and the real-time clocks held while the server is down.

A flag is decided by :meth:`~hive.web.game.service.GameService.check_clock`; this module only makes sure it is asked
at the right moment, and that everyone watching hears of it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from ..errors import GameError
from ..game import clock
from ..game.service import GameService, Session

log = logging.getLogger("hive.web")
#: How long after the computed moment a flag's timer fires, in seconds (the clock must have run out by then).
LATE = 0.005


class Flags:
    """Timers on the timed games in progress.

    :param service: the games.
    :param fallen: called with a game whose flag has just fallen (to tell its watchers and its AI).
    """

    def __init__(self, service: GameService, fallen: Callable[[Session], Awaitable[None]]) -> None:
        self.service = service
        self.fallen = fallen
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        """Run again the clocks held at the last stop and set the timers of every timed game in progress."""
        now = self.service.now()
        storage = self.service.storage
        stored = storage.clocks()
        storage.set_clocks([(game_id, clock.resume(c, now)) for game_id, c in stored if c.get("paused")])
        for game_id, _ in stored:
            try:
                self.follow(self.service.session(game_id))
            except GameError:
                log.exception("a timed game could not be loaded")

    def follow(self, session: Session) -> None:
        """Set the game's timer for its running clock, or clear it when no clock runs."""
        game_id = session.record.id
        timer = self._timers.pop(game_id, None)
        if timer is not None:
            timer.cancel()
        deadline = None if session.over else clock.deadline(session.record.clock)
        if deadline is None:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, deadline - self.service.now()) + LATE
        self._timers[game_id] = loop.call_later(delay, self._due, game_id)

    def _due(self, game_id: str) -> None:
        self._timers.pop(game_id, None)
        task = asyncio.get_running_loop().create_task(self._check(game_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _check(self, game_id: str) -> None:
        try:
            session = self.service.session(game_id)
            if self.service.check_clock(session):
                await self.fallen(session)
            else:
                self.follow(session)
        except GameError:
            log.exception("a flag could not be checked")

    def stop(self) -> None:
        """Clear the timers and hold every real-time clock where it is, so that a restart resumes it."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        now = self.service.now()
        storage = self.service.storage
        storage.set_clocks([(game_id, clock.pause(c, now)) for game_id, c in storage.clocks()])


__all__ = ["Flags"]
