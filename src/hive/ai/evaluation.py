"""Static evaluation of a Hive position, in centi-pawn-like units for the side to move.

Plain typed Python; Cython compiles it with the C types in ``evaluation.pxd``.
"""

from __future__ import annotations

from .._build import is_compiled, table
from ..core.geometry import NEIGHBOUR, SLIDES
from ..core.pieces import KIND, MOSQUITO, PIECES_PER_COLOUR, PILLBUG
from ..core.position import Position

WIN = 1_000_000

#: Penalty for a queen with n occupied neighbours: the last few are worth far more.
QUEEN_PRESSURE = (0, 24, 60, 120, 220, 400, 0)
#: Value of a bug that is free to move, by kind (Q S B G A M L P).
ACTIVE = (15, 10, 17, 11, 22, 17, 14, 15)
#: Value of a bug still in hand: it can still go anywhere, but does nothing yet.
IN_HAND = (0, 7, 12, 8, 17, 12, 9, 9)
#: A queen that can still slide away (its liberties), plus a little per open direction: a pinned queen is
#: the first step to surrounding it.
QUEEN_FREE = 30
QUEEN_SLIDE = 5
#: A beetle or mosquito standing on the enemy queen.
ON_QUEEN = 120
#: Own pillbug or mosquito next to own queen: it can throw attackers away.
GUARD = 15


def evaluate(p: Position) -> int:
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
                side -= 40
            elif p.cut_mark[own_queen] != stamp:
                slides = _SLIDE_COUNT[p.nmask[own_queen]]
                if slides:
                    side += _QUEEN_FREE + _QUEEN_SLIDE * slides
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
                side += _ACTIVE[kind] + 10
                if enemy_queen >= 0 and p.top[enemy_queen] == pid:
                    side += _ON_QUEEN
            elif p.cut_mark[cell] != stamp:
                side += _ACTIVE[kind]
            if kind in (PILLBUG, MOSQUITO) and own_queen >= 0:
                base = cell * 6
                for d in range(6):
                    if _NB[base + d] == own_queen:
                        side += _GUARD
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
_ON_QUEEN = ON_QUEEN
_QUEEN_FREE = QUEEN_FREE
_QUEEN_SLIDE = QUEEN_SLIDE
_GUARD = GUARD
