"""Presence's events: who is present at a game changed (who watches it is stored by each process; the others look
again)."""

from __future__ import annotations

from dataclasses import dataclass

from ..shared.events import Event


@dataclass(frozen=True)
class PresenceChanged(Event):
    """A player came to a game's page or left it (on the process that says so).

    :ivar game_id: the game.
    """

    kind = "presence.changed"

    game_id: str


__all__ = ["PresenceChanged"]
