# C types for position.py, applied when Cython compiles it (the .py stays plain Python).
cimport cython
from .state cimport State

# constants imported from the game, geometry, rules and state become C ints here
cdef int CELLS, QUEEN, HIGHBORN, DRONE, NURSE, WORKER, SOLDIER
cdef int PROMOTE, PRODUCE, END, PRODUCTION, IN_PROGRESS
cdef signed char[::1] _NB
cdef int[::1] _RAY_START
cdef signed char[::1] _RAY_CELLS
cdef signed char[::1] _SWAP
cdef int[::1] _LIMIT


cdef class Position(State):
    cpdef list generate(self)
    @cython.locals(board=bytearray, colour=int, moves=list, own_cells=list, promote=bint, cell=int, kind=int, n=int, d=int, v=int,
                   i=int, end=int, first=int, other=int, k=int, count=int, rider=bint)
    cpdef list movements(self)
    @cython.locals(board=bytearray, count=list, moves=list, colour=int, own=int, prod=int, cnt=int, first=int, every=int, soldier_ok=bint,
                   kinds=list, kind=int, soldiers=bint, cell=int, friendly=bint, nset=int, d=int, n=int, v=int)
    cpdef list productions(self)
