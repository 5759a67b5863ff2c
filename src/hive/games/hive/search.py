"""Hive's alpha-beta search: the framework's iterative deepening over one negamax typed for Hive's core.

Plain typed Python; Cython compiles it with the C types in ``search.pxd``, so that the compiled build runs a whole
search without Python calls between nodes.
"""

from __future__ import annotations

from ..._build import filled, is_compiled, table
from ...game import DRAW
from ...search.framework import MAX_DEPTH, NO_CUTOFF, WIN, SearchBase
from ...search.limits import Limits, SearchResult
from .evaluation import SHIPPED, Weights, evaluate_with
from .geometry import CELLS, NEIGHBOUR
from .move import Move
from .pieces import PIECES_PER_COLOUR
from .position import Position
from .state import HAND, PASS, CutCache

__all__ = ["CONTEMPT", "DRAW_AVERSION", "LATE_DEPTH", "LATE_MOVES", "NULL_MOVE", "NULL_MOVE_DEPTH", "Searcher"]

#: Hive's contempt: the most a draw costs the side that is ahead at the root (the framework's is
#: :data:`hive.search.CONTEMPT`), and what a draw costs the searching side on top of it; both ``hive tune``'s, accepted
#: with the evaluation's weights (see :mod:`hive.games.hive.weights`).
CONTEMPT = 121
DRAW_AVERSION = 2
#: The null move's reduction in plies as shipped (see :class:`Searcher`; 0 would be none), accepted by an SPRT.
NULL_MOVE = 2
#: The least depth left at which the null move is tried.
NULL_MOVE_DEPTH = 4
#: The index (counted from 0 in the order searched) of a node's first move that late-move reductions may reduce as
#: shipped: 0, no reductions (see :class:`Searcher`).
LATE_MOVES = 0
#: The least depth left at which a late move is reduced.
LATE_DEPTH = 3


class Searcher(SearchBase):
    """Principal variation searcher for Hive; keeps its transposition table between searches.

    Move ordering: the table's move, two killers, history scores by piece and destination, moves that reach the
    enemy Queen or leave one's own, the pass last. The searcher lends its cache of cut cells to the position it
    searches (:class:`~hive.games.hive.state.CutCache`).

    Null-move pruning, with :attr:`null_move` above 0: at a node searched with a null window, :attr:`null_move_depth`
    plies or more from the leaves, whose side to move has a move other than the pass, has its Queen placed with fewer
    than four neighbours, did not pass to get there and stands at or above beta by the evaluation, the side passes
    (:meth:`~hive.games.hive.state.State.make_null`) and the opponent's reply is searched :attr:`null_move` plies
    shallower than a move's would be; when the side still stands at or above beta, the node is cut off (with beta
    for a won line: a score proved with a pass the rules do not allow is no proof of a win).

    Late-move reductions, with :attr:`late_moves` above 0: at :attr:`late_depth` plies or more from the leaves, a
    node's moves from its :attr:`late_moves`-th on (counted from 0 in the order searched) that the ordering finds
    quiet (no killer, neither reaching the enemy Queen nor leaving one's own) are first searched a ply shallower with
    a null window, two plies from the twelfth move on at six plies or more; such a move is searched again at full
    depth only when it beats alpha there.

    :param seed: seeds the opening randomness; ``None`` plays deterministically.
    :param opening_noise: plies from the start during which near-equal root moves are chosen at random.
    :param weights: the evaluation's weights (default: the shipped ones, :data:`~hive.games.hive.evaluation.SHIPPED`).
    """

    draw_aversion = DRAW_AVERSION

    def __init__(self, seed: int | None = None, opening_noise: int = 0, weights: Weights | None = None) -> None:
        # history by piece and destination: a move's low 5 bits and its top bits
        SearchBase.__init__(self, seed, opening_noise, 32 * CELLS)
        self.contempt = CONTEMPT
        #: The null move's reduction in plies (0: no null move).
        self.null_move = NULL_MOVE
        #: The least depth left at which the null move is tried.
        self.null_move_depth = NULL_MOVE_DEPTH
        #: The index of a node's first move that may be reduced (0: no late-move reductions).
        self.late_moves = LATE_MOVES
        #: The least depth left at which a late move is reduced.
        self.late_depth = LATE_DEPTH
        #: The weights the evaluation reads.
        self.weights = SHIPPED if weights is None else weights
        # cells next to the queens while ordering (bit 1: enemy queen, bit 2: own queen; index CELLS is HAND),
        # always left zeroed
        self._near = filled("B", CELLS + 1, _COMPILED)
        # the moves of the nodes on the current line, each node's above its parent's, with their sort keys
        self._stack = filled("i", _STACK, _COMPILED)
        self._keys = filled("q", _STACK, _COMPILED)
        self._top = 0
        self._cuts = CutCache()
        # the positions the game had before the root, when a return to one scores as a draw
        self._earlier: set[int] = set()

    def search_codes(self, position: Position, limits: Limits) -> SearchResult[int]:  # type: ignore[override]
        """:meth:`SearchBase.search_codes <hive.search.framework.SearchBase.search_codes>`, with the searcher's cut
        cells lent to ``position`` for the search. Without the repetition draw, a move back to a position the game
        has had scores as a draw: a side that is ahead makes progress rather than shuffling (against a side that can
        only pass, it would otherwise go back and forth for ever)."""
        previous = position.cut_cache
        position.cut_cache = self._cuts
        self.begin_root(position)
        try:
            return SearchBase.search_codes(self, position, limits)
        finally:
            position.cut_cache = previous

    def search(self, board: Position, limits: Limits) -> SearchResult[Move]:
        """Search ``board`` (restored on return) and return the best move found within ``limits``.

        :raises ValueError: when the game is over.
        """
        found = self.search_codes(board, limits)
        return SearchResult(Move.from_code(found.move), found.score, found.depth, found.nodes, found.seconds)

    def begin_root(self, p: Position) -> None:  # type: ignore[override]
        self._earlier = set() if p.repetition_draw else p.earlier_keys()

    def rules_of(self, p: Position) -> object:  # type: ignore[override]
        return (str(p.game_type), bool(p.tournament_opening), bool(p.repetition_draw))

    def evaluate(self, p: Position) -> int:  # type: ignore[override]
        return evaluate_with(p, self.weights)

    def repeated(self, p: Position, ply: int) -> bool:  # type: ignore[override]
        return bool(p.repetitions >= 2) or (ply == 1 and p.key in self._earlier)

    def _root_move(self, p: Position, move: int, depth: int, alpha: int) -> int:  # type: ignore[override]
        position = p
        self._top = 0
        position.make(move)
        if alpha > -WIN - 1:
            # principal variation search: a later root move is first proved no better than the best so far
            score = -self._negamax(position, depth - 1, -alpha - 1, -alpha, 1)
            if score > alpha:
                score = -self._negamax(position, depth - 1, -WIN - 1, -alpha, 1)
        else:
            score = -self._negamax(position, depth - 1, -WIN - 1, -alpha, 1)
        position.unmake()
        return score

    def _node(self, p: Position, depth: int, alpha: int, beta: int, ply: int) -> int:  # type: ignore[override]
        position = p
        self._top = 0
        return self._negamax(position, depth, alpha, beta, ply)

    def _negamax(self, p: Position, depth: int, alpha: int, beta: int, ply: int) -> int:
        self._tick()
        status = p.status
        if status >= DRAW:
            return self._ended(status, p.ply, ply)
        # the table's key (every piece apart); the repetitions count what is on the table (see Position.key)
        key = p.hash
        if p.repetitions >= 2:
            # a repeated position can be repeated again: score it as the draw it leads to
            return self._draw(p.ply)
        if ply == 1 and p.key in self._earlier:
            return self._draw(p.ply)
        if depth <= 0:
            return evaluate_with(p, self.weights)
        score = self._probe(key, depth, alpha, beta)
        if score != NO_CUTOFF:
            return score
        tt_move = self._tt_move
        # this node's moves and their sort keys live on the searcher's stack, above its parent's
        n = p._fill()
        base = self._top
        if base + n > len(self._stack):
            self._grow(base + n)
        for i in range(n):
            self._stack[base + i] = p._movebuf[i]
        self._top = base + n
        # the null move, where a pass is not the only move (then a pass searched shallower proves nothing)
        if (
            self.null_move > 0
            and beta - alpha == 1
            and depth >= self.null_move_depth
            and self._stack[base] != PASS
            and self._may_pass(p)
            and evaluate_with(p, self.weights) >= beta
        ):
            p.make_null()
            score = -self._negamax(p, depth - 1 - self.null_move, -beta, 1 - beta, ply + 1)
            p.unmake()
            if score >= beta:
                self._top = base
                return beta if score >= WIN - MAX_DEPTH else score
        # the table's move is tried first, before the others are given their keys (it often cuts the node off)
        sorted_from = 0 if n > 1 else n
        if n > 1 and tt_move != 0:
            for i in range(n):
                if self._stack[base + i] == tt_move:
                    self._stack[base + i] = self._stack[base]
                    self._stack[base] = tt_move
                    sorted_from = 1
                    break
        original_alpha = alpha
        best = -WIN - 1
        best_move = self._stack[base]
        for i in range(n):
            if i >= sorted_from:
                if i == sorted_from:
                    self._keys_for(p, base + i, n - i, ply)
                self._pick(base + i, base + n)
            move = self._stack[base + i]
            # a late move the ordering found nothing for (no flag in its sort key: no killer, neither Queen)
            reduce = 0
            if (
                self.late_moves > 0
                and i >= self.late_moves
                and depth >= self.late_depth
                and self._keys[base + i] >> _INDEX_BITS < _QUIET
            ):
                reduce = 2 if i >= 12 and depth >= 6 else 1
            p.make(move)
            if i == 0:
                score = -self._negamax(p, depth - 1, -beta, -alpha, ply + 1)
            else:
                # principal variation search: prove the move no better than alpha (shallower for a late move),
                # search it fully only if it is
                score = -self._negamax(p, depth - 1 - reduce, -alpha - 1, -alpha, ply + 1)
                if reduce and score > alpha:
                    score = -self._negamax(p, depth - 1, -alpha - 1, -alpha, ply + 1)
                if alpha < score < beta and beta - alpha > 1:
                    score = -self._negamax(p, depth - 1, -beta, -score, ply + 1)
            p.unmake()
            if score > best:
                best = score
                best_move = move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if move >> 5 & 2047 != HAND and self.killers[ply] != move:
                            self.second_killers[ply] = self.killers[ply]
                            self.killers[ply] = move
                        self._add_history((move & 31) * CELLS + (move >> 16), depth * depth)
                        break
        self._top = base
        self._store(key, best, original_alpha, beta, depth, best_move)
        return best

    def _may_pass(self, p: Position) -> bool:
        """Whether the side to move at ``p`` may try the null move: it did not pass to get here (no two passes in a
        row), and its Queen is placed with fewer than four neighbours (a Queen nearly surrounded is where a tempo
        counts most)."""
        if p.last < 0:
            return False
        queen = p.pos[PIECES_PER_COLOUR if p.ply & 1 else 0]
        if queen < 0:
            return False
        mask = p.nmask[queen]
        count = 0
        for d in range(6):
            count += mask >> d & 1
        return count < 4

    def _grow(self, size: int) -> None:
        """Make the move stack hold at least ``size`` moves (a deep line of wide positions)."""
        capacity = len(self._stack)
        while capacity < size:
            capacity *= 2
        stack = filled("i", capacity, _COMPILED)
        keys = filled("q", capacity, _COMPILED)
        for i in range(self._top):
            stack[i] = self._stack[i]
            keys[i] = self._keys[i]
        self._stack = stack
        self._keys = keys

    def _pick(self, first: int, end: int) -> None:
        """Bring the move of the highest key in ``first``..``end`` of the stack to ``first`` (a selection sort run
        one move at a time: most nodes are cut off after a few moves, and a sorted list would be wasted)."""
        top = first
        k = self._keys[first]
        for i in range(first + 1, end):
            if self._keys[i] > k:
                k = self._keys[i]
                top = i
        if top != first:
            self._keys[top] = self._keys[first]
            self._keys[first] = k
            move = self._stack[top]
            self._stack[top] = self._stack[first]
            self._stack[first] = move

    def _keys_for(self, p: Position, base: int, n: int, ply: int) -> None:
        """Give the ``n`` moves at ``base`` of the stack their sort keys, higher first: the killers, history scores
        by piece and destination, moves that reach the enemy Queen or leave one's own, the pass last; ties go to the
        earlier move."""
        enemy_queen = p.pos[PIECES_PER_COLOUR if p.ply & 1 == 0 else 0]
        own_queen = p.pos[0 if p.ply & 1 == 0 else PIECES_PER_COLOUR]
        for d in range(6):
            if enemy_queen >= 0:
                self._near[_NB[enemy_queen * 6 + d]] |= 1
            if own_queen >= 0:
                self._near[_NB[own_queen * 6 + d]] |= 2
        killer = self.killers[ply]
        second = self.second_killers[ply]
        for i in range(n):
            move = self._stack[base + i]
            dst = move >> 16
            k = self._history[(move & 31) * CELLS + dst]
            src = move >> 5 & 2047
            if move == killer:
                k += 1 << 20
            elif move == second:
                k += 1 << 19
            if self._near[dst] & 1 and not self._near[src] & 1:
                k += 1 << 22
            if self._near[src] & 2 and not self._near[dst] & 2:
                k += 1 << 21
            if move == PASS:
                k -= 1
            self._keys[base + i] = k << _INDEX_BITS | (_INDEX_MASK - i)
        for d in range(6):
            if enemy_queen >= 0:
                self._near[_NB[enemy_queen * 6 + d]] = 0
            if own_queen >= 0:
                self._near[_NB[own_queen * 6 + d]] = 0


# room for the moves of a few dozen nodes of one line; a deeper or wider line grows it
_STACK = 8192
# move ordering keeps a move's index in the low bits of its sort key (ties go to the earlier move)
_INDEX_BITS = 12
_INDEX_MASK = (1 << _INDEX_BITS) - 1
# a sort key (less its index) below this has none of the ordering's flags (killers, the Queens): a quiet move
_QUIET = 1 << 19
# C-typed copy (see search.pxd) of the neighbour table; a list when running as Python.
_COMPILED = is_compiled(Searcher.search)
_NB = table("i", NEIGHBOUR, _COMPILED)
