"""Hive's part of the RL environment, for every game type: actions and planes on a window centred on the hive.

**The window.** Hive's grid is 32 x 32 axial cells that wrap around (:mod:`hive.games.hive.geometry`). A hive of
28 pieces and the cells next to it span at most 30 cells along either axis, so the window is the whole grid,
shifted so that the middle of the hive's extent along ``q`` and along ``r`` falls on window cell ``(16, 16)``: the
hive and every cell a move can reach lie inside the window, never across its edge. Window cell ``(row, col)``,
index ``row * 32 + col``, is the axial cell ``(q0 + col, r0 + row)``; the window follows the hive from one position
to the next (an empty board has the first piece's cell in the middle).

**Actions**, ``Discrete(28673)``: ``piece * 1024 + row * 32 + col`` moves ``piece`` to window cell ``(row, col)``:
placed from hand, moved, or thrown by a Pillbug (or a Mosquito beside one). Pieces are counted from the side to
act: 0-13 are its own, 14-27 the opponent's (only throws move those), each group in UHP order
``Q S1 S2 B1 B2 G1 G2 G3 A1 A2 A3 M L P``. Action ``28672`` is the pass. A piece and a destination name at most one
move (the piece leaves the cell it is on, or its hand), so each legal move is exactly one action.
:meth:`HiveEncoding.decode` gives an action's :class:`~hive.Move`, :meth:`HiveEncoding.encode` a move's action.

**Observation planes**, ``(48, 32, 32)`` uint8 on the window, as the observer (``seat``) sees them:

====== =====================================================================================================
0-13   the observer's pieces, UHP order: 1 + the piece's level on its cell (1 on the ground, 2 on one piece ...)
14-27  the opponent's pieces, the same
28     stack height of each cell (0 when empty)
29     1 on the piece moved last (a Pillbug may not throw it; a piece just thrown may not move)
30-37  the observer's pieces in hand, by bug ``Q S B G A M L P``: the count on the whole plane
38-45  the opponent's pieces in hand, the same
46     all 1 when the observer is to act
47     all 1 when the observer plays White (first)
====== =====================================================================================================

A piece of a bug the game type leaves out is never on the board nor in hand. Not in the planes: the repetition
count (the draw by repetition, when the rule is on) and the number of moves played.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from ...game import Game, IllegalMoveError
from ...sdk.encoding import IllegalActionError, Mask, Planes
from ...sdk.raster import SQRT3, Canvas, hex_centre
from . import Board, Move
from .geometry import MASK, SHIFT, SIZE
from .pieces import BEETLE, BUG_COUNT, BUG_LETTERS, KIND, KINDS, MOSQUITO, PIECE_NAMES, PIECES
from .position import HAND, PASS, encode
from .svg import THEMES
from .svg import board as board_svg

WINDOW = SIZE
AREA = WINDOW * WINDOW
#: Pieces per side (the first 14 of the 28 ids are White's).
SIDE = PIECES // 2
PASS_ACTION = PIECES * AREA
ACTIONS = PASS_ACTION + 1
_MIDDLE = WINDOW // 2
_ROWS = MASK << SHIFT
_FULL = (1 << WINDOW) - 1
# the core's int moves are ``piece | origin << 5 | destination << 16`` (hive.games.hive.state)
_PIECE_BITS = 31
_DESTINATION_SHIFT = 16

OWN, OPPONENT, HEIGHT, LAST = 0, SIDE, 2 * SIDE, 2 * SIDE + 1
HAND_OWN = LAST + 1
HAND_OPPONENT = HAND_OWN + KINDS
TO_ACT = HAND_OPPONENT + KINDS
FIRST = TO_ACT + 1
PLANES = FIRST + 1
#: The most pieces on one cell: one on the ground under every Beetle and Mosquito.
MAX_HEIGHT = 1 + 2 * (BUG_COUNT[BEETLE] + BUG_COUNT[MOSQUITO])

PLANE_NAMES: tuple[str, ...] = (
    *(f"own {name[1:]} (1 + level)" for name in PIECE_NAMES[:SIDE]),
    *(f"opponent's {name[1:]} (1 + level)" for name in PIECE_NAMES[:SIDE]),
    "stack height",
    "piece moved last",
    *(f"own {bug} in hand" for bug in BUG_LETTERS),
    *(f"opponent's {bug} in hand" for bug in BUG_LETTERS),
    "observer to act",
    "observer plays first",
)


def _high() -> Planes:
    high = np.ones((PLANES, WINDOW, WINDOW), np.uint8)
    high[OWN:LAST] = MAX_HEIGHT
    high[HAND_OWN:TO_ACT] = max(BUG_COUNT)
    return high


_HIGH = _high()
# the hand counts ``placed`` keeps (White's bugs, then Black's) in the observer's order
_HAND_ORDER = (tuple(range(2 * KINDS)), tuple(range(KINDS, 2 * KINDS)) + tuple(range(KINDS)))
# ``_PIECE_BASE[side][pid]``: the first action of piece ``pid`` when ``side`` acts (its own pieces first)
_PIECE_BASE = tuple(np.array([(pid + SIDE * side) % PIECES * AREA for pid in range(PIECES)]) for side in (0, 1))
# ``_PLANE_OF[seat][pid]``: where the plane of piece ``pid`` starts in the flattened planes ``seat`` sees
_PLANE_OF = tuple([(pid + SIDE * seat) % PIECES * AREA for pid in range(PIECES)] for seat in (0, 1))
_CELLS = np.arange(AREA)
_HEIGHT_AT, _LAST_AT = HEIGHT * AREA, LAST * AREA


def _listed(values: Sequence[int]) -> list[int]:
    """A core table (a list, or a typed memory view in the compiled build) as a list, read at C speed."""
    listed: list[int] = np.asarray(values).tolist()
    return listed


def _window(q0: int, r0: int) -> NDArray[np.intp]:
    """Each cell's index in the window whose first column is ``q0`` and first row ``r0 >> SHIFT``."""
    return ((_CELLS - q0) & MASK) | ((_CELLS - r0) & _ROWS)


def _corner(bits: int) -> int:
    """The first window column (row) for a hive whose cells have the ``q`` (``r``) values set in ``bits``: the
    values of a connected hive are one run around the grid, whose middle goes to the window's middle."""
    if not bits:
        return -_MIDDLE & MASK
    previous = ((bits << 1) | (bits >> (WINDOW - 1))) & _FULL
    low = (bits & ~previous).bit_length() - 1
    return (low + (bits.bit_count() - 1) // 2 - _MIDDLE) & MASK


class HiveEncoding:
    """Hive's actions and planes (see the module) on ``board``, a Hive board of any game type."""

    actions = ACTIONS
    plane_names = PLANE_NAMES
    plane_high = _HIGH

    def __init__(self, board: Game[Any]) -> None:
        self._board = cast(Board, board)
        self._total = [BUG_COUNT[k] if self._board.game_type.enabled(k) else 0 for k in range(KINDS)] * 2
        self._frame_key = (-1, -1)
        self._frame = (0, 0)
        self._window = _window(0, 0)
        self._hands: dict[bytes, NDArray[np.uint8]] = {}
        self._pos: list[int] = []

    @property
    def board(self) -> Board:
        """The board played on."""
        return self._board

    def to_act(self) -> int:
        """The side to move."""
        return self._board.ply & 1

    def origin(self) -> tuple[int, int]:
        """``(q0, r0)``: the axial cell in the window's first row and column, in this position."""
        q0, r0 = self._origin()
        return q0, r0 >> SHIFT

    def _origin(self) -> tuple[int, int]:
        """``(q0, r0 << SHIFT)``, what a cell id loses to become its window index; worked out once a position,
        with :attr:`_window` (each cell's window index) and :attr:`_pos` (each piece's cell, -1 in hand)."""
        board = self._board
        key = (board.hash, board.ply)
        if key != self._frame_key:
            self._pos = pos = _listed(board.pos)
            qs = rs = 0
            for cell in pos:
                if cell >= 0:
                    qs |= 1 << (cell & MASK)
                    rs |= 1 << (cell >> SHIFT)
            frame = (_corner(qs), _corner(rs) << SHIFT)
            if frame != self._frame:
                self._window = _window(*frame)
                self._frame = frame
            self._frame_key = key
        return self._frame

    def mask(self) -> Mask:
        """1 on the action of each legal move."""
        out = np.zeros(ACTIONS, np.int8)
        codes = self._board.legal_codes()  # the moves push checks against: generated once a position for both
        if codes and codes[0] == PASS:
            out[PASS_ACTION] = 1
        elif codes:
            self._origin()
            moves = np.fromiter(codes, np.int64, len(codes))
            out[_PIECE_BASE[self._board.ply & 1][moves & _PIECE_BITS] + self._window[moves >> _DESTINATION_SHIFT]] = 1
        return out

    def planes(self, seat: int) -> Planes:
        """The planes (see the module) as ``seat`` sees them."""
        board = self._board
        q0, r0 = self._origin()
        plane_of = _PLANE_OF[seat]
        pos = self._pos
        below = _listed(board.below)
        ones: list[int] = []  # where the planes hold 1 (pieces on the ground, heights of 1, the last piece)
        on_top: list[tuple[int, int]] = []
        for pid, cell in enumerate(pos):
            if cell >= 0:
                at = ((cell - q0) & MASK) | ((cell - r0) & _ROWS)
                ones += (plane_of[pid] + at, _HEIGHT_AT + at)
                if below[pid] >= 0:
                    on_top.append((pid, at))
        last = board.last
        if last >= 0:
            cell = pos[last]
            ones.append(_LAST_AT + (((cell - q0) & MASK) | ((cell - r0) & _ROWS)))
        out = np.empty((PLANES, WINDOW, WINDOW), np.uint8)  # each part written once below: faster than zeros
        out[:HAND_OWN] = 0
        out[HAND_OWN:TO_ACT] = self._hand(seat)
        out[TO_ACT] = board.ply & 1 == seat
        out[FIRST] = seat == 0
        flat = out.reshape(-1)
        flat[np.fromiter(ones, np.intp, len(ones))] = 1
        if on_top:
            heights: dict[int, int] = {}
            for pid, at in on_top:
                level = 1
                under = below[pid]
                while under >= 0:
                    level += 1
                    under = below[under]
                flat[plane_of[pid] + at] = level
                heights[at] = max(heights.get(at, 0), level)
            for at, height in heights.items():
                flat[_HEIGHT_AT + at] = height
        return out

    def _hand(self, seat: int) -> NDArray[np.uint8]:
        """The counts of the hand planes, shaped to fill them; kept for each count of pieces placed."""
        key = bytes(self._board.placed) + bytes((seat,))
        column = self._hands.get(key)
        if column is None:
            placed = key[:-1]
            counts = [self._total[i] - placed[i] for i in _HAND_ORDER[seat]]
            column = self._hands[key] = np.array(counts, np.uint8)[:, None, None]
        return column

    def decode(self, action: int) -> Move:
        """The move of ``action`` here (legal or not: :meth:`play` checks)."""
        if action == PASS_ACTION:
            return Move.PASS
        board = self._board
        piece, where = divmod(action, AREA)
        pid = (piece + SIDE * (board.ply & 1)) % PIECES
        q0, r0 = self._origin()
        cell = ((where + q0) & MASK) | ((where + r0) & _ROWS)
        src = board.pos[pid]
        return Move.from_code(encode(pid, HAND if src < 0 else src, cell))

    def encode(self, move: Any) -> list[int]:
        """``[action]`` of the legal move ``move``.

        :raises IllegalActionError: when ``move`` is not a legal move here.
        """
        board = self._board
        if not isinstance(move, Move) or not board.is_legal(move):
            raise IllegalActionError(f"{move!r} is not a legal move in {board.game_string()}")
        if move.is_pass:
            return [PASS_ACTION]
        q0, r0 = self._origin()
        dst = cast(int, move.destination)
        piece = (move.piece_id + SIDE * (board.ply & 1)) % PIECES
        return [piece * AREA + (((dst - q0) & MASK) | ((dst - r0) & _ROWS))]

    def play(self, action: int) -> bool:
        """Push the move of ``action``; always a whole move."""
        move = self.decode(action)
        try:
            self._board.push(move)
        except IllegalMoveError as err:
            raise IllegalActionError(f"Action {action} ({self._describe(action)}) is illegal here: {err}") from None
        return True

    def push(self, move: Any) -> None:
        """Push ``move`` (a :class:`~hive.Move`)."""
        self._board.push(move)

    def _describe(self, action: int) -> str:
        if action == PASS_ACTION:
            return "pass"
        piece, where = divmod(action, AREA)
        pid = (piece + SIDE * (self._board.ply & 1)) % PIECES
        return f"{PIECE_NAMES[pid]} to window cell ({where >> SHIFT}, {where & MASK})"

    def svg(self) -> str:
        """The position as :func:`hive.svg.board` draws it, the last move outlined."""
        board = self._board
        return board_svg(board, last_move=board.peek() if board.ply else None)

    def rgb(self, size: int) -> NDArray[np.uint8]:
        """The hive in the window's frame, scaled to fit: tiles in the classic colours with the bug's letter, stack
        heights on a badge, the piece moved last outlined."""
        style = THEMES["default"]
        canvas = Canvas(size, size, style.background)
        board = self._board
        q0, r0 = self._origin()
        cells = sorted({cell for cell in board.pos if cell >= 0})
        if not cells:
            return canvas.pixels
        where = [((cell - q0) & MASK) | ((cell - r0) & _ROWS) for cell in cells]
        axial = [((w & MASK) - _MIDDLE, (w >> SHIFT) - _MIDDLE) for w in where]
        xs = [SQRT3 * (q + r / 2) for q, r in axial]
        ys = [1.5 * r for _, r in axial]
        width, height = max(xs) - min(xs) + SQRT3 + 1, max(ys) - min(ys) + 3
        radius = min(size / width, size / height, size / 8)
        dx = size / 2 - radius * (max(xs) + min(xs)) / 2
        dy = size / 2 - radius * (max(ys) + min(ys)) / 2
        for cell, (q, r) in zip(cells, axial, strict=True):
            x, y = hex_centre(q, r, radius)
            x, y = x + dx, y + dy
            pid = board.top[cell]
            colour, kind = pid // SIDE, KIND[pid]
            if pid == board.last:
                canvas.hexagon(x, y, radius, style.last_move)
            canvas.hexagon(x, y, radius * 0.92, style.edges[colour])
            canvas.hexagon(x, y, radius * 0.85, style.tiles[colour][kind])
            canvas.text(x, y, BUG_LETTERS[kind], radius * 0.7, style.inks[colour][kind])
            stack = board.height[cell]
            if stack > 1:
                bx, by = x + radius * 0.5, y - radius * 0.5
                canvas.disc(bx, by, radius * 0.3, style.badge[0])
                canvas.text(bx, by, str(stack), radius * 0.35, style.badge[1])
        return canvas.pixels


ENCODING = HiveEncoding

__all__ = ["ACTIONS", "AREA", "ENCODING", "PASS_ACTION", "PLANES", "PLANE_NAMES", "WINDOW", "HiveEncoding"]
