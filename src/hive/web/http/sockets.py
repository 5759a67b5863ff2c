"""The lobby's WebSocket (``/ws/lobby``), sent the seeks and challenges as they change and a signed-in player's own
news (see :mod:`~hive.web.lobby.sockets`); and the WebSocket protocol the server runs, whose sockets can be aborted.

A game's own socket is play's (:mod:`~hive.web.play.sockets`); the lobby's socket shares its reading (pings answered,
a binary frame refused) and its close code for a client past its limit (:data:`~hive.web.play.sockets.TOO_MANY`, with
why).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from starlette.websockets import WebSocket
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request as Handshake

from ..lobby.sockets import GUESTS
from ..play.fanout import ABORT
from ..play.sockets import TOO_MANY, read_pings, until_gone
from ..players import COOKIE
from ..shared.errors import GameError, Unauthorized
from .guard import POLICY

if TYPE_CHECKING:
    from .app import App

#: The close code of a lobby socket on a server without accounts.
NO_LOBBY = 4404


class AbortableWebSockets(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, whose sockets' scopes carry :data:`~hive.web.play.fanout.ABORT`: the
    transport's ``abort``, which frees a connection at once, where closing it would wait for its unsent data to
    drain, for ever when the peer reads nothing."""

    def handle_connect(self, event: Handshake) -> None:
        super().handle_connect(event)
        scope = self.__dict__.get("scope")
        if scope is not None:
            scope.setdefault("extensions", {})[ABORT] = self.transport.abort


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
                    hello = await app.news.hello(signed)
                except GameError:
                    await ws.close(code=1011, reason="The lobby cannot be shown now: reconnecting.")
                    return
                lobby.ready(ws, account, watcher, hello)
                key = account or GUESTS
                try:
                    await until_gone(read_pings(ws, key, watcher, lobby.fanout), watcher)
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


__all__ = ["NO_LOBBY", "TOO_MANY", "AbortableWebSockets", "lobby_websocket"]
