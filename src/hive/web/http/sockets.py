"""The live updates: a WebSocket per page watching a game, sent the game's state after every change.

A socket holding a seat's token makes that seat present (the opponent sees it connected, whichever process either
of them reached). The page only ever sends ``ping`` (answered ``pong``); a binary frame closes the socket with a
reason. A socket that cannot keep up is dropped (see :mod:`~hive.web.realtime.fanout`); one whose process is stopping
is closed with 1012, and the page reconnects.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from starlette.websockets import WebSocket

from ..errors import GameError
from ..realtime.fanout import Watcher, dumps

if TYPE_CHECKING:
    from .app import App

#: The close code of a socket that sent a binary frame (the game speaks JSON text).
UNSUPPORTED = 1003
#: The close code of a socket on a game that does not exist (or cannot be loaded).
GONE = 4404


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
            if seats:
                session = await app.service.join(game_id, seats)
        except GameError as err:
            await ws.close(code=GONE, reason=str(err)[:120])
            return
        await ws.accept()
        watcher = app.fanout.add(game_id, ws, seats)
        app.metrics.sockets.inc()
        try:
            if seats:
                await app.watching.opened(game_id, seats)  # every process shows this seat present, this one included
            else:
                present = await app.watching.present(game_id)
                app.fanout.send(game_id, watcher, dumps(app.service.state(session, seats, present)))
            reading = asyncio.ensure_future(_read(app, ws, game_id, watcher))
            dropped = asyncio.ensure_future(watcher.dropped.wait())
            try:
                await asyncio.wait({reading, dropped}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                reading.cancel()
                dropped.cancel()
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

    return endpoint


async def _read(app: App, ws: WebSocket, game_id: str, watcher: Watcher) -> None:
    """Answer a socket's pings until it closes; a binary frame closes it with a reason."""
    while True:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return
        if message.get("text") == "ping":
            app.fanout.send(game_id, watcher, "pong")
        elif message.get("bytes") is not None:
            watcher.drop(UNSUPPORTED, "Binary frames are not understood: send text ('ping').")
            return


__all__ = ["GONE", "UNSUPPORTED", "websocket"]
