"""HiveQueen's part of the RL environment: a turn taken as steps, and planes on the 61-cell field.

**A turn in steps.** A HiveQueen turn is a movement and then, while the Nurses and the Workers' capacity allow,
productions, each chosen after seeing the last; the whole turns of a position can number tens of thousands. So the
environment takes a turn as its steps, each one action of the same player: the movement, then each production,
then ``END`` when the player stops while it could still produce (a turn ends by itself when nothing more can be
produced, or when the movement ends the game). The steps are kept aside until the turn is whole; then the turn is
pushed on the board, checked by the game (:class:`~hive.games.hivequeen.Turn`). The mask offers only what may
come next, so the space stays fixed and small.

**The frame.** Each side sees the field from its own end: for North every cell is mirrored through the centre
(``e5``), so that a side's own back row is always at the bottom and the same action means the same thing to
either side. The frame's cells are numbered as the field's are, row by row from the far back row to the near one
(for South, 0 is ``e9`` and 60 is ``e1``), and cell ``(q, r)`` sits at row ``r + 4``, column ``q + 4`` of a 9 x 9
grid of axial coordinates (20 corners of the grid are off the field). A swap of a side's two Nurses, the one
movement that goes either way, is written from the lower-numbered cell of the frame.

**Actions**, ``Discrete(7687)``, cells in the frame of the side to act:

=============== ================================================================================================
0-3720          movement ``origin * 61 + destination`` (a step, a slide, a capture, a swap)
3721-7441       the same movement promoting its Highborn to Queen (``origin == destination``: in place)
7442-7685       production ``7442 + k * 61 + cell`` of kind ``k``: 0 Drone, 1 Nurse, 2 Worker, 3 Soldier
7686            ``END``: stop producing; the turn is over
=============== ================================================================================================

**Observation planes**, ``(22, 9, 9)`` uint8 on the grid, in the observer's frame:

====== =====================================================================================================
0-5    the observer's pieces: Queen, Highborn, Drone, Nurse, Worker, Soldier (1 on the piece's cell)
6-11   the opponent's pieces, the same
12     1 on the 61 cells of the field
13     1 on the cells produced this turn
14     all 1 while the side to act is producing (its movement made)
15     all 1 when the observer is to act
16     all 1 when the observer plays South (first)
17     the observer's units, on the whole plane
18     the observer's capacity (while it produces: as counted when its production began)
19     the opponent's units
20     the opponent's capacity, the same
21     turns left before the turn limit without a capture decides by units (at most 255)
====== =====================================================================================================

Not in the planes: the repetition count (the third repetition is a draw).
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from ...game import Game, IllegalMoveError
from ...sdk.encoding import EncodingBase, IllegalActionError, Mask, Planes
from ...sdk.raster import SQRT3, Canvas, hex_centre
from . import Board, Turn
from .geometry import CELLS, COORDS, MIRROR, NAMES, RADIUS
from .rules import (
    FIELD_LIMIT,
    KIND_NAMES,
    LETTERS,
    NURSE,
    PRODUCIBLE,
    QUEEN,
    TURN_LIMIT_WITHOUT_CAPTURE,
    UNITS_PER_WORKER,
    WORKER,
)
from .state import (
    END,
    PRODUCTION,
    movement_step,
    production_step,
    step_destination,
    step_origin,
)
from .svg import CELL_FILL, CELL_LINE, LAST, PIECE_FILL, PIECE_INK
from .svg import board_svg as field_svg

SPAN = 2 * RADIUS + 1
MOVEMENTS = CELLS * CELLS
PRODUCTIONS = 2 * MOVEMENTS
END_ACTION = PRODUCTIONS + len(PRODUCIBLE) * CELLS
ACTIONS = END_ACTION + 1

KINDS = len(KIND_NAMES) - 1
OWN, OPPONENT = 0, KINDS
FIELD = 2 * KINDS
FRESH, PRODUCING, TO_ACT, FIRST = FIELD + 1, FIELD + 2, FIELD + 3, FIELD + 4
UNITS_OWN, CAPACITY_OWN, UNITS_OPPONENT, CAPACITY_OPPONENT, QUIET = range(FIELD + 5, FIELD + 10)
PLANES = QUIET + 1

PLANE_NAMES: tuple[str, ...] = (
    *(f"own {kind}" for kind in KIND_NAMES[1:]),
    *(f"opponent's {kind}" for kind in KIND_NAMES[1:]),
    "the field",
    "produced this turn",
    "producing",
    "observer to act",
    "observer plays first",
    "own units",
    "own capacity",
    "opponent's units",
    "opponent's capacity",
    "turns left without a capture",
)

#: ``FRAME[seat][cell]``: the cell as ``seat`` sees it, and back (the mirror is its own inverse).
FRAME = (np.arange(CELLS), np.array(MIRROR))
#: Each frame cell's index in the flattened 9 x 9 grid.
GRID = np.array([(r + RADIUS) * SPAN + q + RADIUS for q, r in COORDS])


def _tables() -> tuple[list[NDArray[np.int32]], list[NDArray[np.int32]]]:
    """Per seat: each core step's action (-1 for none) and each action's core step."""
    actions: list[NDArray[np.int32]] = []
    steps: list[NDArray[np.int32]] = []
    for frame in FRAME:
        step_of = np.zeros(ACTIONS, np.int32)
        for origin in range(CELLS):
            for destination in range(CELLS):
                for promote in (0, 1):
                    action = promote * MOVEMENTS + origin * CELLS + destination
                    step_of[action] = movement_step(int(frame[origin]), int(frame[destination]), bool(promote))
        for k, kind in enumerate(PRODUCIBLE):
            for cell in range(CELLS):
                step_of[PRODUCTIONS + k * CELLS + cell] = production_step(kind, int(frame[cell]))
        step_of[END_ACTION] = END
        action_of = np.full(END + 1, -1, np.int32)
        action_of[step_of] = np.arange(ACTIONS, dtype=np.int32)
        actions.append(action_of)
        steps.append(step_of)
    return actions, steps


_ACTION_OF, _STEP_OF = _tables()


def _high() -> Planes:
    high = np.ones((PLANES, SPAN, SPAN), np.uint8)
    high[[UNITS_OWN, UNITS_OPPONENT, QUIET]] = 255
    high[[CAPACITY_OWN, CAPACITY_OPPONENT]] = UNITS_PER_WORKER * FIELD_LIMIT[WORKER]
    return high


_HIGH = _high()


def _exchange(step: int, swap: int) -> int:
    """``swap``'s reverse for ``swap``, ``swap`` for its reverse, any other step itself."""
    reverse = movement_step(step_destination(swap), step_origin(swap), False)
    return reverse if step == swap else swap if step == reverse else step


_FIELD_PLANE = np.zeros(SPAN * SPAN, np.uint8)
_FIELD_PLANE[GRID] = 1


class HiveQueenEncoding(EncodingBase):
    """HiveQueen's steps and planes (see the module) on ``board``: new arrays at each call."""

    actions = ACTIONS
    plane_names = PLANE_NAMES
    plane_high = _HIGH

    def __init__(self, board: Game[Any]) -> None:
        self._board = cast(Board, board)
        self._steps: list[int] = []

    @property
    def board(self) -> Board:
        """The board played on (at the start of the turn under way)."""
        return self._board

    @property
    def turn_so_far(self) -> Turn | None:
        """The steps of the turn under way as a turn, or ``None`` between turns."""
        return Turn.from_steps(self._steps) if self._steps else None

    def to_act(self) -> int:
        """The side whose turn it is (the same through all the steps of a turn)."""
        return self._board.ply & 1

    def _enter(self) -> None:
        for step in self._steps:
            self._board.make(step)

    def _leave(self) -> None:
        for _ in self._steps:
            self._board.unmake()

    def mask(self) -> Mask:
        """1 on each step that may come next: a movement, or a production or ``END``."""
        self._enter()
        try:
            steps = self._board.generate()
        finally:
            self._leave()
        out = np.zeros(ACTIONS, np.int8)
        if steps:
            swap = self._nurse_swap()
            if swap >= 0:
                steps = [_exchange(step, swap) for step in steps]
            out[_ACTION_OF[self._board.ply & 1][steps]] = 1
        return out

    def _nurse_swap(self) -> int:
        """North's swap of its two Nurses when a movement comes next, else -1.

        The core writes that swap from the field's lower-numbered cell, and North's frame reverses the numbering;
        so that North's swap is written from its frame's lower cell as South's is, the swap and its reverse trade
        actions for North.
        """
        board = self._board
        nurse = NURSE | 1 << 3
        if self._steps or not board.ply & 1 or board.count[nurse] != 2:
            return -1
        field = board.board
        first = field.index(nurse)
        return movement_step(first, field.index(nurse, first + 1), False)

    def _step(self, action: int) -> int:
        """The core step of ``action`` for the side to act."""
        step = int(_STEP_OF[self._board.ply & 1][action])
        swap = self._nurse_swap()
        return _exchange(step, swap) if swap >= 0 else step

    def _action(self, step: int) -> int:
        """The action of the core step ``step`` for the side to act."""
        swap = self._nurse_swap()
        return int(_ACTION_OF[self._board.ply & 1][_exchange(step, swap) if swap >= 0 else step])

    def planes(self, seat: int) -> Planes:
        """The planes (see the module) as ``seat`` sees them, the steps under way made."""
        board = self._board
        out = np.zeros((PLANES, SPAN * SPAN), np.uint8)
        self._enter()
        try:
            field = np.frombuffer(bytes(board.board), np.uint8)[FRAME[seat]]
            occupied = np.flatnonzero(field)
            codes = field[occupied]
            out[(codes & 7) - 1 + KINDS * ((codes >> 3) != seat), GRID[occupied]] = 1
            out[FRESH, GRID[FRAME[seat][list(board.fresh)]]] = 1
            mover = board.ply & 1
            producing = board.phase == PRODUCTION
            for plane, side in ((UNITS_OWN, seat), (UNITS_OPPONENT, 1 - seat)):
                out[plane] = board.units[side]
                out[plane + 1] = board.cap if producing and side == mover else board.capacity(side)
            out[QUIET] = min(255, TURN_LIMIT_WITHOUT_CAPTURE - board.quiet)
        finally:
            self._leave()
        out[FIELD] = _FIELD_PLANE
        out[PRODUCING] = producing
        out[TO_ACT] = mover == seat
        out[FIRST] = seat == 0
        return out.reshape(PLANES, SPAN, SPAN)

    def decode(self, action: int) -> Turn:
        """The turn so far with ``action`` added (``END``: the turn so far, whole).

        :raises IllegalActionError: for a movement after the movement, or a production or ``END`` before it.
        """
        step = self._step(action)
        if self._steps and action < PRODUCTIONS:
            raise IllegalActionError(
                f"Action {action} is a movement, but this turn's movement is made ({self.turn_so_far}): "
                f"choose a production or END ({END_ACTION})."
            )
        if not self._steps and action >= PRODUCTIONS:
            raise IllegalActionError(f"Action {action} is a production or END, but a turn starts with a movement.")
        return Turn.from_steps([*self._steps, step])

    def play(self, action: int) -> bool:
        """Take the step of ``action``; push the turn when it is whole."""
        turn = self.decode(action)
        board = self._board
        step = self._step(action)
        whole = False
        self._enter()
        try:
            legal = step in board.generate()
            if legal:
                ply = board.ply
                board.make(step)
                whole = board.ply != ply
                board.unmake()
        finally:
            self._leave()
        if not legal:
            raise IllegalActionError(f"Action {action} ({self._describe(action, turn)}) is illegal: {self._why(turn)}")
        if not whole:
            self._steps.append(step)
            return False
        self._steps = []
        board.push(turn)
        return True

    def _describe(self, action: int, turn: Turn) -> str:
        if action == END_ACTION:
            return "END"
        if action >= PRODUCTIONS:
            return str(turn.productions[-1])
        return f"{NAMES[turn.origin]}-{NAMES[turn.destination]}" + ("=Q" if turn.promote else "")

    def _why(self, turn: Turn) -> str:
        try:
            self._board.production_options(turn)
        except IllegalMoveError as err:
            return str(err)
        return "that step is not possible here"

    def push(self, move: Any) -> None:
        """Push the whole turn ``move`` between turns."""
        if self._steps:
            raise IllegalActionError(f"A turn is under way ({self.turn_so_far}): finish it before pushing a turn.")
        self._board.push(move)

    def encode(self, move: Any) -> list[int]:
        """The steps of the legal turn ``move`` as actions, ending with ``END`` when the turn must be ended.

        :raises IllegalActionError: when a turn is under way, or ``move`` is not legal.
        """
        board = self._board
        if self._steps:
            raise IllegalActionError(f"A turn is under way ({self.turn_so_far}): a whole turn cannot be encoded.")
        if not isinstance(move, Turn) or not board.is_legal(move):
            raise IllegalActionError(f"{move!r} is not a legal turn here")
        steps = move.steps()
        ply = board.ply
        for step in steps:
            board.make(step)
        ended = board.ply != ply
        for _ in steps:
            board.unmake()
        actions = [self._action(steps[0])] + [int(_ACTION_OF[ply & 1][step]) for step in steps[1:]]
        return actions if ended else [*actions, END_ACTION]

    def _last_turn(self) -> Turn | None:
        return self.turn_so_far or (self._board.turns()[-1] if self._board.ply else None)

    def svg(self) -> str:
        """The field as :func:`hive.games.hivequeen.svg.board_svg` draws it, with the turn under way (or else the
        last turn) outlined."""
        last = self._last_turn()
        self._enter()
        try:
            return field_svg(self._board, last_turn=last)
        finally:
            self._leave()

    def rgb(self, size: int) -> NDArray[np.uint8]:
        """The field, South at the bottom: pieces as lettered discs (the Queen's ring thicker), the turn under way
        (or else the last turn) outlined."""
        canvas = Canvas(size, size, "#ffffff")
        radius = size / (SPAN * SQRT3 + 1)
        last = self._last_turn()
        marked = set() if last is None else {last.origin, last.destination, *(p.cell for p in last.productions)}
        board = self._board
        self._enter()
        try:
            for cell, (q, r) in enumerate(COORDS):
                x, y = hex_centre(q, r, radius)
                x, y = x + size / 2, y + size / 2
                canvas.hexagon(x, y, radius, LAST if cell in marked else CELL_LINE)
                canvas.hexagon(x, y, radius * (0.86 if cell in marked else 0.94), CELL_FILL)
                code = board.board[cell]
                if code:
                    colour, kind = code >> 3, code & 7
                    canvas.disc(x, y, radius * 0.66, PIECE_INK[colour])
                    canvas.disc(x, y, radius * (0.5 if kind == QUEEN else 0.58), PIECE_FILL[colour])
                    canvas.text(x, y, LETTERS[kind], radius * 0.6, PIECE_INK[colour])
        finally:
            self._leave()
        return canvas.pixels


ENCODING = HiveQueenEncoding

__all__ = [
    "ACTIONS",
    "ENCODING",
    "END_ACTION",
    "FRAME",
    "MOVEMENTS",
    "PLANES",
    "PLANE_NAMES",
    "PRODUCTIONS",
    "HiveQueenEncoding",
]
