"""A game's live updates: a WebSocket per page watching a game (``/ws/games/{id}?token=``), sent the game's state
after every change.

A socket holding a seat's token makes that seat present (the opponent sees it connected, whichever process either
of them reached). A socket opened with ``chat=1`` is also told of each message written in a room of the game's chat
that it may read (``{"type": "chat", "room", "id"}``: the page then reads the room). The page only ever sends
``ping`` (answered ``pong``); a binary frame closes the socket with a reason. A socket that cannot keep up is dropped
(see :mod:`~hive.web.play.fanout`): closed, and its connection aborted if its client does not take the close; one
whose process is stopping is closed with 1012, and the page reconnects.

Who is present changes only with a seat's first socket and its last: a socket opening another of a seat's sockets is
sent the game alone, and the others nothing. Each client address holds a bounded number of game sockets, per game and
in all, and of spectators' sockets; each seat a bounded number (the limits handed in, see
:class:`~hive.web.http.limits.GameSockets`): a socket past a limit is closed with :data:`TOO_MANY` and why.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Protocol

from starlette.websockets import WebSocket

from ..shared.errors import GameError
from .fanout import Fanout, Watcher
from .presence import Watching
from .service import GameService

#: The close code of a socket that sent a binary frame (the game speaks JSON text).
UNSUPPORTED = 1003
#: The close code of a socket on a game that does not exist (or cannot be loaded).
GONE = 4404
#: The close code of a socket refused because its client (or the seat it asks for) holds its limit of them already;
#: the page says why and tries again later.
TOO_MANY = 4429
#: The close code and reason of a socket opened on a process that is stopping (the page reconnects at once).
RESTARTING, RESTARTING_REASON = 1012, "The server is restarting: reconnecting."


class SocketLimits(Protocol):
    """How many game sockets a client and a seat may hold (the front door's, handed in)."""

    def admit(self, client: str, game_id: str, seats: frozenset[int]) -> str | None:
        """Count a socket in, or say why it is refused."""

    def release(self, client: str, game_id: str, seats: frozenset[int]) -> None:
        """Count a socket out."""


class Gauge(Protocol):
    """The number of sockets open (a metric of the front door's, handed in)."""

    def inc(self) -> None:
        """One more."""

    def dec(self) -> None:
        """One fewer."""


#: Sends a game's state as stored to one socket just opened.
Show = Callable[[str, Watcher], Awaitable[None]]


class GameSocket:
    """The endpoint ``/ws/games/{id}?token=...``.

    :param service: the games.
    :param fanout: the sockets watching each game here.
    :param watching: who is present at each game, on every process.
    :param limits: the sockets a client and a seat may hold.
    :param open_sockets: the sockets open, counted.
    :param show: sends a socket just opened the game as it stands.
    :param draining: whether the process is stopping (a socket is then refused: the page reconnects elsewhere).
    """

    def __init__(
        self,
        service: GameService,
        fanout: Fanout,
        watching: Watching,
        limits: SocketLimits,
        open_sockets: Gauge,
        show: Show,
        draining: Callable[[], bool],
    ) -> None:
        self.service = service
        self.fanout = fanout
        self.watching = watching
        self.limits = limits
        self.open_sockets = open_sockets
        self.show = show
        self.draining = draining

    async def endpoint(self, ws: WebSocket) -> None:
        """Watch the game of the socket's path, with the seats its token holds."""
        game_id = ws.path_params["id"]
        token = ws.query_params.get("token")
        if self.draining():
            await ws.close(code=RESTARTING, reason=RESTARTING_REASON)
            return
        try:
            session = await self.service.session(game_id)
            seats = self.service.seats(session.record, token)
        except GameError as err:
            await ws.close(code=GONE, reason=str(err)[:120])
            return
        client = ws.client.host if ws.client else "unknown"
        refused = self.limits.admit(client, game_id, seats)
        if refused is not None:  # accepted, then closed: a page is told the code and why
            await ws.accept()
            await ws.close(code=TOO_MANY, reason=refused[:120])
            return
        try:
            await self._watch(ws, game_id, seats)
        finally:
            self.limits.release(client, game_id, seats)

    async def _watch(self, ws: WebSocket, game_id: str, seats: frozenset[int]) -> None:
        """Send the game's states to an admitted socket until it goes: the first at once, then each change."""
        try:
            if seats:
                await self.service.join(game_id, seats)
        except GameError as err:
            await ws.close(code=GONE, reason=str(err)[:120])
            return
        await ws.accept()
        fanout = self.fanout
        watcher = fanout.add(game_id, ws, seats)
        watcher.chat = ws.query_params.get("chat") == "1"
        self.open_sockets.inc()
        try:
            # a seat's first socket here changes who is present: every process shows it, this socket included; any
            # other socket is sent the game alone
            if not (seats and await self.watching.opened(game_id, seats)):
                await self.show(game_id, watcher)
            try:
                await until_gone(read_pings(ws, game_id, watcher, fanout), watcher)
            finally:
                fanout.remove(game_id, ws)
            if watcher.dropped.is_set():
                await fanout.closing(watcher)
        except GameError:
            with contextlib.suppress(Exception):
                await ws.close(code=1011, reason="The game cannot be shown now: reconnecting.")
        finally:
            self.open_sockets.dec()
            fanout.remove(game_id, ws)
            if seats:
                with contextlib.suppress(GameError):
                    await self.watching.closed(game_id, seats)


async def read_pings(ws: WebSocket, key: str, watcher: Watcher, fanout: Fanout) -> None:
    """Answer a socket's pings (through ``fanout``, under ``key``) until it closes; a binary frame closes it with a
    reason."""
    while True:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return
        if message.get("text") == "ping":
            fanout.send(key, watcher, "pong")
        elif message.get("bytes") is not None:
            watcher.drop(UNSUPPORTED, "Binary frames are not understood: send text ('ping').")
            return


async def until_gone(reading: Awaitable[None], watcher: Watcher) -> None:
    """Read the socket until its client goes or its fan-out drops it (a reader too slow)."""
    read = asyncio.ensure_future(reading)
    dropped = asyncio.ensure_future(watcher.dropped.wait())
    try:
        await asyncio.wait({read, dropped}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        read.cancel()
        dropped.cancel()


__all__ = ["GONE", "TOO_MANY", "UNSUPPORTED", "GameSocket", "Gauge", "SocketLimits", "read_pings", "until_gone"]
