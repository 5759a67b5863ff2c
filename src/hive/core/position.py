"""The hot core: position state, move generation, make/unmake and hashing.

Everything here is written in a plain typed subset of Python (ints, lists,
bytearrays, small methods) so that it can be compiled without rewriting.

A move is an ``int``: ``piece | origin << 5 | destination << 16`` where
``origin`` is ``HAND`` for a placement; ``PASS`` is the pass move.
"""

from __future__ import annotations

import random

from .geometry import CELLS, NEIGHBOUR, NEIGHBOURS, OCCUPIED_DIRS, OPPOSITE, SLIDES
from .pieces import (
    ANT,
    BEETLE,
    BUG_COUNT,
    BUG_FIRST,
    GRASSHOPPER,
    KIND,
    KINDS,
    LADYBUG,
    MOSQUITO,
    PIECES,
    PIECES_PER_COLOUR,
    PILLBUG,
    QUEEN,
    SPIDER,
    GameType,
)

HAND = CELLS
PASS = 31
ORIGIN_CELL = 0

NOT_STARTED = 0
IN_PROGRESS = 1
DRAW = 2
WHITE_WINS = 3
BLACK_WINS = 4
STATE_NAMES = ("NotStarted", "InProgress", "Draw", "WhiteWins", "BlackWins")

MAX_LEVEL = 8


def encode(piece: int, origin: int, destination: int) -> int:
    """Pack a move into an int (``origin`` is ``HAND`` for a placement)."""
    return piece | origin << 5 | destination << 16


def _zobrist_tables() -> tuple[list[int], list[int], list[int], int]:
    rng = random.Random(0x48495645)  # fixed: hashes are stable across runs
    cell_keys = [rng.getrandbits(64) for _ in range(PIECES * CELLS)]
    # A piece at level L > 0 adds a level key: position = where each piece is and how high.
    level_keys = [0 if lvl == 0 else rng.getrandbits(64) for _ in range(PIECES) for lvl in range(MAX_LEVEL)]
    last_keys = [rng.getrandbits(64) for _ in range(PIECES)]
    return cell_keys, level_keys, last_keys, rng.getrandbits(64)


ZOBRIST_CELL, ZOBRIST_LEVEL, ZOBRIST_LAST, ZOBRIST_BLACK = _zobrist_tables()

# Directions (d - 1, d + 1) flanking a step in direction d.
_LEFT = [(d + 5) % 6 for d in range(6)]
_RIGHT = [(d + 1) % 6 for d in range(6)]


class Position:
    """Pieces on the grid, whose turn it is, and the history needed to undo."""

    def __init__(self, game_type: GameType, tournament_opening: bool = True, repetition_draw: bool = False) -> None:
        self.game_type = game_type
        self.tournament_opening = tournament_opening
        self.repetition_draw = repetition_draw
        self.enabled: list[bool] = [game_type.enabled(k) for k in range(KINDS)]
        self.top: list[int] = [-1] * CELLS
        self.height = bytearray(CELLS)
        self.nmask = bytearray(CELLS)
        self.below: list[int] = [-1] * PIECES
        self.pos: list[int] = [-1] * PIECES
        self.placed: list[int] = [0] * (2 * KINDS)
        self.ply = 0
        self.last = -1
        self.hash = 0
        self.status = NOT_STARTED
        self.history: list[int] = []
        self._undo: list[tuple[int, int, int]] = []
        self.seen: dict[int, int] = {0: 1}
        self._disc: list[int] = [0] * CELLS
        self._stamp = 0
        self._counter = 0

    # ------------------------------------------------------------------
    # make / unmake

    def _lift(self, pid: int, cell: int) -> None:
        under = self.below[pid]
        self.top[cell] = under
        self.below[pid] = -1
        self.height[cell] -= 1
        if under < 0:
            nmask = self.nmask
            for d in range(6):
                n = NEIGHBOUR[cell * 6 + d]
                nmask[n] &= ~(1 << OPPOSITE[d])

    def _drop(self, pid: int, cell: int) -> None:
        under = self.top[cell]
        self.below[pid] = under
        self.top[cell] = pid
        self.pos[pid] = cell
        self.height[cell] += 1
        if under < 0:
            nmask = self.nmask
            for d in range(6):
                n = NEIGHBOUR[cell * 6 + d]
                nmask[n] |= 1 << OPPOSITE[d]

    def make(self, move: int) -> None:
        """Play a move given as an int, without any legality check."""
        h = self.hash
        self._undo.append((self.last, h, self.status))
        self.history.append(move)
        if self.last >= 0:
            h ^= ZOBRIST_LAST[self.last]
        if move == PASS:
            self.last = -1
        else:
            pid = move & 31
            src = move >> 5 & 2047
            dst = move >> 16
            if src == HAND:
                self.placed[(pid >= PIECES_PER_COLOUR) * KINDS + KIND[pid]] += 1
            else:
                h ^= ZOBRIST_CELL[pid * CELLS + src] ^ ZOBRIST_LEVEL[pid * MAX_LEVEL + self.height[src] - 1]
                self._lift(pid, src)
            h ^= ZOBRIST_CELL[pid * CELLS + dst] ^ ZOBRIST_LEVEL[pid * MAX_LEVEL + self.height[dst]]
            self._drop(pid, dst)
            self.last = pid
            h ^= ZOBRIST_LAST[pid]
        self.ply += 1
        self.hash = h ^ ZOBRIST_BLACK
        self.status = self._outcome()
        if self.repetition_draw:
            count = self.seen.get(self.hash, 0) + 1
            self.seen[self.hash] = count
            if count >= 3 and self.status == IN_PROGRESS:
                self.status = DRAW

    def unmake(self) -> int:
        """Take back the last move and return it."""
        move = self.history.pop()
        if self.repetition_draw:
            count = self.seen[self.hash] - 1
            if count:
                self.seen[self.hash] = count
            else:
                del self.seen[self.hash]
        self.last, self.hash, self.status = self._undo.pop()
        self.ply -= 1
        if move != PASS:
            pid = move & 31
            src = move >> 5 & 2047
            dst = move >> 16
            self._lift(pid, dst)
            if src == HAND:
                self.pos[pid] = -1
                self.placed[(pid >= PIECES_PER_COLOUR) * KINDS + KIND[pid]] -= 1
            else:
                self._drop(pid, src)
        return move

    def _outcome(self) -> int:
        wq = self.pos[0]
        bq = self.pos[PIECES_PER_COLOUR]
        white_lost = wq >= 0 and self.nmask[wq] == 63
        black_lost = bq >= 0 and self.nmask[bq] == 63
        if white_lost:
            return DRAW if black_lost else BLACK_WINS
        if black_lost:
            return WHITE_WINS
        return IN_PROGRESS

    def compute_hash(self) -> int:
        """Compute the Zobrist hash from scratch (the incremental one must equal it)."""
        h = 0
        for pid in range(PIECES):
            cell = self.pos[pid]
            if cell < 0:
                continue
            level = 0
            under = self.below[pid]
            while under >= 0:
                level += 1
                under = self.below[under]
            h ^= ZOBRIST_CELL[pid * CELLS + cell] ^ ZOBRIST_LEVEL[pid * MAX_LEVEL + level]
        if self.last >= 0:
            h ^= ZOBRIST_LAST[self.last]
        if self.ply & 1:
            h ^= ZOBRIST_BLACK
        return h

    # ------------------------------------------------------------------
    # move generation

    def cut_cells(self) -> set[int]:
        """Occupied cells whose removal would split the hive (articulation points, one Tarjan pass)."""
        cut: set[int] = set()
        start = self._first_cell()
        if not self.height[start]:
            return cut
        # Discovery numbers above ``_stamp`` belong to this pass: no clearing between passes.
        self._stamp = self._counter + 1
        self._counter = self._stamp
        self._visit(start, -1, cut)
        return cut

    def _visit(self, v: int, parent: int, cut: set[int]) -> int:
        self._counter += 1
        dv = self._counter
        disc = self._disc
        disc[v] = dv
        low = dv
        children = 0
        stamp = self._stamp
        for d in OCCUPIED_DIRS[self.nmask[v]]:
            w = NEIGHBOUR[v * 6 + d]
            dw = disc[w]
            if dw > stamp:
                if dw < low and w != parent:
                    low = dw
            else:
                lw = self._visit(w, v, cut)
                if lw < low:
                    low = lw
                if lw >= dv and parent >= 0:
                    cut.add(v)
                children += 1
        if parent < 0 and children > 1:
            cut.add(v)
        return low

    def _placement_cells(self, colour: int) -> list[int]:
        top = self.top
        pos = self.pos
        height = self.height
        if self.ply == 0:
            return [ORIGIN_CELL]
        if self.ply == 1:
            return NEIGHBOURS[self._first_cell()]
        blocked: set[int] = set()
        own_lo = colour * PIECES_PER_COLOUR
        other_lo = PIECES_PER_COLOUR - own_lo
        for pid in range(other_lo, other_lo + PIECES_PER_COLOUR):
            cell = pos[pid]
            if cell >= 0 and top[cell] == pid:
                blocked.update(NEIGHBOURS[cell])
        cells: list[int] = []
        for pid in range(own_lo, own_lo + PIECES_PER_COLOUR):
            cell = pos[pid]
            if cell >= 0 and top[cell] == pid:
                for n in NEIGHBOURS[cell]:
                    if n not in blocked and height[n] == 0:
                        blocked.add(n)
                        cells.append(n)
        return cells

    def _first_cell(self) -> int:
        for pid in range(PIECES):
            if self.pos[pid] >= 0:
                return self.pos[pid]
        return ORIGIN_CELL

    def generate(self) -> list[int]:
        """Return every legal move of the side to move as ints (``[PASS]`` when none)."""
        if self.status >= DRAW:
            return []
        moves: list[int] = []
        colour = self.ply & 1
        own_lo = colour * PIECES_PER_COLOUR
        turn = self.ply >> 1
        queen_placed = self.pos[own_lo] >= 0
        pos = self.pos
        # placements
        placed = self.placed
        kinds_base = colour * KINDS
        cells: list[int] | None = None
        for kind in range(KINDS):
            if not self.enabled[kind]:
                continue
            count = placed[kinds_base + kind]
            if count >= BUG_COUNT[kind]:
                continue
            if kind == QUEEN:
                if turn == 0 and self.tournament_opening:
                    continue
            elif turn == 3 and not queen_placed:
                continue
            if cells is None:
                cells = self._placement_cells(colour)
            base = own_lo + BUG_FIRST[kind] + count | HAND << 5
            for cell in cells:
                moves.append(base | cell << 16)
        if queen_placed:
            top = self.top
            height = self.height
            last = self.last
            cut = self.cut_cells()
            throws = False
            for pid in range(own_lo, own_lo + PIECES_PER_COLOUR):
                cell = pos[pid]
                if cell < 0 or top[cell] != pid or pid == last:
                    continue
                kind = KIND[pid]
                ground = height[cell] == 1
                if (kind == PILLBUG or (kind == MOSQUITO and ground and self._touches_pillbug(cell))) and self._throws(
                    cell, cut, moves
                ):
                    throws = True
                if ground and cell in cut:
                    continue
                base = pid | cell << 5
                for dst in self._destinations(kind, cell):
                    moves.append(base | dst << 16)
            if throws:
                moves = list(dict.fromkeys(moves))
        if not moves:
            moves.append(PASS)
        return moves

    def _touches_pillbug(self, cell: int) -> bool:
        top = self.top
        for n in NEIGHBOURS[cell]:
            t = top[n]
            if t >= 0 and KIND[t] == PILLBUG:
                return True
        return False

    def _destinations(self, kind: int, cell: int) -> list[int]:
        if kind == ANT:
            return self._ant(cell)
        if kind in (QUEEN, PILLBUG):
            return self._steps(cell)
        if kind == BEETLE:
            return self._beetle(cell)
        if kind == GRASSHOPPER:
            return self._grasshopper(cell)
        if kind == SPIDER:
            return self._spider(cell)
        if kind == LADYBUG:
            return self._ladybug(cell)
        return self._mosquito(cell)

    def _steps(self, cell: int) -> list[int]:
        base = cell * 6
        return [NEIGHBOUR[base + d] for d in SLIDES[self.nmask[cell]]]

    def _ant(self, origin: int) -> list[int]:
        nmask = self.nmask
        near: dict[int, int] = {}
        for d in range(6):
            near[NEIGHBOUR[origin * 6 + d]] = 1 << OPPOSITE[d]
        seen = {origin}
        out: list[int] = []
        todo = [origin]
        while todo:
            x = todo.pop()
            m = nmask[x]
            bit = near.get(x, 0)
            if bit:
                m &= ~bit
            base = x * 6
            for d in SLIDES[m]:
                y = NEIGHBOUR[base + d]
                if y not in seen:
                    seen.add(y)
                    out.append(y)
                    todo.append(y)
        return out

    def _spider(self, origin: int) -> list[int]:
        nmask = self.nmask
        near: dict[int, int] = {}
        for d in range(6):
            near[NEIGHBOUR[origin * 6 + d]] = 1 << OPPOSITE[d]
        out: list[int] = []
        for d1 in SLIDES[nmask[origin]]:
            y1 = NEIGHBOUR[origin * 6 + d1]
            m1 = nmask[y1] & ~near.get(y1, 0)
            for d2 in SLIDES[m1]:
                y2 = NEIGHBOUR[y1 * 6 + d2]
                if y2 == origin:
                    continue
                m2 = nmask[y2] & ~near.get(y2, 0)
                for d3 in SLIDES[m2]:
                    y3 = NEIGHBOUR[y2 * 6 + d3]
                    if y3 != origin and y3 != y1 and y3 not in out:
                        out.append(y3)
        return out

    def _grasshopper(self, cell: int) -> list[int]:
        height = self.height
        out: list[int] = []
        for d in OCCUPIED_DIRS[self.nmask[cell]]:
            y = NEIGHBOUR[cell * 6 + d]
            while height[y]:
                y = NEIGHBOUR[y * 6 + d]
            out.append(y)
        return out

    def _beetle(self, cell: int) -> list[int]:
        height = self.height
        h_src = height[cell] - 1
        base = cell * 6
        out: list[int] = []
        for d in range(6):
            y = NEIGHBOUR[base + d]
            h_dst = height[y]
            hl = height[NEIGHBOUR[base + _LEFT[d]]]
            hr = height[NEIGHBOUR[base + _RIGHT[d]]]
            hi = h_src if h_src > h_dst else h_dst
            lo = hl if hl < hr else hr
            if lo > hi:
                continue
            if hi == 0 and hl == 0 and hr == 0:
                continue
            out.append(y)
        return out

    def _ladybug(self, origin: int) -> list[int]:
        # Heights as seen by the ladybug in flight: its own origin counts one less.
        height = self.height
        out: list[int] = []
        base0 = origin * 6
        for d1 in range(6):
            y1 = NEIGHBOUR[base0 + d1]
            h1 = height[y1]
            if h1 == 0:
                continue
            hl = height[NEIGHBOUR[base0 + _LEFT[d1]]]
            hr = height[NEIGHBOUR[base0 + _RIGHT[d1]]]
            if (hl if hl < hr else hr) > h1:
                continue
            base1 = y1 * 6
            for d2 in range(6):
                y2 = NEIGHBOUR[base1 + d2]
                if y2 == origin:
                    continue
                h2 = height[y2]
                if h2 == 0:
                    continue
                c = NEIGHBOUR[base1 + _LEFT[d2]]
                hl = height[c] - (c == origin)
                c = NEIGHBOUR[base1 + _RIGHT[d2]]
                hr = height[c] - (c == origin)
                if (hl if hl < hr else hr) > (h1 if h1 > h2 else h2):
                    continue
                base2 = y2 * 6
                for d3 in range(6):
                    y3 = NEIGHBOUR[base2 + d3]
                    if y3 == origin or height[y3] or y3 in out:
                        continue
                    c = NEIGHBOUR[base2 + _LEFT[d3]]
                    hl = height[c] - (c == origin)
                    c = NEIGHBOUR[base2 + _RIGHT[d3]]
                    hr = height[c] - (c == origin)
                    if (hl if hl < hr else hr) > h2:
                        continue
                    out.append(y3)
        return out

    def _mosquito(self, cell: int) -> list[int]:
        if self.height[cell] > 1:
            return self._beetle(cell)
        kinds = 0
        top = self.top
        for n in NEIGHBOURS[cell]:
            t = top[n]
            if t >= 0:
                kinds |= 1 << KIND[t]
        kinds &= ~(1 << MOSQUITO)
        if kinds & (1 << ANT):
            kinds &= ~(1 << QUEEN | 1 << PILLBUG | 1 << SPIDER)
        if kinds & (1 << BEETLE):
            kinds &= ~(1 << QUEEN | 1 << PILLBUG)
        out: list[int] = []
        single = kinds & (kinds - 1) == 0
        for kind in range(KINDS):
            if kinds >> kind & 1:
                if kind == PILLBUG:
                    kind = QUEEN
                dests = self._destinations(kind, cell)
                if single:
                    return dests
                for y in dests:
                    if y not in out:
                        out.append(y)
        return out

    def _throws(self, cell: int, cut: set[int], moves: list[int]) -> bool:
        """Add the pillbug ability's moves from ``cell``; return whether any was added."""
        height = self.height
        top = self.top
        last = self.last
        base = cell * 6
        targets: list[int] = []
        empties: list[int] = []
        for d in range(6):
            n = NEIGHBOUR[base + d]
            h = height[n]
            if h == 0:
                empties.append(d)
            elif h == 1:
                t = top[n]
                if t != last and n not in cut:
                    # lift from n onto the pillbug: blocked by two flanking stacks of height >= 2
                    hl = height[NEIGHBOUR[base + _LEFT[d]]]
                    hr = height[NEIGHBOUR[base + _RIGHT[d]]]
                    if hl < 2 or hr < 2:
                        targets.append(n)
        if not targets or not empties:
            return False
        added = False
        for n in targets:
            t = top[n]
            for d in empties:
                hl_cell = NEIGHBOUR[base + _LEFT[d]]
                hr_cell = NEIGHBOUR[base + _RIGHT[d]]
                hl = 0 if hl_cell == n else height[hl_cell]
                hr = 0 if hr_cell == n else height[hr_cell]
                if hl < 2 or hr < 2:
                    moves.append(t | n << 5 | NEIGHBOUR[base + d] << 16)
                    added = True
        return added

    def perft(self, depth: int) -> int:
        """Count the leaves of the legal-move tree ``depth`` plies deep.

        Mzinga's convention: a pass counts as a move, a finished game has none.
        """
        if depth == 0:
            return 1
        moves = self.generate()
        if depth == 1:
            return len(moves)
        total = 0
        for move in moves:
            self.make(move)
            total += self.perft(depth - 1)
            self.unmake()
        return total
