# C types for search.py, applied when Cython compiles it (the .py stays plain Python).
cimport cython
from ..core.position cimport Position
from .evaluation cimport evaluate as evaluate_hive

# C copies of constants (the public names stay importable Python ints)
cdef int _CELLS, _WIN, _EXACT, _LOWER, _UPPER, _DRAW, _WHITE_WINS, _HAND, _PASS, _PIECES_PER_COLOUR
cdef int _INDEX_BITS, _INDEX_MASK, _FLAG_SHIFT, _DEPTH_SHIFT, _DEPTH_MASK, _SCORE_SHIFT
cdef long long _MOVE_MASK
cdef int _NO_CUTOFF
cdef int[::1] _NB
cdef unsigned char[::1] _NEAR
cdef long long[::1] _SORT_KEYS, _HIVE_HISTORY
cdef list _TOUCHED, _KEYED
cdef bint _C_SORT

cdef inline long long _pack(long long score, long long depth, long long flag, long long move) noexcept
@cython.locals(key="long long", j=int)
cpdef void add_sort_key(int i, long long k) except *
@cython.locals(i=int)
cpdef void apply_sort(list moves, list original) except *


cdef class Searcher:
    cdef dict __dict__  # instances stay open to new attributes, as a plain Python class's are
    cdef public dict tt
    cdef public object rng
    cdef public bint randomise
    cdef public int opening_noise
    cdef public long long nodes
    cdef public double deadline
    cdef public dict history
    cdef public list killers
    cdef public int draw_score
    cdef public int root_side
    cdef bint _fast
    cdef int _tt_move

    cdef int _tick(self) except -1
    cdef int _draw(self, int ply) noexcept
    cdef int _ended(self, int status, int ply, int depth_ply) noexcept
    @cython.locals(entry=object, packed="long long", e_score=int, e_flag=int)
    cdef int _probe(self, object key, int depth, int alpha, int beta) except? -2147483647
    @cython.locals(flag=int)
    cdef void _store(self, object key, int best, int original_alpha, int beta, int depth, int best_move) except *

    @cython.locals(score=int)
    cdef int _root_move_hive(self, Position p, int move, int depth, int alpha) except? -2147483647
    @cython.locals(status=int, moves=list, original_alpha=int, best=int, best_move=int, move=int, score=int, index=int)
    cdef int _negamax_hive(self, Position p, int depth, int alpha, int beta, int ply) except? -2147483647
    @cython.locals(enemy_queen=int, own_queen=int, d=int, killer=int,
                   original=list, i=int, move=int, dst=int, src=int, k="long long")
    cdef void _order_hive(self, Position p, list moves, int tt_move, int ply) except *
