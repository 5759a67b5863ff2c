"""The chat's events: a line said in one of a game's rooms (the sockets of the game that follow its chat are told,
in every process)."""

from __future__ import annotations

from dataclasses import dataclass

from ..shared.events import Event


@dataclass(frozen=True)
class LineSaid(Event):
    """A line was written, and stored, in one of a game's chat rooms.

    :ivar game_id: the game.
    :ivar room: its room (``players`` or ``spectators``).
    :ivar id: the line's id (the page reads it from the room).
    """

    kind = "chat.said"

    game_id: str
    room: str
    id: int


__all__ = ["LineSaid"]
