"""Hive's alpha-beta search: the framework's iterative deepening over one negamax typed for Hive's core.

Plain typed Python; Cython compiles it with the C types in ``search.pxd``, so that the compiled build runs a whole
search without Python calls between nodes.
"""

from __future__ import annotations

from ..._build import filled, is_compiled, table
from ...game import DRAW
from ...search.framework import NO_CUTOFF, WIN, SearchBase
from ...search.limits import Limits, SearchResult
from .evaluation import evaluate as evaluate_position
from .geometry import CELLS, NEIGHBOUR
from .move import Move
from .pieces import PIECES_PER_COLOUR
from .position import Position
from .state import HAND, PASS

__all__ = ["Searcher"]


class Searcher(SearchBase):
    """Alpha-beta searcher for Hive; keeps its transposition table between searches.

    Move ordering: the table's move, the killer, history scores by piece and destination, moves that reach the
    enemy Queen or leave one's own, the pass last.

    :param seed: seeds the opening randomness; ``None`` plays deterministically.
    :param opening_noise: plies from the start during which near-equal root moves are chosen at random.
    """

    def __init__(self, seed: int | None = None, opening_noise: int = 0) -> None:
        # history by piece and destination: a move's low 5 bits and its top bits
        SearchBase.__init__(self, seed, opening_noise, 32 * CELLS)
        # cells next to the queens while ordering (bit 1: enemy queen, bit 2: own queen; index CELLS is HAND),
        # always left zeroed
        self._near = filled("B", CELLS + 1, _COMPILED)

    def search(self, board: Position, limits: Limits) -> SearchResult[Move]:
        """Search ``board`` (restored on return) and return the best move found within ``limits``.

        :raises ValueError: when the game is over.
        """
        found = self.search_codes(board, limits)
        return SearchResult(Move.from_code(found.move), found.score, found.depth, found.nodes, found.seconds)

    def evaluate(self, p: Position) -> int:  # type: ignore[override]
        return evaluate_position(p)

    def repeated(self, p: Position) -> bool:  # type: ignore[override]
        return bool(p.repetition_draw and p.seen.get(p.hash, 0) >= 2)

    def _root_move(self, p: Position, move: int, depth: int, alpha: int) -> int:  # type: ignore[override]
        position = p
        position.make(move)
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
        if p.repetition_draw and p.seen.get(key, 0) >= 2:
            # a repeated position can be repeated again: score it as the draw it leads to
            return self._draw(p.ply)
        if depth <= 0:
            return evaluate_position(p)
        score = self._probe(key, depth, alpha, beta)
        if score != NO_CUTOFF:
            return score
        moves = p.generate()
        if len(moves) > 1:
            self._order(p, moves, self._tt_move, ply)
        original_alpha = alpha
        best = -WIN - 1
        best_move = moves[0]
        for move in moves:
            p.make(move)
            score = -self._negamax(p, depth - 1, -beta, -alpha, ply + 1)
            p.unmake()
            if score > best:
                best = score
                best_move = move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if move >> 5 & 2047 != HAND:
                            self.killers[ply] = move
                        self._add_history((move & 31) * CELLS + (move >> 16), depth * depth)
                        break
        self._store(key, best, original_alpha, beta, depth, best_move)
        return best

    def _order(self, p: Position, moves: list[int], tt_move: int, ply: int) -> None:
        """Sort ``moves`` in place, most promising first."""
        enemy_queen = p.pos[PIECES_PER_COLOUR if p.ply & 1 == 0 else 0]
        own_queen = p.pos[0 if p.ply & 1 == 0 else PIECES_PER_COLOUR]
        for d in range(6):
            if enemy_queen >= 0:
                self._near[_NB[enemy_queen * 6 + d]] |= 1
            if own_queen >= 0:
                self._near[_NB[own_queen * 6 + d]] |= 2
        killer = self.killers[ply]
        original = moves[:]
        for i in range(len(original)):
            move = original[i]
            dst = move >> 16
            k = self._history[(move & 31) * CELLS + dst]
            src = move >> 5 & 2047
            if move == tt_move:
                k += 1 << 30
            elif move == killer:
                k += 1 << 20
            if self._near[dst] & 1 and not self._near[src] & 1:
                k += 1 << 22
            if self._near[src] & 2 and not self._near[dst] & 2:
                k += 1 << 21
            if move == PASS:
                k -= 1
            self._add_sort_key(i, k)
        for d in range(6):
            if enemy_queen >= 0:
                self._near[_NB[enemy_queen * 6 + d]] = 0
            if own_queen >= 0:
                self._near[_NB[own_queen * 6 + d]] = 0
        self._apply_sort(moves, original)


# C-typed copy (see search.pxd) of the neighbour table; a list when running as Python.
_COMPILED = is_compiled(Searcher.search)
_NB = table("i", NEIGHBOUR, _COMPILED)
