"""The chat's news for a game's sockets in this process: each message written in a room of the game's chat, from
this process or another, told to the sockets that follow the chat (``?chat=1``) and may read that room."""

from __future__ import annotations

from ..play import GameService
from ..play.fanout import Fanout, dumps
from ..shared.events import Subscribers
from .events import LineSaid


class ChatNews:
    """Tells a game's sockets here of the messages written in its chat.

    :param service: the games (whether one is over).
    :param fanout: the sockets watching each game here.
    """

    def __init__(self, service: GameService, fanout: Fanout) -> None:
        self.service = service
        self.fanout = fanout

    def subscribe(self, subscribers: Subscribers) -> None:
        """Follow the messages written, here and on the other processes."""
        subscribers.subscribe(LineSaid, self.tell)

    async def tell(self, event: LineSaid) -> None:
        """Tell the sockets of the game that follow its chat (``?chat=1``) and may read the room that a message was
        written there: the players' room its players, the spectators' room its spectators, and its players once
        the game is over."""
        session = self.service.sessions.get(event.game_id)
        over = session is not None and session.record.result is not None
        text = dumps({"type": "chat", "room": event.room, "id": event.id})
        for watcher in self.fanout.sockets(event.game_id):
            playing = bool(watcher.seats)
            if watcher.chat and (playing if event.room == "players" else not playing or over):
                self.fanout.send(event.game_id, watcher, text)


__all__ = ["ChatNews"]
