"""The weights of HiveQueen's evaluation, as data: change them here and the compiled evaluation reads the new values.

Units are those of a Soldier (100), for the side to move; tuples are indexed by kind (``. Q H D N W S``).
"""

from __future__ import annotations

#: Material values by kind (the Queen's worth is in the game's end, not here).
VALUE = (0, 0, 320, 110, 120, 110, 100)
#: A side without a Queen (it must promote at once or lose).
NO_QUEEN = 3000
#: Capturing the enemy Queen when the enemy could not promote after it.
QUEEN_CAPTURE = 5000
#: Capturing the enemy Queen when the enemy could promote a Highborn.
QUEEN_CAPTURE_PROMOTABLE = 700
#: Share (in tenths) of the best capture the side to move can make now, and of the opponent's best threat.
OWN_THREAT = 7
ENEMY_THREAT = 3
#: Value per unit of spare capacity (up to 5) and per Highborn that could promote.
SPARE = 10
PROMOTABLE = 60
