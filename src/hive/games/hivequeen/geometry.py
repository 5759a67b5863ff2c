"""The 61-cell hexagonal field: cells 0..60, axial coordinates, neighbour and ray tables, cell names.

Cells are numbered row by row from r = -4 (North's back row, rank 9) to r = 4 (South's back row, rank 1),
each row from low q to high q. Directions are the six orthogonals (through shared edges).
"""

from __future__ import annotations

from collections.abc import MutableSequence

from ..._build import table

RADIUS = 4
#: The six orthogonal directions as axial (dq, dr); direction d and d + 3 are opposite.
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
FILES = "abcdefghi"


def _cells() -> list[tuple[int, int]]:
    cells = []
    for r in range(-RADIUS, RADIUS + 1):
        for q in range(-RADIUS, RADIUS + 1):
            if abs(q + r) <= RADIUS:
                cells.append((q, r))
    return cells


#: Axial (q, r) of each cell.
COORDS: list[tuple[int, int]] = _cells()
CELLS = len(COORDS)
_INDEX = {qr: i for i, qr in enumerate(COORDS)}


def cell_at(q: int, r: int) -> int:
    """The cell at axial ``(q, r)``, or -1 off the field."""
    return _INDEX.get((q, r), -1)


#: NEIGHBOUR[c * 6 + d]: the neighbour of c in direction d, or -1 off the field.
NEIGHBOUR: list[int] = [cell_at(q + dq, r + dr) for q, r in COORDS for dq, dr in DIRECTIONS]
#: NEIGHBOURS[c]: the neighbours of c on the field.
NEIGHBOURS: list[list[int]] = [[n for n in NEIGHBOUR[c * 6 : c * 6 + 6] if n >= 0] for c in range(CELLS)]


def _ray(c: int, d: int) -> list[int]:
    q, r = COORDS[c]
    dq, dr = DIRECTIONS[d]
    out: list[int] = []
    while True:
        q += dq
        r += dr
        n = cell_at(q, r)
        if n < 0:
            return out
        out.append(n)


#: RAYS[c * 6 + d]: the cells from c (exclusive) to the edge in direction d.
RAYS: list[list[int]] = [_ray(c, d) for c in range(CELLS) for d in range(6)]
#: The rays as one flat list: ray ``i = c * 6 + d`` is ``RAY_CELLS[RAY_START[i] : RAY_START[i + 1]]``.
RAY_START: list[int] = [0]
RAY_CELLS: list[int] = []
for _ray_cells in RAYS:
    RAY_CELLS.extend(_ray_cells)
    RAY_START.append(len(RAY_CELLS))
#: MIRROR[c]: the cell mirrored through the centre, (q, r) -> (-q, -r).
MIRROR: list[int] = [cell_at(-q, -r) for q, r in COORDS]
#: DISTANCE[a * CELLS + b]: hex distance between two cells.
DISTANCE: list[int] = [
    (abs(qa - qb) + abs(ra - rb) + abs(qa + ra - qb - rb)) // 2 for qa, ra in COORDS for qb, rb in COORDS
]


def cell_name(cell: int) -> str:
    """The notation name of a cell: file ``a``..``i`` for q = -4..4, rank ``5 - r``; the centre is ``e5``."""
    q, r = COORDS[cell]
    return f"{FILES[q + RADIUS]}{5 - r}"


NAMES: list[str] = [cell_name(c) for c in range(CELLS)]
_BY_NAME = {name: c for c, name in enumerate(NAMES)}


def parse_cell(text: str) -> int:
    """The cell named ``text`` (e.g. ``e5``), or -1 when it names no cell of the field."""
    return _BY_NAME.get(text.strip().lower(), -1)


def core_tables(compiled: bool) -> tuple[MutableSequence[int], MutableSequence[int], MutableSequence[int]]:
    """:data:`NEIGHBOUR`, :data:`RAY_START` and :data:`RAY_CELLS` as the compiled modules read them (C-typed arrays
    when ``compiled``, lists otherwise; see :func:`hive._build.table`)."""
    return table("b", NEIGHBOUR, compiled), table("i", RAY_START, compiled), table("b", RAY_CELLS, compiled)
