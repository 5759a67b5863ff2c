"""The hot core, first half: the pieces on the grid, make/unmake, Zobrist hashing and the hive's cut points.

Two keys follow the position. :attr:`State.hash` tells every piece apart (``wA1`` from ``wA2``) and the piece
moved last: the search's table and the move caches, whose moves name pieces, use it. :attr:`State.key` is the
position as it stands on the table, which the repetition draw counts: the kinds and colours of the pieces on their
cells and stacks, the side to move, and the cell of the piece moved last only where that changes the legal moves
(the Pillbug's rule); piece numbers play no part, so two Soldier Ants that swapped cells leave the same key.
Without the repetition draw nothing counts repetitions exactly (the search only shuns a return to one of the game's
earlier positions), and the key leaves the piece moved last out rather than ask at every move whether it counts.

With the draw on, :meth:`State.make` counts the new key's occurrences by scanning the keys of the game's line back
to its last placement, as chess engines scan back to the last capture or pawn move: a placement is irreversible
(pieces never leave the table), so no position before it can return. The keys are those the undo table keeps: no
dictionary, no boxed int.

Move generation is the second half (:class:`hive.games.hive.position.Position`, a subclass). Everything here is
written in a plain typed subset of Python (ints, lists, small methods) that runs as it is and that Cython compiles
with the C types declared in ``state.pxd``. State and tables are built with :func:`hive._build.table`: C-typed
arrays in the compiled build, lists in plain Python.

A move is an ``int``: ``piece | origin << 5 | destination << 16`` where ``origin`` is ``HAND`` for a placement;
``PASS`` is the pass move.
"""

from __future__ import annotations

from collections.abc import MutableSequence

from ..._build import filled, flattened, is_compiled, table
from ...game import DRAW, FIRST_WINS, IN_PROGRESS, NOT_STARTED, SECOND_WINS
from .geometry import CELLS, NEIGHBOUR, OCCUPIED_DIRS, OPPOSITE
from .keys import KEY_LEVELS, occupancy_keys, table_keys, zobrist_keys
from .pieces import (
    KIND,
    KINDS,
    MOSQUITO,
    PIECES,
    PIECES_PER_COLOUR,
    PILLBUG,
    GameType,
)

HAND = CELLS
PASS = 31
ORIGIN_CELL = 0

WHITE_WINS = FIRST_WINS
BLACK_WINS = SECOND_WINS
#: The UHP names of the status codes.
STATE_NAMES = ("NotStarted", "InProgress", "Draw", "WhiteWins", "BlackWins")

MAX_LEVEL = KEY_LEVELS


def encode(piece: int, origin: int, destination: int) -> int:
    """Pack a move into an int (``origin`` is ``HAND`` for a placement)."""
    return piece | origin << 5 | destination << 16


def piece_of(move: int) -> int:
    """The piece id of an int move (``PASS`` for the pass)."""
    return move & 31


def origin_of(move: int) -> int:
    """The cell an int move leaves: ``HAND`` for a placement (0 for the pass)."""
    return move >> 5 & 2047


def destination_of(move: int) -> int:
    """The cell an int move ends on (0 for the pass)."""
    return move >> 16


ZOBRIST_CELL, ZOBRIST_LEVEL, ZOBRIST_LAST, ZOBRIST_BLACK = zobrist_keys()
TABLE_CELL, TABLE_LEVEL, TABLE_CELL_LEVEL, TABLE_LAST = table_keys()

#: Whether this module runs compiled (its ``.pxd`` types apply) or as plain Python.
COMPILED: bool = is_compiled(encode)

# C-typed copies (see state.pxd) of the tables and constants used in the inner loops; plain
# lists and ints when running as Python.
_NB = table("i", NEIGHBOUR, COMPILED)
_KIND = table("b", KIND, COMPILED)
_ZCELL = table("Q", ZOBRIST_CELL, COMPILED)
_ZLEVEL = table("Q", ZOBRIST_LEVEL, COMPILED)
_ZLAST = table("Q", ZOBRIST_LAST, COMPILED)
_ZBLACK = ZOBRIST_BLACK
_TCELL = table("Q", TABLE_CELL, COMPILED)
_TLEVEL = table("Q", TABLE_LEVEL, COMPILED)
_TCELL_LEVEL = table("Q", TABLE_CELL_LEVEL, COMPILED)
_TLAST = table("Q", TABLE_LAST, COMPILED)
#: White's Pillbug and Mosquito (Black's are PIECES_PER_COLOUR further).
_PILLBUG_PID = KIND.index(PILLBUG)
_MOSQUITO_PID = KIND.index(MOSQUITO)
#: ``_OPP_BIT[d]``: the neighbour-mask bit, seen from the neighbour in direction d, of the cell itself.
_OPP_BIT = table("B", [1 << OPPOSITE[d] for d in range(6)], COMPILED)
# OCCUPIED_DIRS flattened: row ``m`` holds ``_OCC_N[m]`` directions from ``_OCC_D[6 * m]``.
_OCC_N, _OCC_D = flattened(OCCUPIED_DIRS, COMPILED)
# a key per cell for the hash of the occupied cells
_ZOCC = table("Q", occupancy_keys(), COMPILED)
_HAND = HAND
_PASS = PASS
_WHITE_WINS = WHITE_WINS
_BLACK_WINS = BLACK_WINS
_MAX_LEVEL = MAX_LEVEL
_COMPILED = COMPILED


def _ints(code: str, size: int, value: int = 0) -> MutableSequence[int]:
    return filled(code, size, COMPILED, value)


class CutCache:
    """The cut cells of hives already met, by a hash of their occupied cells (:attr:`State.occupancy`), in a table
    of ``1 << bits`` slots that a newer hive overwrites.

    A search meets far fewer hive shapes than positions (a move on top of the hive, or pieces swapping places, keep
    the shape): a searcher lends its cache to the position it searches (:attr:`State.cut_cache`).
    """

    def __init__(self, bits: int = 14) -> None:
        size = 1 << bits
        self.mask = size - 1
        # slot 0 starts as the empty hive's (key 0, no cut cells): every slot is valid from the start
        self.keys = _ints("Q", size)
        self.counts = _ints("b", size)
        self.cells = _ints("h", size * PIECES)


class State:
    """Pieces on the grid, whose turn it is, and the history needed to undo.

    ``top``, ``height``, ``nmask``, ``below``, ``pos`` and ``placed`` are indexable int sequences
    (lists in plain Python, C arrays in the compiled build): read them, never write them.
    """

    def __init__(self, game_type: GameType, tournament_opening: bool = True, repetition_draw: bool = False) -> None:
        self.game_type = game_type
        self.tournament_opening = tournament_opening
        self.repetition_draw = repetition_draw
        self.enabled = table("B", [game_type.enabled(k) for k in range(KINDS)], COMPILED)
        self.top = _ints("b", CELLS, -1)
        self.height = _ints("B", CELLS)
        self.nmask = _ints("B", CELLS)
        self.below = _ints("b", PIECES, -1)
        self.pos = _ints("h", PIECES, -1)
        self.placed = _ints("B", 2 * KINDS)
        self.ply = 0
        self.last = -1
        self.hash = 0
        # the position as it stands on the table (see the module's notes), and its part that the bugs make
        self.key = 0
        self._bugs = 0
        self.status = NOT_STARTED
        self.history: list[int] = []
        #: How many times the position (its :attr:`key`) has stood on the table in the game, this time included:
        #: counted with the repetition draw on (the third time is a draw), 1 with it off.
        self.repetitions = 1
        # the ply of the earliest position the current one can repeat: the one after the last placement
        self._since = 0
        # What make() overwrites, indexed by the ply of the move: last piece moved, hash, key (the keys of the
        # game's line, which the repetitions count), bugs' key, status, repetitions, the ply after the last placement.
        self._undo_last = _ints("b", 64)
        self._undo_hash = _ints("Q", 64)
        self._undo_key = _ints("Q", 64)
        self._undo_bugs = _ints("Q", 64)
        self._undo_status = _ints("B", 64)
        self._undo_repetitions = _ints("i", 64)
        self._undo_since = _ints("i", 64)
        # Scratch arrays of the articulation-point pass, stamped so that they never need clearing: discovery
        # numbers and cut marks.
        self.cut_mark = _ints("q", CELLS)
        self._disc = _ints("q", CELLS)
        self._stamp = 0
        self._counter = 0
        # a hash of the occupied cells alone, and where a search keeps the cut cells of the hives it has met
        self.occupancy = 0
        self.cut_cache: CutCache | None = None

    # ------------------------------------------------------------------
    # make / unmake

    def _lift(self, pid: int, cell: int) -> None:
        under = self.below[pid]
        self.top[cell] = under
        self.below[pid] = -1
        self.height[cell] -= 1
        if under < 0:
            self._unmask(cell)

    def _drop(self, pid: int, cell: int) -> None:
        under = self.top[cell]
        self.below[pid] = under
        self.top[cell] = pid
        self.pos[pid] = cell
        self.height[cell] += 1
        if under < 0:
            self._remask(cell)

    def _unmask(self, cell: int) -> None:
        """Clear ``cell``'s bit in its neighbours' masks (the cell becomes empty)."""
        base = cell * 6
        for d in range(6):
            self.nmask[_NB[base + d]] &= ~_OPP_BIT[d]
        self.occupancy ^= _ZOCC[cell]

    def _remask(self, cell: int) -> None:
        """Set ``cell``'s bit in its neighbours' masks (the cell becomes occupied)."""
        base = cell * 6
        for d in range(6):
            self.nmask[_NB[base + d]] |= _OPP_BIT[d]
        self.occupancy ^= _ZOCC[cell]

    def _grow_undo(self) -> None:
        size = len(self._undo_hash)
        undo_last = _ints("b", 2 * size)
        undo_hash = _ints("Q", 2 * size)
        undo_key = _ints("Q", 2 * size)
        undo_bugs = _ints("Q", 2 * size)
        undo_status = _ints("B", 2 * size)
        undo_repetitions = _ints("i", 2 * size)
        undo_since = _ints("i", 2 * size)
        undo_last[:size] = self._undo_last
        undo_hash[:size] = self._undo_hash
        undo_key[:size] = self._undo_key
        undo_bugs[:size] = self._undo_bugs
        undo_status[:size] = self._undo_status
        undo_repetitions[:size] = self._undo_repetitions
        undo_since[:size] = self._undo_since
        self._undo_last = undo_last
        self._undo_hash = undo_hash
        self._undo_key = undo_key
        self._undo_bugs = undo_bugs
        self._undo_status = undo_status
        self._undo_repetitions = undo_repetitions
        self._undo_since = undo_since

    def _fits(self, move: int) -> bool:
        """Whether ``move`` keeps the tables in bounds: its piece, cells and stack in range, a placed piece taken
        from the top of its own cell, a piece from hand not on the board."""
        pid = move & 31
        src = move >> 5 & 2047
        dst = move >> 16
        if move < 0 or pid >= PIECES or dst >= CELLS or self.height[dst] >= _MAX_LEVEL - 1:
            return False
        if src == _HAND:
            return self.pos[pid] < 0
        return src < CELLS and self.pos[pid] == src and self.top[src] == pid

    def make(self, move: int) -> None:
        """Play a move given as an int (a code of :meth:`generate`), without checking it against the rules.

        :raises ValueError: for a code that would take the tables out of bounds (a piece, cell or stack out of
            range, or a piece moved from where it is not on top).
        """
        if move != _PASS and not self._fits(move):
            raise ValueError(f"Move code {move} does not fit this position: make() takes the codes of generate().")
        h = self.hash
        ply = self.ply
        if ply == len(self._undo_hash):
            self._grow_undo()
        last = self.last
        bugs = self._bugs
        self._undo_last[ply] = last
        self._undo_hash[ply] = h
        self._undo_key[ply] = self.key
        self._undo_bugs[ply] = bugs
        self._undo_status[ply] = self.status
        self._undo_repetitions[ply] = self.repetitions
        self._undo_since[ply] = self._since
        self.history.append(move)
        if last >= 0:
            h ^= _ZLAST[last]
        if move == _PASS:
            self.last = -1
        else:
            pid = move & 31
            src = move >> 5 & 2047
            dst = move >> 16
            bug = (pid >= PIECES_PER_COLOUR) * KINDS + _KIND[pid]
            if src == _HAND:
                self.placed[bug] += 1
                self._since = ply + 1
            else:
                h ^= _ZCELL[pid * CELLS + src] ^ _ZLEVEL[pid * _MAX_LEVEL + self.height[src] - 1]
                bugs ^= self._bug_key(bug, src, self.height[src] - 1)
                self._lift(pid, src)
            h ^= _ZCELL[pid * CELLS + dst] ^ _ZLEVEL[pid * _MAX_LEVEL + self.height[dst]]
            bugs ^= self._bug_key(bug, dst, self.height[dst])
            self._drop(pid, dst)
            self.last = pid
            h ^= _ZLAST[pid]
        self.ply = ply + 1
        h ^= _ZBLACK
        self.hash = h
        self._bugs = bugs
        key = bugs ^ _ZBLACK if self.ply & 1 else bugs
        if self.repetition_draw and self.last >= 0 and self._last_matters():
            key ^= _TLAST[self.pos[self.last]]
        self.key = key
        self.status = self._outcome()
        if self.repetition_draw:
            count = self._occurrences(key)
            self.repetitions = count
            if count >= 3 and self.status == IN_PROGRESS:
                self.status = DRAW

    def make_null(self) -> None:
        """The search's null move: the side to move passes whatever its moves (:meth:`make` of ``PASS``, taken back
        by :meth:`unmake`), and no position before the pass counts for the repetitions after it, as none does
        before a placement: a line through a pass the rules did not allow is not the game's line.
        """
        self.make(_PASS)
        self._since = self.ply
        self.repetitions = 1
        self.status = self._outcome()

    def _occurrences(self, key: int) -> int:
        """How many times ``key``, the position just reached, has stood on the table since the last placement, this
        time included: the keys of the earlier positions with the same side to move, scanned back."""
        count = 1
        ply = self.ply - 2
        while ply >= self._since:
            if self._undo_key[ply] == key:
                count += 1
            ply -= 2
        return count

    def _bug_key(self, bug: int, cell: int, level: int) -> int:
        """The key of ``bug`` (colour and kind) on ``cell`` at ``level`` (0 on the ground)."""
        if level == 0:
            return _TCELL[bug * CELLS + cell]
        return _TCELL[bug * CELLS + cell] ^ _TLEVEL[bug * _MAX_LEVEL + level] ^ _TCELL_LEVEL[level * CELLS + cell]

    def _last_matters(self) -> bool:
        """Whether the piece moved last changes the legal moves of the side to move: it is that side's own (a
        Pillbug threw it, and it may not move this turn), or it stands alone beside that side's Pillbug, or
        beside that side's Mosquito alone on the ground touching a Pillbug (which may not throw it)."""
        last = self.last
        mover = self.ply & 1
        if (last >= PIECES_PER_COLOUR) == mover:
            return True
        cell = self.pos[last]
        if self.height[cell] != 1:
            return False
        own = mover * PIECES_PER_COLOUR
        if self._beside(self.pos[own + _PILLBUG_PID], cell):
            return True
        mosquito = self.pos[own + _MOSQUITO_PID]
        return (
            self._beside(mosquito, cell)
            and self.height[mosquito] == 1
            and (
                self._beside(self.pos[_PILLBUG_PID], mosquito)
                or self._beside(self.pos[PIECES_PER_COLOUR + _PILLBUG_PID], mosquito)
            )
        )

    def _beside(self, a: int, b: int) -> bool:
        """Whether cells ``a`` (-1: a piece in hand) and ``b`` are neighbours."""
        if a < 0:
            return False
        base = a * 6
        for d in range(6):  # noqa: SIM110 (a C loop compiled; any() would build a generator)
            if _NB[base + d] == b:
                return True
        return False

    def earlier_keys(self) -> set[int]:
        """The :attr:`key` of each position the game had before this one (since its start)."""
        return {self._undo_key[ply] for ply in range(self.ply - len(self.history), self.ply)}

    @property
    def seen(self) -> dict[int, int]:
        """How many times each :attr:`key` has stood on the table in the game (since its start, or its set-up), this
        position included: a new dict, counted from the game's line (the repetition draw counts those of the
        current position, :attr:`repetitions`)."""
        counts: dict[int, int] = {}
        for ply in range(self.ply - len(self.history), self.ply):
            key = self._undo_key[ply]
            counts[key] = counts.get(key, 0) + 1
        counts[self.key] = counts.get(self.key, 0) + 1
        return counts

    def start_line(self) -> None:
        """Make this position the first of the game's line (a position set up without its moves): no moves to take
        back, and no earlier position for it to repeat."""
        self.history = []
        self.repetitions = 1
        self._since = self.ply

    def unmake(self) -> int:
        """Take back the last move and return it."""
        move = self.history.pop()
        ply = self.ply - 1
        self.ply = ply
        self.last = self._undo_last[ply]
        self.hash = self._undo_hash[ply]
        self.key = self._undo_key[ply]
        self._bugs = self._undo_bugs[ply]
        self.status = self._undo_status[ply]
        self.repetitions = self._undo_repetitions[ply]
        self._since = self._undo_since[ply]
        if move != _PASS:
            pid = move & 31
            src = move >> 5 & 2047
            dst = move >> 16
            self._lift(pid, dst)
            if src == _HAND:
                self.pos[pid] = -1
                self.placed[(pid >= PIECES_PER_COLOUR) * KINDS + _KIND[pid]] -= 1
            else:
                self._drop(pid, src)
        return move

    def _outcome(self) -> int:
        wq = self.pos[0]
        bq = self.pos[PIECES_PER_COLOUR]
        white_lost = wq >= 0 and self.nmask[wq] == 63
        black_lost = bq >= 0 and self.nmask[bq] == 63
        if white_lost:
            return DRAW if black_lost else _BLACK_WINS
        if black_lost:
            return _WHITE_WINS
        return IN_PROGRESS

    def _level(self, pid: int) -> int:
        """How many pieces lie under ``pid`` (0 on the ground)."""
        level = 0
        under = self.below[pid]
        while under >= 0:
            level += 1
            under = self.below[under]
        return level

    def compute_hash(self) -> int:
        """Compute the Zobrist hash from scratch (the incremental one must equal it)."""
        h = 0
        for pid in range(PIECES):
            cell = self.pos[pid]
            if cell < 0:
                continue
            h ^= ZOBRIST_CELL[pid * CELLS + cell] ^ ZOBRIST_LEVEL[pid * _MAX_LEVEL + self._level(pid)]
        if self.last >= 0:
            h ^= ZOBRIST_LAST[self.last]
        if self.ply & 1:
            h ^= ZOBRIST_BLACK
        return h

    def compute_key(self) -> int:
        """Compute :attr:`key` from scratch (the incremental one must equal it)."""
        return self._scratch_key()[0]

    def reset_key(self) -> None:
        """Set :attr:`key` from scratch (a position set up without its moves)."""
        self.key, self._bugs = self._scratch_key()

    def _scratch_key(self) -> tuple[int, int]:
        bugs = 0
        for pid in range(PIECES):
            cell = self.pos[pid]
            if cell < 0:
                continue
            bugs ^= self._bug_key((pid >= PIECES_PER_COLOUR) * KINDS + KIND[pid], cell, self._level(pid))
        key = bugs ^ ZOBRIST_BLACK if self.ply & 1 else bugs
        if self.repetition_draw and self.last >= 0 and self._last_matters():
            key ^= TABLE_LAST[self.pos[self.last]]
        return key, bugs

    # ------------------------------------------------------------------
    # the hive's cut points

    def cut_cells(self) -> set[int]:
        """Occupied cells whose removal would split the hive (articulation points)."""
        stamp = self.find_cuts()
        return {cell for cell in self.pos if cell >= 0 and self.cut_mark[cell] == stamp}

    def find_cuts(self) -> int:
        """Find the articulation points in one Tarjan pass and return its stamp ``s``.

        Until the position changes, an occupied cell splits the hive when removed iff ``cut_mark[cell] == s``.
        """
        # Numbers above ``_stamp`` belong to this pass: no clearing between passes.
        self._stamp = self._counter + 1
        self._counter = self._stamp
        cache = self.cut_cache
        if cache is not None and self._cached_cuts(cache):
            return self._stamp
        start = self._first_cell()
        if self.height[start]:
            self._visit(start, -1)
        if cache is not None:
            self._cache_cuts(cache)
        return self._stamp

    def _cached_cuts(self, cache: CutCache) -> bool:
        """Mark this pass's cut cells from ``cache`` if it holds this hive's: they depend on the occupied cells
        alone."""
        key = self.occupancy
        slot = key & cache.mask
        if cache.keys[slot] != key:
            return False
        base = slot * PIECES
        for i in range(cache.counts[slot]):
            self.cut_mark[cache.cells[base + i]] = self._stamp
        return True

    def _cache_cuts(self, cache: CutCache) -> None:
        """Keep this pass's cut cells in ``cache``, in the slot of this hive."""
        key = self.occupancy
        slot = key & cache.mask
        base = slot * PIECES
        count = 0
        for pid in range(PIECES):
            cell = self.pos[pid]
            if cell >= 0 and self.top[cell] == pid and self.cut_mark[cell] == self._stamp:
                cache.cells[base + count] = cell
                count += 1
        cache.keys[slot] = key
        cache.counts[slot] = count

    def _visit(self, v: int, parent: int) -> int:
        self._counter += 1
        dv = self._counter
        self._disc[v] = dv
        low = dv
        children = 0
        stamp = self._stamp
        base = v * 6
        m = self.nmask[v]
        row = 6 * m
        for i in range(_OCC_N[m]):
            w = _NB[base + _OCC_D[row + i]]
            dw = self._disc[w]
            if dw > stamp:
                if dw < low and w != parent:
                    low = dw
            else:
                lw = self._visit(w, v)
                if lw < low:
                    low = lw
                if lw >= dv and parent >= 0:
                    self.cut_mark[v] = stamp
                children += 1
        if parent < 0 and children > 1:
            self.cut_mark[v] = stamp
        return low

    def _first_cell(self) -> int:
        for pid in range(PIECES):
            if self.pos[pid] >= 0:
                return self.pos[pid]
        return ORIGIN_CELL
