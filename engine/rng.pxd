# A small, fast, seedable random generator for nogil code (xoshiro256** seeded
# through splitmix64; Blackman and Vigna, "Scrambled linear pseudorandom
# number generators", 2021). One RngC per thread: no shared state, no locks.
from libc.stdint cimport uint64_t

cdef struct RngC:
    uint64_t s[4]


cdef inline uint64_t _splitmix64(uint64_t* x) noexcept nogil:
    x[0] += <uint64_t> 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * <uint64_t> 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t> 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline void rng_seed(RngC* r, uint64_t seed) noexcept nogil:
    cdef uint64_t x = seed
    r.s[0] = _splitmix64(&x)
    r.s[1] = _splitmix64(&x)
    r.s[2] = _splitmix64(&x)
    r.s[3] = _splitmix64(&x)


cdef inline uint64_t _rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef inline uint64_t rng_next(RngC* r) noexcept nogil:
    cdef uint64_t result = _rotl(r.s[1] * 5, 7) * 9
    cdef uint64_t t = r.s[1] << 17
    r.s[2] ^= r.s[0]
    r.s[3] ^= r.s[1]
    r.s[1] ^= r.s[2]
    r.s[0] ^= r.s[3]
    r.s[2] ^= t
    r.s[3] = _rotl(r.s[3], 45)
    return result


cdef inline double rng_uniform(RngC* r) noexcept nogil:
    """Uniform in [0, 1) with 53 random bits."""
    return (rng_next(r) >> 11) * (1.0 / 9007199254740992.0)


cdef inline int rng_below(RngC* r, int n) noexcept nogil:
    """Uniform integer in [0, n), n > 0 (Lemire's multiply-shift; bias < n / 2**32)."""
    return <int> (((rng_next(r) >> 32) * <uint64_t> n) >> 32)


cdef inline int pick_index(double u, const double* probs, int n) noexcept nogil:
    """The index whose cumulative probability interval holds u in [0, 1)."""
    cdef int i
    for i in range(n - 1):
        u -= probs[i]
        if u < 0.0:
            return i
    return n - 1


cdef inline int rng_pick(RngC* r, const double* probs, int n) noexcept nogil:
    """Index i drawn with probability probs[i] (probabilities summing to 1)."""
    return pick_index(rng_uniform(r), probs, n)


cdef inline double hash_uniform(uint64_t seed, uint64_t k) noexcept nogil:
    """The k-th number of a fixed stream: a pure function of (seed, k), in
    [0, 1). Used where the same draw must come out the same in every line of
    play (a fixed determinization)."""
    cdef uint64_t x = seed + k * <uint64_t> 0x9E3779B97F4A7C15ULL
    return (_splitmix64(&x) >> 11) * (1.0 / 9007199254740992.0)


# The random numbers of one playout (GameC.random_playout), as the search
# draws them: decisions from `rng`; chance events from `rng` too, or, on a
# fixed world (the PIMC form), the k-th chance event of the line gets
# hash_uniform(world, k), k counted from the root.
cdef struct PlayoutRandC:
    RngC* rng
    uint64_t world
    uint64_t chance_k     # chance events met so far in this line of play
    bint fixed_world


cdef inline double chance_uniform(PlayoutRandC* r) noexcept nogil:
    """The uniform in [0, 1) that decides the next chance event."""
    cdef double u
    if r.fixed_world:
        u = hash_uniform(r.world, r.chance_k)
    else:
        u = rng_uniform(r.rng)
    r.chance_k += 1
    return u
