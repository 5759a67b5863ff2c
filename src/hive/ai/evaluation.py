"""Static evaluation of a Hive position, in centi-pawn-like units for the side to move."""

from __future__ import annotations

from ..core.geometry import NEIGHBOURS, SLIDES
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
    pos = p.pos
    top = p.top
    height = p.height
    nmask = p.nmask
    cut = p.cut_cells()
    score = 0
    for colour in range(2):
        sign = 1 if colour == 0 else -1
        lo = colour * PIECES_PER_COLOUR
        enemy_queen = pos[PIECES_PER_COLOUR - lo]
        own_queen = pos[lo]
        side = 0
        if own_queen >= 0:
            side -= QUEEN_PRESSURE[_popcount(nmask[own_queen])]
            # a queen that is buried under a beetle is worth little
            if top[own_queen] != lo:
                side -= 40
            elif own_queen not in cut:
                slides = len(SLIDES[nmask[own_queen]])
                if slides:
                    side += QUEEN_FREE + QUEEN_SLIDE * slides
        for pid in range(lo, lo + PIECES_PER_COLOUR):
            cell = pos[pid]
            kind = KIND[pid]
            if cell < 0:
                if p.enabled[kind]:
                    side += IN_HAND[kind]
                continue
            if top[cell] != pid:
                continue  # covered: no value
            if height[cell] > 1:
                side += ACTIVE[kind] + 10
                if enemy_queen >= 0 and top[enemy_queen] == pid:
                    side += ON_QUEEN
            elif cell not in cut:
                side += ACTIVE[kind]
            if kind in (PILLBUG, MOSQUITO) and own_queen >= 0 and own_queen in NEIGHBOURS[cell]:
                side += GUARD
        score += sign * side
    return score if p.ply & 1 == 0 else -score


def _popcount(mask: int) -> int:
    return bin(mask).count("1")
