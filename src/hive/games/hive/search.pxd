# C types for search.py, applied when Cython compiles it (the .py stays plain Python).
cimport cython
from ...search.framework cimport SearchBase
from .evaluation cimport evaluate as evaluate_position
from .position cimport Position

# constants imported from the framework and the core become C ints here
cdef int CELLS, WIN, DRAW, HAND, PASS, PIECES_PER_COLOUR, NO_CUTOFF
cdef int[::1] _NB


cdef class Searcher(SearchBase):
    cdef unsigned char[::1] _near

    @cython.locals(position=Position, score=int)
    cdef int _root_move(self, object p, int move, int depth, int alpha) except? -2147483647
    @cython.locals(position=Position)
    cdef int _node(self, object p, int depth, int alpha, int beta, int ply) except? -2147483647
    @cython.locals(status=int, moves=list, original_alpha=int, best=int, best_move=int, move=int, score=int)
    cdef int _negamax(self, Position p, int depth, int alpha, int beta, int ply) except? -2147483647
    @cython.locals(enemy_queen=int, own_queen=int, d=int, killer=int,
                   original=list, i=int, move=int, dst=int, src=int, k="long long")
    cdef void _order(self, Position p, list moves, int tt_move, int ply) except *
