# C types for table.py, applied when Cython compiles it (the .py stays plain Python).
cimport cython

# C copies of constants (the public names stay importable Python ints)
cdef int _NO_CUTOFF, _EXACT, _LOWER, _UPPER
cdef long long _MOVE_MASK, _FLAG_SHIFT, _DEPTH_SHIFT, _DEPTH_MASK, _AGE_SHIFT, _AGE_MASK, _SCORE_SHIFT, _KEY_MASK


@cython.final
cdef class TranspositionTable:
    cdef readonly long long entries
    cdef public long long age
    cdef public int move
    cdef unsigned long long _buckets
    cdef readonly object memory
    cdef long long[::1] _words

    @cython.locals(count=Py_ssize_t, i=Py_ssize_t)
    cdef Py_ssize_t _filled(self) except -1
    @cython.locals(check="long long", i="unsigned long long", data="long long", score=int, flag=int)
    cpdef int probe(self, unsigned long long key, int depth, int alpha, int beta) except? -2147483647
    @cython.locals(flag="long long", data="long long", check="long long", i="unsigned long long", kept="long long")
    cpdef void store(self, unsigned long long key, long long best, long long original_alpha, long long beta,
                     long long depth, long long move) except *
