"""Aborting a game before both sides have moved: neither a win nor a loss, and no rating moves.

A game between two players online (two accounts, or two guests' browsers) may be aborted by either player until each
side has made its first move (``POST /api/games/{id}/abort``; the page offers it in place of resigning). A game
against the AI or on one screen is not aborted (nobody is waited for: it is deleted, or a new one started); nor is a
tournament's game, which its tournament scores (a player who never moves loses it by the tournament's forfeit, see
:mod:`~hive.web.tournaments.service`).

The server aborts a timed game between two accounts (a game from the lobby, where an absent player's clock would
otherwise run, and a rating move) whose side to move does not make its first move in time (:func:`due`): a real-time
game after :attr:`~hive.web.shared.settings.Settings.first_move` seconds (30 by default), a correspondence game after
its
days per move; counted from the game's start for the first move, and from the first move for the second. A flag that
falls before both sides moved aborts such a game too. The deadline is stored as the game's flag (see
:mod:`~hive.web.play.flags`), so that any server process aborts it, once. An untimed game is never aborted by the
server, nor a guests' game (its players may abort it; its clocks fall as any flag does).
"""

from __future__ import annotations

from ..shared.model import GameRecord
from . import clock

#: The result of an aborted game.
ABORTED = "Aborted"


def open_to_abort(record: GameRecord) -> bool:
    """Whether a game of its kind is still abortable, short of being a tournament's (see :func:`abortable`): online,
    in progress, and a side has not moved yet."""
    return record.mode == "online" and record.result is None and len(record.moves) < 2


def abortable(record: GameRecord, paired: bool | None) -> bool:
    """Whether either player may abort the game now (``paired``: whether it is a tournament's game)."""
    return open_to_abort(record) and not paired


def refusal(record: GameRecord, paired: bool | None) -> str | None:
    """Why the game cannot be aborted now (``None``: it can)."""
    if record.result is not None:
        return "The game is over."
    if record.mode != "online":
        return "Only a game between two players online is aborted; delete this one, or start a new game."
    if len(record.moves) >= 2:
        return "Both sides have moved: the game is on. Offer a draw, or resign."
    if paired:
        return "A tournament's game is not aborted: the tournament scores it (a side that never moves forfeits)."
    return None


def watched(record: GameRecord, paired: bool | None) -> bool:
    """Whether the server aborts the game if its side to move makes no first move in time (see :func:`due`), or its
    flag falls before both sides moved: a timed game between two accounts that may be aborted."""
    return abortable(record, paired) and record.clock is not None and None not in record.accounts


def due(record: GameRecord, paired: bool | None, first_move: float) -> float | None:
    """When the server aborts the game if its side to move makes no first move (seconds since the epoch; ``None``:
    never, or not now)."""
    if not watched(record, paired) or record.clock is None:
        return None
    control = record.clock["control"]
    allowance = control["days"] * clock.DAY / 1000 if "days" in control else first_move
    if not record.moves:
        return record.created + allowance
    since = record.clock.get("since")
    if since is None or record.clock.get("paused"):
        return None
    return float(since) + allowance


def reason(sides: tuple[str, str], by: int | None, turn: int) -> str:
    """Why the game was aborted, in the notation's side names: by a player (``by``), or by the server as the side to
    move (``turn``) made no first move."""
    if by is None:
        return f"{sides[turn]} made no first move"
    return f"{sides[by]} aborted the game"


__all__ = ["ABORTED", "abortable", "due", "open_to_abort", "reason", "refusal", "watched"]
