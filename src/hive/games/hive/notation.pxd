# C types for notation.py, applied when Cython compiles it (the .py stays plain Python).
cimport cython
from .position cimport Position

cdef int CELLS, PIECES, ORIGIN_CELL
cdef int _HAND
cdef long long _GROUND_TAKEN
cdef int[::1] _NB
cdef signed char[::1] _OPP


@cython.locals(dst=int, ref_cell=int, src=int, code="long long")
cpdef long long move_code(Position p, int piece, int reference, int direction)
@cython.locals(pid=int, src=int, dst="long long", base=int, d=int, ref=int)
cpdef int reference(Position p, long long code)
