# C types for search.py, applied when Cython compiles it (the .py stays plain Python).
cimport cython
from ...search.framework cimport SearchBase
from .evaluation cimport Weights, evaluate_with
from .position cimport Position
from .state cimport CutCache

# constants imported from the framework and the core become C ints here
cdef int CELLS, WIN, DRAW, HAND, PASS, PIECES_PER_COLOUR, NO_CUTOFF, MAX_DEPTH
cdef int[::1] _NB


cdef int _STACK, _INDEX_BITS, _INDEX_MASK
cdef long long _QUIET


cdef class Searcher(SearchBase):
    cdef public Weights weights
    cdef public int null_move
    cdef public int null_move_depth
    cdef public int late_moves
    cdef public int late_depth
    cdef unsigned char[::1] _near
    cdef int[::1] _stack
    cdef long long[::1] _keys
    cdef int _top
    cdef CutCache _cuts
    cdef set _earlier

    @cython.locals(position=Position, score=int)
    cdef int _root_move(self, object p, int move, int depth, int alpha) except? -2147483647
    @cython.locals(position=Position)
    cdef int _node(self, object p, int depth, int alpha, int beta, int ply) except? -2147483647
    @cython.locals(status=int, key="unsigned long long", score=int, tt_move=int, n=int, base=int, i=int,
                   original_alpha=int, best=int, best_move=int, move=int, sorted_from=int, reduce=int)
    cdef int _negamax(self, Position p, int depth, int alpha, int beta, int ply) except? -2147483647
    @cython.locals(queen=int, mask=int, count=int, d=int)
    cdef bint _may_pass(self, Position p) noexcept
    @cython.locals(capacity=int, stack="int[::1]", keys="long long[::1]", i=int)
    cdef void _grow(self, int size) except *
    @cython.locals(top=int, k="long long", i=int, move=int)
    cdef void _pick(self, int first, int end) noexcept
    @cython.locals(enemy_queen=int, own_queen=int, d=int, killer=int, second=int, i=int, move=int, dst=int, src=int,
                   k="long long")
    cdef void _keys_for(self, Position p, int base, int n, int ply) except *
