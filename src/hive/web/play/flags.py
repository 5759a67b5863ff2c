"""Flags falling on time: every process watches the moments at which the running clocks' flags fall (stored with each
game, see :mod:`~hive.web.play.repository`) and ends a game whose flag has fallen even when nobody moves. Several
processes may notice the same flag: the game service stores it over the game's version, so it falls exactly once,
and the others find it stored.

A lone server on one machine (``hive play``) holds the real-time clocks while it is stopped and runs them again when
it starts; a server shared by several processes never holds them: another process carries the games on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from ..shared.errors import Damaged, GameError
from . import clock
from .events import GameEvent
from .service import GameService

log = logging.getLogger("hive.web")
#: How far ahead the database is asked for the flags to come, in seconds (and how often at most).
HORIZON = 5.0
#: How long after the computed moment a flag is checked, in seconds (the clock must have run out by then).
LATE = 0.005


class Flags:
    """The flags of the timed games in progress.

    :param service: the games.
    :param hold_clocks: hold the real-time clocks while the server is stopped (a lone server).
    """

    def __init__(self, service: GameService, hold_clocks: bool = False) -> None:
        self.service = service
        self.hold_clocks = hold_clocks
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._next = float("inf")
        #: Flags this process stored.
        self.fallen = 0
        #: Games whose flag could not be checked (their stored record is damaged): said once, then left alone.
        self._damaged: set[str] = set()

    async def start(self) -> None:
        """Run again the clocks held at the last stop (a lone server), and start watching the flags."""
        if self._task is not None:
            return
        if self.hold_clocks:
            await self._resume()
        self._wake = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._run())

    def changed(self, event: GameEvent) -> None:
        """Follow a change: its flag may fall before the one watched for."""
        if event.deadline is not None and event.deadline < self._next and self._wake is not None:
            self._wake.set()

    async def _run(self) -> None:
        assert self._wake is not None
        while True:
            self._wake.clear()
            now = self.service.now()
            try:
                due = await self.service.store.games.deadlines(now + HORIZON)
            except GameError as err:
                log.warning("the flags cannot be read: %s", err)
                due = []
            due = [(game_id, deadline) for game_id, deadline in due if game_id not in self._damaged]
            for game_id, deadline in due:
                if deadline <= now:
                    await self._check(game_id)
            later = [deadline for game_id, deadline in due if deadline > now and game_id not in self._damaged]
            self._next = min(later) if later else now + HORIZON
            delay = max(0.0, self._next - self.service.now()) + LATE
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), delay)

    async def _check(self, game_id: str) -> None:
        try:
            if await self.service.check_clock(game_id):
                self.fallen += 1
        except Damaged:
            self._damaged.add(game_id)  # the service said why
        except GameError as err:
            log.warning("the flag of game %s could not be checked: %s", game_id, err)
        except Exception:
            log.exception("the flag of game %s could not be checked", game_id)

    async def stop(self) -> None:
        """Stop watching; a lone server holds every real-time clock where it is, so that its next start resumes it."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self.hold_clocks:
            await self._hold()

    async def _hold(self) -> None:
        now = self.service.now()
        games = self.service.store.games
        for game_id, version, held in await games.clocks():
            try:
                paused = clock.pause(held, now)
            except (KeyError, TypeError, ValueError, IndexError):
                continue  # a damaged clock: its game says so when loaded
            if paused is not held:
                await games.set_clock(game_id, version, paused, None)

    async def _resume(self) -> None:
        now = self.service.now()
        games = self.service.store.games
        for game_id, version, held in await games.clocks():
            if held.get("paused"):
                running = clock.resume(held, now)
                try:
                    deadline = clock.deadline(running)
                except (KeyError, TypeError, ValueError, IndexError):
                    continue
                await games.set_clock(game_id, version, running, deadline)


__all__ = ["Flags"]
