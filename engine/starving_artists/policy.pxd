# Starving Artists rollout policy (GameC.rollout_action), kept apart from the
# rules in play.pyx.
from easel.engine.contract cimport GameC

cdef int sa_rollout_action(const GameC* g, const void* s, const int* legal, int n,
                           double u1, double u2) noexcept nogil

cdef void sa_evaluate(const GameC* g, const void* s, double* out) noexcept nogil
