"""The search framework: iterative deepening over a game's negamax, with its transposition table, clock, draw
scoring, history table and move-ordering keys held by the searcher.

A game's searcher subclasses :class:`SearchBase` beside its compiled core and brings one negamax loop of its own
(:meth:`SearchBase._root_move` is where the framework calls it), its evaluation and its ordering. Everything a
search changes belongs to the searcher, so that two searchers, in two threads, never share state.

The positions searched are the game's core positions: int moves, ``generate``, ``make``/``unmake``, a 64-bit
``hash``, a ``status`` (the codes of :mod:`hive.game`: at or above ``DRAW`` the game is over), ``ply`` (its low bit
is the side to move: a move after which the same side is still to move is searched at the same depth, so that the
depth counts turns), ``history`` and ``seen`` (the occurrences of each hash when the repetition draw is on).

Plain typed Python; Cython compiles it with the C types in ``framework.pxd``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sized
from typing import TYPE_CHECKING, Protocol

from .._build import filled, is_compiled
from ..game import DRAW, FIRST_WINS
from .limits import Limits, SearchResult
from .table import NO_CUTOFF as NO_CUTOFF
from .table import TranspositionTable, table_entries

if TYPE_CHECKING:
    from .parallel import Team

#: The score of a won game (nearer wins score a little higher).
WIN = 1_000_000
MAX_DEPTH = 64
# move ordering packs a move's index into the low bits of its sort key (legal-move lists are far shorter)
_INDEX_BITS = 12
_INDEX_MASK = (1 << _INDEX_BITS) - 1
#: The default size of the transposition table, in entries (16 bytes each).
TT_LIMIT = 1 << 20
#: The most a draw can cost (or gain) the side that is ahead (behind) in the static evaluation at the root;
#: without it a stronger player settles for repetition draws in positions it would win.
CONTEMPT = 150
# search plies can exceed the depth by the steps within turns
KILLER_SLOTS = 4 * MAX_DEPTH + 2


class SearchTimeout(Exception):
    """Raised inside a search when its time is up; the search keeps the deepest depth it completed."""


class SearchPosition(Protocol):
    """What the framework reads of a game's core position (see the module's docstring)."""

    hash: int
    status: int
    ply: int

    @property
    def history(self) -> Sized: ...

    @property
    def seen(self) -> dict[int, int]: ...

    def generate(self) -> list[int]: ...

    def make(self, move: int) -> None: ...

    def unmake(self) -> int: ...


class SearchBase:
    """Iterative-deepening alpha-beta over a game's negamax; keeps its transposition table between searches.

    :param seed: seeds the opening randomness; ``None`` plays deterministically.
    :param opening_noise: plies from the start during which near-equal root moves are chosen at random.
    :param history_size: entries of the history table (indexed as the game's negamax chooses).

    Two attributes bound a search from outside: :attr:`tt_limit`, the size of the transposition table :attr:`tt`
    in entries (a search that finds it changed starts a new, empty table of that size), and :attr:`stop`, a
    function polled with the clock: when it returns true the search ends as if its time were up, with the best move
    found so far. With ``Limits.threads`` above 1 a search forks helper processes (:mod:`hive.search.parallel`),
    which share the table, and keeps them for the next such search (:attr:`team`, stopped by :meth:`close`).
    """

    #: What a draw costs the searching side on top of its contempt (a game's searcher may set it, and so may a
    #: searcher's owner, on the searcher itself).
    draw_aversion = 0

    def __init__(self, seed: int | None = None, opening_noise: int = 0, history_size: int = 1) -> None:
        self.tt_limit = TT_LIMIT
        #: The most a draw costs (or gains) the side that is ahead (behind) at the root: :data:`CONTEMPT` unless
        #: set (``hive tune`` tunes it).
        self.contempt = CONTEMPT
        self.tt = TranspositionTable(TT_LIMIT)
        self.stop: Callable[[], bool] | None = None
        #: The helper processes of the searches on more than one process, kept between searches (see
        #: :mod:`hive.search.parallel`); :meth:`close` stops them.
        self.team: Team | None = None
        # seeding a generator costs more than a small search: only searchers that draw have one
        self.rng = random.Random(seed) if seed is not None and opening_noise > 0 else None
        self.opening_noise = opening_noise
        self.nodes = 0
        self.deadline = 0.0
        self.killers: list[int] = [0] * KILLER_SLOTS
        self.second_killers: list[int] = [0] * KILLER_SLOTS
        self.draw_score = 0
        self.root_side = 0
        self._tt_move = 0
        # history scores of moves that cut the search off, and the entries raised since the search began
        self._history = filled("q", history_size, _COMPILED)
        self._touched: list[int] = []
        # the keys of the list being ordered: in the compiled build a C array of the object (``_sort_keys``, declared
        # in framework.pxd), sorted by insertion as they come; in plain Python a list sorted at the end
        self._keyed: list[int] = []

    def search_codes(self, position: SearchPosition, limits: Limits) -> SearchResult[int]:
        """Search a core ``position`` (restored on return) and return the best int move found within ``limits``.

        :raises ValueError: when the game is over.
        :raises ~hive.search.table.TableTooLarge: when the memory for a table of :attr:`tt_limit` entries cannot be
            had.
        """
        start = time.perf_counter()
        moves = self.root_moves(position)
        if not moves:
            raise ValueError("The game is over: there is no move to search.")
        self.nodes = 0
        self.deadline = start + limits.time if limits.time is not None else float("inf")
        self.reset_ordering()
        self.root_side = position.ply & 1
        self.draw_score = -self.draw_aversion - max(-self.contempt, min(self.contempt, self.evaluate(position) // 2))
        if self.tt.entries != table_entries(self.tt_limit):
            self.tt = TranspositionTable(self.tt_limit)
        self.tt.prepare()
        if self.rng is not None and position.ply < self.opening_noise:
            self.rng.shuffle(moves)
        best, best_score, reached = moves[0], 0, 0
        if len(moves) == 1:
            return SearchResult(best, self.evaluate(position), 0, 1, time.perf_counter() - start)
        max_depth = limits.depth if limits.depth is not None else MAX_DEPTH
        plies = len(position.history)
        team = None
        if limits.threads > 1 and (self.rng is None or position.ply >= self.opening_noise):
            from . import parallel  # only searches on more than one core need it

            team = parallel.team_for(self, position, len(moves), limits.threads)
        try:
            for depth in range(1, max_depth + 1):
                if team is None:
                    score, move = self._root(position, moves, depth)
                else:
                    score, move = team.root(moves, depth)
                best, best_score, reached = move, score, depth
                moves.remove(move)
                moves.insert(0, move)
                if abs(score) >= WIN - MAX_DEPTH:
                    break
        except SearchTimeout:
            while len(position.history) > plies:
                position.unmake()
        finally:
            if team is not None:
                self.nodes += team.finish()
        return SearchResult(best, best_score, reached, self.nodes, time.perf_counter() - start)

    def reset_ordering(self) -> None:
        """Forget the history scores and killers (each search starts its move ordering afresh)."""
        for index in self._touched:
            self._history[index] = 0
        self._touched.clear()
        self.killers = [0] * KILLER_SLOTS
        self.second_killers = [0] * KILLER_SLOTS

    def rules_of(self, p: SearchPosition) -> object:
        """What, beside its pieces, makes ``p``'s game the game it is (its rules, as a value that compares equal for
        the same rules), or ``None`` where the searcher cannot tell: then every search on more than one process
        starts helpers of its own rather than keeping the last search's (see :func:`hive.search.parallel.team_for`)."""
        return None

    def begin_root(self, p: SearchPosition) -> None:
        """Set up what a game's searcher keeps for the search of root ``p`` (called by every process of a
        search)."""

    def close(self) -> None:
        """Stop the helper processes kept for searches on more than one process (they start again at the next such
        search); harmless when there are none."""
        team, self.team = self.team, None
        if team is not None:
            team.close()

    def _root(self, p: SearchPosition, moves: list[int], depth: int) -> tuple[int, int]:
        alpha = -_WIN - 1
        best = moves[0]
        rng = self.rng if p.ply < self.opening_noise else None
        for move in moves:
            score = self._root_move(p, move, depth, alpha)
            if rng is not None:
                score += rng.randint(-8, 8)
            if score > alpha:
                alpha = score
                best = move
        self._store(p.hash, alpha, alpha - 1, alpha + 1, depth, best)  # exact
        return alpha, best

    def _root_move(self, p: SearchPosition, move: int, depth: int, alpha: int) -> int:
        """The score of root move ``move`` searched to ``depth`` with the game's negamax."""
        raise NotImplementedError

    def _node(self, p: SearchPosition, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The game's negamax: the score of ``p`` for the side to move, searched to ``depth`` in the window
        ``alpha``..``beta`` (fail-soft), ``ply`` plies into the search."""
        raise NotImplementedError

    # What a multi-process search (:mod:`hive.search.parallel`) calls from Python.
    def score_node(self, p: SearchPosition, depth: int, alpha: int, beta: int, ply: int) -> int:
        """:meth:`_node`: the negamax's score of ``p``."""
        return self._node(p, depth, alpha, beta, ply)

    def score_child(self, p: SearchPosition, move: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The score of ``move`` for the side to move at ``p`` (searched to ``depth`` in the window
        ``alpha``..``beta``, ``ply`` plies into the search), as the negamax scores a child; ``p`` is restored."""
        side = p.ply & 1
        p.make(move)
        if p.ply & 1 == side:
            score = self._node(p, depth, alpha, beta, ply + 1)
        else:
            score = -self._node(p, depth - 1, -beta, -alpha, ply + 1)
        p.unmake()
        return score

    def probe(self, key: int, depth: int, alpha: int, beta: int) -> int:
        """The transposition table's score for ``key`` if it settles the window, else :data:`NO_CUTOFF`."""
        return self._probe(key, depth, alpha, beta)

    def store(self, key: int, best: int, original_alpha: int, beta: int, depth: int, best_move: int) -> None:
        """Store a searched node's score in the transposition table (a bound where the window cut it)."""
        self._store(key, best, original_alpha, beta, depth, best_move)

    def node_moves(self, p: SearchPosition, ply: int) -> list[int]:
        """The moves searched at ``p`` by a multi-process search, the table's best move first."""
        moves = self.root_moves(p)
        known = self.known_move(p.hash)
        if known in moves and moves[0] != known:
            moves.remove(known)
            moves.insert(0, known)
        return moves

    def repeated(self, p: SearchPosition, ply: int) -> bool:
        """Whether the negamax scores ``p``, ``ply`` plies into the search, as a repetition draw without searching
        it."""
        return bool(p.seen.get(p.hash, 0) >= 2)

    def _tick(self) -> int:
        """Counts a node; raises :class:`SearchTimeout` past the deadline or when :attr:`stop` says so (both checked
        every 256 nodes compiled, 16 in plain Python). Returns 0: an int result lets the compiled build pass the
        exception on."""
        self.nodes += 1
        if self.nodes & _TICK_MASK == 0:
            if time.perf_counter() > self.deadline:
                raise SearchTimeout
            if self.stop is not None and self.stop():
                raise SearchTimeout
        return 0

    def _draw(self, ply: int) -> int:
        """A draw's score for the side to move at game ply ``ply``."""
        return self.draw_score if ply & 1 == self.root_side else -self.draw_score

    def _ended(self, status: int, ply: int, depth_ply: int) -> int:
        """The score of a finished game (``status`` at or above ``DRAW``) for the side to move at game ply
        ``ply``, ``depth_ply`` plies into the search (nearer wins score higher)."""
        if status == _DRAW:
            return self._draw(ply)
        winner = 0 if status == _FIRST_WINS else 1
        return _WIN - depth_ply if winner == ply & 1 else depth_ply - _WIN

    def _probe(self, key: int, depth: int, alpha: int, beta: int) -> int:
        """The stored score of position ``key`` if it settles a ``depth`` search in the window, else ``NO_CUTOFF``;
        leaves the stored best move (0 if none) in ``_tt_move``."""
        score = self.tt.probe(key, depth, alpha, beta)
        self._tt_move = self.tt.move
        return score

    def _store(self, key: int, best: int, original_alpha: int, beta: int, depth: int, best_move: int) -> None:
        """Stores a searched node's score, as a bound where the window cut it."""
        self.tt.store(key, best, original_alpha, beta, depth, best_move)

    def _add_history(self, index: int, amount: int) -> None:
        """Raise the history score of entry ``index`` (a move that cut the search off)."""
        if self._history[index] == 0:
            self._touched.append(index)
        self._history[index] += amount

    def _add_sort_key(self, i: int, k: int) -> None:
        """Give move ``i`` (counting from 0 in each sort) of the list being ordered the sort key ``k``, higher first;
        :meth:`_apply_sort` ends the sort. Equal keys keep the list's order."""
        # the move's index in the low bits: earlier moves win ties
        key = k << _INDEX_BITS | (_INDEX_MASK - i)
        if _C_SORT:
            # compiled: a stable insertion sort over C ints beats boxing keys for list.sort
            keys = self._sort_keys  # type: ignore[attr-defined]
            j = i
            while j > 0 and keys[j - 1] < key:
                keys[j] = keys[j - 1]
                j -= 1
            keys[j] = key
        else:
            if i == 0:
                self._keyed.clear()
            self._keyed.append(key)

    def _apply_sort(self, moves: list[int], original: list[int]) -> None:
        """Write ``original`` (the list the keys were given for) into ``moves`` in the order of its keys."""
        if _C_SORT:
            keys = self._sort_keys  # type: ignore[attr-defined]
            for i in range(len(original)):
                moves[i] = original[_INDEX_MASK - (keys[i] & _INDEX_MASK)]
        else:
            self._keyed.sort(reverse=True)
            for i in range(len(original)):
                moves[i] = original[_INDEX_MASK - (self._keyed[i] & _INDEX_MASK)]

    def known_move(self, key: int) -> int:
        """The best move stored for the position with hash ``key`` by earlier searches, or -1."""
        return self.tt.known_move(key)

    def root_moves(self, p: SearchPosition) -> list[int]:
        """The moves searched at the root: all legal moves unless a game's searcher narrows them."""
        return p.generate()

    def evaluate(self, p: SearchPosition) -> int:
        """Score ``p`` from the side to move's point of view (``WIN`` bounds a won game)."""
        raise NotImplementedError


_COMPILED = is_compiled(SearchBase.search_codes)
_C_SORT = _COMPILED
# the clock is read every 256 nodes, or every 16 in plain Python, whose nodes take some 20 times longer: either way
# a search ends within a millisecond or so of its deadline
_TICK_MASK = 255 if _COMPILED else 15
# C copies (see framework.pxd) of the constants used above.
_WIN = WIN
_DRAW = DRAW
_FIRST_WINS = FIRST_WINS
