"""Starving Artists rollout policy ("heavy playouts"): a painter who means to
sell. Epsilon-greedy over a cheap score per legal action, ties broken by u2:

- sell every completed canvas; paint whenever a cube fits (own cubes before
  wilds, the canvas nearest completion first); buy a canvas while holding
  fewer than two unfinished ones (cheaper and more valuable first); else work;
  end the turn rather than spend the free action, except a trade that brings
  a colour the canvases need;
- pay with the cubes the canvases need least, never a wild if another will
  do; take the cubes they need most (a wild first);
- Last Supper: discard the painting with the fewest stars; the solo advance
  returns the colour needed less.

Never the rules: it only ranks the legal actions it is given.
"""
from easel.engine.contract cimport GameC
from easel.engine.starving_artists.core cimport (
    SAParamsC, SAStateC, SA_N_CUBES, SA_WILD, SA_MAX_SQUARES, LOC_STUDIO0, PH_TURN, PH_PAINT,
    PH_PAY, PH_TAKE, PH_COLLECT, PH_ANNOUNCE, PH_SUPPER, PH_ADVANCE, A_WORK, A_PAINT, A_BUY,
    A_RESET, A_TRADE, A_DONE, A_PAY, A_TAKE, A_RETURN, A_STUDY, A_SELL, A_SUPPER, A_PAINT_AT)

cdef double _EPSILON = 0.1


cdef void _needs(const SAParamsC* P, const SAStateC* st, int p, int* need,
                 int* unfinished) noexcept nogil:
    """Empty squares on p's canvases taking each colour; canvases not complete."""
    cdef int i, k, c
    for c in range(SA_N_CUBES):
        need[c] = 0
    unfinished[0] = 0
    for i in range(P.n_cards):
        if st.loc[i] != LOC_STUDIO0 + p:
            continue
        if st.filled[i] != <unsigned int> ((1 << P.card_nsq[i]) - 1):
            unfinished[0] += 1
        for k in range(P.card_nsq[i]):
            if not (st.filled[i] >> k) & 1:
                need[P.card_c0[i][k]] += 1
                if P.card_c1[i][k] >= 0:
                    need[P.card_c1[i][k]] += 1


cdef inline int _empty_squares(const SAParamsC* P, const SAStateC* st, int i) noexcept nogil:
    cdef int k, e = 0
    for k in range(P.card_nsq[i]):
        if not (st.filled[i] >> k) & 1:
            e += 1
    return e


cdef double _score(const SAParamsC* P, const SAStateC* st, int p, const int* need,
                   int unfinished, int a) noexcept nogil:
    cdef int ph = st.phase, i, c, cost
    cdef int have = 0
    for c in range(SA_N_CUBES):
        have += st.studio[p][c]
    if a >= A_PAINT_AT:
        i = (a - A_PAINT_AT) // (SA_N_CUBES * SA_MAX_SQUARES)
        c = ((a - A_PAINT_AT) // SA_MAX_SQUARES) % SA_N_CUBES
        return 50.0 - _empty_squares(P, st, i) - (8.0 if c == SA_WILD else 0.0)
    if A_SELL <= a < A_SUPPER:
        return 100.0
    if A_SUPPER <= a < A_PAINT_AT:
        return 20.0 - P.card_stars[a - A_SUPPER]
    if ph == PH_PAY:
        c = a - A_PAY
        return -need[c] - (20.0 if c == SA_WILD else 0.0)
    if ph == PH_TAKE or ph == PH_COLLECT:
        c = a - A_TAKE
        return need[c] + (30.0 if c == SA_WILD else 0.0)
    if ph == PH_ADVANCE:
        return -need[a - A_RETURN]
    if a == A_DONE:
        return 0.0 if ph != PH_TURN else 10.0
    if a == A_PAINT:
        return 40.0
    if A_BUY <= a < A_BUY + 3:
        if unfinished >= 2:
            return -5.0
        cost = a - A_BUY + 1
        i = st.market[a - A_BUY]
        return 30.0 - 3.0 * cost + P.card_stars[i] + 0.5 * P.card_food[i] \
            - 0.5 * P.card_nsq[i]
    if a == A_WORK:
        return 20.0
    if A_TRADE <= a < A_TRADE + 3:
        return 12.0 if (have >= 6 and unfinished > 0) else -1.0
    return -2.0           # reset, colour study


cdef int sa_rollout_action(const GameC* g, const void* s, const int* legal, int n,
                           double u1, double u2) noexcept nogil:
    cdef const SAStateC* st = <const SAStateC*> s
    cdef const SAParamsC* P = <const SAParamsC*> g.params
    cdef int need[8]
    cdef int unfinished, i, k, ties = 0, p = st.actor
    cdef double sc, best = -1e300
    if u1 < _EPSILON or n == 1:
        i = <int> (u2 * n)
        return i if i < n else n - 1
    _needs(P, st, p, need, &unfinished)
    for i in range(n):
        sc = _score(P, st, p, need, unfinished, legal[i])
        if sc > best + 1e-9:
            best = sc
            ties = 1
        elif sc >= best - 1e-9:
            ties += 1
    k = <int> (u2 * ties)
    if k >= ties:
        k = ties - 1
    for i in range(n):
        if _score(P, st, p, need, unfinished, legal[i]) >= best - 1e-9:
            if k == 0:
                return i
            k -= 1
    return 0
