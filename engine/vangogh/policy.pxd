# Van Gogh, the core's game knowledge for the search (policy.pyx): the
# heuristic evaluation and the rollout policy, both GameC entries.
from easel.engine.contract cimport GameC

cdef void vg_evaluate(const GameC* g, const void* s, double* out) noexcept nogil
cdef int vg_rollout_action(const GameC* g, const void* s, const int* legal, int n,
                           double u1, double u2) noexcept nogil
