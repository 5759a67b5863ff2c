# C types for state.py, applied when Cython compiles it (the .py stays plain Python).
cimport cython

# constants imported from the game, geometry and pieces become C ints here
cdef int DRAW, IN_PROGRESS, CELLS, KINDS, PIECES, PIECES_PER_COLOUR
# C copies of this module's own constants (the Python names stay importable)
cdef int _HAND, _PASS, _WHITE_WINS, _BLACK_WINS, _MAX_LEVEL

cdef int[::1] _NB
cdef signed char[::1] _KIND
cdef signed char[::1] _OCC_N, _OCC_D
cdef unsigned long long[::1] _ZCELL, _ZLEVEL, _ZLAST
cdef unsigned long long _ZBLACK
cdef unsigned long long[::1] _TCELL, _TLEVEL, _TCELL_LEVEL, _TLAST
cdef int _PILLBUG_PID, _MOSQUITO_PID
cdef unsigned char[::1] _OPP_BIT
cdef unsigned long long[::1] _ZOCC

cpdef int piece_of(int move) noexcept
cpdef int origin_of(int move) noexcept
cpdef int destination_of(int move) noexcept


cdef class CutCache:
    cdef public unsigned long long mask
    cdef public unsigned long long[::1] keys
    cdef public signed char[::1] counts
    cdef public short[::1] cells


cdef class State:
    cdef public object game_type
    cdef public bint tournament_opening
    cdef public bint repetition_draw
    cdef public unsigned char[::1] enabled
    cdef public signed char[::1] top
    cdef public unsigned char[::1] height
    cdef public unsigned char[::1] nmask
    cdef public signed char[::1] below
    cdef public short[::1] pos
    cdef public unsigned char[::1] placed
    cdef public int ply
    cdef public int last
    cdef public unsigned long long hash
    cdef public unsigned long long key
    cdef unsigned long long _bugs
    cdef public int status
    cdef public list history
    cdef public int repetitions
    cdef int _since
    cdef signed char[::1] _undo_last
    cdef unsigned long long[::1] _undo_hash
    cdef unsigned long long[::1] _undo_key
    cdef unsigned long long[::1] _undo_bugs
    cdef unsigned char[::1] _undo_status
    cdef int[::1] _undo_repetitions
    cdef int[::1] _undo_since
    cdef public long long[::1] cut_mark
    cdef long long[::1] _disc
    cdef long long _stamp
    cdef long long _counter
    cdef public unsigned long long occupancy
    cdef public CutCache cut_cache

    @cython.locals(under=int, n=int, d=int)
    cdef void _lift(self, int pid, int cell) noexcept
    @cython.locals(under=int, n=int, d=int)
    cdef void _drop(self, int pid, int cell) noexcept
    @cython.locals(base=int, d=int)
    cdef void _unmask(self, int cell) noexcept
    @cython.locals(base=int, d=int)
    cdef void _remask(self, int cell) noexcept
    @cython.locals(size=int, undo_last="signed char[::1]", undo_hash="unsigned long long[::1]",
                   undo_key="unsigned long long[::1]", undo_bugs="unsigned long long[::1]",
                   undo_status="unsigned char[::1]", undo_repetitions="int[::1]", undo_since="int[::1]")
    cdef void _grow_undo(self) except *
    @cython.locals(pid=int, src=int, dst=int)
    cdef bint _fits(self, int move) noexcept
    @cython.locals(h="unsigned long long", bugs="unsigned long long", key="unsigned long long", ply=int, last=int,
                   pid=int, src=int, dst=int, bug=int, count=int)
    cpdef void make(self, int move)
    cpdef void make_null(self) except *
    @cython.locals(count=int, ply=int)
    cdef int _occurrences(self, unsigned long long key) noexcept
    cdef unsigned long long _bug_key(self, int bug, int cell, int level) noexcept
    @cython.locals(last=int, mover=int, cell=int, own=int, mosquito=int)
    cdef bint _last_matters(self) noexcept
    @cython.locals(base=int, d=int)
    cdef bint _beside(self, int a, int b) noexcept
    @cython.locals(move=int, ply=int, pid=int, src=int, dst=int)
    cpdef int unmake(self)
    @cython.locals(wq=int, bq=int, white_lost=bint, black_lost=bint)
    cdef int _outcome(self) noexcept
    @cython.locals(cache=CutCache, start=int)
    cpdef long long find_cuts(self)
    @cython.locals(key="unsigned long long", slot="unsigned long long", base=int, i=int)
    cdef bint _cached_cuts(self, CutCache cache) noexcept
    @cython.locals(key="unsigned long long", slot="unsigned long long", base=int, count=int, pid=int, cell=int)
    cdef void _cache_cuts(self, CutCache cache) noexcept
    @cython.locals(dv="long long", low="long long", dw="long long", lw="long long", stamp="long long",
                   children=int, base=int, m=int, row=int, i=int, w=int)
    cdef long long _visit(self, int v, int parent) noexcept
    @cython.locals(pid=int)
    cdef int _first_cell(self) noexcept
