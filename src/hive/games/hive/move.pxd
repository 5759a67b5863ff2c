# C types for move.py, applied when Cython compiles it (the .py stays plain Python).
cimport cython
from .position cimport Position

cdef int CELLS, PIECES, HAND, PASS
cdef bint _COMPILED
cdef int _SLOT_BITS, _SLOT_SHIFT
cdef long long _CODE_MIN, _CODE_MAX, _SLOT_HASH, _LOW_32
cdef list _SLOTS


cdef class Move:
    cdef readonly long long code


cdef int _ITERATOR_ROOM, _WIDE_ROOM


cdef class _KeptMoves:
    cdef int _codes[120]  # _ITERATOR_ROOM
    cdef int _next
    cdef int _end


cdef class _WideKeptMoves(_KeptMoves):
    cdef int _wide[256]  # _WIDE_ROOM


cdef class LegalMoveGenerator:
    cdef readonly Position board


@cython.locals(move=Move)
cpdef Move _new_move(long long code)
cdef inline int _slot_of(long long code) noexcept
@cython.locals(move=Move)
cdef inline Move _shared(long long code)
@cython.locals(move=Move)
cdef Move _fill_slot(long long code)
@cython.locals(n=int, at=int, i=int, moves=list)
cpdef list moves_of(Position board)
@cython.locals(moves=_KeptMoves, wide=_WideKeptMoves, at=Py_ssize_t, i=Py_ssize_t)
cdef _KeptMoves _kept_moves(Position board, int n)


@cython.locals(moves=LegalMoveGenerator)
cdef LegalMoveGenerator _legal_moves(Position board)
cdef Move _shared_move(int code)


cdef class MovePosition(Position):
    cdef public list _texts


@cython.locals(known=Move, code="long long")
cdef int _play(MovePosition board, move) except -1
@cython.locals(code=int, played=int)
cdef Move _take_back(MovePosition board)
