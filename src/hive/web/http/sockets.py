"""The live updates: a WebSocket per page watching a game, sent the game's state after every change; and the
lobby's WebSocket (``/ws/lobby``), sent the seeks and challenges as they change and a signed-in player's own news
(see :mod:`~hive.web.lobby.sockets`).

A socket holding a seat's token makes that seat present (the opponent sees it connected, whichever process either
of them reached). A game's socket opened with ``chat=1`` is also told of each message written in a room of the
game's chat that it may read (``{"type": "chat", "room", "id"}``: the page then reads the room). The page only ever
sends ``ping`` (answered ``pong``); a binary frame closes the socket with a reason. A socket that cannot keep up is
dropped (see :mod:`~hive.web.realtime.fanout`): closed, and its connection aborted if its client does not take the
close; one whose process is stopping is closed with 1012, and the page reconnects.

Who is present changes only with a seat's first socket and its last: a socket opening another of a seat's sockets is
sent the game alone, and the others nothing. Each client address holds a bounded number of game sockets, per game
and in all, and of spectators' sockets; each seat a bounded number (:class:`~hive.web.http.limits.GameSockets`): a
socket past a limit is closed with :data:`TOO_MANY` and why.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from starlette.websockets import WebSocket
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request as Handshake

from ..lobby.sockets import GUESTS
from ..players import COOKIE
from ..realtime.fanout import ABORT, Fanout, Watcher
from ..shared.errors import GameError, Unauthorized
from .guard import POLICY

if TYPE_CHECKING:
    from .app import App

#: The close code of a socket that sent a binary frame (the game speaks JSON text).
UNSUPPORTED = 1003
#: The close code of a socket on a game that does not exist (or cannot be loaded).
GONE = 4404
#: The close code of a lobby socket on a server without accounts.
NO_LOBBY = 4404
#: The close code of a socket refused because its client (or the seat it asks for) holds its limit of them already
#: (see :class:`~hive.web.http.limits.GameSockets`); the page says why and tries again later.
TOO_MANY = 4429


class AbortableWebSockets(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, whose sockets' scopes carry :data:`~hive.web.realtime.fanout.ABORT`: the
    transport's ``abort``, which frees a connection at once, where closing it would wait for its unsent data to
    drain, for ever when the peer reads nothing."""

    def handle_connect(self, event: Handshake) -> None:
        super().handle_connect(event)
        scope = self.__dict__.get("scope")
        if scope is not None:
            scope.setdefault("extensions", {})[ABORT] = self.transport.abort


def websocket(app: App) -> Callable[[WebSocket], Awaitable[None]]:
    """The endpoint ``/ws/games/{id}?token=...`` of ``app``."""

    async def endpoint(ws: WebSocket) -> None:
        game_id = ws.path_params["id"]
        token = ws.query_params.get("token")
        if app.draining:
            await ws.close(code=1012, reason="The server is restarting: reconnecting.")
            return
        try:
            session = await app.service.session(game_id)
            seats = app.service.seats(session.record, token)
        except GameError as err:
            await ws.close(code=GONE, reason=str(err)[:120])
            return
        client = ws.client.host if ws.client else "unknown"
        refused = app.game_clients.admit(client, game_id, seats)
        if refused is not None:  # accepted, then closed: a page is told the code and why
            await ws.accept()
            await ws.close(code=TOO_MANY, reason=refused[:120])
            return
        try:
            await _watch(app, ws, game_id, seats)
        finally:
            app.game_clients.release(client, game_id, seats)

    return endpoint


async def _watch(app: App, ws: WebSocket, game_id: str, seats: frozenset[int]) -> None:
    """Send the game's states to an admitted socket until it goes: the first at once, then each change."""
    try:
        if seats:
            await app.service.join(game_id, seats)
    except GameError as err:
        await ws.close(code=GONE, reason=str(err)[:120])
        return
    await ws.accept()
    watcher = app.fanout.add(game_id, ws, seats)
    watcher.chat = ws.query_params.get("chat") == "1"
    app.metrics.sockets.inc()
    try:
        # a seat's first socket here changes who is present: every process shows it, this socket included; any
        # other socket is sent the game alone
        if not (seats and await app.watching.opened(game_id, seats)):
            await app.show(game_id, watcher)
        try:
            await _until_gone(_read(app, ws, game_id, watcher), watcher)
        finally:
            app.fanout.remove(game_id, ws)
        if watcher.dropped.is_set():
            await app.fanout.closing(watcher)
    except GameError:
        with contextlib.suppress(Exception):
            await ws.close(code=1011, reason="The game cannot be shown now: reconnecting.")
    finally:
        app.metrics.sockets.dec()
        app.fanout.remove(game_id, ws)
        if seats:
            with contextlib.suppress(GameError):
                await app.watching.closed(game_id, seats)


async def _read(app: App, ws: WebSocket, game_id: str, watcher: Watcher, fanout: Fanout | None = None) -> None:
    """Answer a socket's pings until it closes; a binary frame closes it with a reason."""
    while True:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return
        if message.get("text") == "ping":
            (fanout or app.fanout).send(game_id, watcher, "pong")
        elif message.get("bytes") is not None:
            watcher.drop(UNSUPPORTED, "Binary frames are not understood: send text ('ping').")
            return


async def _until_gone(reading: Awaitable[None], watcher: Watcher) -> None:
    """Read the socket until its client goes or its fan-out drops it (a reader too slow)."""
    read = asyncio.ensure_future(reading)
    dropped = asyncio.ensure_future(watcher.dropped.wait())
    try:
        await asyncio.wait({read, dropped}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        read.cancel()
        dropped.cancel()


def _refusal(app: App, ws: WebSocket) -> tuple[int, str] | None:
    """Why a lobby socket is refused before anything else, as a close code and reason (``None``: it is not)."""
    if not app.settings.accounts:
        return NO_LOBBY, "This server keeps no accounts, and so no lobby."
    if app.draining:
        return 1012, "The server is restarting: reconnecting."
    return None


def lobby_websocket(app: App) -> Callable[[WebSocket], Awaitable[None]]:
    """The endpoint ``/ws/lobby`` of ``app``: the open seeks for anyone; the challenges to and from a signed-in
    player (by the session's cookie, or an API token in ``Authorization: Bearer``), and their news, for them
    alone. Its first message is ``hello``, the lobby as it stands; the changes follow (see
    :mod:`~hive.web.lobby.sockets`)."""

    async def endpoint(ws: WebSocket) -> None:
        refused = _refusal(app, ws)
        if refused is not None:  # accepted, then closed: a page is told the code and why
            await ws.accept()
            await ws.close(code=refused[0], reason=refused[1][:120])
            return
        try:
            header = ws.headers.get("authorization")
            signed = await (
                app.accounts.by_bearer(header) if header is not None else app.accounts.signed(ws.cookies.get(COOKIE))
            )
        except GameError as err:  # an API token refused, or the database away
            await ws.accept()
            await ws.close(code=POLICY if isinstance(err, Unauthorized) else 1011, reason=str(err)[:120])
            return
        client = ws.client.host if ws.client else "unknown"
        if not app.lobby_clients.admit(client):
            limit = app.lobby_clients.limit
            await ws.accept()
            await ws.close(code=TOO_MANY, reason=f"At most {limit} lobby sockets from one address: close one first.")
            return
        lobby = app.lobby_sockets
        account = signed.account.id if signed is not None else None
        try:
            await ws.accept()
            watcher = lobby.add(ws, account, signed)
            app.metrics.sockets.inc()
            try:
                try:
                    hello = await app.lobby_hello(signed)
                except GameError:
                    await ws.close(code=1011, reason="The lobby cannot be shown now: reconnecting.")
                    return
                lobby.ready(ws, account, watcher, hello)
                key = account or GUESTS
                try:
                    await _until_gone(_read(app, ws, key, watcher, lobby.fanout), watcher)
                finally:
                    lobby.remove(ws, account)
                if watcher.dropped.is_set():
                    await lobby.fanout.closing(watcher)
            finally:
                app.metrics.sockets.dec()
                lobby.remove(ws, account)
        finally:
            app.lobby_clients.release(client)

    return endpoint


__all__ = ["GONE", "NO_LOBBY", "TOO_MANY", "UNSUPPORTED", "AbortableWebSockets", "lobby_websocket", "websocket"]
