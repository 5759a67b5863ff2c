"""The lobby's sockets (``/ws/lobby``): the seeks and challenges as they change, and each signed-in player's own
news, pushed to every page that has the lobby open, whichever server process it reached.

A change of the lobby (a seek or a challenge opened, accepted, cancelled, declined or withdrawn) is announced once
it is stored, as an event of :mod:`~hive.web.lobby.events` on the same bus as the games' changes (see
:mod:`~hive.web.shared.bus`): every process, the one that stored it included, sends it to its own lobby sockets
that may see it. An open seek goes to every socket, a guest's too; a challenge only to the sockets of its two
players. A game's change goes to every process already (that is how its sockets follow it); each process tells the
two players' lobby sockets it holds whose turn it now is (``turn``).

Every socket has its own bounded queue and send time limit (a :class:`~hive.web.play.fanout.Fanout`, as a game's
sockets do); one that does not keep up is dropped (close code 4408) and the page reconnects. A client (an address)
holds at most :attr:`~hive.web.shared.settings.Settings.lobby_sockets` lobby sockets at once (see
:class:`~hive.web.http.limits.OpenSockets`).
"""

from __future__ import annotations

from typing import Any

from starlette.websockets import WebSocket

from ..play.fanout import TOO_SLOW, TOO_SLOW_REASON, Fanout, Watcher, dumps

JSON = dict[str, Any]
#: The key of the guests' sockets (a signed-in player's are under their account's id).
GUESTS = ""
#: The lobby's kinds of change, as the socket names them (``type``): an open seek, a challenge to one player, and an
#: account come online (``name``).
SEEK, CHALLENGE, ONLINE = "seek", "challenge", "online"
#: The kinds every lobby socket is sent, a guest's too.
EVERYONE = (SEEK, ONLINE)
#: The key of a lobby change that says which accounts it concerns; it is not sent to the sockets.
ROUTE = "route"


class LobbySockets:
    """The lobby's sockets of one server process.

    :param queue_size: messages a socket may have waiting before it is dropped.
    :param send_timeout: seconds one send may take before the socket is dropped.
    """

    def __init__(self, queue_size: int, send_timeout: float) -> None:
        self.fanout = Fanout(queue_size, send_timeout)
        self.queue_size = queue_size
        #: The messages that came for a socket before its first (``hello``) was sent: sent after it.
        self._held: dict[WebSocket, list[str]] = {}
        #: Who opened each socket (the signed-in session, or ``None``), as its endpoint knows them.
        self._who: dict[WebSocket, Any] = {}

    # ------------------------------------------------------------------ opening and closing

    def add(self, ws: WebSocket, account: str | None, who: Any = None) -> Watcher:
        """Start sending the lobby's changes to ``ws`` (accepted already), the signed-in ``account``'s own news
        too (``who``: its session, as the endpoint keeps it); they wait until :meth:`ready` sends its first
        message."""
        self._held[ws] = []
        self._who[ws] = who
        return self.fanout.add(account or GUESTS, ws, frozenset())

    def ready(self, ws: WebSocket, account: str | None, watcher: Watcher, hello: JSON) -> None:
        """Send ``hello`` (the lobby as it stands), then what came meanwhile."""
        held = self._held.pop(ws, [])
        key = account or GUESTS
        self.fanout.send(key, watcher, dumps(hello))
        for text in held:
            self.fanout.send(key, watcher, text)

    def hold(self, ws: WebSocket) -> None:
        """Keep what comes for ``ws`` until its next :meth:`ready` (a fresh ``hello`` after missed events)."""
        self._held.setdefault(ws, [])

    def remove(self, ws: WebSocket, account: str | None) -> None:
        """Stop sending to ``ws``."""
        self._held.pop(ws, None)
        self._who.pop(ws, None)
        self.fanout.remove(account or GUESTS, ws)

    def sockets(self) -> list[tuple[str | None, Watcher, Any]]:
        """Every socket: its account (``None``: a guest's), its watcher and who opened it."""
        return [
            (key or None, watcher, self._who.get(watcher.ws))
            for key in list(self.fanout.games)
            for watcher in self.fanout.sockets(key)
        ]

    def close_all(self, code: int, reason: str) -> list[Watcher]:
        """Have every socket closed with ``code`` and ``reason`` (the process is stopping); returns them."""
        closing = []
        for key in list(self.fanout.games):
            closing += self.fanout.close(key, code, reason)
        return closing

    # ------------------------------------------------------------------ sending

    def has(self, account: str | None) -> bool:
        """Whether the account has a lobby socket open here."""
        return account is not None and self.fanout.watched(account)

    def accounts(self) -> set[str]:
        """The accounts with a lobby socket open here (every page of a signed-in player holds one)."""
        return {key for key in self.fanout.games if key != GUESTS}

    @property
    def signed_in(self) -> bool:
        """Whether any signed-in player has a lobby socket open here."""
        return any(key != GUESTS for key in self.fanout.games)

    def _send(self, key: str, text: str) -> None:
        for watcher in self.fanout.sockets(key):
            held = self._held.get(watcher.ws)
            if held is None:
                self.fanout.send(key, watcher, text)
            elif len(held) < self.queue_size:
                held.append(text)
            else:  # its hello takes too long: dropped, it starts again
                self.remove(watcher.ws, key or None)
                watcher.drop(TOO_SLOW, TOO_SLOW_REASON)

    def deliver(self, change: JSON) -> None:
        """A change of the lobby (from this process or another): an open seek's goes to every socket, a
        challenge's to its two players' only."""
        route = [account for account in change.get(ROUTE) or [] if isinstance(account, str)]
        text = dumps({key: value for key, value in change.items() if key != ROUTE})
        if change.get("type") in EVERYONE:
            for key in list(self.fanout.games):
                self._send(key, text)
        else:
            for account in dict.fromkeys(route):
                self._send(account, text)

    def tell(self, account: str, message: JSON) -> None:
        """Send ``message`` to the account's lobby sockets here."""
        self._send(account, dumps(message))


__all__ = ["CHALLENGE", "EVERYONE", "GUESTS", "ONLINE", "ROUTE", "SEEK", "LobbySockets"]
