"""The weights of Hive's evaluation, as data: change them here and the compiled evaluation reads the new values.

Units are centi-pawn-like, for the side to move; tuples are indexed by bug (``Q S B G A M L P``) or by a count.
The values are ``hive tune``'s (SPSA, 2,000 pairs of games at depth 3), which the arena's SPRT accepted against the
hand-set ones they replaced (``docs/performance.md``, "Tuning the AI": +280 Elo at depth 3); change them the same
way, with the verdict that accepts the new ones.
"""

from __future__ import annotations

#: Penalty for a queen with n occupied neighbours: the last few are worth far more.
QUEEN_PRESSURE = (0, 13, 43, 97, 149, 397, 0)
#: Value of a bug that is free to move, by bug (Q S B G A M L P).
ACTIVE = (2, 5, 28, 6, 25, 18, 16, 19)
#: Value of a bug still in hand: it can still go anywhere, but does nothing yet (a queen kept in hand costs).
IN_HAND = (-14, 7, 1, 6, 14, 5, 16, 1)
#: A queen that can still slide away (its liberties), plus a little per open direction: a pinned queen is
#: the first step to surrounding it.
QUEEN_FREE = 34
QUEEN_SLIDE = 1
#: A queen buried under a beetle is worth little.
QUEEN_COVERED = 58
#: A bug on top of the hive, beyond its value when free.
ON_TOP = 18
#: A beetle or mosquito standing on the enemy queen.
ON_QUEEN = 157
#: Own pillbug or mosquito next to own queen: it can throw attackers away.
GUARD = 43

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
