"""Hex geometry on a wrap-around grid.

Cells are integers ``0 .. CELLS-1`` on a ``SIZE`` x ``SIZE`` torus of axial
coordinates ``(q, r)``.  A hive has at most 28 pieces, so together with its
empty neighbours it spans at most 30 cells along any axis; with ``SIZE = 32``
no two cells that matter can alias.  Every neighbour lookup is a table read.

Directions are numbered clockwise from north-east, so ``d - 1`` and ``d + 1``
(mod 6) are the two cells shared by a cell and its neighbour in direction ``d``.
"""

from __future__ import annotations

SIZE = 32
SHIFT = 5
MASK = SIZE - 1
CELLS = SIZE * SIZE

#: Axial offsets of the six directions, clockwise from north-east.
DIRECTIONS: tuple[tuple[int, int], ...] = (
    (1, -1),  # 0 NE
    (1, 0),  # 1 E
    (0, 1),  # 2 SE
    (-1, 1),  # 3 SW
    (-1, 0),  # 4 W
    (0, -1),  # 5 NW
)


def cell_of(q: int, r: int) -> int:
    """Return the cell id of axial coordinates ``(q, r)`` (taken modulo the grid)."""
    return (q & MASK) | ((r & MASK) << SHIFT)


def axial_of(cell: int) -> tuple[int, int]:
    """Return the axial coordinates of a cell in ``0 .. SIZE-1``."""
    return cell & MASK, cell >> SHIFT


def _build_neighbours() -> list[int]:
    table = [0] * (CELLS * 6)
    for cell in range(CELLS):
        q, r = axial_of(cell)
        for d, (dq, dr) in enumerate(DIRECTIONS):
            table[cell * 6 + d] = cell_of(q + dq, r + dr)
    return table


#: ``NEIGHBOUR[cell * 6 + d]`` is the neighbour of ``cell`` in direction ``d``.
NEIGHBOUR: list[int] = _build_neighbours()

#: ``NEIGHBOURS[cell]`` lists the six neighbours of ``cell`` in direction order.
NEIGHBOURS: list[list[int]] = [NEIGHBOUR[c * 6 : c * 6 + 6] for c in range(CELLS)]


def _slide_dirs(mask: int) -> list[int]:
    # A ground slide in direction d needs the target empty and exactly one of
    # the two flanking cells occupied: both = too narrow a gate, none = the
    # piece would lose touch with the hive.
    out = []
    for d in range(6):
        if mask >> d & 1:
            continue
        left = mask >> ((d + 5) % 6) & 1
        right = mask >> ((d + 1) % 6) & 1
        if left != right:
            out.append(d)
    return out


#: ``SLIDES[mask]``: directions a ground piece can slide to, given the 6-bit
#: mask of its occupied neighbours (the mover itself excluded).
SLIDES: list[list[int]] = [_slide_dirs(m) for m in range(64)]

#: ``OCCUPIED_DIRS[mask]``: the directions set in a 6-bit neighbour mask.
OCCUPIED_DIRS: list[list[int]] = [[d for d in range(6) if m >> d & 1] for m in range(64)]

#: ``OPPOSITE[d]``: the direction pointing back.
OPPOSITE: list[int] = [(d + 3) % 6 for d in range(6)]
