"""Hexline in the RL environment: the encoding the toy game's plug-in names, written only against the SDK
(:class:`hive.sdk.encoding.Encoding`).

**Actions**, ``Discrete(19)``: a stone on cell ``i`` of :data:`~tests.toygame.CELLS`.

**Observation planes**, ``(4, 5, 5)`` uint8, cell ``(q, r)`` at row ``r + 2``, column ``q + 2`` (six corners of the
grid are off the field): the observer's stones, the opponent's, the field's cells, and all 1 when the observer is to
act.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from hive.game import IllegalMoveError
from hive.sdk.encoding import IllegalActionError, Mask, Planes
from hive.sdk.raster import SQRT3, Canvas, hex_centre

from . import CELLS, NAMES, RADIUS, Board, Place

SPAN = 2 * RADIUS + 1
PLANE_NAMES = ("own stones", "opponent's stones", "the field", "observer to act")
ROWS = np.array([r + RADIUS for _, r in CELLS])
COLUMNS = np.array([q + RADIUS for q, _ in CELLS])
INK = ("#f7f3ea", "#1f4e79", "#b5462f")  # an empty cell, X's stones, O's


class HexlineEncoding:
    """A stone an action; planes on the 5 x 5 grid of axial coordinates."""

    actions = len(CELLS)
    plane_names = PLANE_NAMES
    plane_high: Planes = np.ones((len(PLANE_NAMES), SPAN, SPAN), np.uint8)

    def __init__(self, board: Board) -> None:
        self._board = board

    @property
    def board(self) -> Board:
        return self._board

    def to_act(self) -> int:
        return self._board.turn

    def mask(self) -> Mask:
        mask = np.zeros(self.actions, np.int8)
        for move in self._board.legal_moves:
            mask[move.cell] = 1
        return mask

    def planes(self, seat: int) -> Planes:
        planes = np.zeros((len(PLANE_NAMES), SPAN, SPAN), np.uint8)
        stones = np.array(self._board.cells)
        planes[0, ROWS, COLUMNS] = stones == seat + 1
        planes[1, ROWS, COLUMNS] = stones == 2 - seat
        planes[2, ROWS, COLUMNS] = 1
        planes[3] = self.to_act() == seat
        return planes

    def play(self, action: int) -> bool:
        self._board.push(self.decode(action))
        return True

    def push(self, move: Place) -> None:
        self._board.push(move)

    def decode(self, action: int) -> Place:
        if not 0 <= action < self.actions:
            raise IllegalActionError(f"{action} is not an action of Hexline: expected a cell from 0 to 18")
        try:
            return self._board.parse_move(NAMES[action])
        except IllegalMoveError as err:
            raise IllegalActionError(f"Action {action}: {err}") from None

    def encode(self, move: Place) -> list[int]:
        return [self.decode(move.cell).cell]

    def _stones(self, radius: float, size: float) -> list[tuple[float, float, str]]:
        """Each cell's centre on a ``size``-wide picture and the ink of its stone."""
        stones = []
        for (q, r), stone in zip(CELLS, self._board.cells, strict=True):
            x, y = hex_centre(q, r, radius)
            stones.append((x + size / 2, y + size / 2, INK[stone]))
        return stones

    def svg(self) -> str:
        size, radius = 200.0, 200 / (SPAN * SQRT3 + 1)
        cells = [
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius * 0.8:.1f}" fill="{ink}" stroke="#6b6255"/>'
            for x, y, ink in self._stones(radius, size)
        ]
        return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size:.0f} {size:.0f}">{"".join(cells)}</svg>'

    def rgb(self, size: int) -> NDArray[np.uint8]:
        canvas = Canvas(size, size, "#ffffff")
        radius = size / (SPAN * SQRT3 + 1)
        for x, y, ink in self._stones(radius, size):
            canvas.hexagon(x, y, radius, "#6b6255")
            canvas.hexagon(x, y, radius * 0.92, INK[0])
            if ink != INK[0]:
                canvas.disc(x, y, radius * 0.6, ink)
        return canvas.pixels


ENCODING = HexlineEncoding
