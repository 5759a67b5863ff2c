"""HiveQueen's alpha-beta search: the framework's iterative deepening over one negamax typed for HiveQueen's steps.

The search runs over steps (movement, productions, ``END``); a step that leaves the same side to move is searched
at the same depth, so a level's depth counts whole turns. To keep a turn's production tree small, the search
considers at most :data:`PRODUCTION_CELLS` cells per producible kind, chosen by a cheap cell score. Plain typed
Python; Cython compiles it with the C types in ``search.pxd``, so that the compiled build runs a whole search
without Python calls between nodes.
"""

from __future__ import annotations

import time

from ..._build import is_compiled, table
from ...game import DRAW, IN_PROGRESS
from ...search.framework import NO_CUTOFF, WIN, SearchBase
from ...search.limits import Limits, SearchResult
from .evaluation import cell_score
from .evaluation import evaluate as evaluate_position
from .geometry import CELLS
from .move import Turn
from .position import Position
from .rules import QUEEN
from .state import END, PRODUCE, PRODUCTION, PROMOTE
from .weights import VALUE

__all__ = ["DRAW_AVERSION", "PRODUCTION_CELLS", "Searcher", "search_view"]

#: What a draw costs the side that searches, in evaluation units (a Worker is 110): without it, levels settle for
#: repetitions in level positions they could play on.
DRAW_AVERSION = 100
#: Cells per producible kind the search considers in each production step.
PRODUCTION_CELLS = 2


def search_view(position: Position) -> Position:
    """A copy of ``position`` (with its repetition counts) for the search to work on."""
    view = Position(setup=False)
    position.copy_state_to(view)
    return view


class Searcher(SearchBase):
    """The alpha-beta searcher with HiveQueen's evaluation, move ordering and production narrowing.

    :param seed: seeds the opening randomness; ``None`` plays deterministically.
    :param opening_noise: turns from the start during which near-equal root moves are chosen at random.
    """

    draw_aversion = DRAW_AVERSION

    def __init__(self, seed: int | None = None, opening_noise: int = 0) -> None:
        # history by step (steps are below END << 1)
        SearchBase.__init__(self, seed, opening_noise, END << 1)

    def search(self, board: Position, limits: Limits) -> SearchResult[Turn]:
        """The best whole turn found within ``limits``: the searched movement, then the productions the search
        preferred after it (searched again where the table has no answer). ``score``, ``depth`` and ``nodes`` are
        the movement's search's.

        :raises ValueError: when the game is over.
        """
        start = time.perf_counter()
        view = search_view(board)
        if view.status != IN_PROGRESS:
            raise ValueError("The game is over: there is no turn to search.")
        found = self.search_codes(view, limits)
        steps = [found.move]
        ply = view.ply
        view.make(found.move)
        while view.ply == ply and view.status == IN_PROGRESS:
            legal = view.generate()
            step = self.known_move(view.hash)
            if step not in legal:
                step = self.search_codes(view, Limits(depth=1)).move
            view.make(step)
            if step != END:
                steps.append(step)
        turn = Turn.from_steps(steps)
        return SearchResult(turn, found.score, found.depth, found.nodes, time.perf_counter() - start)

    def evaluate(self, p: Position) -> int:  # type: ignore[override]
        return evaluate_position(p)

    def root_moves(self, p: Position) -> list[int]:  # type: ignore[override]
        return self._steps(p)

    def _root_move(self, p: Position, move: int, depth: int, alpha: int) -> int:  # type: ignore[override]
        position = p
        side = position.ply & 1
        position.make(move)
        if position.ply & 1 == side:
            score = self._negamax(position, depth, alpha, WIN + 1, 1)
        else:
            score = -self._negamax(position, depth - 1, -WIN - 1, -alpha, 1)
        position.unmake()
        return score

    def _node(self, p: Position, depth: int, alpha: int, beta: int, ply: int) -> int:  # type: ignore[override]
        position = p
        return self._negamax(position, depth, alpha, beta, ply)

    def _negamax(self, p: Position, depth: int, alpha: int, beta: int, ply: int) -> int:
        self._tick()
        status = p.status
        if status >= DRAW:
            return self._ended(status, p.ply, ply)
        key = p.hash
        if p.seen.get(key, 0) >= 2:
            # a repeated position can be repeated again: score it as the draw it leads to
            return self._draw(p.ply)
        if depth <= 0:
            return evaluate_position(p)
        score = self._probe(key, depth, alpha, beta)
        if score != NO_CUTOFF:
            return score
        moves = self._steps(p)
        if len(moves) > 1:
            self._order(p, moves, self._tt_move, self.killers[ply])
        original_alpha = alpha
        best = -WIN - 1
        best_move = moves[0]
        side = p.ply & 1
        for move in moves:
            p.make(move)
            if p.ply & 1 == side:
                score = self._negamax(p, depth, alpha, beta, ply + 1)
            else:
                score = -self._negamax(p, depth - 1, -beta, -alpha, ply + 1)
            p.unmake()
            if score > best:
                best = score
                best_move = move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        self.killers[ply] = move
                        self._add_history(move, depth * depth)
                        break
        self._store(key, best, original_alpha, beta, depth, best_move)
        return best

    def _steps(self, p: Position) -> list[int]:
        """The legal steps of ``p``, a production step narrowed to the best cells per kind."""
        moves = p.generate()
        if p.phase == PRODUCTION and len(moves) > _NARROW_ABOVE:
            return self._narrow(p, moves)
        return moves

    def _narrow(self, p: Position, moves: list[int]) -> list[int]:
        """``END`` and the best :data:`PRODUCTION_CELLS` production cells per kind, by :func:`cell_score`."""
        colour = p.ply & 1
        enemy_queen = -1
        enemy = QUEEN | (1 - colour) << 3
        board = p.board
        for cell in range(CELLS):
            if board[cell] == enemy:
                enemy_queen = cell
        original = [step for step in moves if step != END]
        for i in range(len(original)):
            step = original[i]
            # best cell score first, then the higher step (steps are below END)
            self._add_sort_key(i, cell_score(p, step, colour, enemy_queen) * END + step)
        ordered = original[:]
        self._apply_sort(ordered, original)
        taken = [0] * 8
        out = [END]
        for step in ordered:
            kind = step >> 6 & 7
            if taken[kind] < _PRODUCTION_CELLS:
                taken[kind] += 1
                out.append(step)
        return out

    def _order(self, p: Position, moves: list[int], tt_move: int, killer: int) -> None:
        """Sort ``moves`` in place, most promising first: the table's move, captures (the Queen first), promotions,
        the killer, history, productions, and ``END`` last; equal keys keep their order."""
        board = p.board
        colour = p.ply & 1
        original = moves[:]
        for i in range(len(original)):
            move = original[i]
            k = self._history[move]
            if move == tt_move:
                k += 1 << 30
            elif move == killer:
                k += 1 << 20
            if move < PRODUCE:
                target = board[move >> 6 & 63]
                if target and target >> 3 != colour:
                    kind = target & 7
                    k += (1 << 24) + (1 << 16 if kind == QUEEN else _VALUE[kind] << 4)
                if move & PROMOTE:
                    k += 1 << 25
            elif move == END:
                k -= 1
            else:
                k += 1 << 10
            self._add_sort_key(i, k)
        self._apply_sort(moves, original)


_COMPILED = is_compiled(search_view)
# C copies (see search.pxd) of the table and constants of this module.
_VALUE = table("h", VALUE, _COMPILED)
_PRODUCTION_CELLS = PRODUCTION_CELLS
# a production list no longer than END plus PRODUCTION_CELLS cells of each of the 4 producible kinds is kept whole
_NARROW_ABOVE = 1 + 4 * PRODUCTION_CELLS
