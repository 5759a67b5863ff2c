# C types for search.py, applied when Cython compiles it (the .py stays plain Python).
cimport cython
from ...search.framework cimport SearchBase
from .position cimport Position
from .evaluation cimport cell_score
from .evaluation cimport evaluate as evaluate_position

# constants imported from the framework, the core and the rules become C ints here
cdef int WIN, DRAW, IN_PROGRESS, CELLS, END, PRODUCE, PROMOTE, PRODUCTION, QUEEN, NO_CUTOFF
# C copies of this module's own constants (the public names stay importable Python ints)
cdef int _PRODUCTION_CELLS, _NARROW_ABOVE
cdef short[::1] _VALUE


cdef class Searcher(SearchBase):
    @cython.locals(position=Position, side=int, score=int)
    cdef int _root_move(self, object p, int move, int depth, int alpha) except? -2147483647
    @cython.locals(position=Position)
    cdef int _node(self, object p, int depth, int alpha, int beta, int ply) except? -2147483647
    @cython.locals(status=int, key="unsigned long long", moves=list, original_alpha=int, best=int, best_move=int, side=int, move=int,
                   score=int)
    cdef int _negamax(self, Position p, int depth, int alpha, int beta, int ply) except? -2147483647
    @cython.locals(moves=list)
    cdef list _steps(self, Position p)
    @cython.locals(colour=int, enemy_queen=int, enemy=int, board=bytearray, cell=int, original=list, ordered=list, i=int,
                   step=int, taken=list, out=list, kind=int)
    cdef list _narrow(self, Position p, list moves)
    @cython.locals(board=bytearray, colour=int, original=list, i=int, move=int, k="long long", target=int, kind=int)
    cdef void _order(self, Position p, list moves, int tt_move, int killer) except *
