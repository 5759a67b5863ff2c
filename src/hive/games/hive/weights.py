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

#: The bugs in the order the tuples above are indexed by, as the weights' names spell them.
BUGS = ("queen", "spider", "beetle", "grasshopper", "ant", "mosquito", "ladybug", "pillbug")

#: Every weight by its name, as shipped: the tuples' entries one by one (``queen_pressure_3``: a queen with 3
#: occupied neighbours; ``active_ant``, ``in_hand_beetle``), then the single weights in lower case. The pressure of
#: no neighbour and of six is left out: a queen on the board has a neighbour once the second piece is placed, and six
#: end the game.
WEIGHTS: dict[str, int] = {
    **{f"queen_pressure_{n}": QUEEN_PRESSURE[n] for n in range(1, 6)},
    **{f"active_{bug}": value for bug, value in zip(BUGS, ACTIVE, strict=True)},
    **{f"in_hand_{bug}": value for bug, value in zip(BUGS, IN_HAND, strict=True)},
    "queen_free": QUEEN_FREE,
    "queen_slide": QUEEN_SLIDE,
    "queen_covered": QUEEN_COVERED,
    "on_top": ON_TOP,
    "on_queen": ON_QUEEN,
    "guard": GUARD,
}
