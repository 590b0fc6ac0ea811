"""Couleurs de Paris, the core's game knowledge for the search: the rollout
policy (not rules; policies.py holds its scores in Python for the bots)."""
from easel.engine.bits cimport popcount
from easel.engine.contract cimport GameC
from easel.engine._core cimport CoreGame, CoreState
from easel.engine.couleurs_de_paris.state cimport *
from easel.engine.couleurs_de_paris.play cimport can_paint

from easel.engine.couleurs_de_paris import rules as _rules


# ----------------------------------------------------------- rollout policy
# A cheap rule of thumb for rollouts (not the rules): act rather than lay
# down; gather the colours one's paintings still need; paint matching
# pigments onto the painting nearest completion, white only to finish one;
# take a painting while holding fewer than 2 unfinished; pay and discard what
# is least needed. Epsilon-greedy: with probability ROLLOUT_EPSILON (rules.py,
# read when the module is imported; docs/strength.md has the runs behind it)
# a uniform move, so rollouts keep exploring. policies.py holds the same
# scores in Python (tests/couleurs_de_paris/test_cdp_core.py checks they agree).
cdef double _ROLLOUT_EPSILON = _rules.ROLLOUT_EPSILON

ROLLOUT_EPSILON = _ROLLOUT_EPSILON


cdef void _needs(const CdpParamsC* P, const CdpStateC* st, int p, int* need,
                 int* unfinished) noexcept nogil:
    cdef int c, j
    for c in range(CDP_N_COLOURS):
        need[c] = 0
    unfinished[0] = 0
    for c in range(P.ncards):
        if st.owner[c] != p or st.done[c]:
            continue
        unfinished[0] += 1
        for j in range(CDP_SPACES):
            if not (st.fill[c] >> j) & 1:
                need[P.card_space[c][j]] += 1


cdef double _kind_score(const CdpParamsC* P, const CdpStateC* st, int p, int kind,
                        const int* need, int unfinished) noexcept nogil:
    """How much wheel action or centre space `kind` is worth placing on."""
    cdef const int16_t* pig = st.pig[p]
    cdef int want
    if kind == C_RED or kind == C_YELLOW or kind == C_BLUE:
        if st.supply[kind] == 0:
            return 0.0
        want = need[kind] - pig[kind]
        return 2.0 + (want if want > 0 else 0)
    if kind == C_ORANGE or kind == C_GREEN or kind == C_VIOLET:
        if st.supply[kind] == 0:
            return 0.0
        want = need[kind] - pig[kind]
        return 1.0 + 2.0 * (want if want > 0 else 0) * (pig[mix_a(kind)] > 0) * (pig[mix_b(kind)] > 0)
    if kind == K_BLACK:
        return 14.0 if (pig[C_ORANGE] and pig[C_GREEN] and pig[C_VIOLET]
                        and st.supply[C_BLACK]) else 0.0
    if kind == K_IMPROVE:
        return 4.0 if nonblack(st, p) >= 5 else 0.5
    if kind == K_TAKE:
        return 9.0 if unfinished < 2 else 0.5
    if kind == K_PAINT:
        return 11.0 if can_paint(P, st, p) else (3.0 if unfinished else 0.0)
    if kind == L_FIRST:
        return 2.0
    if kind == L_IMITATOR:
        return 2.5
    if kind == L_ROTATE:
        return 0.5
    return 3.0              # white


cdef double _action_score(const CdpParamsC* P, const CdpStateC* st, int p, int a,
                          const int* need, int unfinished) noexcept nogil:
    cdef int c, j, filled, e, best
    if a < A_USE:
        return _kind_score(P, st, p, a - A_PLACE, need, unfinished)
    if a < A_LAYDOWN:
        return 10.0 + _kind_score(P, st, p, a - A_USE, need, unfinished) * 0.1
    if a < A_TOOL:
        return 0.0
    if a < A_PAY:
        return 10.0 - st.tool[p][a - A_TOOL] + (1.0 if a - A_TOOL == T_BRUSH else 0.0)
    if a < A_BONUS_ASSISTANT:
        c = a - A_PAY
        return st.pig[p][c] - 3.0 * need[c] - (2.0 if c == C_WHITE else 0.0)
    if a == A_BONUS_ASSISTANT:
        return 1.0 if st.round <= 8 else 0.0
    if a == A_BONUS_POINTS:
        return 0.5
    if a < A_IMITATE:
        c = st.easel[a - A_TAKE]
        best = 0
        for j in range(CDP_SPACES):
            if st.pig[p][P.card_space[c][j]] > 0:
                best += 1
        return best + P.card_value[c] / 5.0
    if a < A_PAINT:
        return _kind_score(P, st, p, a - A_IMITATE, need, unfinished)
    if a < A_STOP:
        if a >= A_PAINT_WHITE:
            c = (a - A_PAINT_WHITE) // CDP_SPACES
            filled = popcount(st.fill[c])
            return 12.0 if filled == CDP_SPACES - 1 else 1.0 + filled * 0.1
        c = (a - A_PAINT) // CDP_SPACES
        return 10.0 + popcount(st.fill[c])
    if a == A_STOP:
        return -1.0
    if a < A_DISCARD:
        return 0.0
    if a < A_STAND:
        c = a - A_DISCARD
        return st.pig[p][c] - 3.0 * need[c]
    return _kind_score(P, st, p, a - A_STAND, need, unfinished)


cdef int cdp_rollout_action(const GameC* g, const void* s, const int* legal, int n,
                            double u1, double u2) noexcept nogil:
    cdef const CdpParamsC* P = cdp_params(g)
    cdef const CdpStateC* st = <const CdpStateC*> s
    cdef int need[CDP_N_COLOURS]
    cdef int unfinished, i, best = 0, ties = 0, pick
    cdef double v, top = -1e9
    if n <= 1:
        return 0
    if u1 < _ROLLOUT_EPSILON:
        pick = <int> (u2 * n)
        return pick if pick < n else n - 1
    _needs(P, st, st.cur, need, &unfinished)
    for i in range(n):
        v = _action_score(P, st, st.cur, legal[i], need, unfinished)
        if v > top + 1e-9:
            top = v
            best = i
            ties = 1
        elif v > top - 1e-9:
            ties += 1
    if ties == 1:
        return best
    # Ties: the k-th tied action, k from u2.
    pick = <int> (u2 * ties)
    if pick >= ties:
        pick = ties - 1
    for i in range(n):
        v = _action_score(P, st, st.cur, legal[i], need, unfinished)
        if v > top - 1e-9:
            if pick == 0:
                return i
            pick -= 1
    return best


def rollout_scores(CoreState state):
    """The rollout policy's score of each legal action (for tests and policies.py)."""
    cdef CoreGame core = state.core
    cdef const CdpParamsC* P = cdp_params(&core.c)
    cdef const CdpStateC* st = <const CdpStateC*> state.ptr()
    cdef int need[CDP_N_COLOURS]
    cdef int unfinished
    _needs(P, st, st.cur, need, &unfinished)
    return {a: _action_score(P, st, st.cur, a, need, unfinished) for a in state.legal_actions()}
