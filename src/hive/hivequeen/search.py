"""The HiveQueen searcher: the project's alpha-beta search, typed for HiveQueen's step core.

The search runs over steps (movement, productions, ``END``); a step that leaves the same side to move is searched
at the same depth, so a level's depth counts whole turns. To keep a turn's production tree small, the search
considers at most :data:`~hive.hivequeen.evaluation.PRODUCTION_CELLS` cells per producible kind, chosen by a cheap
cell score. Plain typed Python; Cython compiles it with the C types in ``search.pxd``, so that the compiled build
runs a whole search without Python calls between nodes.
"""

from __future__ import annotations

from .._build import is_compiled
from ..ai.evaluation import WIN
from ..ai.search import (
    NO_CUTOFF,
    Limits,
    Searcher,
    SearchPosition,
    SearchResult,
)
from ..core.position import DRAW, HAND, IN_PROGRESS, WHITE_WINS
from .board import Turn
from .evaluation import PRODUCTION_CELLS, add_history, clear_history, narrow_productions, order_steps
from .evaluation import evaluate as evaluate_queen
from .position import END, PRODUCTION, Position

__all__ = ["DRAW_AVERSION", "QueenSearcher", "search_view"]

#: What a draw costs the side that searches, in evaluation units (a Worker is 110): without it, levels settle for
#: repetitions in level positions they could play on.
DRAW_AVERSION = 100


def search_view(position: Position) -> Position:
    """A copy of ``position`` (with its repetition counts) for the search to work on."""
    view = Position(setup=False)
    position.copy_state_to(view)
    return view


def _search_steps(p: Position) -> list[int]:
    """The legal steps of ``p``, a production step narrowed to the best cells per kind."""
    moves = p.generate()
    if p.phase == _PRODUCTION and len(moves) > _NARROW_ABOVE:
        return narrow_productions(p, moves)
    return moves


class QueenSearcher(Searcher):
    """The alpha-beta searcher with HiveQueen's evaluation, move ordering and production narrowing."""

    draw_aversion = DRAW_AVERSION

    def search(self, position: SearchPosition, limits: Limits) -> SearchResult:
        clear_history()
        return Searcher.search(self, position, limits)

    def evaluate(self, p: SearchPosition) -> int:
        assert isinstance(p, Position)
        return evaluate_queen(p)

    def root_moves(self, p: SearchPosition) -> list[int]:
        assert isinstance(p, Position)
        return _search_steps(p)

    def _root_move(self, p: SearchPosition, move: int, depth: int, alpha: int) -> int:
        assert isinstance(p, Position)
        side = p.ply & 1
        p.make(move)
        if p.ply & 1 == side:
            score = self._negamax_queen(p, depth, alpha, _WIN + 1, 1)
        else:
            score = -self._negamax_queen(p, depth - 1, -_WIN - 1, -alpha, 1)
        p.unmake()
        return score

    def _negamax_queen(self, p: Position, depth: int, alpha: int, beta: int, ply: int) -> int:
        self._tick()
        status = p.status
        if status >= _DRAW:
            return self._ended(status, p.ply, ply)
        key = p.hash
        if p.seen.get(key, 0) >= 2:
            # a repeated position can be repeated again: score it as the draw it leads to
            return self._draw(p.ply)
        if depth <= 0:
            return evaluate_queen(p)
        score = self._probe(key, depth, alpha, beta)
        if score != _NO_CUTOFF:
            return score
        moves = _search_steps(p)
        if len(moves) > 1:
            order_steps(p, moves, self._tt_move, self.killers[ply])
        original_alpha = alpha
        best = -_WIN - 1
        best_move = moves[0]
        side = p.ply & 1
        for move in moves:
            p.make(move)
            if p.ply & 1 == side:
                score = self._negamax_queen(p, depth, alpha, beta, ply + 1)
            else:
                score = -self._negamax_queen(p, depth - 1, -beta, -alpha, ply + 1)
            p.unmake()
            if score > best:
                best = score
                best_move = move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if move >> 5 & 2047 != _HAND:
                            self.killers[ply] = move
                        add_history(move, depth * depth)
                        break
        self._store(key, best, original_alpha, beta, depth, best_move)
        return best

    def best_turn(self, board: Position, limits: Limits) -> Turn:
        """The best whole turn found within ``limits``: the searched movement, then the productions the
        search preferred after it (searched again where the table has no answer).

        :raises ValueError: when the game is over.
        """
        view = search_view(board)
        if view.status != _IN_PROGRESS:
            raise ValueError("The game is over: there is no turn to search.")
        result = self.search(view, limits)
        steps = [result.move]
        ply = view.ply
        view.make(result.move)
        while view.ply == ply and view.status == _IN_PROGRESS:
            legal = view.generate()
            step = self.known_move(view.hash)
            if step not in legal:
                step = -1
            if step < 0:
                step = self.search(view, Limits(depth=1)).move
            view.make(step)
            if step != _END:
                steps.append(step)
        return Turn.from_steps(steps)


_COMPILED = is_compiled(search_view)
# C copies (see search.pxd) of the constants used above.
_WIN = WIN
_DRAW = DRAW
_WHITE_WINS = WHITE_WINS
_IN_PROGRESS = IN_PROGRESS
_HAND = HAND
_END = END
_PRODUCTION = PRODUCTION
# a production list no longer than END plus PRODUCTION_CELLS cells of each of the 4 producible kinds is kept whole
_NARROW_ABOVE = 1 + 4 * PRODUCTION_CELLS
_NO_CUTOFF = NO_CUTOFF
