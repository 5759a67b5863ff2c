"""What the AI's worker processes run: the AI's move, a hint, and one position of an engine review, each from plain
data (the game's kind, options and move texts), the position rebuilt in the worker.

A worker ignores Ctrl+C (the server stops it) and dies with the server: if the server process is killed, its workers
go too, rather than being left running for nobody (see :mod:`~hive.web.shared.processes`).
"""

from __future__ import annotations

import dataclasses
import random
import signal
import threading
from collections import OrderedDict
from typing import Any

from ...games import find_game
from ...sdk.view import JSON
from ...search.framework import WIN
from ...search.timing import ClockReading
from ..play import RANDOM
from ..shared.processes import die_with_parent
from ..views import replay, view_for
from .settings import web_settings

#: The games whose transposition tables a worker keeps between their moves (the last it moved in).
KEPT_TABLES = 4
# per game: the moves its table was searched after, and the table (taken out while a search uses it)
_tables: OrderedDict[str, tuple[list[str], Any]] = OrderedDict()
_tables_lock = threading.Lock()


def _kept_table(game: str | None, moves: list[str]) -> Any:
    """The table this worker kept for ``game``, where ``moves`` go on from (or back along) the moves it was searched
    after; ``None`` otherwise."""
    if game is None:
        return None
    with _tables_lock:
        kept = _tables.pop(game, None)
    if kept is None:
        return None
    earlier, table = kept
    common = min(len(earlier), len(moves))
    return table if earlier[:common] == moves[:common] else None


def _keep_table(game: str | None, moves: list[str], table: Any) -> None:
    if game is None:
        return
    with _tables_lock:
        _tables[game] = (list(moves), table)
        while len(_tables) > KEPT_TABLES:
            _tables.popitem(last=False)


def choose_move(
    kind: str,
    options: JSON,
    moves: list[str],
    level: str,
    seed: int | None = None,
    clock: ClockReading | None = None,
    start: str | None = None,
    game: str | None = None,
) -> str:
    """The AI's move after ``moves``, in the game's notation, at ``level`` (:data:`RANDOM` for the random mover), in
    a game started from the position record ``start`` if it has one. In a timed game the AI thinks for its share
    (:meth:`~hive.search.timing.ClockReading.budget`) of what its ``clock`` has left when the search begins.

    With ``game`` (its id), the worker keeps the search's transposition table for the game's next move, as the
    in-process player keeps it between moves (for the last :data:`KEPT_TABLES` games, where the same worker
    answers)."""
    board = replay(view_for(kind), options, moves, start)
    spec = find_game(board.game_name)
    ai = spec.ai
    if level == RANDOM:
        move = ai.random_move(board, random.Random(seed))
    else:
        limits = ai.levels[level]
        if clock is not None:
            budget = clock.budget()
            limits = dataclasses.replace(limits, time=min(budget, limits.time or budget))
        searcher = ai.searcher(seed, web_settings(spec).play_noise)
        own = getattr(searcher, "tt", None)
        table = _kept_table(game, moves) if own is not None else None
        if table is not None and type(table) is type(own):
            searcher.tt = table
        move = searcher.search(board, limits).move
        if own is not None:
            _keep_table(game, moves, searcher.tt)
    return board.move_text(move)


def analyse(kind: str, options: JSON, moves: list[str], start: str | None = None) -> JSON:
    """A hint after ``moves``: the AI's move at the game's hint level and, where the game's scores are calibrated,
    the score, the first player's winning chance (``white``, 0..1) and the depth; ``start`` is the position record
    the game started from, if any."""
    board = replay(view_for(kind), options, moves, start)
    spec = find_game(board.game_name)
    ai, level = spec.ai, web_settings(spec).hint_level
    result = ai.searcher(None, 0).search(board, ai.levels[level])
    hint: JSON = {"move": board.move_text(result.move)}
    if ai.win_chance is not None:
        score = result.score if board.turn == 0 else -result.score
        hint.update(score=score, white=round(ai.win_chance(score), 3), depth=result.depth)
    hint["level"] = level
    return hint


def decisive(score: int) -> float:
    """The first player's chance for a score where the game has no calibrated curve: certain for a forced result,
    even otherwise."""
    if abs(score) >= WIN - 1000:
        return 1.0 if score > 0 else 0.0
    return 0.5


def evaluate(kind: str, options: JSON, moves: list[str], level: str, start: str | None = None) -> JSON:
    """The position after ``moves`` (played from the position record ``start``, if the game has one), analysed at
    ``level``: the first player's winning chance (``white``, 0..1), the side to move (``turn``), the AI's move
    (``best``, ``None`` once the game is over) and the search's depth."""
    board = replay(view_for(kind), options, moves, start)
    outcome = board.outcome()
    if outcome is not None:
        white = 0.5 if outcome.winner is None else float(outcome.winner == 0)
        return {"white": white, "turn": board.turn, "best": None, "depth": 0}
    ai = find_game(board.game_name).ai
    result = ai.searcher(None, 0).search(board, ai.levels[level])
    score = result.score if board.turn == 0 else -result.score
    chance = ai.win_chance or decisive
    best = board.move_text(result.move)
    return {"white": round(chance(score), 3), "turn": board.turn, "best": best, "depth": result.depth}


def start_worker() -> None:
    """A worker's start: leave Ctrl+C to the server, and die with it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()


__all__ = ["analyse", "choose_move", "decisive", "evaluate", "start_worker"]
