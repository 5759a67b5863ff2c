# C types for tensors.py, applied when Cython compiles it (the .py stays plain Python).
cimport cython
from .position cimport Position

# constants imported from geometry, pieces and position become C ints here
cdef int CELLS, MASK, SHIFT, SIZE, KINDS, PIECES, PIECES_PER_COLOUR, MOVE_BUFFER
# C copies of this module's own constants and of those it exports (the Python names stay importable)
cdef int _HAND, _PASS, _WINDOW, _AREA, _SIDE, _PASS_ACTION, _HEIGHT, _LAST, _HAND_OWN, _TO_ACT, _FIRST, _WHOLE
cdef int _MIDDLE, _ROWS, _WRITTEN
cdef long long _FULL
cdef bint _COMPILED
cdef signed char[::1] _BUG_COUNT


@cython.locals(low=int, count=int, i=int)
cdef int _corner(unsigned long long bits) noexcept
@cython.locals(qs="unsigned long long", rs="unsigned long long", one="unsigned long long", pid=int, cell=int)
cpdef int origin(Position board)
@cython.locals(q0=int, r0=int, where=int, pid=int, cell=int, src=int)
cpdef int action_code(Position board, int corner, int action)
@cython.locals(q0=int, r0=int, cell=int, piece=int)
cpdef int action_of(Position board, int corner, int code)


cdef class PlaneWriter:
    cdef public object array
    cdef unsigned char[::1] _out
    cdef int[::1] _written
    cdef int _count
    cdef int[::1] _shown
    cdef unsigned long long _hash
    cdef int _ply
    cdef int _seat
    cdef object _cleared

    @cython.locals(q0=int, r0=int, out="unsigned char[::1]", i=int, n=int, pid=int, cell=int, at=int, level=int,
                   under=int, plane=int, height=int, last=int, colour=int, kind=int, count=int)
    cpdef void write(self, Position board, int seat, int corner) except *
    cdef void _write_arrays(self, Position board, int seat, int corner) except *
    cdef void _finish(self, Position board, int seat) except *
    @cython.locals(out="unsigned char[::1]", i=int)
    cdef void _show(self, int plane, int value) except *


cdef class ActionWriter:
    cdef public object mask
    cdef public object legal
    cdef signed char[::1] _mask
    cdef long long[::1] _legal
    cdef int[::1] _set
    cdef object _cleared
    cdef int _count
    cdef unsigned long long _hash
    cdef int _ply
    cdef int _status

    @cython.locals(q0=int, r0=int, mask="signed char[::1]", i=int, n=int, at=int, base=int, code=int, cell=int,
                   action=int)
    cpdef int write(self, Position board, int corner) except -1
    @cython.locals(i=int)
    cpdef void clear(self)
    cpdef int _write_arrays(self, Position board, int corner) except -1
    cdef void _remember(self, Position board) noexcept
