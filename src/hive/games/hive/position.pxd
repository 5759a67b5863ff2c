# C types for position.py, applied when Cython compiles it (the .py stays plain Python).
cimport cython
from .state cimport State

# constants imported from geometry and pieces become C ints here
cdef int CELLS, KINDS, PIECES, PIECES_PER_COLOUR
cdef int QUEEN, SPIDER, BEETLE, GRASSHOPPER, ANT, MOSQUITO, LADYBUG, PILLBUG
# C copies of this module's own constants (the Python names stay importable)
cdef int _HAND, _PASS, _DRAW
cdef bint _COMPILED

cdef int[::1] _NB
cdef signed char[::1] _KIND
cdef signed char[::1] _BUG_COUNT
cdef signed char[::1] _BUG_FIRST
cdef signed char[::1] _SLIDE_N
cdef signed char[::1] _SLIDE_D
cdef signed char[::1] _OCC_N
cdef signed char[::1] _OCC_D
cdef signed char[::1] _LEFT
cdef signed char[::1] _RIGHT


cdef class Position(State):
    cdef long long[::1] _mark
    cdef long long _mark_stamp
    cdef long long[::1] _dmark
    cdef long long _dmark_stamp
    cdef short[::1] _todo
    cdef long long[::1] _move_mark
    cdef short[::1] _dests
    cdef short[::1] _cells
    cdef short[::1] _around
    cdef int[::1] _movebuf
    cdef int[::1] _kept
    cdef int _kept_n
    cdef unsigned long long _kept_hash
    cdef public int _kept_ply
    cdef int _kept_status

    @cython.locals(n=int, i=int)
    cdef int _keep(self) noexcept
    cpdef int legal_count(self)
    @cython.locals(n=int, i=int, found=bint)
    cpdef bint has_move(self, long long code)
    @cython.locals(n=int, i=int, moves=list)
    cpdef list legal_codes(self)

    @cython.locals(stamp="long long", own_lo=int, other_lo=int, pid=int, cell=int, n=int, base=int, d=int, count=int)
    cdef int _placement_cells(self, int colour) noexcept
    @cython.locals(n=int, i=int, moves=list)
    cpdef list generate(self)
    cpdef int count_moves(self)
    @cython.locals(n=int, colour=int, own_lo=int, turn=int, queen_placed=bint,
                   kinds_base=int, cells=int, have_cells=bint, kind=int, count=int, base=int, cell=int, last=int,
                   stamp="long long", throws=bint, pid=int, ground=bint, i=int, end=int)
    cdef int _fill(self) noexcept
    @cython.locals(stamp="long long", out=int, i=int, move=int, key=int)
    cdef int _unique(self, int n) noexcept
    @cython.locals(base=int, d=int, t=int)
    cdef bint _touches_pillbug(self, int cell) noexcept
    cdef int _destinations(self, int kind, int cell, int n) noexcept
    @cython.locals(base=int, m=int, row=int, i=int)
    cdef int _steps(self, int cell, int n) noexcept
    @cython.locals(stamp="long long", size=int, x=int, base=int, m=int, row=int, i=int, y=int)
    cdef int _ant(self, int origin, int n) noexcept
    @cython.locals(stamp="long long", m1=int, m2=int, m3=int, i1=int, i2=int, i3=int, y1=int, y2=int, y3=int)
    cdef int _spider(self, int origin, int n) noexcept
    @cython.locals(m=int, i=int, d=int, y=int)
    cdef int _grasshopper(self, int cell, int n) noexcept
    @cython.locals(h_src=int, base=int, d=int, y=int, h_dst=int, hl=int, hr=int, hi=int, lo=int)
    cdef int _beetle(self, int cell, int n) noexcept
    @cython.locals(stamp="long long", base0=int, base1=int, base2=int, d1=int, d2=int, d3=int, y1=int, y2=int, y3=int,
                   h1=int, h2=int, hl=int, hr=int, c=int)
    cdef int _ladybug(self, int origin, int n) noexcept
    @cython.locals(kinds=int, base=int, d=int, t=int, kind=int, stamp="long long", end=int, i=int, y=int)
    cdef int _mosquito(self, int cell, int n) noexcept
    @cython.locals(last=int, base=int, targets=int, empties=int, d=int, n=int, h=int, t=int, hl=int, hr=int,
                   i=int, j=int, hl_cell=int, hr_cell=int)
    cdef int _throws(self, int cell, long long stamp, int end) noexcept
    @cython.locals(moves=list, total="long long", move=int)
    cpdef long long perft(self, int depth)
