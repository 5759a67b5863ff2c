# C types for evaluation.py, applied when Cython compiles it (the .py stays plain Python).
cimport cython
from .state cimport State

cdef int PIECES_PER_COLOUR, MOSQUITO, PILLBUG
cdef int ON_QUEEN, GUARD, QUEEN_FREE, QUEEN_SLIDE, QUEEN_COVERED, ON_TOP
cdef int[::1] _NB
cdef signed char[::1] _KIND
cdef short[::1] _PRESSURE
cdef short[::1] _ACTIVE
cdef short[::1] _IN_HAND
cdef signed char[::1] _POPCOUNT
cdef signed char[::1] _SLIDE_COUNT

@cython.locals(stamp="long long", score=int, colour=int, lo=int,
               enemy_queen=int, own_queen=int, side=int, pid=int, cell=int, kind=int, base=int, d=int, slides=int)
cpdef int evaluate(State p)
