# C types for position.py, applied when Cython compiles it (the .py stays plain Python).
cimport cython
from .movers cimport Movers

# constants imported from geometry and pieces become C ints here
cdef int CELLS, KINDS, PIECES, PIECES_PER_COLOUR
cdef int QUEEN, MOSQUITO, PILLBUG
# C copies of this module's own constants (the Python names stay importable)
cdef int _HAND, _PASS, _DRAW
cdef bint _COMPILED

cdef int[::1] _NB
cdef signed char[::1] _KIND
cdef signed char[::1] _BUG_COUNT
cdef signed char[::1] _BUG_FIRST
cdef signed char[::1] _LEFT
cdef signed char[::1] _RIGHT


cdef class Position(Movers):
    cdef long long[::1] _move_mark
    cdef short[::1] _cells
    cdef int[::1] _movebuf
    cdef int[::1] _lists
    cdef int _kept_at
    cdef int _kept_n
    cdef unsigned long long _kept_hash
    cdef public int _kept_ply
    cdef int _kept_status
    cdef int _spare_at
    cdef int _spare_n
    cdef unsigned long long _spare_hash
    cdef public int _spare_ply
    cdef int _spare_status

    @cython.locals(n=int, i=Py_ssize_t, at=Py_ssize_t)
    cdef int _keep(self) noexcept
    @cython.final
    cdef bint _kept_here(self) noexcept
    @cython.final
    @cython.locals(at=int, n=int, key="unsigned long long", ply=int, status=int)
    cdef void _swap_kept(self) noexcept
    cpdef int legal_count(self)
    @cython.locals(n=int, at=Py_ssize_t, i=Py_ssize_t, found=bint)
    cpdef bint has_move(self, long long code)
    @cython.locals(n=int, at=int, i=int, moves=list)
    cpdef list legal_codes(self)

    @cython.locals(stamp="long long", own_lo=int, other_lo=int, pid=int, cell=int, n=int, base=int, d=int, count=int)
    cdef int _placement_cells(self, int colour) noexcept
    @cython.locals(n=int, i=int, moves=list)
    cpdef list generate(self)
    cpdef int count_moves(self)
    @cython.locals(n=int, colour=int, own_lo=int, turn=int, queen_placed=bint,
                   kinds_base=int, cells=int, have_cells=bint, kind=int, count=int, base=int, cell=int, last=int,
                   stamp="long long", throws=bint, pid=int, ground=bint, i=int, end=int, first=int)
    cdef int _fill(self) noexcept
    @cython.locals(stamp="long long", out=int, i=int, move=int, key=int)
    cdef int _unique(self, int first, int n) noexcept
    @cython.locals(last=int, base=int, targets=int, empties=int, d=int, n=int, h=int, t=int, hl=int, hr=int,
                   i=int, j=int, hl_cell=int, hr_cell=int)
    cdef int _throws(self, int cell, long long stamp, int end) noexcept
    @cython.locals(moves=list, total="long long", move=int)
    cpdef long long perft(self, int depth)
