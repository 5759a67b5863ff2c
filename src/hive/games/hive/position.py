"""The hot core, second half: a position's legal moves as ints, and perft.

A :class:`Position` is a :class:`~hive.games.hive.state.State` that lists its legal int moves: placements, each
bug's movements, the Pillbug's throws. A move is an ``int``: ``piece | origin << 5 | destination << 16`` where
``origin`` is ``HAND`` for a placement; ``PASS`` is the pass move (see :mod:`hive.games.hive.state`). Plain typed
Python that Cython compiles with the C types declared in ``position.pxd``; the scratch arrays are stamped so that
they never need clearing.
"""

from __future__ import annotations

from collections.abc import MutableSequence

from ..._build import filled, is_compiled, table
from ...game import DRAW
from .geometry import CELLS, NEIGHBOUR
from .movers import Movers
from .pieces import (
    BUG_COUNT,
    BUG_FIRST,
    KIND,
    KINDS,
    MOSQUITO,
    PIECES,
    PIECES_PER_COLOUR,
    PILLBUG,
    QUEEN,
    GameType,
)
from .state import (
    BLACK_WINS,
    HAND,
    ORIGIN_CELL,
    PASS,
    STATE_NAMES,
    WHITE_WINS,
    destination_of,
    encode,
    origin_of,
    piece_of,
)

__all__ = [
    "BLACK_WINS",
    "COMPILED",
    "HAND",
    "MOVE_BUFFER",
    "ORIGIN_CELL",
    "PASS",
    "STATE_NAMES",
    "WHITE_WINS",
    "Position",
    "destination_of",
    "encode",
    "origin_of",
    "piece_of",
]

#: Room for every move of one position: at most 8 kinds in hand times 84 cells next to 14 own pieces, plus 14
#: pieces times the 196 cells in or around a hive of 28, plus the pillbug's and a mosquito's throws.
MOVE_BUFFER = 4096


class Position(Movers):
    """The state of a game of Hive that generates its legal moves (the base of :class:`hive.Board`)."""

    def __init__(self, game_type: GameType, tournament_opening: bool = True, repetition_draw: bool = False) -> None:
        Movers.__init__(self, game_type, tournament_opening, repetition_draw)
        # moves already listed, placement cells, the moves found
        self._move_mark = _ints("q", PIECES * CELLS)
        self._cells = _ints("h", CELLS)
        self._movebuf = _ints("i", MOVE_BUFFER)
        # The legal moves of one position, kept for the board's checks and lists, and that position's key; and
        # those of the position kept before it, to which a loop over the children returns after each pop. The two
        # lists are the halves of _lists, starting at _kept_at and _spare_at: they change places by their offsets.
        self._lists = _ints("i", 2 * MOVE_BUFFER)
        self._kept_at = 0
        self._kept_n = 0
        self._kept_hash = 0
        self._kept_ply = -1
        self._kept_status = 0
        self._spare_at = MOVE_BUFFER
        self._spare_n = 0
        self._spare_hash = 0
        self._spare_ply = -1
        self._spare_status = 0

    # ------------------------------------------------------------------
    # the kept legal moves: generated once per position for every check and list of the board

    def _keep(self) -> int:
        """Generate the legal moves into the kept list unless it holds this position's already, or the spare one
        does (then the two change places); return how many."""
        if not self._kept_here():
            self._swap_kept()
        if not self._kept_here():
            at = self._kept_at
            if _COMPILED:
                n = self._fill()
                for i in range(n):
                    self._lists[at + i] = self._movebuf[i]
            else:
                n = _put(self._lists, at, self.generate())
            self._kept_n = n
            self._kept_hash = self.hash
            self._kept_ply = self.ply
            self._kept_status = self.status
        return self._kept_n

    def _kept_here(self) -> bool:
        """Whether the kept list holds this position's legal moves."""
        return self.ply == self._kept_ply and self.hash == self._kept_hash and self.status == self._kept_status

    def _swap_kept(self) -> None:
        """Exchange the kept moves with the spare ones, each with its position's key."""
        at = self._kept_at
        self._kept_at = self._spare_at
        self._spare_at = at
        n = self._kept_n
        self._kept_n = self._spare_n
        self._spare_n = n
        key = self._kept_hash
        self._kept_hash = self._spare_hash
        self._spare_hash = key
        ply = self._kept_ply
        self._kept_ply = self._spare_ply
        self._spare_ply = ply
        status = self._kept_status
        self._kept_status = self._spare_status
        self._spare_status = status

    def legal_count(self) -> int:
        """The number of legal moves here (1 for a pass, 0 when the game is over), kept for this position."""
        return self._keep()

    def has_move(self, code: int) -> bool:
        """Whether the int move ``code`` is legal here (checked against the kept legal moves)."""
        n = self._keep()
        at = self._kept_at
        if not _COMPILED:
            return code in _part(self._lists, at, n)
        found = False
        for i in range(at, at + n):
            if self._lists[i] == code:
                found = True
                break
        return found

    def legal_codes(self) -> list[int]:
        """The kept legal moves as ints, in :meth:`generate`'s order (a new list)."""
        n = self._keep()
        at = self._kept_at
        if not _COMPILED:
            return _part(self._lists, at, n)
        moves = [0] * n
        for i in range(n):
            moves[i] = self._lists[at + i]
        return moves

    # ------------------------------------------------------------------
    # generation

    def _placement_cells(self, colour: int) -> int:
        """Write the cells where ``colour`` may place to ``_cells``; return how many there are."""
        if self.ply == 0:
            self._cells[0] = ORIGIN_CELL
            return 1
        if self.ply == 1:
            base = self._first_cell() * 6
            for d in range(6):
                self._cells[d] = _NB[base + d]
            return 6
        self._mark_stamp += 1
        stamp = self._mark_stamp
        own_lo = colour * PIECES_PER_COLOUR
        other_lo = PIECES_PER_COLOUR - own_lo
        for pid in range(other_lo, other_lo + PIECES_PER_COLOUR):
            cell = self.pos[pid]
            if cell >= 0 and self.top[cell] == pid:
                base = cell * 6
                for d in range(6):
                    self._mark[_NB[base + d]] = stamp
        count = 0
        for pid in range(own_lo, own_lo + PIECES_PER_COLOUR):
            cell = self.pos[pid]
            if cell >= 0 and self.top[cell] == pid:
                base = cell * 6
                for d in range(6):
                    n = _NB[base + d]
                    if self._mark[n] != stamp and self.height[n] == 0:
                        self._mark[n] = stamp
                        self._cells[count] = n
                        count += 1
        return count

    def generate(self) -> list[int]:
        """Return every legal move of the side to move as ints (``[PASS]`` when none)."""
        n = self._fill()
        if not _COMPILED:
            return list(self._movebuf[:n])  # a list slice copies at C speed; a typed view's slice is not a list
        moves = [0] * n
        for i in range(n):
            moves[i] = self._movebuf[i]
        return moves

    def count_moves(self) -> int:
        """The number of legal moves of the side to move (1 for a pass, 0 when the game is over), generated into
        the core's buffer without making a list (what :meth:`generate` costs before its ints are boxed)."""
        return self._fill()

    def _fill(self) -> int:
        """Write the legal moves to ``_movebuf`` (``PASS`` alone when none) and return how many there are."""
        if self.status >= _DRAW:
            return 0
        n = 0
        colour = self.ply & 1
        own_lo = colour * PIECES_PER_COLOUR
        turn = self.ply >> 1
        queen_placed = self.pos[own_lo] >= 0
        # placements
        kinds_base = colour * KINDS
        cells = 0
        have_cells = False
        for kind in range(KINDS):
            if not self.enabled[kind]:
                continue
            count = self.placed[kinds_base + kind]
            if count >= _BUG_COUNT[kind]:
                continue
            if kind == QUEEN:
                if turn == 0 and self.tournament_opening:
                    continue
            elif turn == 3 and not queen_placed:
                continue
            if not have_cells:
                cells = self._placement_cells(colour)
                have_cells = True
            base = own_lo + _BUG_FIRST[kind] + count | _HAND << 5
            for i in range(cells):
                self._movebuf[n] = base | self._cells[i] << 16
                n += 1
        if queen_placed:
            first = n
            last = self.last
            stamp = self.find_cuts()
            throws = False
            for pid in range(own_lo, own_lo + PIECES_PER_COLOUR):
                cell = self.pos[pid]
                if cell < 0 or self.top[cell] != pid or pid == last:
                    continue
                kind = _KIND[pid]
                ground = self.height[cell] == 1
                if kind == PILLBUG or (kind == MOSQUITO and ground and self._touches_pillbug(cell)):
                    end = self._throws(cell, stamp, n)
                    if end != n:
                        throws = True
                        n = end
                if ground and self.cut_mark[cell] == stamp:
                    continue
                base = pid | cell << 5
                for i in range(self._destinations(kind, cell, 0)):
                    self._movebuf[n] = base | self._dests[i] << 16
                    n += 1
            if throws:
                n = self._unique(first, n)
        if n == 0:
            self._movebuf[0] = _PASS
            return 1
        return n

    def _unique(self, first: int, n: int) -> int:
        """Drop repeats from the movements ``_movebuf[first:n]``, first occurrences kept (a pillbug can throw a piece
        where it could go itself); return the new length.

        A move on the board is fixed by its piece and destination (the origin is where the piece is). The placements
        before ``first`` need no check: they move pieces from hand, the movements pieces on the board.
        """
        self._mark_stamp += 1
        stamp = self._mark_stamp
        out = first
        for i in range(first, n):
            move = self._movebuf[i]
            key = (move & 31) * CELLS + (move >> 16)
            if self._move_mark[key] != stamp:
                self._move_mark[key] = stamp
                self._movebuf[out] = move
                out += 1
        return out

    def _throws(self, cell: int, stamp: int, end: int) -> int:
        """Write the pillbug ability's moves from ``cell`` to ``_movebuf[end:]``; return the new end.

        ``stamp`` is the current articulation-point stamp (see :meth:`find_cuts`).
        """
        last = self.last
        base = cell * 6
        # _around holds the neighbours that can be lifted from the front and the empty directions from the back
        targets = 0
        empties = 0
        for d in range(6):
            n = _NB[base + d]
            h = self.height[n]
            if h == 0:
                empties += 1
                self._around[6 - empties] = d
            elif h == 1:
                t = self.top[n]
                if t != last and self.cut_mark[n] != stamp:
                    # lift from n onto the pillbug: blocked by two flanking stacks of height >= 2
                    hl = self.height[_NB[base + _LEFT[d]]]
                    hr = self.height[_NB[base + _RIGHT[d]]]
                    if hl < 2 or hr < 2:
                        self._around[targets] = n
                        targets += 1
        if targets == 0 or empties == 0:
            return end
        for i in range(targets):
            n = self._around[i]
            t = self.top[n]
            for j in range(5, 5 - empties, -1):
                d = self._around[j]
                hl_cell = _NB[base + _LEFT[d]]
                hr_cell = _NB[base + _RIGHT[d]]
                hl = 0 if hl_cell == n else self.height[hl_cell]
                hr = 0 if hr_cell == n else self.height[hr_cell]
                if hl < 2 or hr < 2:
                    self._movebuf[end] = t | n << 5 | _NB[base + d] << 16
                    end += 1
        return end

    def perft(self, depth: int) -> int:
        """Count the leaves of the legal-move tree ``depth`` plies deep.

        Mzinga's convention: a pass counts as a move, a finished game has none.
        """
        if depth == 0:
            return 1
        if depth == 1:
            return self._fill()
        moves = self.generate()
        total = 0
        for move in moves:
            self.make(move)
            total += self.perft(depth - 1)
            self.unmake()
        return total


def _ints(code: str, size: int, value: int = 0) -> MutableSequence[int]:
    return filled(code, size, COMPILED, value)


def _put(lists: MutableSequence[int], at: int, moves: list[int]) -> int:
    """Write ``moves`` to ``lists`` from ``at`` (the plain build's copy into a kept list); return how many."""
    lists[at : at + len(moves)] = moves
    return len(moves)


def _part(lists: MutableSequence[int], at: int, n: int) -> list[int]:
    """``lists[at : at + n]`` as a new list (the plain build's kept list)."""
    return lists[at : at + n]  # type: ignore[return-value]


#: Whether this module runs compiled (its ``.pxd`` types apply) or as plain Python.
COMPILED: bool = is_compiled(_ints)
_COMPILED = COMPILED
# C-typed tables (see position.pxd), some shared with state.py; plain lists when running as Python.
_NB = table("i", NEIGHBOUR, COMPILED)
_KIND = table("b", KIND, COMPILED)
_BUG_COUNT = table("b", BUG_COUNT, COMPILED)
_BUG_FIRST = table("b", BUG_FIRST, COMPILED)
# Directions (d - 1, d + 1) flanking a step in direction d.
_LEFT = table("b", [(d + 5) % 6 for d in range(6)], COMPILED)
_RIGHT = table("b", [(d + 1) % 6 for d in range(6)], COMPILED)
_HAND = HAND
_PASS = PASS
_DRAW = DRAW
