"""The tournaments' events: a player invited (their lobby pages show the invitation)."""

from __future__ import annotations

from dataclasses import dataclass

from ..shared.events import LobbyEvent


@dataclass(frozen=True)
class PlayerInvited(LobbyEvent):
    """A player was invited to a tournament (``detail``: the ``invite`` message's fields)."""

    kind = "tournaments.invited"


__all__ = ["PlayerInvited"]
