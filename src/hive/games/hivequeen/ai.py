"""HiveQueen's players: the named levels of its searcher and a random mover."""

from __future__ import annotations

import random

from ...game import IN_PROGRESS
from ...search.limits import Limits
from .board import Board
from .move import Turn
from .search import Searcher
from .state import END, PRODUCTION

__all__ = ["LEVELS", "best_turn", "random_move", "searcher"]

#: HiveQueen's named levels (the game's own: its turns branch far more than Hive's plies). Depth counts whole
#: turns; the time cap only guards against rare slow positions (the deepest completed depth is kept);
#: ``python -m benchmarks.hivequeen --levels hard max`` times them.
LEVELS: dict[str, Limits] = {
    "easy": Limits(depth=1),
    "medium": Limits(depth=2),
    "hard": Limits(depth=3, time=10.0),
    "max": Limits(depth=4, time=20.0),
}


def searcher(seed: int | None = None, opening_noise: int = 0) -> Searcher:
    """A new searcher (see :class:`~hive.games.hivequeen.search.Searcher`)."""
    return Searcher(seed, opening_noise)


def best_turn(board: Board, level: str = "medium", seed: int | None = None) -> Turn:
    """The AI's turn for ``board`` at a named level (``easy``, ``medium``, ``hard``, ``max``).

    :raises ValueError: for an unknown level or a finished game.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: expected one of {', '.join(LEVELS)}")
    return Searcher(seed).search(board, LEVELS[level]).move


def random_move(board: Board, rng: random.Random) -> Turn:
    """A random turn of ``board``: a random movement, then random production steps (each legal step, ending the
    turn included, equally likely).

    :raises ValueError: when the game is over.
    """
    moves = board.generate()
    if not moves or board.phase == PRODUCTION:
        raise ValueError("The game is over: there is no turn to choose.")
    steps = [rng.choice(moves)]
    made = 1
    ply = board.ply
    board.make(steps[0])
    while board.ply == ply and board.status == IN_PROGRESS:
        step = rng.choice(board.generate())
        board.make(step)
        made += 1
        if step != END:
            steps.append(step)
    for _ in range(made):
        board.unmake()
    return Turn.from_steps(steps)
