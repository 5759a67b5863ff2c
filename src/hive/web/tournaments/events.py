"""The tournaments' events: a player invited (their lobby pages show the invitation), a tournament started (its
players' lobby sockets and push subscriptions are told)."""

from __future__ import annotations

from dataclasses import dataclass

from ..shared.events import LobbyEvent


@dataclass(frozen=True)
class PlayerInvited(LobbyEvent):
    """A player was invited to a tournament (``detail``: the ``invite`` message's fields)."""

    kind = "tournaments.invited"


#: The lobby socket's message type of a tournament started.
STARTED = "tournament_started"


@dataclass(frozen=True)
class TournamentStarted(LobbyEvent):
    """A tournament started: its first round was paired and its games begin (``route``: its players' accounts;
    ``detail``: the :data:`STARTED` message, with the tournament's ``name``)."""

    kind = "tournaments.started"


__all__ = ["STARTED", "PlayerInvited", "TournamentStarted"]
