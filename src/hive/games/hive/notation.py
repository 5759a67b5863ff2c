"""UHP notation's cells, read from the compiled core: the move a MoveString names, and the piece and direction a
move is written with (the texts themselves are the board's). Plain typed Python that Cython compiles with the C
types of ``notation.pxd``.
"""

from __future__ import annotations

from ..._build import is_compiled, table
from .geometry import CELLS, NEIGHBOUR, OPPOSITE
from .pieces import PIECES
from .position import Position
from .state import HAND, ORIGIN_CELL

#: Added by :func:`move_code` to a code whose MoveString names a taken cell beside its reference.
GROUND_TAKEN = 1 << 32


def move_code(p: Position, piece: int, reference: int, direction: int) -> int:
    """The int move of a MoveString in position ``p``: ``piece`` to the cell beside piece ``reference`` in
    ``direction`` (0..5), on top of it (-1), or to the first cell of the game (``reference`` -1). Returns -1 when
    the reference is not in play, and the code plus :data:`GROUND_TAKEN` when a direction names a taken cell
    (climbing is written without one)."""
    if reference < 0:
        dst = ORIGIN_CELL
    else:
        ref_cell = p.pos[reference]
        if ref_cell < 0:
            return -1
        dst = ref_cell if direction < 0 else _NB[ref_cell * 6 + direction]
    src = p.pos[piece]
    code = piece | (_HAND if src < 0 else src) << 5 | dst << 16
    if reference >= 0 and direction >= 0 and p.height[dst] and dst != src:
        return code + _GROUND_TAKEN
    return code


def reference(p: Position, code: int) -> int:
    """How UHP names the destination of the int move ``code`` in position ``p``: ``piece << 3 | mark``, where
    ``mark`` 0..5 is the direction from reference ``piece`` to the destination and 6 means on top of it; -1 when
    no piece can name it, -2 when ``code`` is not a move of any position (its piece or a cell out of range)."""
    pid = code & 31
    src = code >> 5 & 2047
    dst = code >> 16
    if code < 0 or dst >= CELLS or pid >= PIECES or src > _HAND:
        return -2
    if p.height[dst] and dst != src:
        return p.top[dst] << 3 | 6
    base = dst * 6
    for d in range(6):
        ref = p.top[_NB[base + d]]
        if ref == pid:
            ref = p.below[pid]
        if ref >= 0:
            return ref << 3 | _OPP[d]
    if src != _HAND:  # the piece's own cell: "wQ wQ\\" is valid UHP
        for d in range(6):
            if _NB[src * 6 + d] == dst:
                return pid << 3 | d
    return -1


#: Whether this module runs compiled (its ``.pxd`` types apply) or as plain Python.
COMPILED: bool = is_compiled(reference)
_NB = table("i", NEIGHBOUR, COMPILED)
_OPP = table("b", OPPOSITE, COMPILED)
_HAND = HAND
_GROUND_TAKEN = GROUND_TAKEN
