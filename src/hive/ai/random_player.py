"""A player that picks uniformly among the legal moves."""

from __future__ import annotations

import random

from ..core import Board, Move


class RandomPlayer:
    """Chooses a uniformly random legal move; deterministic for a given seed."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, board: Board) -> Move:
        """Return a legal move of ``board`` (``Move.PASS`` when passing is the only move).

        :raises ValueError: when the game is over.
        """
        codes = board.generate()
        if not codes:
            raise ValueError("The game is over: there is no move to choose.")
        return Move.from_code(self.rng.choice(codes))
