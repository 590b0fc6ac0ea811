# Starving Artists, the core's rules (play.pyx): the GameC rule table entries
# (the initial position is the reference's, packed by core.pyx).
from easel.engine.contract cimport GameC
from easel.engine.starving_artists.state cimport SAParamsC, SAStateC

# GameC entries (contract.pxd)
cdef int sa_current_player(const GameC* g, const void* s) noexcept nogil
cdef int sa_legal_actions(const GameC* g, const void* s, int* out) noexcept nogil
cdef int sa_chance_outcomes(const GameC* g, const void* s, int* out,
                            double* probs) noexcept nogil
cdef int sa_sample_chance(const GameC* g, const void* s, double u) noexcept nogil
cdef int sa_chance_source(const GameC* g, const void* s) noexcept nogil
cdef void sa_apply(const GameC* g, void* s, int a) noexcept nogil
cdef void sa_returns(const GameC* g, const void* s, double* out) noexcept nogil
cdef void sa_scores(const GameC* g, const void* s, double* out) noexcept nogil
