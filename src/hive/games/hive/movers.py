"""The hot core, the bugs' movements: where a piece of each kind can go, for the legal moves of
:class:`~hive.games.hive.position.Position` (a subclass).

Each method writes destination cells to ``_dests`` from an index and returns the new end. Plain typed Python that
Cython compiles with the C types declared in ``movers.pxd``; the scratch arrays are stamped so that they never need
clearing.
"""

from __future__ import annotations

from collections.abc import MutableSequence

from ..._build import filled, flattened, is_compiled, table
from .geometry import CELLS, NEIGHBOUR, OCCUPIED_DIRS, SLIDES
from .pieces import ANT, BEETLE, GRASSHOPPER, KIND, KINDS, LADYBUG, MOSQUITO, PILLBUG, QUEEN, SPIDER, GameType
from .state import State


class Movers(State):
    """A :class:`~hive.games.hive.state.State` that finds each bug's destinations."""

    def __init__(self, game_type: GameType, tournament_opening: bool = True, repetition_draw: bool = False) -> None:
        State.__init__(self, game_type, tournament_opening, repetition_draw)
        # cells visited by one bug's move generator, cells already listed for a mosquito, a stack of cells to
        # visit, destinations, a pillbug's surroundings
        self._mark = _ints("q", CELLS)
        self._mark_stamp = 0
        self._dmark = _ints("q", CELLS)
        self._dmark_stamp = 0
        self._todo = _ints("h", CELLS)
        self._dests = _ints("h", 4 * CELLS)
        self._around = _ints("h", 6)

    def _touches_pillbug(self, cell: int) -> bool:
        base = cell * 6
        for d in range(6):
            t = self.top[_NB[base + d]]
            if t >= 0 and _KIND[t] == PILLBUG:
                return True
        return False

    def _destinations(self, kind: int, cell: int, n: int) -> int:
        """Write the destinations of a ``kind`` bug at ``cell`` to ``_dests[n:]``; return the new end."""
        if kind == ANT:
            return self._ant(cell, n)
        if kind in (QUEEN, PILLBUG):
            return self._steps(cell, n)
        if kind == BEETLE:
            return self._beetle(cell, n)
        if kind == GRASSHOPPER:
            return self._grasshopper(cell, n)
        if kind == SPIDER:
            return self._spider(cell, n)
        if kind == LADYBUG:
            return self._ladybug(cell, n)
        return self._mosquito(cell, n)

    def _steps(self, cell: int, n: int) -> int:
        base = cell * 6
        m = self.nmask[cell]
        row = 6 * m
        for i in range(_SLIDE_N[m]):
            self._dests[n] = _NB[base + _SLIDE_D[row + i]]
            n += 1
        return n

    def _ant(self, origin: int, n: int) -> int:
        # The ant's own cell counts as empty while it travels.
        self._unmask(origin)
        self._mark_stamp += 1
        stamp = self._mark_stamp
        self._mark[origin] = stamp
        self._todo[0] = origin
        size = 1
        while size:
            size -= 1
            x = self._todo[size]
            base = x * 6
            m = self.nmask[x]
            row = 6 * m
            for i in range(_SLIDE_N[m]):
                y = _NB[base + _SLIDE_D[row + i]]
                if self._mark[y] != stamp:
                    self._mark[y] = stamp
                    self._dests[n] = y
                    n += 1
                    self._todo[size] = y
                    size += 1
        self._remask(origin)
        return n

    def _spider(self, origin: int, n: int) -> int:
        self._unmask(origin)
        self._mark_stamp += 1
        stamp = self._mark_stamp
        m1 = self.nmask[origin]
        for i1 in range(_SLIDE_N[m1]):
            y1 = _NB[origin * 6 + _SLIDE_D[6 * m1 + i1]]
            m2 = self.nmask[y1]
            for i2 in range(_SLIDE_N[m2]):
                y2 = _NB[y1 * 6 + _SLIDE_D[6 * m2 + i2]]
                if y2 == origin:
                    continue
                m3 = self.nmask[y2]
                for i3 in range(_SLIDE_N[m3]):
                    y3 = _NB[y2 * 6 + _SLIDE_D[6 * m3 + i3]]
                    if y3 != origin and y3 != y1 and self._mark[y3] != stamp:
                        self._mark[y3] = stamp
                        self._dests[n] = y3
                        n += 1
        self._remask(origin)
        return n

    def _grasshopper(self, cell: int, n: int) -> int:
        m = self.nmask[cell]
        for i in range(_OCC_N[m]):
            d = _OCC_D[6 * m + i]
            y = _NB[cell * 6 + d]
            while self.height[y]:
                y = _NB[y * 6 + d]
            self._dests[n] = y
            n += 1
        return n

    def _beetle(self, cell: int, n: int) -> int:
        h_src = self.height[cell] - 1
        base = cell * 6
        for d in range(6):
            y = _NB[base + d]
            h_dst = self.height[y]
            hl = self.height[_NB[base + _LEFT[d]]]
            hr = self.height[_NB[base + _RIGHT[d]]]
            hi = h_src if h_src > h_dst else h_dst
            lo = hl if hl < hr else hr
            if lo > hi:
                continue
            if hi == 0 and hl == 0 and hr == 0:
                continue
            self._dests[n] = y
            n += 1
        return n

    def _ladybug(self, origin: int, n: int) -> int:
        # Heights as seen by the ladybug in flight: its own origin counts one less.
        self._mark_stamp += 1
        stamp = self._mark_stamp
        base0 = origin * 6
        for d1 in range(6):
            y1 = _NB[base0 + d1]
            h1 = self.height[y1]
            if h1 == 0:
                continue
            hl = self.height[_NB[base0 + _LEFT[d1]]]
            hr = self.height[_NB[base0 + _RIGHT[d1]]]
            if (hl if hl < hr else hr) > h1:
                continue
            base1 = y1 * 6
            for d2 in range(6):
                y2 = _NB[base1 + d2]
                if y2 == origin:
                    continue
                h2 = self.height[y2]
                if h2 == 0:
                    continue
                c = _NB[base1 + _LEFT[d2]]
                hl = self.height[c] - (c == origin)
                c = _NB[base1 + _RIGHT[d2]]
                hr = self.height[c] - (c == origin)
                if (hl if hl < hr else hr) > (h1 if h1 > h2 else h2):
                    continue
                base2 = y2 * 6
                for d3 in range(6):
                    y3 = _NB[base2 + d3]
                    if y3 == origin or self.height[y3] or self._mark[y3] == stamp:
                        continue
                    c = _NB[base2 + _LEFT[d3]]
                    hl = self.height[c] - (c == origin)
                    c = _NB[base2 + _RIGHT[d3]]
                    hr = self.height[c] - (c == origin)
                    if (hl if hl < hr else hr) > h2:
                        continue
                    self._mark[y3] = stamp
                    self._dests[n] = y3
                    n += 1
        return n

    def _mosquito(self, cell: int, n: int) -> int:
        if self.height[cell] > 1:
            return self._beetle(cell, n)
        kinds = 0
        base = cell * 6
        for d in range(6):
            t = self.top[_NB[base + d]]
            if t >= 0:
                kinds |= 1 << _KIND[t]
        kinds &= ~(1 << MOSQUITO)
        if kinds & (1 << ANT):
            kinds &= ~(1 << QUEEN | 1 << PILLBUG | 1 << SPIDER)
        if kinds & (1 << BEETLE):
            kinds &= ~(1 << QUEEN | 1 << PILLBUG)
        if kinds & (kinds - 1) == 0:
            for kind in range(KINDS):
                if kinds >> kind & 1:
                    return self._destinations(QUEEN if kind == PILLBUG else kind, cell, n)
            return n
        # Several bugs to copy: keep the first occurrence of each destination.
        self._dmark_stamp += 1
        stamp = self._dmark_stamp
        for kind in range(KINDS):
            if kinds >> kind & 1:
                end = self._destinations(QUEEN if kind == PILLBUG else kind, cell, n)
                for i in range(n, end):
                    y = self._dests[i]
                    if self._dmark[y] != stamp:
                        self._dmark[y] = stamp
                        self._dests[n] = y
                        n += 1
        return n


def _ints(code: str, size: int, value: int = 0) -> MutableSequence[int]:
    return filled(code, size, COMPILED, value)


#: Whether this module runs compiled (its ``.pxd`` types apply) or as plain Python.
COMPILED: bool = is_compiled(_ints)
# C-typed tables (see movers.pxd); plain lists when running as Python.
_NB = table("i", NEIGHBOUR, COMPILED)
_KIND = table("b", KIND, COMPILED)
# Directions (d - 1, d + 1) flanking a step in direction d.
_LEFT = table("b", [(d + 5) % 6 for d in range(6)], COMPILED)
_RIGHT = table("b", [(d + 1) % 6 for d in range(6)], COMPILED)
# SLIDES and OCCUPIED_DIRS flattened: row ``m`` holds ``_SLIDE_N[m]`` directions from ``_SLIDE_D[6 * m]``.
_SLIDE_N, _SLIDE_D = flattened(SLIDES, COMPILED)
_OCC_N, _OCC_D = flattened(OCCUPIED_DIRS, COMPILED)
