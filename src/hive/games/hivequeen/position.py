"""The hot core of HiveQueen, second half: a position's legal steps (movements, productions, ``END``).

A :class:`Position` is a :class:`~hive.games.hivequeen.state.State` that lists its legal steps (see
:mod:`hive.games.hivequeen.state` for what a step is). Plain typed Python that Cython compiles with the C types
declared in ``position.pxd``.
"""

from __future__ import annotations

from ..._build import is_compiled, table
from ...game import IN_PROGRESS
from .geometry import CELLS, core_tables
from .rules import DRONE, FIELD_LIMIT, HIGHBORN, NURSE, NURSE_SWAPS_WITH, QUEEN, SOLDIER, WORKER
from .state import END, PRODUCE, PRODUCTION, PROMOTE, State


class Position(State):
    """The state of a game of HiveQueen that generates its legal steps."""

    def generate(self) -> list[int]:
        """All legal steps: movements in the movement phase; productions and ``END`` in the production phase."""
        if self.status != IN_PROGRESS:
            return []
        if self.phase == PRODUCTION:
            return self.productions()
        return self.movements()

    def movements(self) -> list[int]:
        """The legal movements of the side to move."""
        colour = self.ply & 1
        board = self.board
        moves: list[int] = []
        own_cells: list[int] = []
        for cell in range(CELLS):
            code = board[cell]
            if code and code >> 3 == colour:
                own_cells.append(cell)
        promote = self.can_promote(colour)
        for cell in own_cells:
            kind = board[cell] & 7
            if kind == WORKER:
                for d in range(6):
                    n = _NB[cell * 6 + d]
                    if n >= 0 and board[n] == 0:
                        moves.append(cell | n << 6)
            elif kind == DRONE:
                for n in range(CELLS):
                    if board[n] == 0:
                        moves.append(cell | n << 6)
            elif kind in (SOLDIER, HIGHBORN):
                # along each line: a Highborn slides over empty cells and stops at a friend; a Soldier leaps over
                # friends and stops at an empty cell; both capture the first enemy
                rider = kind == HIGHBORN
                first = len(moves)
                for d in range(6):
                    end = _RAY_START[cell * 6 + d + 1]
                    for i in range(_RAY_START[cell * 6 + d], end):
                        n = _RAY_CELLS[i]
                        v = board[n]
                        if v == 0:
                            if not rider:
                                break
                            moves.append(cell | n << 6)
                        elif v >> 3 != colour:
                            moves.append(cell | n << 6)
                            break
                        elif rider:
                            break
                if rider and promote:
                    count = len(moves)
                    for i in range(first, count):
                        moves.append(moves[i] | PROMOTE)
                    moves.append(cell | cell << 6 | PROMOTE)
            elif kind == QUEEN:
                for other in own_cells:
                    if board[other] & 7 == HIGHBORN:
                        moves.append(cell | other << 6)
            else:  # NURSE
                for other in own_cells:
                    k = board[other] & 7
                    if _SWAP[k] and other != cell and (k != NURSE or other > cell):
                        moves.append(cell | other << 6)
        return moves

    def productions(self) -> list[int]:
        """The legal productions of the side to move in its production phase, and ``END``."""
        moves: list[int] = [END]
        colour = self.ply & 1
        if not self._may_produce(colour):
            return moves
        board = self.board
        own = colour << 3
        count = self.count
        prod = self.prod
        cnt = prod & 3
        first = prod >> 2 & 3
        every = 3 if self.nurses == 2 else 1
        soldier_ok = cnt == 0 or (first & 1 and every & 2) or (first & 2 and every & 1)
        kinds: list[int] = []
        for kind in (WORKER, DRONE, NURSE):
            if count[kind | own] < _LIMIT[kind]:
                kinds.append(kind)
        soldiers = count[SOLDIER | own] < _LIMIT[SOLDIER]
        for cell in range(CELLS):
            if board[cell]:
                continue
            friendly = False
            nset = 0
            for d in range(6):
                n = _NB[cell * 6 + d]
                if n < 0:
                    continue
                v = board[n]
                if v and v >> 3 == colour:
                    friendly = True
                    if n == self.nurse0:
                        nset |= 1
                    elif n == self.nurse1:
                        nset |= 2
            if not friendly:
                continue
            if soldier_ok and soldiers:
                moves.append(PRODUCE | cell | SOLDIER << 6)
            if nset and (cnt == 0 or (first & 1 and nset & 2) or (first & 2 and nset & 1)):
                for kind in kinds:
                    moves.append(PRODUCE | cell | kind << 6)
        return moves


def _nurse_swaps() -> list[int]:
    """1 for each kind a Nurse may swap with, by kind."""
    return [int(kind in NURSE_SWAPS_WITH) for kind in range(8)]


# C-typed copies (see position.pxd) of the tables used above; plain lists when running as Python.
_COMPILED = is_compiled(_nurse_swaps)
_NB, _RAY_START, _RAY_CELLS = core_tables(_COMPILED)
_SWAP = table("b", _nurse_swaps(), _COMPILED)
_LIMIT = table("i", FIELD_LIMIT, _COMPILED)
