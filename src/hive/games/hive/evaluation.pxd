# C types for evaluation.py, applied when Cython compiles it (the .py stays plain Python).
cimport cython
from .state cimport State

cdef int PIECES_PER_COLOUR, MOSQUITO, PILLBUG
cdef int[::1] _NB
cdef signed char[::1] _KIND
cdef signed char[::1] _POPCOUNT
cdef signed char[::1] _SLIDE_COUNT


cdef class Weights:
    cdef public dict values
    cdef short[::1] pressure
    cdef short[::1] active
    cdef short[::1] in_hand
    cdef int queen_free, queen_slide, queen_covered, on_top, on_queen, guard


cpdef int evaluate(State p)
@cython.locals(stamp="long long", score=int, colour=int, lo=int,
               enemy_queen=int, own_queen=int, side=int, pid=int, cell=int, kind=int, base=int, d=int, slides=int)
cpdef int evaluate_with(State p, Weights w)
