# C types for framework.py, applied when Cython compiles it (the .py stays plain Python).
cimport cython
from .table cimport TranspositionTable

# C copies of constants (the public names stay importable Python ints)
cdef int _WIN, _DRAW, _FIRST_WINS
cdef int _INDEX_BITS, _INDEX_MASK
cdef bint _C_SORT
cdef long long _TICK_MASK


cdef class SearchBase:
    cdef dict __dict__  # instances stay open to new attributes, as a plain Python class's are
    cdef public TranspositionTable tt
    cdef public long long tt_limit
    cdef public int contempt
    cdef public object stop
    cdef public object rng
    cdef public int opening_noise
    cdef public long long nodes
    cdef public double deadline
    cdef public list killers
    cdef public list second_killers
    cdef public int draw_score
    cdef public int root_side
    cdef int _tt_move
    cdef long long[::1] _history
    cdef list _touched
    cdef long long _sort_keys[4096]  # 1 << _INDEX_BITS
    cdef list _keyed

    cdef int _root_move(self, object p, int move, int depth, int alpha) except? -2147483647
    cdef int _node(self, object p, int depth, int alpha, int beta, int ply) except? -2147483647
    @cython.locals(side=int, score=int)
    cpdef int score_child(self, object p, int move, int depth, int alpha, int beta, int ply) except? -2147483647
    cdef int _tick(self) except -1
    cdef int _draw(self, int ply) noexcept
    cdef int _ended(self, int status, int ply, int depth_ply) noexcept
    @cython.locals(score=int)
    cdef int _probe(self, unsigned long long key, int depth, int alpha, int beta) except? -2147483647
    cdef void _store(self, unsigned long long key, int best, int original_alpha, int beta, int depth,
                     int best_move) except *
    cdef void _add_history(self, int index, long long amount) except *
    @cython.locals(key="long long", j=int, keys="long long *")
    cdef void _add_sort_key(self, int i, long long k) noexcept
    @cython.locals(i=int, keys="long long *")
    cdef void _apply_sort(self, list moves, list original) except *
