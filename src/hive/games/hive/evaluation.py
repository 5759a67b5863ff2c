"""Static evaluation of a Hive position, in centi-pawn-like units for the side to move (weights in ``weights``).

Plain typed Python; Cython compiles it with the C types in ``evaluation.pxd``.
"""

from __future__ import annotations

from ..._build import is_compiled, table
from .geometry import NEIGHBOUR, SLIDES
from .pieces import KIND, MOSQUITO, PIECES_PER_COLOUR, PILLBUG
from .state import State
from .weights import ACTIVE, GUARD, IN_HAND, ON_QUEEN, ON_TOP, QUEEN_COVERED, QUEEN_FREE, QUEEN_PRESSURE, QUEEN_SLIDE


def evaluate(p: State) -> int:
    """Score ``p`` for the side to move: positive is good for it."""
    stamp = p.find_cuts()
    score = 0
    for colour in range(2):
        lo = colour * PIECES_PER_COLOUR
        enemy_queen = p.pos[PIECES_PER_COLOUR - lo]
        own_queen = p.pos[lo]
        side = 0
        if own_queen >= 0:
            side -= _PRESSURE[_POPCOUNT[p.nmask[own_queen]]]
            # a queen that is buried under a beetle is worth little
            if p.top[own_queen] != lo:
                side -= QUEEN_COVERED
            elif p.cut_mark[own_queen] != stamp:
                slides = _SLIDE_COUNT[p.nmask[own_queen]]
                if slides:
                    side += QUEEN_FREE + QUEEN_SLIDE * slides
        for pid in range(lo, lo + PIECES_PER_COLOUR):
            cell = p.pos[pid]
            kind = _KIND[pid]
            if cell < 0:
                if p.enabled[kind]:
                    side += _IN_HAND[kind]
                continue
            if p.top[cell] != pid:
                continue  # covered: no value
            if p.height[cell] > 1:
                side += _ACTIVE[kind] + ON_TOP
                if enemy_queen >= 0 and p.top[enemy_queen] == pid:
                    side += ON_QUEEN
            elif p.cut_mark[cell] != stamp:
                side += _ACTIVE[kind]
            if kind in (PILLBUG, MOSQUITO) and own_queen >= 0:
                base = cell * 6
                for d in range(6):
                    if _NB[base + d] == own_queen:
                        side += GUARD
                        break
        score += side if colour == 0 else -side
    return score if p.ply & 1 == 0 else -score


# C-typed copies (see evaluation.pxd) of the tables used above; plain lists when running as Python.
_COMPILED = is_compiled(evaluate)
_NB = table("i", NEIGHBOUR, _COMPILED)
_KIND = table("b", KIND, _COMPILED)
_PRESSURE = table("h", QUEEN_PRESSURE, _COMPILED)
_ACTIVE = table("h", ACTIVE, _COMPILED)
_IN_HAND = table("h", IN_HAND, _COMPILED)
_POPCOUNT = table("b", [bin(m).count("1") for m in range(64)], _COMPILED)
_SLIDE_COUNT = table("b", [len(SLIDES[m]) for m in range(64)], _COMPILED)
