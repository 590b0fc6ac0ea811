# Bit counting shared by the game cores (Couleurs de Paris's white and
# filled spaces, Starving Artists' covered squares). The compiler's builtin
# compiles to one instruction where the CPU has one (popcnt), and to a
# short table-free sequence elsewhere; defined inline here so that each
# module inlines it rather than calling through a pointer.
cdef extern from *:
    int __builtin_popcount(unsigned int x) nogil


cdef inline int popcount(unsigned int x) noexcept nogil:
    return __builtin_popcount(x)
