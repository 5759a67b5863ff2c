"""How long an AI thinks under a clock: one budget for every app that plays on one (the browser's timed games, a
UHP client's ``bestmove clock``)."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

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
#: Seconds each move costs beyond the search itself (setting up the position and the search, the answer's way
#: back, a busy machine's delays), kept back from every budget. Without it a game whose increment is small against
#: that cost loses a little of its clock at every move, however long it has.
MOVE_OVERHEAD = 0.05


def move_budget(remaining: float, increment: float = 0.0, overhead: float = MOVE_OVERHEAD) -> float:
    """Seconds to think on a move with ``remaining`` seconds on the clock and ``increment`` seconds added after
    each move, ``overhead`` seconds of each move going on other things than the search:
    ``remaining / 30 + 0.7 * increment - overhead``, at least :data:`LEAST`, and never more than 40 % of
    ``remaining`` less the overhead (so a search that stops on its deadline always answers inside the clock).

    >>> from hive.search.timing import move_budget
    >>> round(move_budget(300, 3), 3)
    12.05
    >>> move_budget(0.3)
    0.02
    >>> move_budget(0.1)
    0.001

    :raises ValueError: for a negative or non-finite time.
    """
    for name, value in (("remaining", remaining), ("increment", increment), ("overhead", overhead)):
        if not (math.isfinite(value) and value >= 0):
            raise ValueError(f"{name} time must be a finite number of seconds >= 0, not {value!r}")
    share = remaining / MOVES_TO_GO + increment * INCREMENT_SHARE - overhead
    return max(FLOOR, min(remaining * MOST_OF_REMAINING - overhead, max(LEAST, share)))


@dataclass(frozen=True)
class ClockReading:
    """A side's clock read at one moment, for a search that may start later (after waiting in a queue, or in
    another process): ``remaining`` seconds, ``increment`` seconds added after each move, read at ``at`` (a
    :func:`time.monotonic` time, which every process of the machine shares)."""

    remaining: float
    increment: float = 0.0
    at: float = field(default_factory=time.monotonic)

    def budget(self) -> float:
        """:func:`move_budget` of the time remaining now (the time since the reading is already spent)."""
        return move_budget(max(0.0, self.remaining - (time.monotonic() - self.at)), self.increment)
