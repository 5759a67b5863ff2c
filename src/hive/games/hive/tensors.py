"""The hot part of Hive's RL encoding: observation planes, action masks and legal action ids written into kept arrays.

:mod:`hive.games.hive.encoding` describes the window, the actions and the planes; this module writes them, with
the C types of ``tensors.pxd`` when compiled (plain typed Python otherwise, as the rest of the core). Each writer
owns arrays it is given once and rewrites them in place for every position: it remembers the cells it set and
clears only those, so a move costs the few dozen values it changes rather than a new array of 49,152 planes'
values or 28,673 mask entries. A writer skips a position it wrote last (the same hash and ply), so reading twice
costs nothing.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._build import filled, is_compiled, table
from .geometry import CELLS, MASK, SHIFT, SIZE
from .pieces import BUG_COUNT, KINDS, PIECES, PIECES_PER_COLOUR
from .position import HAND, MOVE_BUFFER, PASS, Position

WINDOW = SIZE
AREA = CELLS
SIDE = PIECES_PER_COLOUR
PASS_ACTION = PIECES * AREA
ACTIONS = PASS_ACTION + 1
OWN, OPPONENT, HEIGHT, LAST = 0, SIDE, 2 * SIDE, 2 * SIDE + 1
HAND_OWN = LAST + 1
HAND_OPPONENT = HAND_OWN + KINDS
TO_ACT = HAND_OPPONENT + KINDS
FIRST = TO_ACT + 1
PLANES = FIRST + 1
#: The planes written whole (a count or a flag over the window): the hands, the one to act, the first player.
WHOLE = PLANES - HAND_OWN
_MIDDLE = WINDOW // 2
_FULL = (1 << WINDOW) - 1
_ROWS = MASK << SHIFT
# what one position sets in the piece, height and last-piece planes: a piece and its cell's height each, the last
_WRITTEN = 2 * PIECES + 1


def _corner(bits: int) -> int:
    """The first window column (row) for a hive whose cells have the ``q`` (``r``) values set in ``bits``: the
    values of a connected hive are one run around the grid, whose middle goes to the window's middle."""
    if bits == 0:
        return -_MIDDLE & MASK
    low = -1
    count = 0
    for i in range(_WINDOW):
        if bits >> i & 1:
            count += 1
            if not bits >> ((i + _WINDOW - 1) & MASK) & 1:
                low = i  # the run starts here: the value before it is empty
    return (low + (count - 1) // 2 - _MIDDLE) & MASK


def _corner_of(bits: int) -> int:
    """:func:`_corner` with Python's int methods, the faster way for the plain Python build."""
    if not bits:
        return -_MIDDLE & MASK
    previous = ((bits << 1) | (bits >> (_WINDOW - 1))) & _FULL
    low = (bits & ~previous).bit_length() - 1
    return (low + (bits.bit_count() - 1) // 2 - _MIDDLE) & MASK


def origin(board: Position) -> int:
    """The cell in the window's first row and column for ``board``'s hive (see the encoding's window)."""
    if not _COMPILED:
        qs_ = rs_ = 0
        for pid_ in range(PIECES):
            cell_ = board.pos[pid_]
            if cell_ >= 0:
                qs_ |= 1 << (cell_ & MASK)
                rs_ |= 1 << (cell_ >> SHIFT)
        return _corner_of(qs_) | _corner_of(rs_) << SHIFT
    qs = 0
    rs = 0
    one = 1
    for pid in range(PIECES):
        cell = board.pos[pid]
        if cell >= 0:
            qs |= one << (cell & MASK)
            rs |= one << (cell >> SHIFT)
    return _corner(qs) | _corner(rs) << SHIFT


def action_code(board: Position, corner: int, action: int) -> int:
    """The core's int move that ``action`` names on ``board`` with the window at ``corner`` (legal or not)."""
    if action == _PASS_ACTION:
        return _PASS
    q0 = corner & MASK
    r0 = corner & _ROWS
    where = action % _AREA
    pid = (action // _AREA + _SIDE * (board.ply & 1)) % PIECES
    cell = ((where + q0) & MASK) | ((where + r0) & _ROWS)
    src = board.pos[pid]
    if src < 0:
        src = _HAND
    return pid | src << 5 | cell << 16


def action_of(board: Position, corner: int, code: int) -> int:
    """The action of the core's int move ``code`` on ``board`` with the window at ``corner``."""
    if code == _PASS:
        return _PASS_ACTION
    q0 = corner & MASK
    r0 = corner & _ROWS
    cell = code >> 16
    piece = ((code & 31) + _SIDE * (board.ply & 1)) % PIECES
    return piece * _AREA + (((cell - q0) & MASK) | ((cell - r0) & _ROWS))


class PlaneWriter:
    """Writes a position's planes, as one seat sees them, into ``out``: a C-contiguous uint8 array of
    ``PLANES * AREA`` values (a view of the ``(PLANES, WINDOW, WINDOW)`` observation), zero when given."""

    def __init__(self, out: Any) -> None:
        self.array = out
        self._out = out.reshape(-1)
        self._written = filled("i", _WRITTEN, _COMPILED)
        self._count = 0
        self._shown = filled("i", _WHOLE, _COMPILED, -1)
        self._cleared = np.zeros(0, np.intp)
        self._hash = 0
        self._ply = -1
        self._seat = -1

    def write(self, board: Position, seat: int, corner: int) -> None:
        """The planes of ``board`` for ``seat`` (0 the first player) with the window at ``corner``."""
        if board.ply == self._ply and board.hash == self._hash and seat == self._seat:
            return
        if not _COMPILED:
            self._write_arrays(board, seat, corner)
            return
        q0 = corner & MASK
        r0 = corner & _ROWS
        out = self._out
        for i in range(self._count):
            out[self._written[i]] = 0
        n = 0
        for pid in range(PIECES):
            cell = board.pos[pid]
            if cell < 0:
                continue
            at = ((cell - q0) & MASK) | ((cell - r0) & _ROWS)
            level = 1
            under = board.below[pid]
            while under >= 0:
                level += 1
                under = board.below[under]
            plane = (pid + _SIDE * seat) % PIECES * _AREA + at
            out[plane] = level
            self._written[n] = plane
            height = _HEIGHT * _AREA + at
            if out[height] < level:
                out[height] = level
            self._written[n + 1] = height
            n += 2
        last = board.last
        if last >= 0:
            cell = board.pos[last]
            plane = _LAST * _AREA + (((cell - q0) & MASK) | ((cell - r0) & _ROWS))
            out[plane] = 1
            self._written[n] = plane
            n += 1
        self._count = n
        for i in range(2 * KINDS):
            colour = (i // KINDS + seat) & 1
            kind = i % KINDS
            count = 0
            if board.enabled[kind]:
                count = _BUG_COUNT[kind] - board.placed[colour * KINDS + kind]
            self._show(_HAND_OWN + i, count)
        self._finish(board, seat)

    def _write_arrays(self, board: Position, seat: int, corner: int) -> None:
        """:meth:`write` with NumPy's whole-array steps, the faster way for the plain Python build."""
        q0 = corner & MASK
        r0 = corner & _ROWS
        flat = self.array.reshape(-1)
        flat[self._cleared] = 0
        below = board.below
        where: list[int] = []
        values: list[int] = []
        heights: dict[int, int] = {}
        for pid in range(PIECES):
            cell = board.pos[pid]
            if cell >= 0:
                at = ((cell - q0) & MASK) | ((cell - r0) & _ROWS)
                level = 1
                under = below[pid]
                while under >= 0:
                    level += 1
                    under = below[under]
                where.append((pid + _SIDE * seat) % PIECES * _AREA + at)
                values.append(level)
                if heights.get(_HEIGHT * _AREA + at, 0) < level:
                    heights[_HEIGHT * _AREA + at] = level
        if board.last >= 0:
            cell = board.pos[board.last]
            where.append(_LAST * _AREA + (((cell - q0) & MASK) | ((cell - r0) & _ROWS)))
            values.append(1)
        where += heights
        values += heights.values()
        self._cleared = np.array(where, np.intp)
        flat[self._cleared] = values
        for i in range(2 * KINDS):
            colour = (i // KINDS + seat) & 1
            kind = i % KINDS
            count = 0
            if board.enabled[kind]:
                count = _BUG_COUNT[kind] - board.placed[colour * KINDS + kind]
            self._show(_HAND_OWN + i, count)
        self._finish(board, seat)

    def _finish(self, board: Position, seat: int) -> None:
        """The flag planes, and the position written."""
        self._show(_TO_ACT, 1 if (board.ply & 1) == seat else 0)
        self._show(_FIRST, 1 if seat == 0 else 0)
        self._hash = board.hash
        self._ply = board.ply
        self._seat = seat

    def _show(self, plane: int, value: int) -> None:
        """Fill ``plane`` with ``value`` unless it holds it already."""
        if self._shown[plane - _HAND_OWN] == value:
            return
        self._shown[plane - _HAND_OWN] = value
        if _COMPILED:
            out = self._out
            for i in range(plane * _AREA, plane * _AREA + _AREA):
                out[i] = value
        else:
            self.array.reshape(-1)[plane * _AREA : plane * _AREA + _AREA] = value


class ActionWriter:
    """Writes a position's legal actions into ``mask`` (int8, one entry per action, zero when given) and their ids
    into ``legal`` (int64, room for :data:`~hive.games.hive.position.MOVE_BUFFER`), in the core's move order."""

    def __init__(self, mask: Any, legal: Any) -> None:
        self.mask = mask
        self.legal = legal
        self._mask = mask
        self._legal = legal
        self._set = filled("i", MOVE_BUFFER, _COMPILED)
        self._cleared = legal[:0]
        self._count = 0
        self._hash = 0
        self._ply = -1
        self._status = -1

    @property
    def count(self) -> int:
        """How many actions are legal in the position written last."""
        return self._count

    def write(self, board: Position, corner: int) -> int:
        """The legal actions of ``board``'s side to move with the window at ``corner``; returns how many."""
        if board.ply == self._ply and board.hash == self._hash and board.status == self._status:
            return self._count
        if not _COMPILED:
            return self._write_arrays(board, corner)
        q0 = corner & MASK
        r0 = corner & _ROWS
        mask = self._mask
        for i in range(self._count):
            mask[self._set[i]] = 0
        n = board._keep()
        at = board._kept_at
        base = _SIDE * (board.ply & 1)
        for i in range(n):
            code = board._lists[at + i]
            if code == _PASS:
                action = _PASS_ACTION
            else:
                cell = code >> 16
                action = ((code & 31) + base) % PIECES * _AREA + (((cell - q0) & MASK) | ((cell - r0) & _ROWS))
            mask[action] = 1
            self._set[i] = action
            self._legal[i] = action
        self._count = n
        self._remember(board)
        return n

    def clear(self) -> None:
        """No legal action (a game that ended by a rule the board does not know, such as the move cap)."""
        if _COMPILED:
            for i in range(self._count):
                self._mask[self._set[i]] = 0
        else:
            self.mask[self._cleared] = 0
            self._cleared = self.legal[:0]
        self._count = 0
        self._ply = -1

    def _write_arrays(self, board: Position, corner: int) -> int:
        """:meth:`write` with NumPy's whole-array steps, the faster way for the plain Python build."""
        self.mask[self._cleared] = 0
        q0 = corner & MASK
        r0 = corner & _ROWS
        codes = np.array(board.legal_codes(), np.int64)
        n = len(codes)
        if n == 1 and codes[0] == _PASS:
            self.legal[0] = _PASS_ACTION
        elif n:
            cells = codes >> 16
            pieces = ((codes & 31) + _SIDE * (board.ply & 1)) % PIECES
            self.legal[:n] = pieces * _AREA + (((cells - q0) & MASK) | ((cells - r0) & _ROWS))
        self._cleared = self.legal[:n].copy()
        self.mask[self._cleared] = 1
        self._count = n
        self._remember(board)
        return n

    def _remember(self, board: Position) -> None:
        self._hash = board.hash
        self._ply = board.ply
        self._status = board.status


#: Whether this module runs compiled (its ``.pxd`` types apply) or as plain Python.
COMPILED: bool = is_compiled(origin)
_COMPILED = COMPILED
_BUG_COUNT = table("b", BUG_COUNT, COMPILED)
_WINDOW, _AREA, _SIDE, _PASS_ACTION = WINDOW, AREA, SIDE, PASS_ACTION
_HEIGHT, _LAST, _HAND_OWN, _TO_ACT, _FIRST, _WHOLE = HEIGHT, LAST, HAND_OWN, TO_ACT, FIRST, WHOLE
_HAND, _PASS = HAND, PASS

__all__ = [
    "ACTIONS",
    "AREA",
    "COMPILED",
    "PASS_ACTION",
    "PLANES",
    "WINDOW",
    "ActionWriter",
    "PlaneWriter",
    "action_code",
    "action_of",
    "origin",
]
