"""Static evaluation of HiveQueen positions (weights in ``weights``) and the cheap score of a production cell.

Plain typed Python; Cython compiles it with the C types in ``evaluation.pxd``.
"""

from __future__ import annotations

from ..._build import is_compiled, table
from .geometry import CELLS, DISTANCE, core_tables
from .rules import DRONE, HIGHBORN, QUEEN, SOLDIER, UNITS_PER_WORKER, WORKER
from .state import PRODUCTION, State, production_cell, production_kind
from .weights import (
    ENEMY_THREAT,
    NO_QUEEN,
    OWN_THREAT,
    PROMOTABLE,
    QUEEN_CAPTURE,
    QUEEN_CAPTURE_PROMOTABLE,
    SPARE,
    VALUE,
)


def evaluate(p: State) -> int:
    """Score ``p`` for the side to move: positive is good for it."""
    if p.phase == PRODUCTION:
        # mid-turn: the opponent moves next, so score the position as if the turn had ended
        return _static(p, 1 - (p.ply & 1), p.ply & 1)
    return _static(p, p.ply & 1, p.ply & 1)


def _static(p: State, to_move: int, me: int) -> int:
    count = p.count
    score = 0
    for colour in range(2):
        own = colour << 3
        side = 0
        # each count read into a C int first: the arithmetic stays in C
        for kind in range(HIGHBORN, SOLDIER + 1):
            pieces = count[kind | own]
            side += _VALUE[kind] * pieces
        pieces = count[QUEEN | own]
        if pieces == 0:
            side -= NO_QUEEN
            if p.can_promote(colour):
                side += NO_QUEEN // 2
        elif count[DRONE | own]:
            pieces = count[HIGHBORN | own]
            side += PROMOTABLE * min(pieces, 1)
        pieces = count[WORKER | own]
        spare = UNITS_PER_WORKER * pieces - p.load(colour)
        side += SPARE * max(0, min(spare, 5))
        score += side if colour == to_move else -side
    captures = _best_captures(p)
    score += OWN_THREAT * (captures >> 32 * to_move & _LOW) // 10
    score -= ENEMY_THREAT * (captures >> 32 * (1 - to_move) & _LOW) // 10
    return score if to_move == me else -score


def best_capture(p: State, colour: int) -> int:
    """The value of the best capture ``colour`` could make if it were to move now."""
    return _best_captures(p) >> 32 * colour & _LOW


def _best_captures(p: State) -> int:
    """:func:`best_capture` of both sides in one pass over the field: South's in the low 32 bits, North's above."""
    board = p.board  # compiled: the bytearray's C buffer, read without a call per cell
    best0 = 0
    best1 = 0
    # whether each side's Queen, if captured, could be replaced by a promotion
    promotable0 = p.count[DRONE] > 0 and p.count[HIGHBORN] > 0
    promotable1 = p.count[DRONE | 8] > 0 and p.count[HIGHBORN | 8] > 0
    for cell in range(CELLS):
        code = board[cell]
        kind = code & 7
        if kind != HIGHBORN and kind != SOLDIER:
            continue
        colour = code >> 3
        for d in range(6):
            end = _RAY_START[cell * 6 + d + 1]
            for i in range(_RAY_START[cell * 6 + d], end):
                v = board[_RAY_CELLS[i]]
                if v == 0:
                    if kind == SOLDIER:
                        break  # a Soldier captures along a line of pieces only
                    continue
                if v >> 3 != colour:
                    if colour == 0:
                        value = _victim(v & 7, promotable1)
                        if value > best0:
                            best0 = value
                    else:
                        value = _victim(v & 7, promotable0)
                        if value > best1:
                            best1 = value
                    break
                if kind == HIGHBORN:
                    break  # a Soldier jumps over its own pieces; a Highborn stops
    return best0 | best1 << 32


def _victim(kind: int, promotable: bool) -> int:
    if kind == QUEEN:
        return QUEEN_CAPTURE_PROMOTABLE if promotable else QUEEN_CAPTURE
    return _VALUE[kind]


def cell_score(p: State, step: int, colour: int, enemy_queen: int) -> int:
    """How good a cell is for the piece a production step brings in (Soldiers near the enemy Queen and its pieces,
    the others among friends)."""
    cell = production_cell(step)
    kind = production_kind(step)
    attackers = 0
    friends = 0
    board = p.board
    for d in range(6):
        n = _NB[cell * 6 + d]
        if n < 0:
            continue
        v = board[n]
        if v:
            if v >> 3 == colour:
                friends += 1
            else:
                attackers += 1
    if kind == SOLDIER:
        near = 10 - _DISTANCE[cell * CELLS + enemy_queen] if enemy_queen >= 0 else 0
        return 4 * attackers + 2 * near + friends
    return 2 * friends - 6 * attackers


# C-typed copies (see evaluation.pxd) of the tables used above; plain lists when running as Python.
_COMPILED = is_compiled(evaluate)
_VALUE = table("h", VALUE, _COMPILED)
_NB, _RAY_START, _RAY_CELLS = core_tables(_COMPILED)
_DISTANCE = table("b", DISTANCE, _COMPILED)
_LOW = (1 << 32) - 1
