"""A new game as a request asks for it: its kind, mode, options, seats and AI, or a record to go on from.

Nothing is stored here: :func:`new_game` reads and checks the request and deals the seat tokens; the service keeps
the result.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from ..games import GAMES, find_game
from .errors import BadRequest
from .storage import GameRecord
from .views import DEFAULT_KIND, JSON, Board, View, view_for

MODES = ("ai", "local", "online")
#: The AI level that plays random moves; the others are the game's own.
RANDOM = "random"
#: The colour a new game's creator asks for, by any game's side names: the first player's seat or the second's.
SEATS: dict[str, int] = {side.lower(): seat for spec in GAMES.values() for seat, side in enumerate(spec.sides)}


def ai_levels(name: str) -> tuple[str, ...]:
    """The AI levels of the game called ``name``: the random mover and the game's own levels."""
    return (RANDOM, *find_game(name).ai.levels)


def all_ai_levels() -> list[str]:
    """The AI levels of every game, in order."""
    levels: list[str] = []
    for spec in GAMES.values():
        levels += [level for level in ai_levels(spec.name) if level not in levels]
    return levels


@dataclass(frozen=True)
class NewGame:
    """A game to start: its record (moves and result included), view and board, the creator's seat token, and the
    other seat's token for an online game."""

    record: GameRecord
    view: View
    board: Board
    token: str
    invite: str | None


def new_game(data: JSON) -> NewGame:
    """Read a request for a new game: ``kind``, ``mode`` (``ai``, ``local``, ``online``), ``options``, ``colour``
    (a side's name or ``random``), ``ai_level`` and ``game_string`` (a record to go on from).

    :raises BadRequest: naming the field at fault.
    """
    view = view_for(data.get("kind", DEFAULT_KIND))
    mode = data.get("mode", "ai")
    if mode not in MODES:
        raise BadRequest(f"Unknown mode {mode!r}: expected one of {', '.join(MODES)}.")
    raw = data.get("options", {})
    if not isinstance(raw, dict):
        raise BadRequest(f"'options' must be an object, not {raw!r}.")
    options = view.options(raw)
    colour = data.get("colour", "white")
    if colour != "random" and (not isinstance(colour, str) or colour not in SEATS):
        raise BadRequest(f"Unknown colour {colour!r}: expected {', '.join(SEATS)} or random.")
    seat = secrets.randbelow(2) if colour == "random" else SEATS[colour]
    board = view.new_board(options)
    level = data.get("ai_level", "easy")
    levels = ai_levels(board.game_name)
    if mode == "ai" and level not in levels:
        raise BadRequest(f"Unknown AI level {level!r}: expected one of {', '.join(levels)}.")
    text = data.get("game_string")
    if text is not None:
        if not isinstance(text, str) or not text.strip():
            raise BadRequest(f"'game_string' must be {view.record_example}.")
        options, board = view.import_record(text, options)
    token, other = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
    tokens: tuple[str | None, str | None]
    if mode == "local":
        tokens = (token, token)
    elif mode == "ai":
        tokens = (token, None) if seat == 0 else (None, token)
    else:
        tokens = (token, other) if seat == 0 else (other, token)
    outcome = board.outcome()
    record = GameRecord(
        id=secrets.token_urlsafe(6),
        kind=view.kind,
        options=options,
        mode=mode,
        ai_level=level if mode == "ai" else None,
        ai_seat=1 - seat if mode == "ai" else None,
        tokens=tokens,
        moves=board.move_texts(),
        result=outcome.result if outcome else None,
        reason=outcome.reason if outcome else None,
    )
    return NewGame(record, view, board, token, other if mode == "online" else None)


__all__ = ["MODES", "RANDOM", "SEATS", "NewGame", "ai_levels", "all_ai_levels", "new_game"]
