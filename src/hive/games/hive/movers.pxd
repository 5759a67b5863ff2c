# C types for movers.py, applied when Cython compiles it (the .py stays plain Python).
cimport cython
from .state cimport State

# constants imported from geometry and pieces become C ints here
cdef int CELLS, KINDS, QUEEN, SPIDER, BEETLE, GRASSHOPPER, ANT, MOSQUITO, LADYBUG, PILLBUG

cdef int[::1] _NB
cdef signed char[::1] _KIND
cdef signed char[::1] _SLIDE_N
cdef signed char[::1] _SLIDE_D
cdef signed char[::1] _OCC_N
cdef signed char[::1] _OCC_D
cdef signed char[::1] _LEFT
cdef signed char[::1] _RIGHT


cdef class Movers(State):
    cdef long long[::1] _mark
    cdef long long _mark_stamp
    cdef long long[::1] _dmark
    cdef long long _dmark_stamp
    cdef short[::1] _todo
    cdef short[::1] _dests
    cdef short[::1] _around

    @cython.locals(base=int, d=int, t=int)
    cdef bint _touches_pillbug(self, int cell) noexcept
    cdef int _destinations(self, int kind, int cell, int n) noexcept
    @cython.locals(base=int, m=int, row=int, i=int)
    cdef int _steps(self, int cell, int n) noexcept
    @cython.locals(stamp="long long", size=int, x=int, base=int, m=int, row=int, i=int, y=int)
    cdef int _ant(self, int origin, int n) noexcept
    @cython.locals(stamp="long long", m1=int, m2=int, m3=int, i1=int, i2=int, i3=int, y1=int, y2=int, y3=int)
    cdef int _spider(self, int origin, int n) noexcept
    @cython.locals(m=int, i=int, d=int, y=int)
    cdef int _grasshopper(self, int cell, int n) noexcept
    @cython.locals(h_src=int, base=int, d=int, y=int, h_dst=int, hl=int, hr=int, hi=int, lo=int)
    cdef int _beetle(self, int cell, int n) noexcept
    @cython.locals(stamp="long long", base0=int, base1=int, base2=int, d1=int, d2=int, d3=int, y1=int, y2=int, y3=int,
                   h1=int, h2=int, hl=int, hr=int, c=int)
    cdef int _ladybug(self, int origin, int n) noexcept
    @cython.locals(kinds=int, base=int, d=int, t=int, kind=int, stamp="long long", end=int, i=int, y=int)
    cdef int _mosquito(self, int cell, int n) noexcept
