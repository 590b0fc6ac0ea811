# Van Gogh, the core's rules (play.pyx): the GameC rule table entries and the
# scoring pieces the rollout policy and the evaluation reuse.
from easel.engine.contract cimport GameC
from easel.engine.vangogh.state cimport VanGoghParamsC, VanGoghStateC

# GameC entries (contract.pxd)
cdef int vg_current_player(const GameC* g, const void* s) noexcept nogil
cdef int vg_legal_actions(const GameC* g, const void* s, int* out) noexcept nogil
cdef int vg_chance_outcomes(const GameC* g, const void* s, int* out,
                            double* probs) noexcept nogil
cdef int vg_sample_chance(const GameC* g, const void* s, double u) noexcept nogil
cdef int vg_chance_source(const GameC* g, const void* s) noexcept nogil
cdef void vg_apply(const GameC* g, void* s, int action) noexcept nogil
cdef void vg_returns(const GameC* g, const void* s, double* out) noexcept nogil
cdef void vg_scores(const GameC* g, const void* s, double* out) noexcept nogil

# shared with policy.pyx
cdef void majority_points(const VanGoghParamsC* P, const VanGoghStateC* st, int slot,
                          int* points) noexcept nogil
cdef void points_from_counts(const VanGoghParamsC* P, int card, const int* counts,
                             int* points) noexcept nogil
cdef void slot_masks(const VanGoghParamsC* P, const VanGoghStateC* st,
                     int* empty, int* om) noexcept nogil
cdef double solo_utility(double score) noexcept nogil
cdef void final_returns(const VanGoghParamsC* P, const VanGoghStateC* st,
                        double* out) noexcept nogil
