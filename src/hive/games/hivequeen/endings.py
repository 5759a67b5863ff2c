"""The ways HiveQueen's rules end a game, and how a board's game ended or could still be won."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...game import DRAW, FIRST_WINS, IN_PROGRESS, Ending, Outcome
from .rules import DRONE, HIGHBORN, NURSE, QUEEN, REPETITION_DRAW_COUNT, SOLDIER, TURN_LIMIT_WITHOUT_CAPTURE

if TYPE_CHECKING:
    from .board import Board

QUEEN_CAPTURED = Ending("queen captured", "{loser} has no Queen after its movement")
NO_MOVEMENT = Ending("no movement", "{loser} cannot move")
NEITHER_CAN_MOVE = Ending("neither can move", "neither player can move")
REPETITION = Ending("repetition", f"the same position was repeated {REPETITION_DRAW_COUNT} times")
QUIET_TURNS = Ending("turns without a capture", f"{TURN_LIMIT_WITHOUT_CAPTURE} turns without a capture")

#: Every way, for the game's plug-in.
ENDINGS = (QUEEN_CAPTURED, NO_MOVEMENT, NEITHER_CAN_MOVE, REPETITION, QUIET_TURNS)


def outcome_of(board: Board) -> Outcome | None:
    """How the game on ``board`` ended, or ``None`` while it goes on."""
    if board.status == IN_PROGRESS:
        return None
    winner = None if board.status == DRAW else board.status - FIRST_WINS
    colour = board.ply & 1
    mover = 1 - colour
    units = f"units {board.units[0]}-{board.units[1]}"
    if board.count[QUEEN | mover << 3] == 0:
        return QUEEN_CAPTURED(winner, board.sides)
    if not board.has_movement(colour):
        if board.has_movement(1 - colour):
            return NO_MOVEMENT(winner, board.sides)
        return NEITHER_CAN_MOVE(winner, board.sides, units)
    if board.status == DRAW and board.seen.get(board.hash, 0) >= REPETITION_DRAW_COUNT:
        return REPETITION(winner, board.sides)
    return QUIET_TURNS(winner, board.sides, units)


def could_win(board: Board, side: int) -> bool:
    """Whether ``side`` could still win on ``board`` by some series of legal turns of both players. It cannot when it
    has nothing that captures or ever will (no Highborn, Soldier or Nurse on the field), the other player keeps a
    Queen and can always move (a Highborn to swap with, or a Drone: neither can be taken), and ``side`` has no more
    units than the other (its units cannot grow, and the other's cannot shrink)."""
    if board.is_game_over():
        return False
    other = 1 - side
    count = board.count
    disarmed = not any(count[kind | side << 3] for kind in (HIGHBORN, SOLDIER, NURSE))
    mobile = bool(count[QUEEN | other << 3]) and bool(count[HIGHBORN | other << 3] or count[DRONE | other << 3])
    return not (disarmed and mobile and board.units[side] <= board.units[other])
