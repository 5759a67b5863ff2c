"""Iterative-deepening alpha-beta search with a transposition table.

The search works on the core's int moves and ``make``/``unmake``; it never
allocates per node beyond the move list. Plain typed Python; Cython compiles it with the
C types in ``search.pxd``. When the position is a Hive :class:`Position` and neither
:meth:`Searcher.evaluate` nor :meth:`Searcher.order` is overridden, the search takes a
typed path (``_negamax_hive``) that the compiled build runs without Python calls at the leaves.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sized
from dataclasses import dataclass
from typing import Protocol

from .._build import filled, is_compiled, table
from ..core.geometry import CELLS, NEIGHBOUR
from ..core.pieces import PIECES_PER_COLOUR
from ..core.position import DRAW, HAND, PASS, WHITE_WINS, Position
from .evaluation import WIN
from .evaluation import evaluate as evaluate_hive

EXACT = 0
LOWER = 1
UPPER = 2
MAX_DEPTH = 64
# move ordering packs a move's index into the low bits of its sort key (legal-move lists are far shorter)
_INDEX_BITS = 12
_INDEX_MASK = (1 << _INDEX_BITS) - 1
TT_LIMIT = 2_000_000
#: The most a draw can cost (or gain) the side that is ahead (behind) in the static evaluation at the root;
#: without it a stronger player settles for repetition draws in positions it would win.
CONTEMPT = 150
# search plies can exceed the depth by the steps within turns
KILLER_SLOTS = 4 * MAX_DEPTH + 2
#: What :meth:`Searcher._probe` returns when the transposition table does not settle a node (outside every score).
NO_CUTOFF = -2 * WIN
# A transposition-table entry is one int (no tuple per node): score << 41 | depth << 34 | flag << 32 | best move.
_FLAG_SHIFT = 32
_DEPTH_SHIFT = 34
_DEPTH_MASK = 127
_SCORE_SHIFT = 41
_MOVE_MASK = (1 << 32) - 1


class _Timeout(Exception):
    pass


def _pack(score: int, depth: int, flag: int, move: int) -> int:
    return score << _SCORE_SHIFT | depth << _DEPTH_SHIFT | flag << _FLAG_SHIFT | move


class SearchPosition(Protocol):
    """What the search needs of a game position: int moves, make/unmake, a hash and a status.

    ``status`` uses the core's codes (``DRAW``, ``WHITE_WINS``, ``BLACK_WINS`` at or above ``DRAW``);
    ``ply & 1`` is the side to move (0 for the first player). A move after which the same side is still to move
    (a step within a turn, as HiveQueen's productions) is searched at the same depth and not negated, so the
    depth counts turns. ``seen`` counts occurrences of each hash in the game so far when the repetition draw is
    on (empty otherwise).
    """

    hash: int
    status: int
    ply: int
    seen: dict[int, int]

    @property
    def history(self) -> Sized: ...

    def generate(self) -> list[int]: ...

    def make(self, move: int) -> None: ...

    def unmake(self) -> int: ...


@dataclass(frozen=True)
class Limits:
    """How long to think: a depth, a time in seconds, or both (whichever ends first)."""

    depth: int | None = None
    time: float | None = None

    def __post_init__(self) -> None:
        if self.depth is None and self.time is None:
            raise ValueError("Limits need a depth or a time")
        if self.depth is not None and self.depth < 1:
            raise ValueError(f"search depth must be >= 1, not {self.depth}")
        if self.time is not None and self.time <= 0:
            raise ValueError(f"search time must be > 0 seconds, not {self.time}")


#: Named strength levels used by the UHP engine, the browser app and ``hive match``.
LEVELS: dict[str, Limits] = {
    "easy": Limits(depth=1),
    "medium": Limits(depth=3),
    "hard": Limits(depth=4, time=1.0),
    "max": Limits(depth=5, time=5.0),
}


@dataclass(frozen=True)
class SearchResult:
    """The outcome of a search: best move (core int), its score, depth reached, nodes searched."""

    move: int
    score: int
    depth: int
    nodes: int
    seconds: float


class Searcher:
    """Alpha-beta searcher for Hive; keeps its transposition table between calls.

    Other games reuse it by overriding :meth:`evaluate` and :meth:`order` for their own position type.

    :param seed: seeds the opening randomness; ``None`` plays deterministically.
    :param opening_noise: plies from the start during which near-equal root moves are chosen at random.
    """

    #: What a draw costs the searching side on top of :data:`CONTEMPT` (a game's searcher may set it).
    draw_aversion = 0

    def __init__(self, seed: int | None = None, opening_noise: int = 0) -> None:
        self.tt: dict[int, int] = {}
        self.randomise = seed is not None and opening_noise > 0
        # seeding a generator costs more than a small search: searchers that never draw share one
        self.rng = random.Random(seed) if self.randomise else _UNUSED_RNG
        self.opening_noise = opening_noise
        self.nodes = 0
        self.deadline = 0.0
        self.history: dict[int, int] = {}
        self.killers: list[int] = [0] * KILLER_SLOTS
        self.draw_score = 0
        self.root_side = 0
        self._fast = False
        self._tt_move = 0

    def search(self, position: SearchPosition, limits: Limits) -> SearchResult:
        """Search ``position`` (restored on return) and return the best move found within ``limits``.

        :raises ValueError: when the game is over.
        """
        start = time.perf_counter()
        moves = self.root_moves(position)
        if not moves:
            raise ValueError("The game is over: there is no move to search.")
        self.nodes = 0
        self.deadline = start + limits.time if limits.time is not None else float("inf")
        self.history.clear()
        for index in _TOUCHED:
            _HIVE_HISTORY[index] = 0
        _TOUCHED.clear()
        self.killers = [0] * KILLER_SLOTS
        self.root_side = position.ply & 1
        self.draw_score = -self.draw_aversion - max(-CONTEMPT, min(CONTEMPT, self.evaluate(position) // 2))
        if len(self.tt) > TT_LIMIT:
            self.tt.clear()
        if self.randomise and position.ply < self.opening_noise:
            self.rng.shuffle(moves)
        best, best_score, reached = moves[0], 0, 0
        if len(moves) == 1:
            return SearchResult(best, self.evaluate(position), 0, 1, time.perf_counter() - start)
        self._fast = (
            isinstance(position, Position)
            and type(self).evaluate is Searcher.evaluate
            and type(self).order is Searcher.order
        )
        max_depth = limits.depth if limits.depth is not None else MAX_DEPTH
        plies = len(position.history)
        try:
            for depth in range(1, max_depth + 1):
                score, move = self._root(position, moves, depth)
                best, best_score, reached = move, score, depth
                moves.remove(move)
                moves.insert(0, move)
                if abs(score) >= WIN - MAX_DEPTH:
                    break
        except _Timeout:
            while len(position.history) > plies:
                position.unmake()
        return SearchResult(best, best_score, reached, self.nodes, time.perf_counter() - start)

    def _root(self, p: SearchPosition, moves: list[int], depth: int) -> tuple[int, int]:
        alpha = -WIN - 1
        best = moves[0]
        noisy = self.randomise and p.ply < self.opening_noise
        fast = self._fast
        for move in moves:
            if fast:
                assert isinstance(p, Position)
                score = self._root_move_hive(p, move, depth, alpha)
            else:
                score = self._root_move(p, move, depth, alpha)
            if noisy:
                score += self.rng.randint(-8, 8)
            if score > alpha:
                alpha = score
                best = move
        self.tt[p.hash] = _pack(alpha, depth, EXACT, best)
        return alpha, best

    def _root_move(self, p: SearchPosition, move: int, depth: int, alpha: int) -> int:
        """The score of root move ``move`` searched to ``depth``; a game's searcher may override it with a path
        typed for its own position."""
        side = p.ply & 1
        p.make(move)
        if p.ply & 1 == side:
            score = self._negamax(p, depth, alpha, WIN + 1, 1)
        else:
            score = -self._negamax(p, depth - 1, -WIN - 1, -alpha, 1)
        p.unmake()
        return score

    def _tick(self) -> int:
        """Counts a node; raises :class:`_Timeout` past the deadline (checked every 256 nodes). Returns 0: an int
        result lets the compiled build pass the exception on."""
        self.nodes += 1
        if self.nodes & 255 == 0 and time.perf_counter() > self.deadline:
            raise _Timeout
        return 0

    def _draw(self, ply: int) -> int:
        """A draw's score for the side to move at game ply ``ply``."""
        return self.draw_score if ply & 1 == self.root_side else -self.draw_score

    def _ended(self, status: int, ply: int, depth_ply: int) -> int:
        """The score of a finished game (``status`` at or above ``DRAW``) for the side to move at game ply
        ``ply``, ``depth_ply`` plies into the search (nearer wins score higher)."""
        if status == _DRAW:
            return self._draw(ply)
        winner = 0 if status == _WHITE_WINS else 1
        return _WIN - depth_ply if winner == ply & 1 else depth_ply - _WIN

    def _probe(self, key: int, depth: int, alpha: int, beta: int) -> int:
        """The stored score of position ``key`` if it settles a ``depth`` search in the window, else ``NO_CUTOFF``;
        leaves the stored best move (0 if none) in ``_tt_move``."""
        entry = self.tt.get(key)
        if entry is None:
            self._tt_move = 0
            return _NO_CUTOFF
        packed = entry
        self._tt_move = packed & _MOVE_MASK
        if packed >> _DEPTH_SHIFT & _DEPTH_MASK >= depth:
            e_score = packed >> _SCORE_SHIFT
            e_flag = packed >> _FLAG_SHIFT & 3
            if e_flag == _EXACT:
                return e_score
            if e_flag == _LOWER and e_score >= beta:
                return e_score
            if e_flag == _UPPER and e_score <= alpha:
                return e_score
        return _NO_CUTOFF

    def _store(self, key: int, best: int, original_alpha: int, beta: int, depth: int, best_move: int) -> None:
        """Stores a searched node's score, as a bound where the window cut it."""
        flag = _EXACT
        if best <= original_alpha:
            flag = _UPPER
        elif best >= beta:
            flag = _LOWER
        self.tt[key] = _pack(best, depth, flag, best_move)

    def _negamax(self, p: SearchPosition, depth: int, alpha: int, beta: int, ply: int) -> int:
        self._tick()
        status = p.status
        if status >= DRAW:
            return self._ended(status, p.ply, ply)
        key = p.hash
        if p.seen.get(key, 0) >= 2:
            # a repeated position can be repeated again: score it as the draw it leads to
            return self._draw(p.ply)
        if depth <= 0:
            return self.evaluate(p)
        score = self._probe(key, depth, alpha, beta)
        if score != _NO_CUTOFF:
            return score
        moves = p.generate()
        if len(moves) > 1:
            self.order(p, moves, self._tt_move, ply)
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
                        if move >> 5 & 2047 != HAND:
                            self.killers[ply] = move
                        self.history[move] = self.history.get(move, 0) + depth * depth
                        break
        self._store(key, best, original_alpha, beta, depth, best_move)
        return best

    def _root_move_hive(self, p: Position, move: int, depth: int, alpha: int) -> int:
        p.make(move)
        score = -self._negamax_hive(p, depth - 1, -_WIN - 1, -alpha, 1)
        p.unmake()
        return score

    def _negamax_hive(self, p: Position, depth: int, alpha: int, beta: int, ply: int) -> int:
        """:meth:`_negamax` for a Hive position with the default evaluation and ordering."""
        self._tick()
        status = p.status
        if status >= _DRAW:
            return self._ended(status, p.ply, ply)
        key = p.hash
        if p.repetition_draw and p.seen.get(key, 0) >= 2:
            return self._draw(p.ply)
        if depth <= 0:
            return evaluate_hive(p)
        score = self._probe(key, depth, alpha, beta)
        if score != _NO_CUTOFF:
            return score
        moves = p.generate()
        if len(moves) > 1:
            self._order_hive(p, moves, self._tt_move, ply)
        original_alpha = alpha
        best = -_WIN - 1
        best_move = moves[0]
        for move in moves:
            p.make(move)
            score = -self._negamax_hive(p, depth - 1, -beta, -alpha, ply + 1)
            p.unmake()
            if score > best:
                best = score
                best_move = move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if move >> 5 & 2047 != _HAND:
                            self.killers[ply] = move
                        index = (move & 31) * _CELLS + (move >> 16)
                        if _HIVE_HISTORY[index] == 0:
                            _TOUCHED.append(index)
                        _HIVE_HISTORY[index] += depth * depth
                        break
        self._store(key, best, original_alpha, beta, depth, best_move)
        return best

    def known_move(self, key: int) -> int:
        """The best move stored for the position with hash ``key`` by earlier searches, or -1."""
        entry = self.tt.get(key)
        return -1 if entry is None else entry & _MOVE_MASK

    def root_moves(self, p: SearchPosition) -> list[int]:
        """The moves searched at the root: all legal moves unless a game's searcher narrows them."""
        return p.generate()

    def evaluate(self, p: SearchPosition) -> int:
        """Score ``p`` from the side to move's point of view (``WIN`` bounds a won game)."""
        assert isinstance(p, Position)
        return evaluate_hive(p)

    def order(self, p: SearchPosition, moves: list[int], tt_move: int, ply: int) -> None:
        """Sort ``moves`` in place, most promising first."""
        assert isinstance(p, Position)
        self._order_hive(p, moves, tt_move, ply)

    def _order_hive(self, p: Position, moves: list[int], tt_move: int, ply: int) -> None:
        enemy_queen = p.pos[_PIECES_PER_COLOUR if p.ply & 1 == 0 else 0]
        own_queen = p.pos[0 if p.ply & 1 == 0 else _PIECES_PER_COLOUR]
        for d in range(6):
            if enemy_queen >= 0:
                _NEAR[_NB[enemy_queen * 6 + d]] |= 1
            if own_queen >= 0:
                _NEAR[_NB[own_queen * 6 + d]] |= 2
        killer = self.killers[ply]
        original = moves[:]
        for i in range(len(original)):
            move = original[i]
            dst = move >> 16
            k = _HIVE_HISTORY[(move & 31) * _CELLS + dst]
            src = move >> 5 & 2047
            if move == tt_move:
                k += 1 << 30
            elif move == killer:
                k += 1 << 20
            if _NEAR[dst] & 1 and not _NEAR[src] & 1:
                k += 1 << 22
            if _NEAR[src] & 2 and not _NEAR[dst] & 2:
                k += 1 << 21
            if move == _PASS:
                k -= 1
            add_sort_key(i, k)
        for d in range(6):
            if enemy_queen >= 0:
                _NEAR[_NB[enemy_queen * 6 + d]] = 0
            if own_queen >= 0:
                _NEAR[_NB[own_queen * 6 + d]] = 0
        apply_sort(moves, original)


def add_sort_key(i: int, k: int) -> None:
    """Give move ``i`` (counting from 0 in each sort) of the list being ordered the sort key ``k``, higher first;
    :func:`apply_sort` ends the sort. Equal keys keep the list's order."""
    # the move's index in the low bits: earlier moves win ties
    key = k << _INDEX_BITS | (_INDEX_MASK - i)
    if _C_SORT:
        # compiled: a stable insertion sort over C ints beats boxing keys for list.sort
        j = i
        while j > 0 and _SORT_KEYS[j - 1] < key:
            _SORT_KEYS[j] = _SORT_KEYS[j - 1]
            j -= 1
        _SORT_KEYS[j] = key
    else:
        if i == 0:
            _KEYED.clear()
        _KEYED.append(key)


def apply_sort(moves: list[int], original: list[int]) -> None:
    """Write ``original`` (the list the keys were given for) into ``moves`` in the order of its keys."""
    if _C_SORT:
        for i in range(len(original)):
            moves[i] = original[_INDEX_MASK - (_SORT_KEYS[i] & _INDEX_MASK)]
    else:
        _KEYED.sort(reverse=True)
        for i in range(len(original)):
            moves[i] = original[_INDEX_MASK - (_KEYED[i] & _INDEX_MASK)]


# C-typed copies (see search.pxd) of the tables used above; plain lists when running as Python.
_COMPILED = is_compiled(Searcher.search)
_NB = table("i", NEIGHBOUR, _COMPILED)
# Scratch space of move ordering, shared by all searchers (a search runs to the end before another starts):
# cells next to the queens (bit 1: enemy queen, bit 2: own queen; index CELLS is HAND), always left zeroed,
# and the sort keys.
_NEAR = filled("B", CELLS + 1, _COMPILED)
_SORT_KEYS = filled("q", _INDEX_MASK + 1, _COMPILED)
_KEYED: list[int] = []
_C_SORT = _COMPILED
# History scores of the Hive path by piece and destination (a move's low 5 bits and its top bits), and the
# entries raised since the last search started (which zeroes them).
_HIVE_HISTORY = filled("q", 32 * CELLS, _COMPILED)
_TOUCHED: list[int] = []
_NO_CUTOFF = NO_CUTOFF
_UNUSED_RNG = random.Random(0)
_CELLS = CELLS
_WIN = WIN
_EXACT = EXACT
_LOWER = LOWER
_UPPER = UPPER
_DRAW = DRAW
_WHITE_WINS = WHITE_WINS
_HAND = HAND
_PASS = PASS
_PIECES_PER_COLOUR = PIECES_PER_COLOUR
