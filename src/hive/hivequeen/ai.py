"""The HiveQueen AI: named levels and players over :class:`~hive.hivequeen.search.QueenSearcher`, the project's
alpha-beta search with an evaluation and move ordering of HiveQueen's own."""

from __future__ import annotations

import random

from ..ai.search import Limits
from ..core.position import IN_PROGRESS
from .board import Board, Turn
from .evaluation import evaluate
from .position import END, PRODUCTION
from .search import QueenSearcher, search_view

__all__ = ["LEVELS", "QueenSearcher", "RandomPlayer", "SearchPlayer", "best_turn", "evaluate", "search_view"]

#: HiveQueen's named levels (the game's own: its turns branch far more than Hive's plies). Depth counts whole
#: turns; the time cap only guards against rare slow positions (the deepest completed depth is kept);
#: ``python -m benchmarks.hivequeen --levels hard max`` times them.
LEVELS: dict[str, Limits] = {
    "easy": Limits(depth=1),
    "medium": Limits(depth=2),
    "hard": Limits(depth=3, time=10.0),
    "max": Limits(depth=4, time=20.0),
}


def best_turn(board: Board, level: str = "medium", seed: int | None = None) -> Turn:
    """The AI's turn for ``board`` at a named level (``easy``, ``medium``, ``hard``, ``max``).

    :raises ValueError: for an unknown level or a finished game.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: expected one of {', '.join(LEVELS)}")
    return QueenSearcher(seed).best_turn(board, LEVELS[level])


class SearchPlayer:
    """The HiveQueen AI with fixed limits, for ``hive match``."""

    def __init__(self, limits: Limits, name: str = "ai", seed: int | None = None) -> None:
        self.name = name
        self.limits = limits
        self.searcher = QueenSearcher(seed)

    def choose(self, board: Board) -> Turn:
        return self.searcher.best_turn(board, self.limits)


class RandomPlayer:
    """A random movement, then random production steps (each legal step, ending included, equally likely)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, board: Board) -> Turn:
        """A legal turn of ``board``.

        :raises ValueError: when the game is over.
        """
        moves = board.generate()
        if not moves or board.phase == PRODUCTION:
            raise ValueError("The game is over: there is no turn to choose.")
        steps = [self.rng.choice(moves)]
        made = 1
        ply = board.ply
        board.make(steps[0])
        while board.ply == ply and board.status == IN_PROGRESS:
            step = self.rng.choice(board.generate())
            board.make(step)
            made += 1
            if step != END:
                steps.append(step)
        for _ in range(made):
            board.unmake()
        return Turn.from_steps(steps)
