"""Static evaluation and step ordering of HiveQueen positions, the hot half of the HiveQueen AI.

Plain typed Python; Cython compiles it with the C types in ``evaluation.pxd``.
"""

from __future__ import annotations

from .._build import filled, is_compiled, table
from ..ai.search import add_sort_key, apply_sort
from .geometry import CELLS, DISTANCE, NEIGHBOUR, RAY_CELLS, RAY_START
from .position import END, PRODUCE, PRODUCTION, PROMOTE, Position
from .rules import DRONE, HIGHBORN, QUEEN, SOLDIER, UNITS_PER_WORKER, WORKER

#: Material values by kind (the Queen's worth is in the game's end, not here).
VALUE = (0, 0, 320, 110, 120, 110, 100)
#: A side without a Queen (it must promote at once or lose).
NO_QUEEN = 3000
#: Capturing the enemy Queen when the enemy could not promote after it.
QUEEN_CAPTURE = 5000
#: Capturing the enemy Queen when the enemy could promote a Highborn.
QUEEN_CAPTURE_PROMOTABLE = 700
#: Share (in tenths) of the best capture the side to move can make now, and of the opponent's best threat.
OWN_THREAT = 7
ENEMY_THREAT = 3
#: Value per unit of spare capacity (up to 5) and per Highborn that could promote.
SPARE = 10
PROMOTABLE = 60
#: Cells per producible kind the search considers in each production step.
PRODUCTION_CELLS = 2


def evaluate(p: Position) -> int:
    """Score ``p`` for the side to move: positive is good for it."""
    if p.phase == _PRODUCTION:
        # mid-turn: the opponent moves next, so score the position as if the turn had ended
        return _static(p, 1 - (p.ply & 1), p.ply & 1)
    return _static(p, p.ply & 1, p.ply & 1)


def _static(p: Position, to_move: int, me: int) -> int:
    count = p.count
    score = 0
    for colour in range(2):
        own = colour << 3
        side = 0
        for kind in range(HIGHBORN, SOLDIER + 1):
            side += _VALUE[kind] * count[kind | own]
        if count[QUEEN | own] == 0:
            side -= _NO_QUEEN
            if p.can_promote(colour):
                side += _NO_QUEEN // 2
        elif count[DRONE | own]:
            side += _PROMOTABLE * min(count[HIGHBORN | own], 1)
        spare = UNITS_PER_WORKER * count[WORKER | own] - p.load(colour)
        side += _SPARE * max(0, min(spare, 5))
        score += side if colour == to_move else -side
    score += _OWN_THREAT * best_capture(p, to_move) // 10
    score -= _ENEMY_THREAT * best_capture(p, 1 - to_move) // 10
    return score if to_move == me else -score


def best_capture(p: Position, colour: int) -> int:
    """The value of the best capture ``colour`` could make if it were to move now."""
    board = p.board
    best = 0
    enemy = 1 - colour
    promotable = p.count[DRONE | enemy << 3] > 0 and p.count[HIGHBORN | enemy << 3] > 0
    for cell in range(CELLS):
        code = board[cell]
        if not code or code >> 3 != colour:
            continue
        kind = code & 7
        if kind != HIGHBORN and kind != SOLDIER:
            continue
        for d in range(6):
            end = _RAY_START[cell * 6 + d + 1]
            for i in range(_RAY_START[cell * 6 + d], end):
                v = board[_RAY_CELLS[i]]
                if v == 0:
                    if kind == SOLDIER:
                        break  # a Soldier captures along a line of pieces only
                    continue
                if v >> 3 == enemy:
                    value = _victim(v & 7, promotable)
                    if value > best:
                        best = value
                    break
                if kind == HIGHBORN:
                    break  # a Soldier jumps over its own pieces; a Highborn stops
    return best


def _victim(kind: int, promotable: bool) -> int:
    if kind == QUEEN:
        return _QUEEN_CAPTURE_PROMOTABLE if promotable else _QUEEN_CAPTURE
    return _VALUE[kind]


def narrow_productions(p: Position, moves: list[int]) -> list[int]:
    """``END`` and the best :data:`PRODUCTION_CELLS` production cells per kind, by a cheap cell score."""
    colour = p.ply & 1
    enemy_queen = -1
    enemy = QUEEN | (1 - colour) << 3
    board = p.board
    for cell in range(CELLS):
        if board[cell] == enemy:
            enemy_queen = cell
    original = [step for step in moves if step != _END]
    for i in range(len(original)):
        step = original[i]
        # best cell score first, then the higher step (steps are below END)
        add_sort_key(i, _cell_score(p, step, colour, enemy_queen) * _END + step)
    ordered = original[:]
    apply_sort(ordered, original)
    taken = [0] * 8
    out = [_END]
    for step in ordered:
        kind = step >> 6 & 7
        if taken[kind] < _PRODUCTION_CELLS:
            taken[kind] += 1
            out.append(step)
    return out


def _cell_score(p: Position, step: int, colour: int, enemy_queen: int) -> int:
    cell = step & 63
    kind = step >> 6 & 7
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


def order_steps(p: Position, moves: list[int], tt_move: int, killer: int) -> None:
    """Sort ``moves`` in place, most promising first: the table's move, captures (the Queen first), promotions,
    the killer, history (:func:`add_history`), productions, and ``END`` last; equal keys keep their order."""
    board = p.board
    colour = p.ply & 1
    original = moves[:]
    for i in range(len(original)):
        move = original[i]
        k = _HISTORY[move]
        if move == tt_move:
            k += 1 << 30
        elif move == killer:
            k += 1 << 20
        if move < _PRODUCE:
            target = board[move >> 6 & 63]
            if target and target >> 3 != colour:
                kind = target & 7
                k += (1 << 24) + (1 << 16 if kind == QUEEN else _VALUE[kind] << 4)
            if move & _PROMOTE:
                k += 1 << 25
        elif move == _END:
            k -= 1
        else:
            k += 1 << 10
        add_sort_key(i, k)
    apply_sort(moves, original)


def add_history(step: int, amount: int) -> None:
    """Raise the history score that :func:`order_steps` gives ``step`` (a step that cut the search off)."""
    if _HISTORY[step] == 0:
        _TOUCHED.append(step)
    _HISTORY[step] += amount


def clear_history() -> None:
    """Zero the history scores (each search starts afresh)."""
    for step in _TOUCHED:
        _HISTORY[step] = 0
    _TOUCHED.clear()


# C-typed copies (see evaluation.pxd) of the tables used above; plain lists when running as Python.
_COMPILED = is_compiled(evaluate)
_VALUE = table("h", VALUE, _COMPILED)
_NB = table("b", NEIGHBOUR, _COMPILED)
_RAY_START = table("i", RAY_START, _COMPILED)
_RAY_CELLS = table("b", RAY_CELLS, _COMPILED)
_DISTANCE = table("b", DISTANCE, _COMPILED)
# Move ordering's history scores by step (steps are below END << 1) and the steps raised since the last clear.
_HISTORY = filled("q", END << 1, _COMPILED)
_TOUCHED: list[int] = []
_END = END
_PRODUCE = PRODUCE
_PROMOTE = PROMOTE
_PRODUCTION = PRODUCTION
_NO_QUEEN = NO_QUEEN
_QUEEN_CAPTURE_PROMOTABLE = QUEEN_CAPTURE_PROMOTABLE
_QUEEN_CAPTURE = QUEEN_CAPTURE
_OWN_THREAT = OWN_THREAT
_ENEMY_THREAT = ENEMY_THREAT
_SPARE = SPARE
_PROMOTABLE = PROMOTABLE
_PRODUCTION_CELLS = PRODUCTION_CELLS
