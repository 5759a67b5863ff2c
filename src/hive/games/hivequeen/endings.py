"""The ways HiveQueen's rules end a game."""

from __future__ import annotations

from ...game import Ending
from .rules import REPETITION_DRAW_COUNT, TURN_LIMIT_WITHOUT_CAPTURE

QUEEN_CAPTURED = Ending("queen captured", "{loser} has no Queen after its movement")
NO_MOVEMENT = Ending("no movement", "{loser} cannot move")
NEITHER_CAN_MOVE = Ending("neither can move", "neither player can move")
REPETITION = Ending("repetition", f"the same position was repeated {REPETITION_DRAW_COUNT} times")
QUIET_TURNS = Ending("turns without a capture", f"{TURN_LIMIT_WITHOUT_CAPTURE} turns without a capture")

#: Every way, for the game's plug-in.
ENDINGS = (QUEEN_CAPTURED, NO_MOVEMENT, NEITHER_CAN_MOVE, REPETITION, QUIET_TURNS)
