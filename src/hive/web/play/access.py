"""Who may do what with a game: the seats a token holds, and the engine's help, which a fair game keeps from
everyone while it is played.

A game against the AI, or of two players on one screen, is the players' own: its seat holders may ask the engine
whenever they like. A game between two browsers is fair unless both players chose a casual game with help: while it
is on, nobody (neither seat, nor a spectator) gets the engine's hints, evaluations or reviews. Once a game is over,
anyone may look at it with the engine.
"""

from __future__ import annotations

import hmac

from ...sdk.view import JSON
from ..shared.errors import BadRequest, Forbidden, shown
from ..shared.model import GameRecord

#: Why the engine is refused in a fair game.
HELP_OFF = (
    "Engine help (hints, evaluation, review) is off while this game is played: both players must choose a casual"
    " game with help for it to be on."
)
#: Why the engine is refused to a spectator while a game is on.
PLAYERS_ONLY = "While the game is on, only its players may ask the engine; spectators may once it is over."


def seats(record: GameRecord, token: str | None) -> frozenset[int]:
    """The seats a token holds: none (a spectator), one, or both (two players on one screen)."""
    if not token:
        return frozenset()
    return frozenset(
        seat for seat, own in enumerate(record.tokens) if own and hmac.compare_digest(own.encode(), token.encode())
    )


def help_on(record: GameRecord) -> bool:
    """Whether the seat holders may ask the engine while the game is on."""
    return record.mode != "online" or all(choice is True for choice in record.help)


def check_engine(record: GameRecord, held: frozenset[int]) -> None:
    """Make sure the holder of ``held`` may see the engine's output on this game now.

    :raises Forbidden: for a spectator of a game in progress, and for anyone in a fair game in progress.
    """
    if record.result is not None:
        return
    if not held:
        raise Forbidden(PLAYERS_ONLY)
    if not help_on(record):
        raise Forbidden(HELP_OFF)


def seat_of(held: frozenset[int], data: JSON, what: str) -> int:
    """The one seat a request acts for: the token's own, or, for a token holding both seats, the request's
    ``seat``.

    :raises BadRequest: when ``seat`` is needed and missing, or not a seat the token holds.
    """
    if len(held) == 1 and "seat" not in data:
        return next(iter(held))
    seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or seat not in held:
        raise BadRequest(
            f"'seat' must say which of your seats {what} ({', '.join(map(str, sorted(held)))}), not {shown(seat)}."
        )
    return seat


def joined(record: GameRecord) -> list[bool]:
    """Whether each seat has opened the game with its token (always both, but for a game between two browsers)."""
    return [bool(record.joined >> seat & 1) for seat in range(2)]


__all__ = ["HELP_OFF", "PLAYERS_ONLY", "check_engine", "help_on", "joined", "seat_of", "seats"]
