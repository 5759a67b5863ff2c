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

from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from ...game import Game, IllegalMoveError
from ...sdk.encoding import EncodingBase, IllegalActionError, Mask, Planes
from ...sdk.raster import SQRT3, Canvas, hex_centre
from . import Board, Move, tensors
from .geometry import MASK, SHIFT
from .pieces import BEETLE, BUG_COUNT, BUG_LETTERS, KIND, MOSQUITO, PIECE_NAMES, PIECES
from .position import MOVE_BUFFER
from .svg import THEMES
from .svg import board as board_svg

WINDOW = tensors.WINDOW
AREA = tensors.AREA
#: Pieces per side (the first 14 of the 28 ids are White's).
SIDE = tensors.SIDE
PASS_ACTION = tensors.PASS_ACTION
ACTIONS = tensors.ACTIONS
PLANES = tensors.PLANES
_MIDDLE = WINDOW // 2
_ROWS = MASK << SHIFT
OWN, OPPONENT, HEIGHT, LAST = tensors.OWN, tensors.OPPONENT, tensors.HEIGHT, tensors.LAST
HAND_OWN, HAND_OPPONENT, TO_ACT, FIRST = tensors.HAND_OWN, tensors.HAND_OPPONENT, tensors.TO_ACT, tensors.FIRST
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


class HiveEncoding(EncodingBase):
    """Hive's actions and planes (see the module) on ``board``, a Hive board of any game type.

    The planes of each seat, the mask and the legal actions are arrays the encoding keeps for its board and
    rewrites in place (:mod:`hive.games.hive.tensors`): each call returns the same arrays, rewritten for the
    position; a copy keeps one.
    """

    actions = ACTIONS
    plane_names = PLANE_NAMES
    plane_high = _HIGH

    def __init__(self, board: Game[Any]) -> None:
        self._board = cast(Board, board)
        self._planes = tuple(tensors.PlaneWriter(np.zeros((PLANES, WINDOW, WINDOW), np.uint8)) for _ in range(2))
        self._actions = tensors.ActionWriter(np.zeros(ACTIONS, np.int8), np.zeros(MOVE_BUFFER, np.int64))
        self._frame_key = (-1, -1)
        self._corner = 0

    @property
    def board(self) -> Board:
        """The board played on."""
        return self._board

    def to_act(self) -> int:
        """The side to move."""
        return self._board.ply & 1

    def origin(self) -> tuple[int, int]:
        """``(q0, r0)``: the axial cell in the window's first row and column, in this position."""
        corner = self._frame()
        return corner & MASK, corner >> SHIFT

    def _frame(self) -> int:
        """The cell in the window's first row and column, worked out once a position."""
        board = self._board
        key = (board.hash, board.ply)
        if key != self._frame_key:
            self._corner = tensors.origin(board)
            self._frame_key = key
        return self._corner

    def mask(self) -> Mask:
        """1 on the action of each legal move (the encoding's own array, rewritten in place)."""
        self._actions.write(self._board, self._frame())
        mask: Mask = self._actions.mask
        return mask

    def legal_actions(self) -> NDArray[np.int64]:
        """The legal actions' ids, in the core's move order (a view of the encoding's own array)."""
        writer = self._actions
        n = writer.write(self._board, self._frame())
        legal: NDArray[np.int64] = writer.legal[:n]
        return legal

    def planes(self, seat: int) -> Planes:
        """The planes (see the module) as ``seat`` sees them (the encoding's own array for ``seat``, rewritten in
        place)."""
        writer = self._planes[seat]
        writer.write(self._board, seat, self._frame())
        planes: Planes = writer.array
        return planes

    def rows(self, planes: Planes, mask: Mask) -> Rows:
        """A writer of the planes and the mask into ``planes`` and ``mask`` (zeros when given: a vector
        environment's rows of one game), for this encoding and those of the game's later boards; an encoding it
        wrote for then writes its own mask and legal ids there too (:meth:`mask` returns the row)."""
        return Rows(planes, mask)

    def decode(self, action: int) -> Move:
        """The move of ``action`` here (legal or not: :meth:`play` checks)."""
        return Move.from_code(tensors.action_code(self._board, self._frame(), action))

    def encode(self, move: Any) -> list[int]:
        """``[action]`` of the legal move ``move``.

        :raises IllegalActionError: when ``move`` is not a legal move here.
        """
        board = self._board
        if not isinstance(move, Move) or not board.is_legal(move):
            raise IllegalActionError(f"{move!r} is not a legal move in {board.game_string()}")
        if move.is_pass:
            return [PASS_ACTION]
        return [tensors.action_of(board, self._frame(), move.code)]

    def play(self, action: int) -> bool:
        """Push the move of ``action``; always a whole move."""
        board = self._board
        code = tensors.action_code(board, self._frame(), action)
        if not board.has_move(code):
            try:
                board.push(Move.from_code(code))
            except IllegalMoveError as err:
                raise IllegalActionError(f"Action {action} ({self._describe(action)}) is illegal here: {err}") from None
            return True
        board.make(code)  # what push does once it knows the move is legal
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
        corner = self._frame()
        q0, r0 = corner & MASK, corner & _ROWS
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


class Rows:
    """Writes the planes of the side to act and the mask into arrays a vector environment keeps, in place."""

    def __init__(self, planes: Planes, mask: Mask) -> None:
        self._planes = tensors.PlaneWriter(planes)
        self._actions = tensors.ActionWriter(mask, np.zeros(MOVE_BUFFER, np.int64))

    def write(self, encoding: HiveEncoding, seat: int, acting: bool) -> NDArray[np.int64]:
        """``encoding``'s position as ``seat`` sees it, and the legal actions when ``seat`` is ``acting`` (none
        once the game is over); returns their ids (a view of an array the writer keeps)."""
        board = encoding.board
        corner = encoding._frame()
        self._planes.write(board, seat, corner)
        actions = self._actions
        if encoding._actions is not actions:
            encoding._actions = actions  # its mask and ids written in these rows from now on, once a step
        if acting:
            count = actions.write(board, corner)
        else:
            actions.clear()
            count = 0
        legal: NDArray[np.int64] = actions.legal[:count]
        return legal


ENCODING = HiveEncoding

__all__ = ["ACTIONS", "AREA", "ENCODING", "PASS_ACTION", "PLANES", "PLANE_NAMES", "WINDOW", "HiveEncoding"]
