"""The hot core of HiveQueen, first half: the field, make/unmake, hashing and game end.

Step generation is the second half (:class:`hive.games.hivequeen.position.Position`, a subclass).

Written in the same plain typed subset of Python as the Hive core (ints, lists, bytearrays, small methods);
Cython compiles it with the C types in ``position.pxd``.

A turn is one movement followed by zero or more productions. The core works on *steps*, each an ``int``:

- a movement ``src | dst << 6`` (``| PROMOTE`` when a Highborn is promoted; ``src == dst`` for a promotion
  that is the whole movement);
- a production ``PRODUCE | cell | kind << 6``;
- ``END``, which ends the production phase.

Production is a sequence of sub-steps rather than part of one turn int because the number of whole turns is
the product of movements and production sets (tens of thousands when two Nurses may produce), while steps keep
each list short: the search branches over the steps, with ``ply`` counting whole turns so that the side to move
is ``ply & 1`` throughout. The turn ends by itself when no further production is possible, so ``END`` is only
offered while a choice remains.
"""

from __future__ import annotations

import random

from ..._build import filled, is_compiled, table
from ...game import DRAW, FIRST_WINS, IN_PROGRESS, SECOND_WINS
from .geometry import CELLS, MIRROR, cell_at, core_tables
from .rules import (
    CAPACITY_COUNTED_AT_PHASE_START,
    CAPACITY_IN_UNITS,
    DRONE,
    HIGHBORN,
    NURSE,
    PROMOTION_EXTRA_UNITS,
    QUEEN,
    REPETITION_DRAW_COUNT,
    SETUP,
    SOLDIER,
    TURN_LIMIT_WITHOUT_CAPTURE,
    UNITS,
    UNITS_PER_WORKER,
    WORKER,
)

PROMOTE = 1 << 12
PRODUCE = 1 << 13
END = 1 << 14
MOVEMENT = 0
PRODUCTION = 1

SOUTH_WINS = FIRST_WINS
NORTH_WINS = SECOND_WINS
#: Names of the status codes (``NOT_STARTED`` is never used: the game starts set up).
STATE_NAMES = ("NotStarted", "InProgress", "Draw", "SouthWins", "NorthWins")


def step_origin(step: int) -> int:
    """The cell a movement step leaves."""
    return step & 63


def step_destination(step: int) -> int:
    """The cell a movement step ends on (its origin for a promotion in place)."""
    return step >> 6 & 63


def is_promotion(step: int) -> bool:
    """Whether a movement step promotes its Highborn."""
    return bool(step & PROMOTE)


def production_cell(step: int) -> int:
    """The cell a production step fills."""
    return step & 63


def production_kind(step: int) -> int:
    """The kind of piece a production step brings in."""
    return step >> 6 & 7


def movement_step(origin: int, destination: int, promote: bool) -> int:
    """The step of a movement (``destination == origin`` for a promotion in place)."""
    return origin | destination << 6 | (PROMOTE if promote else 0)


def production_step(kind: int, cell: int) -> int:
    """The step of a production."""
    return PRODUCE | cell | kind << 6


def _zobrist_tables() -> tuple[list[int], list[int], list[int], int, int]:
    rng = random.Random(0x48515545)  # fixed: hashes are stable across runs
    pieces = [0 if code & 7 == 0 else rng.getrandbits(64) for code in range(16) for _ in range(CELLS)]
    fresh = [rng.getrandbits(64) for _ in range(CELLS)]
    prod = [0] + [rng.getrandbits(64) for _ in range(63)]
    return pieces, fresh, prod, rng.getrandbits(64), rng.getrandbits(64)


ZOBRIST_PIECE, ZOBRIST_FRESH, ZOBRIST_PROD, ZOBRIST_NORTH, ZOBRIST_PRODUCTION = _zobrist_tables()


def winner_status(colour: int) -> int:
    """The status code of a win by ``colour``."""
    return _SOUTH_WINS if colour == 0 else _NORTH_WINS


class State:
    """The field, whose turn it is, the production phase state and the history needed to undo.

    ``board[cell]`` is 0 or ``kind | colour << 3``; ``count[kind | colour << 3]`` counts pieces on the field.
    """

    def __init__(self, setup: bool = True) -> None:
        self.board = bytearray(CELLS)
        self.count: list[int] = [0] * 16
        self.units: list[int] = [0, 0]
        self.pieces: list[int] = [0, 0]
        self.ply = 0
        self.phase = _MOVEMENT
        self.status = IN_PROGRESS
        self.quiet = 0
        self.capture = 0
        self.nurse0 = -1
        self.nurse1 = -1
        self.nurses = 0
        self.cap = 0
        self.prod = 0
        self.fresh: tuple[int, ...] = ()
        self.hash = 0
        self.history: list[int] = []
        # what unmake restores, one row per step of the history: the hash, _UNDO_FIELDS small ints, the fresh cells
        self._undo_hash = filled("Q", 64, _COMPILED)
        self._undo_state = filled("q", 64 * _UNDO_FIELDS, _COMPILED)
        self._undo_fresh: list[tuple[int, ...]] = []
        self.seen: dict[int, int] = {}
        if setup:
            for r, row in SETUP:
                q = -4 if r >= 0 else -4 - r
                for kind in row:
                    if kind:
                        cell = cell_at(q, r)
                        self.put(cell, kind)
                        self.put(MIRROR[cell], kind | 8)
                    q += 1
        self.reset()

    def put(self, cell: int, code: int) -> None:
        """Set a cell to ``code`` (0 empties it) without touching the hash; call :meth:`reset` after set-up."""
        old = self.board[cell]
        if old:
            self.count[old] -= 1
            self.units[old >> 3] -= _UNITS[old & 7]
            self.pieces[old >> 3] -= 1
        if code:
            self.count[code] += 1
            self.units[code >> 3] += _UNITS[code & 7]
            self.pieces[code >> 3] += 1
        self.board[cell] = code

    def reset(self) -> None:
        """Forget the history and recompute hash and status: the current field becomes a starting position."""
        self.history.clear()
        self._undo_fresh.clear()
        self.phase = _MOVEMENT
        self.prod = 0
        self.fresh = ()
        self.hash = self.compute_hash()
        self.seen = {self.hash: 1}
        self.status = IN_PROGRESS
        self._turn_status()

    def copy_state_to(self, other: State) -> None:
        """Copy the field, counters and hash (not the undo history) into ``other``."""
        other.board[:] = self.board
        other.count[:] = self.count
        other.units[:] = self.units
        other.pieces[:] = self.pieces
        for name in ("ply", "phase", "status", "quiet", "capture", "nurse0", "nurse1", "nurses", "cap", "prod"):
            setattr(other, name, getattr(self, name))
        other.fresh = self.fresh
        other.hash = self.hash
        other.seen = dict(self.seen)

    def compute_hash(self) -> int:
        """The Zobrist hash from scratch (the incremental one must always equal it)."""
        h = 0
        board = self.board
        for cell in range(CELLS):
            h ^= _ZPIECE[board[cell] * CELLS + cell]
        if self.ply & 1:
            h ^= _ZNORTH
        if self.phase == _PRODUCTION:
            h ^= _ZPRODUCTION ^ _ZPROD[self.prod]
            for cell in self.fresh:
                h ^= _ZFRESH[cell]
        return h

    # ------------------------------------------------------------------
    # capacity and promotion

    def load(self, colour: int) -> int:
        """What counts against capacity: units (or pieces, if capacity were read in pieces)."""
        return self.units[colour] if CAPACITY_IN_UNITS else self.pieces[colour]

    def capacity(self, colour: int) -> int:
        """Units the player's Workers on the field support now."""
        return UNITS_PER_WORKER * self.count[WORKER | colour << 3]

    def can_promote(self, colour: int) -> bool:
        """Queen captured, a friendly Drone on the field, and Workers that support 3 more units."""
        own = colour << 3
        return (
            self.count[QUEEN | own] == 0
            and self.count[DRONE | own] > 0
            and self.load(colour) + PROMOTION_EXTRA_UNITS <= self.capacity(colour)
        )

    def _may_produce(self, colour: int) -> bool:
        cnt = self.prod & 3
        if cnt >= self.nurses:
            return False
        cap = self.cap if CAPACITY_COUNTED_AT_PHASE_START else self.capacity(colour)
        return self.load(colour) + 1 <= cap

    # ------------------------------------------------------------------
    # make / unmake

    def make(self, step: int) -> None:
        """Play a step given as an int, without any legality check."""
        colour = self.ply & 1
        board = self.board
        captured = 0
        if step < _PRODUCE:
            dst = step >> 6 & 63
            target = board[dst]
            if target and target >> 3 != colour:
                captured = target
        n = len(self.history)
        if n == len(self._undo_hash):
            self._grow_undo()
        self._undo_hash[n] = self.hash
        i = n * _UNDO_FIELDS
        self._undo_state[i] = self.status
        self._undo_state[i + 1] = self.ply
        self._undo_state[i + 2] = self.phase
        self._undo_state[i + 3] = self.quiet
        self._undo_state[i + 4] = self.capture
        self._undo_state[i + 5] = self.prod
        self._undo_state[i + 6] = self.cap
        self._undo_state[i + 7] = self.nurse0
        self._undo_state[i + 8] = self.nurse1
        self._undo_state[i + 9] = captured
        self._undo_fresh.append(self.fresh)
        self.history.append(step)
        if step == _END:
            self._end_turn()
            return
        h = self.hash
        if step & _PRODUCE:
            cell = step & 63
            code = (step >> 6 & 7) | colour << 3
            self.put(cell, code)
            prod = self.prod
            cnt = prod & 3
            nset = self.nurses_of(cell) if code & 7 != SOLDIER else (3 if self.nurses == 2 else 1)
            new = (cnt + 1) | (prod & 0b1100) | nset << (2 + 2 * cnt)
            h ^= _ZPIECE[code * CELLS + cell] ^ _ZFRESH[cell] ^ _ZPROD[prod] ^ _ZPROD[new]
            self.prod = new
            self.fresh = (*self.fresh, cell)
            self.hash = h
            if not self._may_produce(colour):
                self._end_turn()
            return
        src = step & 63
        dst = step >> 6 & 63
        code = board[src]
        if src != dst:
            target = board[dst]
            if target and target >> 3 == colour:
                h ^= _ZPIECE[code * CELLS + src] ^ _ZPIECE[target * CELLS + dst] ^ _ZPIECE[target * CELLS + src]
                self.put(src, target)
            else:
                h ^= _ZPIECE[code * CELLS + src] ^ _ZPIECE[target * CELLS + dst]
                self.put(src, 0)
            h ^= _ZPIECE[code * CELLS + dst]
            self.put(dst, code)
        if step & _PROMOTE:
            queen = QUEEN | colour << 3
            h ^= _ZPIECE[code * CELLS + dst] ^ _ZPIECE[queen * CELLS + dst]
            self.put(dst, queen)
        self.hash = h
        self.capture = captured
        if self.count[QUEEN | colour << 3] == 0:
            self.status = winner_status(1 - colour)
            self._end_turn()
            return
        if self.count[NURSE | colour << 3]:
            self.nurse0 = -1
            self.nurse1 = -1
            nurse = NURSE | colour << 3
            for cell in range(CELLS):
                if board[cell] == nurse:
                    if self.nurse0 < 0:
                        self.nurse0 = cell
                    else:
                        self.nurse1 = cell
            self.nurses = 1 if self.nurse1 < 0 else 2
            self.cap = self.capacity(colour)
            self.prod = 0
            if self._may_produce(colour):
                self.phase = _PRODUCTION
                self.hash = h ^ _ZPRODUCTION
                return
        self._end_turn()

    def _end_turn(self) -> None:
        h = self.hash
        if self.phase == _PRODUCTION:
            h ^= _ZPRODUCTION ^ _ZPROD[self.prod]
            for cell in self.fresh:
                h ^= _ZFRESH[cell]
            self.phase = _MOVEMENT
            self.prod = 0
            self.fresh = ()
        self.hash = h ^ _ZNORTH
        self.ply += 1
        self.quiet = 0 if self.capture else self.quiet + 1
        self.capture = 0
        self.nurses = 0
        self.seen[self.hash] = self.seen.get(self.hash, 0) + 1
        if self.status == IN_PROGRESS:
            self._turn_status()

    def _turn_status(self) -> None:
        colour = self.ply & 1
        if not self.has_movement(colour):
            if self.has_movement(1 - colour):
                self.status = winner_status(1 - colour)
            else:
                self.status = self.units_decision()
        elif self.seen.get(self.hash, 0) >= REPETITION_DRAW_COUNT:
            self.status = DRAW
        elif self.quiet >= TURN_LIMIT_WITHOUT_CAPTURE:
            self.status = self.units_decision()

    def units_decision(self) -> int:
        """The higher total of units on the field wins; equal totals draw."""
        south, north = self.units
        if south > north:
            return _SOUTH_WINS
        if north > south:
            return _NORTH_WINS
        return DRAW

    def unmake(self) -> int:
        """Take back the last step and return it."""
        step = self.history.pop()
        n = len(self.history)
        i = n * _UNDO_FIELDS
        ply = self._undo_state[i + 1]
        captured = self._undo_state[i + 9]
        if self.ply != ply:
            seen = self.seen
            count = seen[self.hash] - 1
            if count:
                seen[self.hash] = count
            else:
                del seen[self.hash]
        colour = ply & 1
        if step & _PRODUCE:
            self.put(step & 63, 0)
        elif step != _END:
            src = step & 63
            dst = step >> 6 & 63
            if step & _PROMOTE:
                self.put(dst, HIGHBORN | colour << 3)
            if src != dst:
                code = self.board[dst]
                other = self.board[src]
                self.put(src, code)
                self.put(dst, captured if captured else other)
        self.hash = self._undo_hash[n]
        self.status = self._undo_state[i]
        self.ply = ply
        phase = self._undo_state[i + 2]
        self.phase = phase
        self.quiet = self._undo_state[i + 3]
        self.capture = self._undo_state[i + 4]
        self.prod = self._undo_state[i + 5]
        self.cap = self._undo_state[i + 6]
        nurse0 = self._undo_state[i + 7]
        nurse1 = self._undo_state[i + 8]
        self.nurse0 = nurse0
        self.nurse1 = nurse1
        self.nurses = 0 if nurse0 < 0 or phase == _MOVEMENT else (1 if nurse1 < 0 else 2)
        self.fresh = self._undo_fresh.pop()
        return step

    def _grow_undo(self) -> None:
        self._copy_undo_to(self, 2 * len(self._undo_hash))

    def _copy_undo_to(self, other: State, rows: int) -> None:
        """Give ``other`` undo arrays of ``rows`` rows that start with this position's."""
        size = len(self._undo_hash)
        undo_hash = filled("Q", rows, _COMPILED)
        undo_state = filled("q", rows * _UNDO_FIELDS, _COMPILED)
        undo_hash[:size] = self._undo_hash
        undo_state[: size * _UNDO_FIELDS] = self._undo_state
        other._undo_hash = undo_hash
        other._undo_state = undo_state

    def copy_history_to(self, other: State) -> None:
        """Copy the step history and what undoing it needs into ``other`` (after :meth:`copy_state_to`)."""
        other.history = list(self.history)
        self._copy_undo_to(other, len(self._undo_hash))
        other._undo_fresh = list(self._undo_fresh)

    def ply_before(self, steps: int) -> int:
        """The ply (turn count) before the last ``steps`` steps were made."""
        if steps == 0:
            return self.ply
        return self._undo_state[(len(self.history) - steps) * _UNDO_FIELDS + 1]

    # ------------------------------------------------------------------
    # generation

    def nurses_of(self, cell: int) -> int:
        """Bit 0 (1) set when ``cell`` touches the first (second) Nurse producing this phase."""
        s = 0
        for d in range(6):
            n = _NB[cell * 6 + d]
            if n < 0:
                continue
            if n == self.nurse0:
                s |= 1
            elif n == self.nurse1:
                s |= 2
        return s

    def has_movement(self, colour: int) -> bool:
        """Whether ``colour`` could perform a movement if it were its turn."""
        board = self.board
        count = self.count
        own = colour << 3
        promote = self.can_promote(colour)
        for cell in range(CELLS):
            code = board[cell]
            if not code or code >> 3 != colour:
                continue
            kind = code & 7
            if kind == DRONE:
                if self.pieces[0] + self.pieces[1] < CELLS:
                    return True
            elif kind == QUEEN:
                if count[HIGHBORN | own]:
                    return True
            elif kind == NURSE:
                if count[DRONE | own] + count[NURSE | own] + count[WORKER | own] + count[SOLDIER | own] > 1:
                    return True
            elif kind in (WORKER, HIGHBORN):
                if kind == HIGHBORN and promote:
                    return True
                for d in range(6):
                    n = _NB[cell * 6 + d]
                    if n < 0:
                        continue
                    v = board[n]
                    if v == 0 or (kind == HIGHBORN and v >> 3 != colour):
                        return True
            elif kind == SOLDIER:
                for d in range(6):
                    end = _RAY_START[cell * 6 + d + 1]
                    for i in range(_RAY_START[cell * 6 + d], end):
                        v = board[_RAY_CELLS[i]]
                        if v == 0:
                            break
                        if v >> 3 != colour:
                            return True
        return False


# C-typed copies (see state.pxd) of the tables used above; plain lists when running as Python.
_COMPILED = is_compiled(winner_status)
_ZPIECE = table("Q", ZOBRIST_PIECE, _COMPILED)
_ZFRESH = table("Q", ZOBRIST_FRESH, _COMPILED)
_ZPROD = table("Q", ZOBRIST_PROD, _COMPILED)
_ZNORTH = ZOBRIST_NORTH
_ZPRODUCTION = ZOBRIST_PRODUCTION
_NB, _RAY_START, _RAY_CELLS = core_tables(_COMPILED)
_UNITS = table("b", UNITS, _COMPILED)
_PROMOTE = PROMOTE
_PRODUCE = PRODUCE
_END = END
_MOVEMENT = MOVEMENT
_PRODUCTION = PRODUCTION
_SOUTH_WINS = SOUTH_WINS
_NORTH_WINS = NORTH_WINS
# an undo row: status, ply, phase, quiet, capture, prod, cap, nurse0, nurse1 and the captured piece
_UNDO_FIELDS = 10
