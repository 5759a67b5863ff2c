"""The HiveQueen AI: the project's alpha-beta search with an evaluation and move ordering of its own.

The search runs over steps (movement, productions, ``END``); a step that leaves the same side to move is searched
at the same depth, so a level's depth counts whole turns. To keep a turn's production tree small, the search
considers at most :data:`PRODUCTION_CELLS` cells per producible kind, chosen by a cheap cell score.
"""

from __future__ import annotations

import random

from ..ai.search import Limits, Searcher, SearchPosition
from ..core.position import IN_PROGRESS
from .board import Board, Turn
from .evaluation import PRODUCTION_CELLS, evaluate, narrow_productions, order_steps
from .position import END, PRODUCTION, Position

__all__ = ["LEVELS", "QueenSearcher", "RandomPlayer", "SearchPlayer", "best_turn", "evaluate"]

#: HiveQueen's named levels (the game's own: its turns branch far more than Hive's plies). Depth counts whole
#: turns; the time cap only guards against rare slow positions (the deepest completed depth is kept). On
#: positions from self-play (``python -m benchmarks.hivequeen``) a 3-turn search takes a median of 0.16 s
#: (1.3 s at the 90th percentile) and a 4-turn search 4.6 s (9.8 s).
LEVELS: dict[str, Limits] = {
    "easy": Limits(depth=1),
    "medium": Limits(depth=2),
    "hard": Limits(depth=3, time=10.0),
    "max": Limits(depth=4, time=20.0),
}


class _SearchView(Position):
    """A copy of a position whose production steps are narrowed for the search."""

    def generate(self) -> list[int]:
        moves = super().generate()
        if self.phase != PRODUCTION or len(moves) <= 1 + 4 * PRODUCTION_CELLS:
            return moves
        return narrow_productions(self, moves)


def search_view(position: Position) -> Position:
    """A copy of ``position`` (with its repetition counts) for the search to work on."""
    view = _SearchView(setup=False)
    position.copy_state_to(view)
    return view


class QueenSearcher(Searcher):
    """The alpha-beta searcher with HiveQueen's evaluation and move ordering."""

    def evaluate(self, p: SearchPosition) -> int:
        assert isinstance(p, Position)
        return evaluate(p)

    def order(self, p: SearchPosition, moves: list[int], tt_move: int, ply: int) -> None:
        assert isinstance(p, Position)
        order_steps(p, moves, tt_move, self.killers[ply], self.history)

    def best_turn(self, board: Position, limits: Limits) -> Turn:
        """The best whole turn found within ``limits``: the searched movement, then the productions the
        search preferred after it (searched again where the table has no answer).

        :raises ValueError: when the game is over.
        """
        view = search_view(board)
        if view.status != IN_PROGRESS:
            raise ValueError("The game is over: there is no turn to search.")
        result = self.search(view, limits)
        steps = [result.move]
        ply = view.ply
        view.make(result.move)
        while view.ply == ply and view.status == IN_PROGRESS:
            legal = view.generate()
            step = self.known_move(view.hash)
            if step not in legal:
                step = -1
            if step < 0:
                step = self.search(view, Limits(depth=1)).move
            view.make(step)
            if step != END:
                steps.append(step)
        return Turn.from_steps(steps)


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
