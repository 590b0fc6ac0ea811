"""Connect Four (6x7, four in a row), the Cython core.

Bitboards with a sentinel row: a stone at (col, row) is bit 7*col + row. A
player has four in a row iff for one direction d in {1 (vertical), 7
(horizontal), 6 and 8 (diagonals)} the board b has b & b>>d & b>>2d & b>>3d
nonzero. Only the mover can have just won, so apply checks only the mover."""
from libc.string cimport memset

from easel.engine.contract cimport GameC, PLAYER_TERMINAL
from easel.engine._core cimport CoreGame, CoreState
from easel.engine.rng cimport RngC, PlayoutRandC, rng_below


cdef inline bint _has_four(uint64_t b) noexcept nogil:
    cdef uint64_t m
    m = b & (b >> 1)
    if m & (m >> 2):
        return True
    m = b & (b >> 7)
    if m & (m >> 14):
        return True
    m = b & (b >> 6)
    if m & (m >> 12):
        return True
    m = b & (b >> 8)
    if m & (m >> 16):
        return True
    return False


cdef void c4_init(const GameC* g, void* s) noexcept nogil:
    memset(s, 0, sizeof(C4StateC))
    (<C4StateC*> s).winner = C4_NOBODY


cdef int c4_current_player(const GameC* g, const void* s) noexcept nogil:
    cdef const C4StateC* st = <const C4StateC*> s
    if st.winner != C4_NOBODY:
        return PLAYER_TERMINAL
    return st.player


cdef int c4_legal_actions(const GameC* g, const void* s, int* out) noexcept nogil:
    cdef const C4StateC* st = <const C4StateC*> s
    cdef int n = 0, col
    if st.winner != C4_NOBODY:
        return 0
    for col in range(C4_COLS):
        if st.height[col] < C4_ROWS:
            out[n] = col
            n += 1
    return n


cdef int c4_chance_outcomes(const GameC* g, const void* s, int* out, double* probs) noexcept nogil:
    return 0


cdef inline void _drop(C4StateC* st, int action) noexcept nogil:
    cdef int p = st.player
    st.bits[p] |= (<uint64_t> 1) << (action * C4_STRIDE + st.height[action])
    st.height[action] += 1
    st.moves += 1
    if _has_four(st.bits[p]):
        st.winner = p
    elif st.moves == C4_ROWS * C4_COLS:
        st.winner = C4_DRAW
    st.player = 1 - p


cdef void c4_apply(const GameC* g, void* s, int action) noexcept nogil:
    _drop(<C4StateC*> s, action)


cdef void c4_random_playout(const GameC* g, void* s, PlayoutRandC* rnd,
                            double* out) noexcept nogil:
    """The search's random rollout in one loop (GameC.random_playout): the
    open columns are kept in a list, in order, instead of being listed
    again at every move; the same draw, rng_below(rng, open columns), picks
    the same column as the generic loop."""
    cdef C4StateC st = (<C4StateC*> s)[0]      # local copies stay in registers
    cdef RngC rng = rnd.rng[0]
    cdef int open_cols[C4_COLS]
    cdef int n = 0, col, k, i
    if st.winner == C4_NOBODY:
        for col in range(C4_COLS):
            if st.height[col] < C4_ROWS:
                open_cols[n] = col
                n += 1
    while st.winner == C4_NOBODY:
        k = rng_below(&rng, n)
        col = open_cols[k]
        _drop(&st, col)
        if st.height[col] == C4_ROWS:
            for i in range(k, n - 1):
                open_cols[i] = open_cols[i + 1]
            n -= 1
    rnd.rng[0] = rng
    (<C4StateC*> s)[0] = st
    c4_returns(g, s, out)


cdef void c4_returns(const GameC* g, const void* s, double* out) noexcept nogil:
    cdef const C4StateC* st = <const C4StateC*> s
    out[0] = 0.0
    out[1] = 0.0
    if st.winner == 0 or st.winner == 1:
        out[st.winner] = 1.0
        out[1 - st.winner] = -1.0


def make_core(params, facts):
    cdef CoreGame core = CoreGame.from_facts(facts)
    core.c.state_size = sizeof(C4StateC)
    core.c.current_player = c4_current_player
    core.c.legal_actions = c4_legal_actions
    core.c.chance_outcomes = c4_chance_outcomes
    core.c.apply_action = c4_apply
    core.c.returns = c4_returns
    core.c.random_playout = c4_random_playout
    return core


def init_state(CoreGame core, CoreState state):
    c4_init(&core.c, state.ptr())


def state_to_json(game, bytes raw):
    cdef const C4StateC* st = <const C4StateC*> (<const char*> raw)
    rows = []
    for row in range(C4_ROWS - 1, -1, -1):
        line = []
        for col in range(C4_COLS):
            bit = (<uint64_t> 1) << (col * C4_STRIDE + row)
            line.append("x" if st.bits[0] & bit else ("o" if st.bits[1] & bit else "."))
        rows.append("".join(line))
    winner = st.winner
    return {
        "board": rows,
        "current_player": c4_current_player(NULL, st),
        "moves": st.moves,
        "winner": winner if winner in (0, 1) else None,
        "draw": winner == C4_DRAW,
    }
