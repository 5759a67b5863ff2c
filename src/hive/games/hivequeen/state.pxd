# C types for state.py, applied when Cython compiles it (the .py stays plain Python).
cimport cython

# constants imported from the game, geometry and rules become C ints here
cdef int IN_PROGRESS, DRAW
cdef int CELLS, QUEEN, HIGHBORN, DRONE, NURSE, WORKER, SOLDIER, UNITS_PER_WORKER, PROMOTION_EXTRA_UNITS
cdef int REPETITION_DRAW_COUNT, TURN_LIMIT_WITHOUT_CAPTURE
cdef bint CAPACITY_IN_UNITS, CAPACITY_COUNTED_AT_PHASE_START
# C copies of this module's own constants (the Python names stay importable)
cdef int _PROMOTE, _PRODUCE, _END, _MOVEMENT, _PRODUCTION, _SOUTH_WINS, _NORTH_WINS, _UNDO_FIELDS
cdef unsigned long long[::1] _ZPIECE, _ZFRESH, _ZPROD
cdef unsigned long long _ZNORTH, _ZPRODUCTION
cdef signed char[::1] _NB
cdef int[::1] _RAY_START
cdef signed char[::1] _RAY_CELLS
cdef signed char[::1] _UNITS


@cython.locals(colour=int)
cpdef int winner_status(int colour)
cpdef int production_cell(int step) noexcept
cpdef int production_kind(int step) noexcept


cdef class State:
    cdef public bytearray board
    cdef public list count
    cdef public list units
    cdef public list pieces
    cdef public int ply
    cdef public int phase
    cdef public int status
    cdef public int quiet
    cdef public int capture
    cdef public int nurse0
    cdef public int nurse1
    cdef public int nurses
    cdef public int cap
    cdef public int prod
    cdef public tuple fresh
    cdef public unsigned long long hash
    cdef public list history
    cdef unsigned long long[::1] _undo_hash
    cdef long long[::1] _undo_state
    cdef list _undo_fresh
    cdef public dict seen

    @cython.locals(old=int)
    cpdef void put(self, int cell, int code) except *
    @cython.locals(h="unsigned long long", cell=int, board=bytearray)
    cpdef unsigned long long compute_hash(self) except? 0
    cpdef int load(self, int colour) except? -1
    cpdef int capacity(self, int colour) except? -1
    @cython.locals(own=int)
    cpdef bint can_promote(self, int colour) except? -1
    @cython.locals(cnt=int, cap=int)
    cdef bint _may_produce(self, int colour) except? -1
    @cython.locals(board=bytearray, colour=int, captured=int, dst=int, target=int, h="unsigned long long", cell=int, code=int,
                   prod=int, cnt=int, nset=int, new=int, src=int, queen=int, nurse=int, n=int, i=int)
    cpdef void make(self, int step) except *
    @cython.locals(h="unsigned long long", cell=int)
    cdef void _end_turn(self) except *
    @cython.locals(colour=int)
    cdef void _turn_status(self) except *
    @cython.locals(south=int, north=int)
    cpdef int units_decision(self) except? -1
    @cython.locals(step=int, ply=int, phase=int, nurse0=int, nurse1=int, captured=int, n=int, i=int, count=int, colour=int,
                   src=int, dst=int, code=int, other=int)
    cpdef int unmake(self) except? -1
    cdef void _grow_undo(self) except *
    @cython.locals(size=int, undo_hash="unsigned long long[::1]", undo_state="long long[::1]")
    cdef void _copy_undo_to(self, State other, int rows) except *
    cpdef void copy_history_to(self, State other) except *
    cpdef int ply_before(self, int steps) except? -1
    @cython.locals(s=int, d=int, n=int)
    cpdef int nurses_of(self, int cell) except? -1
    @cython.locals(board=bytearray, count=list, own=int, promote=bint, cell=int, code=int, kind=int, d=int, n=int, v=int, i=int, end=int)
    cpdef bint has_movement(self, int colour) except? -1
