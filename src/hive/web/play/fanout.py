"""Sending each game's new state to the sockets watching it without ever waiting on one of them.

Every socket has its own bounded queue and a task that sends from it, each send with a time limit. Publishing a
state only puts it in the queues, so a move is answered as soon as it is stored, whoever is watching. A socket whose
queue is full or whose send times out is dropped: it is closed with :data:`TOO_SLOW` (and its connection aborted if
it does not take the close), and the page, reconnecting, gets the game as it stands.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.websockets import WebSocket

log = logging.getLogger("hive.web")
#: The close code of a socket dropped for not keeping up (the page reconnects and resyncs).
TOO_SLOW = 4408
TOO_SLOW_REASON = "Too slow to keep up: reconnect to get the game as it stands."
#: The ASGI extension (in a WebSocket's scope) that aborts its connection at once, unsent data dropped: set by the
#: server's WebSocket protocol (:class:`~hive.web.http.sockets.AbortableWebSockets`).
ABORT = "hive.abort"


def dumps(data: dict[str, Any]) -> str:
    """JSON as the server sends it: compact, UTF-8."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def with_seats(shared: str, seats: frozenset[int]) -> str:
    """A game's state for the holder of ``seats``, from its JSON text without ``seats`` (its closing brace left off):
    the state is encoded once for every socket, each adding its seats."""
    return f'{shared},"seats":{json.dumps(sorted(seats))}}}'


@dataclass(eq=False)
class Watcher:
    """One socket watching a game with the seats its token holds."""

    ws: WebSocket
    seats: frozenset[int]
    queue: asyncio.Queue[str]
    #: Set once the socket is dropped; its handler stops reading and closes it with ``code`` and ``reason``.
    dropped: asyncio.Event = field(default_factory=asyncio.Event)
    code: int = TOO_SLOW
    reason: str = TOO_SLOW_REASON
    sender: asyncio.Task[None] | None = None
    #: Whether the socket asked to be told of the game's chat messages (``?chat=1``: the page does).
    chat: bool = False

    def drop(self, code: int, reason: str) -> None:
        """Have the socket closed with ``code`` and ``reason`` (by its handler)."""
        self.code, self.reason = code, reason
        self.dropped.set()


class Fanout:
    """The sockets watching each game.

    :param queue_size: states a socket may have waiting before it is dropped.
    :param send_timeout: seconds one send may take before the socket is dropped.
    """

    def __init__(self, queue_size: int, send_timeout: float) -> None:
        self.queue_size = queue_size
        self.send_timeout = send_timeout
        self.games: dict[str, dict[WebSocket, Watcher]] = {}
        #: The games whose state another process is to send: the version awaited, and what builds it here if it does
        #: not come in time.
        self._awaited: dict[str, tuple[int, asyncio.TimerHandle]] = {}

    def await_state(self, game_id: str, version: int, within: float, otherwise: Callable[[], object]) -> None:
        """Another process is to send the game's state at ``version`` (see :meth:`arrived`); call ``otherwise`` if
        it has not ``within`` seconds from now."""
        self.stop_awaiting(game_id)

        def late() -> None:
            self._awaited.pop(game_id, None)
            otherwise()

        self._awaited[game_id] = (version, asyncio.get_running_loop().call_later(within, late))

    def arrived(self, game_id: str, version: int) -> bool:
        """The game's state at ``version`` came from another process: whether it is the one awaited (an older one is
        not sent: the newer is on its way)."""
        awaited = self._awaited.get(game_id)
        if awaited is None or awaited[0] != version:
            return False
        self.stop_awaiting(game_id)
        return True

    def stop_awaiting(self, game_id: str) -> None:
        """Await no state of the game from another process (this one shows it)."""
        awaited = self._awaited.pop(game_id, None)
        if awaited is not None:
            awaited[1].cancel()

    def add(self, game_id: str, ws: WebSocket, seats: frozenset[int]) -> Watcher:
        """Start sending ``game_id``'s states to ``ws`` (accepted already)."""
        watcher = Watcher(ws, seats, asyncio.Queue(self.queue_size))
        watcher.sender = asyncio.get_running_loop().create_task(self._send(game_id, watcher))
        self.games.setdefault(game_id, {})[ws] = watcher
        return watcher

    def remove(self, game_id: str, ws: WebSocket) -> None:
        """Stop sending to ``ws``."""
        watchers = self.games.get(game_id, {})
        watcher = watchers.pop(ws, None)
        if not watchers:
            self.games.pop(game_id, None)
        if watcher is not None and watcher.sender is not None:
            watcher.sender.cancel()

    def watched(self, game_id: str) -> bool:
        """Whether any socket watches the game."""
        return bool(self.games.get(game_id))

    def present(self, game_id: str) -> tuple[bool, bool]:
        """Which seats have a socket watching the game."""
        held = set().union(*(w.seats for w in self.games.get(game_id, {}).values()))
        return 0 in held, 1 in held

    def publish(self, game_id: str, message: Callable[[frozenset[int]], str]) -> None:
        """Queue ``message(seats)`` for every socket watching the game; never waits."""
        for watcher in list(self.games.get(game_id, {}).values()):
            self.send(game_id, watcher, message(watcher.seats))

    def send(self, game_id: str, watcher: Watcher, text: str) -> None:
        """Queue ``text`` for one socket, dropping it when its queue is full."""
        try:
            watcher.queue.put_nowait(text)
        except asyncio.QueueFull:
            self._drop(game_id, watcher)

    def sockets(self, game_id: str) -> list[Watcher]:
        """Every socket watching the game."""
        return list(self.games.get(game_id, {}).values())

    async def _send(self, game_id: str, watcher: Watcher) -> None:
        while True:
            text = await watcher.queue.get()
            try:
                await asyncio.wait_for(watcher.ws.send_text(text), self.send_timeout)
            except TimeoutError:
                self._drop(game_id, watcher)
                return
            except Exception:  # closed meanwhile: its handler forgets it
                watcher.dropped.set()
                return

    def _drop(self, game_id: str, watcher: Watcher) -> None:
        log.warning("dropped a socket of game %s that did not keep up", game_id)
        self.games.get(game_id, {}).pop(watcher.ws, None)
        watcher.dropped.set()
        if watcher.sender is not None and watcher.sender is not asyncio.current_task():
            watcher.sender.cancel()

    def close(self, game_id: str, code: int, reason: str) -> list[Watcher]:
        """Have every socket watching the game closed with ``code`` and ``reason`` (the game was deleted, or the
        process is stopping); returns them."""
        watchers = list(self.games.pop(game_id, {}).values())
        for watcher in watchers:
            if watcher.sender is not None:
                watcher.sender.cancel()
            watcher.drop(code, reason)
        return watchers

    async def closing(self, watcher: Watcher) -> None:
        """Close a dropped socket with its code, waiting at most the send timeout; its connection is aborted a send
        timeout later if it is still open then (a peer that reads nothing never takes the close, and a transport
        closed politely would wait for it for ever, holding its descriptor)."""
        with contextlib.suppress(Exception):
            await asyncio.wait_for(watcher.ws.close(code=watcher.code, reason=watcher.reason), self.send_timeout)
        abort = watcher.ws.scope.get("extensions", {}).get(ABORT)
        if callable(abort):
            asyncio.get_running_loop().call_later(self.send_timeout, abort)


__all__ = ["ABORT", "TOO_SLOW", "TOO_SLOW_REASON", "Fanout", "Watcher", "dumps", "with_seats"]
