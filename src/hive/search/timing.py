"""How long an AI thinks under a clock: one budget for every app that plays on one (the browser's timed games, a
UHP client's ``bestmove clock``)."""

from __future__ import annotations

import math

#: The moves the remaining time is shared over (a game's length to come, as engines commonly guess it).
MOVES_TO_GO = 30
#: The part of the increment spent on each move.
INCREMENT_SHARE = 0.7
#: The most of the remaining time one move may take.
MOST_OF_REMAINING = 0.4
#: The least a move is given while the remaining time allows it (a depth-1 answer takes about this long).
LEAST = 0.02
#: What a move is given when nothing is left (searches need a time above zero; they answer from the first depth).
FLOOR = 0.001


def move_budget(remaining: float, increment: float = 0.0) -> float:
    """Seconds to think on a move with ``remaining`` seconds on the clock and ``increment`` seconds added after
    each move: ``remaining / 30 + 0.7 * increment``, at least :data:`LEAST`, and never more than 40 % of
    ``remaining`` (so a search that stops on its deadline always answers inside the clock).

    >>> move_budget(300, 3)
    12.1
    >>> move_budget(0.3)
    0.02
    >>> move_budget(0.01)
    0.004

    :raises ValueError: for a negative or non-finite time.
    """
    for name, value in (("remaining", remaining), ("increment", increment)):
        if not (math.isfinite(value) and value >= 0):
            raise ValueError(f"{name} time must be a finite number of seconds >= 0, not {value!r}")
    share = remaining / MOVES_TO_GO + increment * INCREMENT_SHARE
    return max(FLOOR, min(remaining * MOST_OF_REMAINING, max(LEAST, share)))
