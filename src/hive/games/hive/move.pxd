# C types for move.py, applied when Cython compiles it (the .py stays plain Python).
cimport cython
from .position cimport Position

cdef int CELLS, PIECES, HAND, PASS
cdef bint _COMPILED
cdef int _SLOT_BITS
cdef long long _CODE_MIN, _CODE_MAX, _SLOT_HASH, _LOW_32
cdef list _SLOTS
cdef long long[::1] _SLOT_CODES


cdef class Move:
    cdef readonly long long code


cdef int _ITERATOR_ROOM


cdef class _KeptMoves:
    cdef int _codes[256]  # _ITERATOR_ROOM
    cdef int _next
    cdef int _end


cdef class LegalMoveGenerator:
    cdef readonly Position board


@cython.locals(move=Move)
cpdef Move _new_move(long long code)
@cython.locals(slot=int)
cdef inline int _slot(long long code) except -1
@cython.locals(n=int, i=int, moves=list)
cpdef list moves_of(Position board)
@cython.locals(moves=_KeptMoves, i=int)
cdef _KeptMoves _kept_moves(Position board, int n)
