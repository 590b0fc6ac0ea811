# Bit counting shared by the game cores (Couleurs de Paris's white and
# filled spaces, Starving Artists' covered squares). The compiler's builtin
# compiles to one instruction (popcnt) only where the build targets a CPU
# that has it (-mpopcnt, -march); setup.py builds for the baseline x86-64,
# where GCC makes it a call to libgcc's __popcountdi2 (about 1% of a solo
# Starving Artists search's samples in perf, 2026-12-04: too little to give
# up running on every x86-64). Defined inline here so that each module
# inlines the builtin rather than calling through a pointer.
cdef extern from *:
    int __builtin_popcount(unsigned int x) nogil


cdef inline int popcount(unsigned int x) noexcept nogil:
    return __builtin_popcount(x)
