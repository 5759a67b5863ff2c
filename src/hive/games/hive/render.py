"""Text drawing of a position: a hex map for terminals, logs and tests."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .geometry import DIRECTIONS
from .pieces import PIECE_NAMES

if TYPE_CHECKING:
    from .board import Board


def render(board: Board) -> str:
    """Draw the hive as rows of hexes; stacks show their top piece with ``+`` and are listed below.

    Empty cells next to the hive are drawn as ``.`` so the shape is readable.
    """
    coords = board.layout()
    grid: dict[tuple[int, int], str] = {}
    stacks: list[str] = []
    for cell, (q, r) in coords.items():
        names = [PIECE_NAMES[p] for p in board.stack(cell)]
        label = names[-1]
        if len(names) > 1:
            label += "+"
            stacks.append(" < ".join(names))
        grid[(q, r)] = label
    for q, r in list(grid):
        for dq, dr in DIRECTIONS:
            grid.setdefault((q + dq, r + dr), ".")
    header = f"{board.game_type};{board.state};{board.turn_string}"
    if not coords:
        return header + "\n(empty board)"
    xs = [2 * q + r for q, r in grid]
    rs = [r for _, r in grid]
    x0 = min(xs)
    lines = [header]
    for r in range(min(rs), max(rs) + 1):
        row = sorted(((2 * q + r - x0, label) for (q, rr), label in grid.items() if rr == r))
        text = ""
        for x, label in row:
            text = text.ljust(2 * x) + label.center(4)
        lines.append(text.rstrip())
    lines.extend(f"stack (bottom < top): {s}" for s in sorted(stacks))
    return "\n".join(lines)
