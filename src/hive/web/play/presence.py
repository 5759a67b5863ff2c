"""Who is present at each game, across every server process: this process's sockets are counted in the database
(:mod:`~hive.web.play.presence_repository`), this process says it is alive every few seconds, and each change of who is
present is announced on the bus so that every process shows it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import Awaitable, Callable

from ...periodic import every
from ..shared.errors import GameError
from .presence_repository import TIMEOUT, Presence

log = logging.getLogger("hive.web")
#: Seconds between this process's words that it is alive.
BEAT = TIMEOUT / 4


class Watching:
    """The seats present at each game.

    :param repository: the processes and sockets in the database.
    :param changed: called with a game whose seats present may have changed (to tell every process).
    """

    def __init__(self, repository: Presence, changed: Callable[[str], Awaitable[None]]) -> None:
        self.repository = repository
        self.changed = changed
        self._present: dict[str, tuple[bool, bool]] = {}
        self._sockets: Counter[tuple[str, int]] = Counter()
        self._registered = False
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Say this process is alive, and keep saying so."""
        await self._register()
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(
                every(
                    BEAT,
                    self._beat,
                    "could not say this process is alive",
                    log=log,
                    expected=(GameError,),
                    bug="the presence heartbeat failed",
                )
            )

    async def _register(self) -> None:
        if not self._registered:
            await self.repository.register()
            self._registered = True

    async def _beat(self) -> None:
        """Say this process is alive; taken for gone (a long pause), say so again, with the sockets open here."""
        known, gone = await self.repository.beat()
        if not known:
            log.warning("this process was taken for gone; registering again")
            self._registered = False
            await self._register()
            for (game_id, seat), count in list(self._sockets.items()):
                await self.repository.watch(game_id, frozenset({seat}), count)
            gone = [game_id for game_id, _ in self._sockets]
        for game_id in dict.fromkeys(gone):
            self.heard(game_id)
            await self.changed(game_id)

    async def opened(self, game_id: str, seats: frozenset[int]) -> bool:
        """A socket of this process opened the game with a token of ``seats``: whether that changed who is present
        (the first socket here of one of its seats), and every process was told."""
        return await self._count(game_id, seats, 1)

    async def closed(self, game_id: str, seats: frozenset[int]) -> bool:
        """A socket of this process on the game closed: whether that changed who is present (the last socket here
        of one of its seats), and every process was told."""
        return await self._count(game_id, seats, -1)

    async def _count(self, game_id: str, seats: frozenset[int], delta: int) -> bool:
        """Count the socket in and out; who is present is announced only when it changes here (a seat's first
        socket opened, its last closed), so that the sockets of one seat cost messages in proportion to their
        number, not its square."""
        if not seats:
            return False
        changed = False
        for seat in seats:
            before = self._sockets[(game_id, seat)]
            self._sockets[(game_id, seat)] += delta
            after = self._sockets[(game_id, seat)]
            if after <= 0:
                del self._sockets[(game_id, seat)]
            changed = changed or (before > 0) != (after > 0)
        await self._register()
        await self.repository.watch(game_id, seats, delta)
        if changed:
            self.heard(game_id)
            await self.changed(game_id)
        return changed

    async def present(self, game_id: str) -> tuple[bool, bool]:
        """Which seats of the game have a socket open on any live process."""
        found = self._present.get(game_id)
        if found is None:
            found = self._present[game_id] = await self.repository.present(game_id)
            if len(self._present) > 4096:
                self._present.clear()
        return found

    def heard(self, game_id: str) -> None:
        """Who is present at the game may have changed: ask the database next time."""
        self._present.pop(game_id, None)

    def forget_all(self) -> None:
        """Ask the database about every game next time (after missing events)."""
        self._present.clear()

    async def close(self) -> None:
        """Stop saying this process is alive and forget its sockets; the games they watched are told."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if not self._registered:
            return
        try:
            for game_id in await self.repository.unregister():
                self.heard(game_id)
                await self.changed(game_id)
        except GameError as err:
            log.warning("could not say this process is stopping: %s", err)
        self._registered = False
        self._sockets.clear()


__all__ = ["BEAT", "Watching"]
