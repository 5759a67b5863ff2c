"""The one event every change to a game makes, and who hears of it.

The game service announces a :class:`GameChanged` for each change it stores, and for nothing else: the AI, the flag
timers and the sockets watching the game all follow from it, in this process and (through the bus, see
:mod:`~hive.web.realtime.bus`) in every other process sharing the database. An event says which version of the game
it made, so that a process holding an older copy in memory knows to bring it up to date.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any, Protocol

import sqlalchemy as sa

#: What a change can be: a player's action (see :data:`~hive.web.game.actions.HANDLERS`; ``move`` among them), or one
#: of these.
MOVE = "move"
CREATED, DELETED, FLAG, AI_MOVE, AI_ERROR, JOINED, CLOCK, PRESENCE = (
    "created",
    "deleted",
    "flag",
    "ai",
    "ai_error",
    "joined",
    "clock",
    "presence",
)
#: A message written in one of the game's chat rooms (``detail``: its ``room`` and ``id``), and a change of the
#: lobby (``game_id``: the seek's id; ``detail``: the change, see :mod:`~hive.web.lobby.sockets`). Like
#: :data:`PRESENCE`, they store nothing of a game: the bus sends them on their own, once what they tell is stored.
CHAT, LOBBY = "chat", "lobby"
#: The events that store nothing of a game.
UNSTORED = (PRESENCE, CHAT, LOBBY)


@dataclass(frozen=True)
class GameChanged:
    """A change to a game, stored.

    :ivar game_id: the game.
    :ivar version: the game's version after the change (see :attr:`~hive.web.shared.model.GameRecord.version`); for
        :data:`PRESENCE`, which stores nothing of the game, the version it was at.
    :ivar what: the action (``move``, ``undo``, ``resign``, ``answer``…) or :data:`CREATED`, :data:`FLAG`, ….
    :ivar by: the seat whose action it was (``None``: the server's, such as a flag falling).
    :ivar plies: the moves in effect after it.
    :ivar ai_due: whether the AI is to move after it.
    :ivar deadline: when the running clock's flag falls after it (``None``: no clock runs).
    :ivar origin: the server process that stored it.
    :ivar detail: what the page needs to tell the players about it (an offer declined: ``{"declined": "draw"}``).
    """

    game_id: str
    version: int
    what: str
    by: int | None = None
    plies: int = 0
    ai_due: bool = False
    deadline: float | None = None
    origin: str = ""
    detail: dict[str, Any] | None = None

    def payload(self) -> str:
        """The event as JSON text, for the bus."""
        return json.dumps(asdict(self), separators=(",", ":"))

    @classmethod
    def from_payload(cls, text: str | bytes) -> GameChanged:
        """The event a :meth:`payload` text describes.

        :raises ValueError: when the text is not one.
        """
        data = json.loads(text)
        if not isinstance(data, dict) or not isinstance(data.get("game_id"), str):
            raise ValueError(f"not a game event: {str(text)[:80]!r}")
        try:
            return cls(**data)
        except TypeError as err:
            raise ValueError(f"not a game event: {err}") from None

    def shown(self) -> dict[str, Any]:
        """The event as the page gets it with the game's state: what happened, by which seat, and its detail."""
        return {"what": self.what, "by": self.by, **(self.detail or {})}


class Announcer(Protocol):
    """Who hears of the changes: told inside the transaction that stores one (for what must be sent only if it is
    stored, such as a notification the database sends on commit), then once it is stored."""

    def stored(self, connection: sa.Connection, event: GameChanged) -> None:
        """The change is being stored on ``connection`` (runs on a database thread, inside the transaction)."""
        ...

    async def announce(self, event: GameChanged) -> None:
        """The change is stored."""
        ...


class Unheard:
    """An announcer nobody listens to (a service used on its own, as in tests)."""

    def stored(self, connection: sa.Connection, event: GameChanged) -> None:
        """Nothing to send."""

    async def announce(self, event: GameChanged) -> None:
        """Nothing to do."""


__all__ = [
    "AI_ERROR",
    "AI_MOVE",
    "CHAT",
    "CLOCK",
    "CREATED",
    "DELETED",
    "FLAG",
    "JOINED",
    "LOBBY",
    "MOVE",
    "PRESENCE",
    "UNSTORED",
    "Announcer",
    "GameChanged",
    "Unheard",
]
