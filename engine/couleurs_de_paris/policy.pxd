# Couleurs de Paris, the core's game knowledge for the search (policy.pyx):
# the rollout policy, a GameC entry.
from easel.engine.contract cimport GameC

cdef int cdp_rollout_action(const GameC* g, const void* s, const int* legal, int n,
                            double u1, double u2) noexcept nogil
