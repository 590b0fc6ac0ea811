# Couleurs de Paris, the core's rules (play.pyx): the GameC rule table entries
# and the one rule the rollout policy reuses.
from easel.engine.contract cimport GameC
from easel.engine.couleurs_de_paris.state cimport CdpParamsC, CdpStateC

# GameC entries (contract.pxd)
cdef int cdp_current_player(const GameC* g, const void* s) noexcept nogil
cdef int cdp_legal_actions(const GameC* g, const void* s, int* out) noexcept nogil
cdef int cdp_chance_outcomes(const GameC* g, const void* s, int* out,
                             double* probs) noexcept nogil
cdef int cdp_sample_chance(const GameC* g, const void* s, double u) noexcept nogil
cdef void cdp_apply(const GameC* g, void* s, int action) noexcept nogil
cdef void cdp_returns(const GameC* g, const void* s, double* out) noexcept nogil
cdef void cdp_scores(const GameC* g, const void* s, double* out) noexcept nogil

# shared with policy.pyx
cdef bint can_paint(const CdpParamsC* P, const CdpStateC* st, int p) noexcept nogil
