"""Random openings for the pairs of a match, balanced where the game asks for it."""

from __future__ import annotations

import random
from typing import Any

from ..game import Game
from ..plugin import GameSpec
from ..search import WIN, Limits
from .loop import game_spec, new_board
from .settings import arena_settings


def random_opening(game: GameSpec | str, moves: int, seed: int | None, *, balanced: bool = True) -> tuple[str, ...]:
    """``moves`` random moves from the start, by the game's random mover, in its notation (fewer if the game ends).

    Where the game asks for balanced openings (:attr:`~hive.arena.settings.ArenaSettings.balanced_openings`) and
    ``balanced`` is true, openings are drawn again until a search scores the position within the game's margin of
    even, keeping the most balanced of the tries allowed if none is.
    """
    spec = game_spec(game)
    balance = arena_settings(spec).balanced_openings if balanced and moves else None
    rng = random.Random(seed)
    best: tuple[str, ...] = ()
    best_score = -1
    for _ in range(balance.tries if balance is not None else 1):
        board = new_board(spec)
        texts: list[str] = []
        while len(texts) < moves and not board.is_game_over():
            move = spec.ai.random_move(board, rng)
            texts.append(board.move_text(move))
            board.push(move, texts[-1])
        if balance is None:
            return tuple(texts)
        score = abs(opening_score(board, spec, balance.depth)) if not board.is_game_over() else WIN
        if best_score < 0 or score < best_score:
            best, best_score = tuple(texts), score
        if score <= balance.margin:
            break
    return best


def opening_score(board: Game[Any], game: GameSpec | str, depth: int) -> int:
    """The score of a ``depth``-move search of ``board`` by ``game``'s searcher, for the side to move."""
    return game_spec(game).ai.search(board, Limits(depth=depth)).score


__all__ = ["opening_score", "random_opening"]
