# C types for search.py, applied when Cython compiles it (the .py stays plain Python).
cimport cython
from ..ai.search cimport Searcher
from .position cimport Position
from .evaluation cimport add_history, clear_history, narrow_productions, order_steps
from .evaluation cimport evaluate as evaluate_queen

# C copies of constants (the public names stay importable Python ints)
cdef int _WIN, _DRAW, _WHITE_WINS, _IN_PROGRESS, _HAND, _END, _PRODUCTION, _NARROW_ABOVE, _NO_CUTOFF


cdef list _search_steps(Position p)


cdef class QueenSearcher(Searcher):
    @cython.locals(status=int, key=object, moves=list, original_alpha=int, best=int, best_move=int, side=int, move=int,
                   score=int)
    cdef int _negamax_queen(self, Position p, int depth, int alpha, int beta, int ply) except? -2147483647
