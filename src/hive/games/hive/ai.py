"""Hive's players: the named levels of its searcher and a random mover."""

from __future__ import annotations

import math
import random

from ...search.framework import WIN
from ...search.limits import Limits
from .board import Board
from .move import Move
from .search import Searcher

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
