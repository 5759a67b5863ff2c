"""Hive's players: the named levels of its searcher, a random mover, and the parameters ``hive tune`` tunes."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping

from ...search.framework import MAX_DEPTH, WIN
from ...search.limits import Limits
from .board import Board
from .evaluation import MAX_WEIGHT, Weights
from .move import Move
from .search import CONTEMPT, DRAW_AVERSION, LATE_DEPTH, LATE_MOVES, NULL_MOVE, NULL_MOVE_DEPTH, Searcher
from .weights import WEIGHTS

#: Named strength levels, by depth with a time cap (the cap matters for the plain Python build).
LEVELS: dict[str, Limits] = {
    "easy": Limits(depth=1),
    "medium": Limits(depth=3),
    "hard": Limits(depth=4, time=1.0),
    "max": Limits(depth=5, time=5.0),
}


def random_move(board: Board, rng: random.Random) -> Move:
    """A uniformly random legal move of ``board`` (``Move.PASS`` when passing is the only move).

    :raises ValueError: when the game is over.
    """
    codes = board.generate()
    if not codes:
        raise ValueError("The game is over: there is no move to choose.")
    return Move.from_code(rng.choice(codes))


def win_chance(score: int) -> float:
    """White's chance of winning for a search score from White's point of view: certain for a won or lost line,
    else a logistic curve."""
    if abs(score) >= WIN - 100:
        return 1.0 if score > 0 else 0.0
    return 1 / (1 + math.exp(-score / 150))


def searcher(seed: int | None = None, opening_noise: int = 0) -> Searcher:
    """A new searcher (see :class:`~hive.games.hive.search.Searcher`)."""
    return Searcher(seed, opening_noise)


#: The search's parameters, as shipped: ``contempt``, the most a draw costs the side that is ahead at the root
#: (:data:`hive.games.hive.search.CONTEMPT`), ``draw_aversion``, what a draw costs the searching side on top of it,
#: and the null move's: ``null_move``, its reduction in plies (0: no null move), and ``null_move_depth``, the least
#: depth left at which it is tried, and the late-move reductions': ``late_moves``, the index of a node's first move
#: that may be reduced (0: none), and ``late_depth``, the least depth left at which one is (see
#: :class:`~hive.games.hive.search.Searcher`). Nothing else in the search
#: changes what it plays at a given depth (its move ordering changes only how soon it gets there).
SEARCH_PARAMETERS: dict[str, int] = {
    "contempt": CONTEMPT,
    "draw_aversion": DRAW_AVERSION,
    "null_move": NULL_MOVE,
    "null_move_depth": NULL_MOVE_DEPTH,
    "late_moves": LATE_MOVES,
    "late_depth": LATE_DEPTH,
}
#: The search parameters whose values are bounded more narrowly than by the evaluation's weights' ``MAX_WEIGHT``.
SEARCH_RANGES: dict[str, tuple[int, int]] = {
    "null_move": (0, 4),
    "null_move_depth": (0, MAX_DEPTH),
    "late_moves": (0, 255),
    "late_depth": (0, MAX_DEPTH),
}
#: Every parameter of the AI that can be tuned, by name, as shipped: the evaluation's weights
#: (:data:`hive.games.hive.weights.WEIGHTS`), then the search's (:data:`SEARCH_PARAMETERS`).
PARAMETERS: dict[str, int] = {**WEIGHTS, **SEARCH_PARAMETERS}


def searcher_with(seed: int | None, opening_noise: int, values: Mapping[str, float]) -> Searcher:
    """A new searcher playing with ``values`` (some of :data:`PARAMETERS`, rounded to whole numbers; the others as
    shipped).

    :raises ValueError: naming a parameter that does not exist, or a value out of its range.
    """
    unknown = sorted(set(values) - set(PARAMETERS))
    if unknown:
        raise ValueError(f"Hive's AI has no parameter {unknown[0]!r}: its parameters are {', '.join(PARAMETERS)}")
    searcher = Searcher(seed, opening_noise, Weights({k: v for k, v in values.items() if k in WEIGHTS}))
    for name in SEARCH_PARAMETERS:
        if name in values:
            value = values[name]
            low, high = SEARCH_RANGES.get(name, (-MAX_WEIGHT, MAX_WEIGHT))
            if not low <= value <= high:
                raise ValueError(f"search parameter {name!r} must be from {low} to {high}, not {value!r}")
            setattr(searcher, name, round(value))
    return searcher
