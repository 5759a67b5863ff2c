"""The ways Hive's rules end a game."""

from __future__ import annotations

from ...game import Ending

QUEEN_SURROUNDED = Ending("queen surrounded", "{loser}'s Queen Bee is surrounded")
BOTH_QUEENS_SURROUNDED = Ending("both queens surrounded", "both Queens are surrounded")
REPETITION = Ending("repetition", "the same position was repeated 3 times")

#: Every way, for the game's plug-in.
ENDINGS = (QUEEN_SURROUNDED, BOTH_QUEENS_SURROUNDED, REPETITION)
