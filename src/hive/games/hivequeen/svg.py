"""SVG pictures of the 61-cell HiveQueen field (no dependencies; the browser app reuses them)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from html import escape
from typing import TYPE_CHECKING

from .geometry import CELLS, COORDS, NAMES
from .rules import COLOUR_NAMES, KIND_NAMES, LETTERS

if TYPE_CHECKING:
    from .board import Board
    from .move import Turn

#: Fill and ink of the pieces, by colour (South, North), and the field's colours.
PIECE_FILL = ("#f4ead2", "#2f2a26")
PIECE_INK = ("#2f2a26", "#f4ead2")
CELL_FILL = "#c9d9b8"
CELL_LINE = "#6f7f5f"
HIGHLIGHT = "#e8b93a"
LAST = "#d2553f"


def cell_centre(cell: int, size: float, flipped: bool = False) -> tuple[float, float]:
    """Centre of ``cell`` in a picture of hexagons of circumradius ``size`` (pointy side up), field centred on 0."""
    q, r = COORDS[cell]
    if flipped:
        q, r = -q, -r
    return size * math.sqrt(3) * (q + r / 2), size * 1.5 * r


def board_svg(
    board: Board,
    *,
    size: float = 28.0,
    flipped: bool = False,
    last_turn: Turn | None = None,
    highlight: Iterable[int] = (),
    labels: bool = True,
) -> str:
    """An SVG of ``board``: the field, the pieces as lettered discs, the last turn and highlights outlined.

    :param flipped: North at the bottom.
    :param last_turn: outline its origin, destination and productions.
    :param highlight: cells to mark (e.g. legal destinations).
    :param labels: write each empty cell's name.
    """
    marked = set(highlight)
    last: set[int] = set()
    if last_turn is not None:
        last = {last_turn.origin, last_turn.destination, *(p.cell for p in last_turn.productions)}
    half_w = size * math.sqrt(3) * 4.5 + 4
    half_h = size * 1.5 * 4 + size + 4
    w, h = 2 * half_w, 2 * half_h + 28
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{-half_w:.1f} {-half_h:.1f} {w:.1f} {h:.1f}" '
        f'width="{w:.0f}" height="{h:.0f}" font-family="sans-serif">'
    ]
    corners = [
        (size * math.cos(math.radians(60 * i - 30)), size * math.sin(math.radians(60 * i - 30))) for i in range(6)
    ]
    for cell in range(CELLS):
        x, y = cell_centre(cell, size, flipped)
        points = " ".join(f"{x + dx:.1f},{y + dy:.1f}" for dx, dy in corners)
        fill = HIGHLIGHT if cell in marked else CELL_FILL
        stroke = LAST if cell in last else CELL_LINE
        width = 3 if cell in last else 1
        out.append(
            f'<polygon class="cell" data-cell="{NAMES[cell]}" points="{points}" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="{width}"/>'
        )
        code = board.board[cell]
        if code:
            colour, kind = code >> 3, code & 7
            out.append(
                f'<g class="piece" data-cell="{NAMES[cell]}"><title>{COLOUR_NAMES[colour]} {KIND_NAMES[kind]}</title>'
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{size * 0.62:.1f}" fill="{PIECE_FILL[colour]}" '
                f'stroke="{PIECE_INK[colour]}" stroke-width="{3 if kind == 1 else 1.5}"/>'
                f'<text x="{x:.1f}" y="{y + size * 0.25:.1f}" text-anchor="middle" font-size="{size * 0.7:.1f}" '
                f'font-weight="bold" fill="{PIECE_INK[colour]}">{LETTERS[kind]}</text></g>'
            )
        elif labels:
            out.append(
                f'<text x="{x:.1f}" y="{y + size * 0.15:.1f}" text-anchor="middle" font-size="{size * 0.4:.1f}" '
                f'fill="{CELL_LINE}">{NAMES[cell]}</text>'
            )
    caption = (
        f"South {board.units[0]}/{board.capacity(0)} units, North {board.units[1]}/{board.capacity(1)} units; "
        + (f"{board.turn_name} to move" if not board.is_game_over() else board.state)
    )
    # the caption's size follows the field's, so that it fits its width at any size
    font = min(14.0, size * 0.5)
    out.append(
        f'<text x="0" y="{half_h + 18:.1f}" text-anchor="middle" font-size="{font:.1f}">{escape(caption)}</text></svg>'
    )
    return "".join(out)
