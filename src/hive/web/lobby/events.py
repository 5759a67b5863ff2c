"""The lobby's events: a seek or a challenge opened, taken, or closed (cancelled, withdrawn, declined); each
process sends them to its own lobby sockets that may see them (see :mod:`~hive.web.lobby.sockets`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..shared.events import LobbyEvent


@dataclass(frozen=True)
class SeekChanged(LobbyEvent):
    """A seek or a challenge changed (the family of its events).

    :ivar player: the seeker's name.
    :ivar to: the challenged player's name (``None``: an open seek).
    :ivar rematch_of: the finished game it offers a rematch of.
    """

    player: str = ""
    to: str | None = None
    rematch_of: str | None = None

    #: What the change is, as the socket's ``change`` says (a subclass's own, or given).
    change: str = ""

    def message(self) -> dict[str, Any]:
        """The lobby socket's message: ``seek`` (or ``challenge``), its ``change`` and its fields."""
        more = {"rematch_of": self.rematch_of} if self.rematch_of is not None else {}
        return {
            "type": "seek" if self.to is None else "challenge", "change": self.change, "id": self.id,
            "player": self.player, "to": self.to, **self.detail, "route": list(self.route), **more,
        }  # fmt: skip


@dataclass(frozen=True)
class SeekOpened(SeekChanged):
    """A seek or a challenge was opened (``detail``: its description, under ``seek`` or ``challenge``)."""

    kind = "lobby.seek_opened"
    change: str = "opened"


@dataclass(frozen=True)
class SeekTaken(SeekChanged):
    """A seek or a challenge was accepted (``detail``: the new game's ``game_id``, and ``by`` whom)."""

    kind = "lobby.seek_taken"
    change: str = "accepted"


@dataclass(frozen=True)
class SeekClosed(SeekChanged):
    """A seek or a challenge was closed unanswered (``change``: ``cancelled``, ``withdrawn`` or ``declined``;
    ``detail``: ``by`` whom, ``why``)."""

    kind = "lobby.seek_closed"


__all__ = ["SeekChanged", "SeekClosed", "SeekOpened", "SeekTaken"]
