"""The weights of Hive's evaluation, as data: change them here and the compiled evaluation reads the new values.

Units are centi-pawn-like, for the side to move; tuples are indexed by bug (``Q S B G A M L P``) or by a count.
"""

from __future__ import annotations

#: Penalty for a queen with n occupied neighbours: the last few are worth far more.
QUEEN_PRESSURE = (0, 24, 60, 120, 220, 400, 0)
#: Value of a bug that is free to move, by bug (Q S B G A M L P).
ACTIVE = (15, 10, 17, 11, 22, 17, 14, 15)
#: Value of a bug still in hand: it can still go anywhere, but does nothing yet.
IN_HAND = (0, 7, 12, 8, 17, 12, 9, 9)
#: A queen that can still slide away (its liberties), plus a little per open direction: a pinned queen is
#: the first step to surrounding it.
QUEEN_FREE = 30
QUEEN_SLIDE = 5
#: A queen buried under a beetle is worth little.
QUEEN_COVERED = 40
#: A bug on top of the hive, beyond its value when free.
ON_TOP = 10
#: A beetle or mosquito standing on the enemy queen.
ON_QUEEN = 120
#: Own pillbug or mosquito next to own queen: it can throw attackers away.
GUARD = 15
