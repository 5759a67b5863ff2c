"""Text drawing of a position: a hex map for terminals, logs and tests."""

from __future__ import annotations

from .geometry import DIRECTIONS, NEIGHBOUR
from .pieces import PIECE_NAMES, PIECES
from .position import STATE_NAMES, Position


def layout(position: Position) -> dict[int, tuple[int, int]]:
    """Unwrap the occupied cells into axial coordinates relative to the first piece placed.

    The grid wraps around, but the hive is connected, so a walk over it recovers
    true relative coordinates.
    """
    first = position.history[0] >> 16 if position.history else -1
    if first < 0 or not position.height[first]:
        first = next((position.pos[p] for p in range(PIECES) if position.pos[p] >= 0), -1)
    if first < 0:
        return {}
    coords = {first: (0, 0)}
    todo = [first]
    while todo:
        cell = todo.pop()
        q, r = coords[cell]
        for d, (dq, dr) in enumerate(DIRECTIONS):
            n = NEIGHBOUR[cell * 6 + d]
            if position.height[n] and n not in coords:
                coords[n] = (q + dq, r + dr)
                todo.append(n)
    return coords


def stack_of(position: Position, cell: int) -> list[int]:
    """The pieces on a cell, bottom first."""
    out = []
    pid = position.top[cell]
    while pid >= 0:
        out.append(pid)
        pid = position.below[pid]
    out.reverse()
    return out


def render(position: Position) -> str:
    """Draw the hive as rows of hexes; stacks show their top piece with ``+`` and are listed below.

    Empty cells next to the hive are drawn as ``.`` so the shape is readable.
    """
    coords = layout(position)
    grid: dict[tuple[int, int], str] = {}
    stacks: list[str] = []
    for cell, (q, r) in coords.items():
        names = [PIECE_NAMES[p] for p in stack_of(position, cell)]
        label = names[-1]
        if len(names) > 1:
            label += "+"
            stacks.append(" < ".join(names))
        grid[(q, r)] = label
    for q, r in list(grid):
        for dq, dr in DIRECTIONS:
            grid.setdefault((q + dq, r + dr), ".")
    colour = "White" if position.ply % 2 == 0 else "Black"
    header = f"{position.game_type};{STATE_NAMES[position.status]};{colour}[{1 + position.ply // 2}]"
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
