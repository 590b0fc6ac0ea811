"""Starving Artists rollout policy ("heavy playouts"): a painter who plans
to sell before the food runs out. Epsilon-greedy over a cheap score per legal
action, ties broken by u2.

The score reads one plan, made afresh at each decision (`_plan`): the cubes
in the studio are laid on the empty squares of the player's own canvases
(single-colour squares first, then split ones, then one wild a canvas), and
what is left over is the surplus; what no cube covers is missing. A playout
that merely paints whatever fits sells too few paintings to see that selling
feeds (most such playouts end in starvation by day six), so the search built
on it cannot tell a plan that feeds from one that starves:

- sell every completed canvas; paint whenever a cube fits (the canvas
  nearest completion first, a wild only on a square no cube at hand covers);
- use the free action first for a trade that brings missing colours from
  the pile, paid with surplus;
- buy while holding fewer than two unfinished canvases, the canvas the
  surplus covers best for its cost (stars, food and paint value against
  missing squares); else work;
- pay with surplus, never a wild if another cube will do, sparing the
  colours of the canvas being bought; take the colours most missing (a wild
  first when collecting);
- Last Supper: discard the painting with the fewest stars; the solo advance
  returns the colour needed less.

Solo is a race against the market (each day removes a canvas, each purchase
another), so there the policy holds one unfinished canvas at a time, values
a canvas by the actions it will take (paint actions beyond the first, cubes
missing, its price), paints only four cubes at a time or to complete, and
plays no random turns. Measured in docs/starving-artists-solo.md; two or
more players are unchanged.

Never the rules: it only ranks the legal actions it is given.
"""
from libc.math cimport tanh
from libc.stdint cimport uint8_t

from easel.engine.bits cimport popcount
from easel.engine.contract cimport GameC
from easel.engine.starving_artists.policies import VALUE_CONFIDENCE, VALUE_SCALE, value_weights
from easel.engine.starving_artists.state cimport (
    SAParamsC, SAStateC, SA_N_CUBES, SA_WILD, SA_FULL, SA_MAX_SQUARES, SA_MAX_PLAYERS, LOC_STUDIO0, PH_TURN, PH_PAY,
    PH_TAKE, PH_COLLECT, PH_ADVANCE, PH_PAINT, PH_ANNOUNCE, PH_SUPPER, PAY_BUY, sa_next_at, A_WORK, A_PAINT, A_BUY, A_RESET, A_TRADE,
    A_DONE, A_PAY, A_TAKE, A_RETURN, A_SELL, A_SUPPER, A_PAINT_AT)

cdef double _EPSILON = 0.05

# The evaluation's numbers are policies.py's, read from there when this module
# is imported: VALUE_SCALE, VALUE_CONFIDENCE (handed to kit.pairwise_estimate)
# and the weights of each player count (value_weights, in VALUE_FEATURES order;
# row n is n players').
cdef double _VALUE_SCALE = VALUE_SCALE
cdef double _CONFIDENCE = VALUE_CONFIDENCE
cdef enum:
    _N_FEATURES = 18
cdef double _WEIGHTS[SA_MAX_PLAYERS + 1][_N_FEATURES]
for _n in range(1, SA_MAX_PLAYERS + 1):
    _row = value_weights(_n)
    if len(_row) != _N_FEATURES:
        raise ImportError("policies.value_weights and policy.pyx disagree on the features")
    for _k in range(_N_FEATURES):
        _WEIGHTS[_n][_k] = _row[_k]


# --------------------------------------------------------------- evaluation
cdef double _position_value(const SAParamsC* P, const SAStateC* st, int p) noexcept nogil:
    """policies.position_value over policies.value_features, operation for
    operation and in the view's order (canvases by index), so that both give
    the same doubles."""
    cdef double f[_N_FEATURES]
    cdef double pdone[160]
    cdef int pworth[160]
    cdef int pstars[160]
    cdef int pfood[160]
    cdef double v, done
    cdef int i, j, k, c, n = 0, cubes = 0, worth
    cdef bint announced
    for k in range(_N_FEATURES):
        f[k] = 0.0
    for c in range(SA_N_CUBES):
        cubes += st.studio[p][c]
    f[0] = st.stars[p]
    f[1] = st.nutrition[p]
    f[2] = cubes
    f[3] = st.studio[p][SA_WILD]
    f[4] = st.food[p]
    f[5] = 1.0 if st.first == p else 0.0
    f[6] = 0.0 if st.alive[p] else 1.0
    i = -1
    while True:
        i = sa_next_at(P, st, LOC_STUDIO0 + p, i + 1)
        if i < 0:
            break
        announced = False
        for j in range(st.n_selling):
            if st.selling[j] == i:
                announced = True
        if announced:
            k = SA_FULL - st.nutrition[p]
            f[14] += P.card_stars[i]
            f[15] += P.card_food[i] if P.card_food[i] < k else k
            f[16] += P.card_food[i]
            f[17] += P.card_paint[i]
            continue
        f[7] += 1.0
        done = (P.card_nsq[i] - _empty_squares(P, st, i)) / <double> P.card_nsq[i]
        worth = 4 * P.card_stars[i] + P.card_food[i]
        # Insertion into descending (done, worth, stars) order, as
        # sorted(reverse=True) of the tuples.
        j = n
        while j > 0 and (pdone[j - 1] < done or (pdone[j - 1] == done and (
                pworth[j - 1] < worth or (pworth[j - 1] == worth and pstars[j - 1] < P.card_stars[i])))):
            pdone[j] = pdone[j - 1]
            pworth[j] = pworth[j - 1]
            pstars[j] = pstars[j - 1]
            pfood[j] = pfood[j - 1]
            j -= 1
        pdone[j] = done
        pworth[j] = worth
        pstars[j] = P.card_stars[i]
        pfood[j] = P.card_food[i]
        n += 1
    for k in range(n):
        if k < 2:
            f[8] += pstars[k]
            f[9] += pfood[k]
            f[10] += pstars[k] * pdone[k]
            f[11] += pfood[k] * pdone[k]
        else:
            f[12] += pstars[k] * pdone[k]
            f[13] += pfood[k] * pdone[k]
    v = 0.0
    for k in range(_N_FEATURES):
        v += _WEIGHTS[P.n][k] * f[k]
    return v


cdef void sa_evaluate(const GameC* g, const void* s, double* out) noexcept nogil:
    """policies.evaluate: pairwise rank estimates from the position values
    (kit.pairwise_estimate). Set on the core only with two or more players:
    solo has no opponent to rank against, and its playouts run to the end."""
    cdef const SAStateC* st = <const SAStateC*> s
    cdef const SAParamsC* P = <const SAParamsC*> g.params
    cdef double v[4]
    cdef double acc
    cdef int p, q
    for p in range(P.n):
        v[p] = _position_value(P, st, p)
    for p in range(P.n):
        acc = 0.0
        for q in range(P.n):
            if q != p:
                acc += tanh((v[p] - v[q]) / _VALUE_SCALE)
        out[p] = _CONFIDENCE * acc / (P.n - 1)


cdef struct PlanC:
    int need[8]         # empty squares on own unfinished canvases taking each colour
    int surplus[8]      # studio cubes no empty square is given in the plan
    int lack[8]         # uncovered squares taking each colour
    int unfinished      # own canvases not complete
    int missing         # uncovered squares over all of them
    int placeable       # empty squares the plan covers
    bint completable    # a canvas the plan covers whole, within one paint action


cdef inline bint _single_fits(const SAParamsC* P, int i, int k, int c) noexcept nogil:
    return P.card_c0[i][k] == c or P.card_c1[i][k] == c


cdef int _cover(const SAParamsC* P, int i, unsigned int filled, bint has_wild, int* avail,
                int* lack) noexcept nogil:
    """Lay cubes from `avail` on canvas i's empty squares (taking them out of
    avail): single-colour squares first, then split squares from the colour
    held more, then one wild if the canvas has none. Adds each uncovered
    square's colours to `lack` (if not NULL); returns how many stay uncovered."""
    cdef int k, c0, c1, c, missing = 0
    cdef unsigned int open_ = 0
    for k in range(P.card_nsq[i]):
        if (filled >> k) & 1:
            continue
        c0 = P.card_c0[i][k]
        c1 = P.card_c1[i][k]
        if c1 < 0:
            if avail[c0] > 0:
                avail[c0] -= 1
            else:
                open_ |= 1u << k
    for k in range(P.card_nsq[i]):
        if (filled >> k) & 1 or P.card_c1[i][k] < 0:
            continue
        c0 = P.card_c0[i][k]
        c1 = P.card_c1[i][k]
        c = c0 if avail[c0] >= avail[c1] else c1
        if avail[c] > 0:
            avail[c] -= 1
        else:
            open_ |= 1u << k
    for k in range(P.card_nsq[i]):
        if not (open_ >> k) & 1:
            continue
        if not has_wild and avail[SA_WILD] > 0:
            avail[SA_WILD] -= 1
            has_wild = True
            continue
        missing += 1
        if lack != NULL:
            lack[P.card_c0[i][k]] += 1
            if P.card_c1[i][k] >= 0:
                lack[P.card_c1[i][k]] += 1
    return missing


cdef void _plan(const SAParamsC* P, const SAStateC* st, int p, PlanC* pl) noexcept nogil:
    cdef int i, j, k, c, best, bi, bj, e, n_own = 0
    cdef unsigned int full
    cdef int own[160]                       # p's unfinished canvases, by index
    cdef int empties[160]                   # ... their empty squares; -1 once covered
    pl.unfinished = 0
    pl.missing = 0
    pl.placeable = 0
    pl.completable = False
    for c in range(SA_N_CUBES):
        pl.need[c] = 0
        pl.lack[c] = 0
        pl.surplus[c] = st.studio[p][c]
    i = -1
    while True:
        i = sa_next_at(P, st, LOC_STUDIO0 + p, i + 1)
        if i < 0:
            break
        full = (1u << P.card_nsq[i]) - 1
        if st.filled[i] == full:
            continue
        e = 0
        for k in range(P.card_nsq[i]):
            if not (st.filled[i] >> k) & 1:
                e += 1
                pl.need[P.card_c0[i][k]] += 1
                if P.card_c1[i][k] >= 0:
                    pl.need[P.card_c1[i][k]] += 1
        own[n_own] = i
        empties[n_own] = e                  # counted in the same pass as the needs
        n_own += 1
    pl.unfinished = n_own
    # Cover the canvases nearest completion first (the lower index on a tie):
    # those cubes are spent first.
    while True:
        best = 1 << 30
        bj = -1
        for j in range(n_own):
            if 0 <= empties[j] < best:
                best = empties[j]
                bj = j
        if bj < 0:
            break
        empties[bj] = -1
        bi = own[bj]
        e = _cover(P, bi, st.filled[bi], st.wildm[bi] != 0, pl.surplus, pl.lack)
        pl.missing += e
        pl.placeable += best - e
        if e == 0 and best <= 4:
            pl.completable = True


cdef inline int _empty_squares(const SAParamsC* P, const SAStateC* st, int i) noexcept nogil:
    # filled holds no bit past the canvas's squares (state.pxd: unused
    # entries stay empty), so its bit count is the squares covered.
    return P.card_nsq[i] - popcount(st.filled[i])


cdef int _surplus_total(const PlanC* pl, bint with_wild) noexcept nogil:
    cdef int c, t = 0
    for c in range(SA_WILD + (1 if with_wild else 0)):
        t += pl.surplus[c]
    return t


cdef double _canvas_worth(const SAParamsC* P, const SAStateC* st, const PlanC* pl, int i,
                          int cost) noexcept nogil:
    """What buying canvas i for `cost` cubes is worth: its rewards against the
    squares the surplus (less the price, paid from it) leaves uncovered."""
    cdef int avail[8]
    cdef int c, short, missing, spare = _surplus_total(pl, False)
    for c in range(SA_N_CUBES):
        avail[c] = pl.surplus[c]
    missing = _cover(P, i, 0, False, avail, NULL)
    # The price comes out of what the new canvas leaves; beyond that it takes
    # cubes some canvas needs.
    short = cost - (spare - (P.card_nsq[i] - missing))
    if short < 0:
        short = 0
    cdef double w = 2.0 * P.card_stars[i] + P.card_food[i] + 0.2 * P.card_paint[i] \
        - 2.5 * missing - 1.0 * cost - 2.5 * short
    if P.solo:
        # Solo, every paint action a canvas needs beyond the first is one of
        # the day's two actions, and every cube it lacks or costs is a share
        # of a work action: the race against the market is lost by canvases
        # that take long to finish (docs/starving-artists-solo.md).
        w -= 4.5 * ((P.card_nsq[i] - 1) // 4) + 1.0 * missing + 1.0 * cost
    return w


cdef double _score(const SAParamsC* P, const SAStateC* st, int p, const PlanC* pl,
                   int a) noexcept nogil:
    cdef int ph = st.phase, i, c, k, t, fixable, e
    cdef double sc
    if a >= A_PAINT_AT:
        i = (a - A_PAINT_AT) // (SA_N_CUBES * SA_MAX_SQUARES)
        c = ((a - A_PAINT_AT) // SA_MAX_SQUARES) % SA_N_CUBES
        k = (a - A_PAINT_AT) % SA_MAX_SQUARES
        e = _empty_squares(P, st, i)
        if c != SA_WILD:
            return 50.0 - e
        # A wild only where no cube at hand goes.
        if st.studio[p][P.card_c0[i][k]] > 0 or \
                (P.card_c1[i][k] >= 0 and st.studio[p][P.card_c1[i][k]] > 0):
            return -1.0
        return 45.0 - e
    if A_SELL <= a < A_SUPPER:
        return 100.0
    if A_SUPPER <= a < A_PAINT_AT:
        return 20.0 - P.card_stars[a - A_SUPPER]
    if ph == PH_PAY:
        c = a - A_PAY
        if c == SA_WILD:
            return -30.0
        sc = 3.0 * pl.surplus[c] - pl.need[c]
        if st.pay_for == PAY_BUY and st.pay_arg >= 0 and st.market[st.pay_arg] >= 0:
            i = st.market[st.pay_arg]
            for k in range(P.card_nsq[i]):
                if _single_fits(P, i, k, c):
                    sc -= 1.0
        return sc
    if ph == PH_TAKE or ph == PH_COLLECT:
        c = a - A_TAKE
        if c == SA_WILD:
            # One wild a canvas: more than the canvases can use lie idle.
            return 30.0 if st.studio[p][SA_WILD] <= pl.unfinished else -0.5
        return 4.0 * pl.lack[c] + pl.need[c] - 0.3 * st.studio[p][c]
    if ph == PH_ADVANCE:
        return -pl.need[a - A_RETURN]
    if a == A_DONE:
        return 0.0 if ph != PH_TURN else 10.0
    if a == A_PAINT:
        # A paint action placing a cube or two wastes the action a work
        # would put to use, unless it completes a canvas for tonight's sale.
        if pl.completable:
            return 42.0
        # Solo, a paint action placing fewer than four cubes loses the
        # cubes a work would have brought for the next one.
        return 40.0 if pl.placeable >= (4 if P.solo else 3) else 15.0
    if A_TRADE <= a < A_TRADE + 3:
        t = a - A_TRADE
        if pl.unfinished == 0 or _surplus_total(pl, False) < P.trade_pay[t]:
            return -1.0
        fixable = 0
        for c in range(SA_WILD):
            if st.pile[c] > 0 and pl.lack[c] > 0:
                fixable += pl.lack[c] if pl.lack[c] < st.pile[c] else st.pile[c]
        if fixable < P.trade_take[t]:
            return -1.0
        return 45.0 + P.trade_take[t]
    if A_BUY <= a < A_BUY + 3:
        if pl.unfinished >= (1 if P.solo else 2):
            return -5.0
        return (30.0 if pl.unfinished == 0 else 22.0) + \
            _canvas_worth(P, st, pl, st.market[a - A_BUY], a - A_BUY + 1)
    if a == A_WORK:
        return 20.0
    return -2.0           # reset, colour study


cdef int sa_rollout_action(const GameC* g, const void* s, const int* legal, int n,
                           double u1, double u2) noexcept nogil:
    cdef const SAStateC* st = <const SAStateC*> s
    cdef const SAParamsC* P = <const SAParamsC*> g.params
    cdef PlanC pl
    cdef int i, k, ties = 0, p = st.actor
    cdef double sc, best = -1e300
    cdef double scores[64]
    # Solo, no random turns: the draws alone vary a playout, and a random
    # "end the day" or purchase costs a solo game more than a two-player one.
    if n == 1 or (u1 < _EPSILON and st.phase == PH_TURN and not P.solo):
        i = <int> (u2 * n)
        return i if i < n else n - 1
    # A placement, a sale or a supper is scored without the plan (_score):
    # most of a playout's decisions are these, so the plan is made only for
    # the decisions that read it.
    if st.phase != PH_PAINT and st.phase != PH_ANNOUNCE and st.phase != PH_SUPPER:
        _plan(P, st, p, &pl)
    for i in range(n):
        sc = _score(P, st, p, &pl, legal[i])
        if i < 64:
            scores[i] = sc
        if sc > best + 1e-9:
            best = sc
            ties = 1
        elif sc >= best - 1e-9:
            ties += 1
    k = <int> (u2 * ties)
    if k >= ties:
        k = ties - 1
    for i in range(n):
        sc = scores[i] if i < 64 else _score(P, st, p, &pl, legal[i])
        if sc >= best - 1e-9:
            if k == 0:
                return i
            k -= 1
    return 0
