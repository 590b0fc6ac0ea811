# Chance outcomes of one draw from a bag kept as counts (the state holds
# counts, never an order: docs/design.md, The C-level contract).
from libc.stdint cimport int8_t


cdef inline int bag_outcomes(const int8_t* bag, int kinds, double total, int* out,
                             double* probs) noexcept nogil:
    """Each kind still in the bag, with probability count / total; returns how many."""
    cdef int n = 0, c
    for c in range(kinds):
        if bag[c] > 0:
            out[n] = c
            probs[n] = bag[c] / total
            n += 1
    return n
