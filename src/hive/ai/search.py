"""Iterative-deepening alpha-beta search with a transposition table.

The search works on the core's int moves and ``make``/``unmake``; it never
allocates per node beyond the move list.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sized
from dataclasses import dataclass
from typing import Protocol

from ..core.geometry import NEIGHBOURS
from ..core.pieces import PIECES_PER_COLOUR
from ..core.position import DRAW, HAND, PASS, WHITE_WINS, Position
from .evaluation import WIN, evaluate

EXACT = 0
LOWER = 1
UPPER = 2
MAX_DEPTH = 64
TT_LIMIT = 2_000_000
#: The most a draw can cost (or gain) the side that is ahead (behind) in the static evaluation at the root;
#: without it a stronger player settles for repetition draws in positions it would win.
CONTEMPT = 150
# search plies can exceed the depth by the steps within turns
KILLER_SLOTS = 4 * MAX_DEPTH + 2


class _Timeout(Exception):
    pass


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
    "hard": Limits(time=1.0, depth=MAX_DEPTH),
    "max": Limits(time=5.0, depth=MAX_DEPTH),
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

    def __init__(self, seed: int | None = None, opening_noise: int = 0) -> None:
        self.tt: dict[int, tuple[int, int, int, int]] = {}
        self.rng = random.Random(seed)
        self.randomise = seed is not None and opening_noise > 0
        self.opening_noise = opening_noise
        self.nodes = 0
        self.deadline = 0.0
        self.history: dict[int, int] = {}
        self.killers: list[int] = [0] * KILLER_SLOTS
        self.draw_score = 0
        self.root_side = 0

    def search(self, position: SearchPosition, limits: Limits) -> SearchResult:
        """Search ``position`` (restored on return) and return the best move found within ``limits``.

        :raises ValueError: when the game is over.
        """
        start = time.perf_counter()
        moves = position.generate()
        if not moves:
            raise ValueError("The game is over: there is no move to search.")
        self.nodes = 0
        self.deadline = start + limits.time if limits.time is not None else float("inf")
        self.history.clear()
        self.killers = [0] * KILLER_SLOTS
        self.root_side = position.ply & 1
        self.draw_score = -max(-CONTEMPT, min(CONTEMPT, self.evaluate(position) // 2))
        if len(self.tt) > TT_LIMIT:
            self.tt.clear()
        if self.randomise and position.ply < self.opening_noise:
            self.rng.shuffle(moves)
        best, best_score, reached = moves[0], 0, 0
        if len(moves) == 1:
            return SearchResult(best, self.evaluate(position), 0, 1, time.perf_counter() - start)
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
        side = p.ply & 1
        for move in moves:
            p.make(move)
            if p.ply & 1 == side:
                score = self._negamax(p, depth, alpha, WIN + 1, 1)
            else:
                score = -self._negamax(p, depth - 1, -WIN - 1, -alpha, 1)
            p.unmake()
            if noisy:
                score += self.rng.randint(-8, 8)
            if score > alpha:
                alpha = score
                best = move
        self.tt[p.hash] = (depth, alpha, EXACT, best)
        return alpha, best

    def _negamax(self, p: SearchPosition, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if self.nodes & 255 == 0 and time.perf_counter() > self.deadline:
            raise _Timeout
        status = p.status
        if status >= DRAW:
            if status == DRAW:
                return self.draw_score if p.ply & 1 == self.root_side else -self.draw_score
            winner = 0 if status == WHITE_WINS else 1
            return WIN - ply if winner == p.ply & 1 else ply - WIN
        key = p.hash
        if p.seen.get(key, 0) >= 2:
            # a repeated position can be repeated again: score it as the draw it leads to
            return self.draw_score if p.ply & 1 == self.root_side else -self.draw_score
        if depth <= 0:
            return self.evaluate(p)
        entry = self.tt.get(key)
        tt_move = 0
        if entry is not None:
            e_depth, e_score, e_flag, tt_move = entry
            if e_depth >= depth:
                if e_flag == EXACT:
                    return e_score
                if e_flag == LOWER and e_score >= beta:
                    return e_score
                if e_flag == UPPER and e_score <= alpha:
                    return e_score
        moves = p.generate()
        if len(moves) > 1:
            self.order(p, moves, tt_move, ply)
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
        flag = EXACT
        if best <= original_alpha:
            flag = UPPER
        elif best >= beta:
            flag = LOWER
        self.tt[key] = (depth, best, flag, best_move)
        return best

    def evaluate(self, p: SearchPosition) -> int:
        """Score ``p`` from the side to move's point of view (``WIN`` bounds a won game)."""
        assert isinstance(p, Position)
        return evaluate(p)

    def order(self, p: SearchPosition, moves: list[int], tt_move: int, ply: int) -> None:
        """Sort ``moves`` in place, most promising first."""
        assert isinstance(p, Position)
        enemy_queen = p.pos[PIECES_PER_COLOUR if p.ply & 1 == 0 else 0]
        own_queen = p.pos[0 if p.ply & 1 == 0 else PIECES_PER_COLOUR]
        near_enemy = NEIGHBOURS[enemy_queen] if enemy_queen >= 0 else []
        near_own = NEIGHBOURS[own_queen] if own_queen >= 0 else []
        killer = self.killers[ply]
        history = self.history
        keys: dict[int, int] = {}
        for move in moves:
            dst = move >> 16
            src = move >> 5 & 2047
            k = history.get(move, 0)
            if move == tt_move:
                k += 1 << 30
            elif move == killer:
                k += 1 << 20
            if dst in near_enemy and src not in near_enemy:
                k += 1 << 22
            if src in near_own and dst not in near_own:
                k += 1 << 21
            if move == PASS:
                k -= 1
            keys[move] = k
        moves.sort(key=keys.__getitem__, reverse=True)
