# C types for evaluation.py, applied when Cython compiles it (the .py stays plain Python).
cimport cython
from .state cimport State, production_cell, production_kind

cdef int CELLS, DRONE, HIGHBORN, QUEEN, SOLDIER, UNITS_PER_WORKER, WORKER
# the weights and constants imported from weights.py and state.py become C ints here
cdef int NO_QUEEN, QUEEN_CAPTURE, QUEEN_CAPTURE_PROMOTABLE, OWN_THREAT, ENEMY_THREAT, SPARE, PROMOTABLE
cdef int PRODUCTION
cdef short[::1] _VALUE
cdef signed char[::1] _NB
cdef int[::1] _RAY_START
cdef signed char[::1] _RAY_CELLS
cdef signed char[::1] _DISTANCE
cdef long long _LOW

cpdef int evaluate(State p) except? -1
@cython.locals(count=list, score=int, colour=int, own=int, side=int, kind=int, pieces=int, spare=int,
               captures="long long")
cdef int _static(State p, int to_move, int me) except? -1
cpdef int best_capture(State p, int colour) except? -1
@cython.locals(board="unsigned char *", best0="long long", best1="long long", promotable0=bint, promotable1=bint,
               cell=int, code=int, kind=int, colour=int, d=int, end=int, i=int, v=int, value=int)
cdef long long _best_captures(State p) except? -1
cdef int _victim(int kind, bint promotable) noexcept
@cython.locals(cell=int, kind=int, attackers=int, friends=int, board=bytearray, d=int, n=int, v=int, near=int)
cpdef int cell_score(State p, int step, int colour, int enemy_queen) except? -1
