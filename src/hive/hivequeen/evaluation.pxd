# C types for evaluation.py, applied when Cython compiles it (the .py stays plain Python).
cimport cython
from ..ai.search cimport add_sort_key, apply_sort
from .position cimport Position

cdef int CELLS, DRONE, HIGHBORN, QUEEN, SOLDIER, UNITS_PER_WORKER, WORKER
# C copies of this module's own constants (the public names stay importable Python ints)
cdef int _NO_QUEEN, _QUEEN_CAPTURE, _QUEEN_CAPTURE_PROMOTABLE, _OWN_THREAT, _ENEMY_THREAT, _SPARE, _PROMOTABLE
cdef int _PRODUCTION_CELLS
cdef int _END, _PRODUCE, _PROMOTE, _PRODUCTION
cdef short[::1] _VALUE
cdef signed char[::1] _NB
cdef int[::1] _RAY_START
cdef signed char[::1] _RAY_CELLS
cdef signed char[::1] _DISTANCE
cdef long long[::1] _HISTORY
cdef list _TOUCHED

cpdef int evaluate(Position p) except? -1
@cython.locals(count=list, score=int, colour=int, own=int, side=int, kind=int, spare=int)
cdef int _static(Position p, int to_move, int me) except? -1
@cython.locals(board=bytearray, best=int, enemy=int, promotable=bint, cell=int, code=int, kind=int, d=int, end=int,
               i=int, v=int, value=int)
cpdef int best_capture(Position p, int colour) except? -1
cdef int _victim(int kind, bint promotable) noexcept
@cython.locals(colour=int, enemy_queen=int, enemy=int, board=bytearray, cell=int, original=list, ordered=list, i=int,
               step=int, taken=list, out=list, kind=int)
cpdef list narrow_productions(Position p, list moves)
@cython.locals(cell=int, kind=int, attackers=int, friends=int, board=bytearray, d=int, n=int, v=int, near=int)
cdef int _cell_score(Position p, int step, int colour, int enemy_queen) except? -1
@cython.locals(board=bytearray, colour=int, original=list, i=int, move=int, k="long long", target=int, kind=int)
cpdef void order_steps(Position p, list moves, int tt_move, int killer) except *
cpdef void add_history(int step, int amount) except *
@cython.locals(step=int)
cpdef void clear_history() except *
