"""Starving Artists, the core's rules: a line-by-line port of reference.py (the
executable spec) to the fixed-size SAStateC with `noexcept nogil` rule
functions. ENCODING.md fixes the phases, action ids and chance outcomes both
implementations share; tests/test_differential.py checks identical traces.
Comments cite RULINGS.md as §N.

Chance probabilities use the reference's formulas (`bag[c] / total`,
`1.0 / unseen`), so they are bit-identical. The rollout policy and the
evaluation are in policy.pyx, the Python face in core.pyx.
"""
from libc.stdint cimport uint16_t
from libc.string cimport memmove, memset

from easel.engine.bag cimport bag_outcomes
from easel.engine.contract cimport GameC, PLAYER_CHANCE, PLAYER_TERMINAL
from easel.engine.starving_artists.state cimport *


# ------------------------------------------------------------------ helpers
cdef inline int _seat(const SAParamsC* P, const SAStateC* st, int off) noexcept nogil:
    return (st.first + off) % P.n


cdef inline int _drawable(const SAParamsC* P, const SAStateC* st) noexcept nogil:
    return st.n_unseen - P.set_aside


cdef inline bint _complete(const SAParamsC* P, const SAStateC* st, int i) noexcept nogil:
    return st.filled[i] == <uint16_t> ((1 << P.card_nsq[i]) - 1)


cdef inline void _set_loc(SAStateC* st, int i, int where) noexcept nogil:
    if st.loc[i] == LOC_UNSEEN:
        st.n_unseen -= 1
    if where == LOC_UNSEEN:
        st.n_unseen += 1
    st.loc[i] = where


cdef inline void _bag_add(SAStateC* st, int c, int k) noexcept nogil:
    st.bag[c] += k
    st.bag_total += k


cdef inline void _pile_add(SAStateC* st, int c, int k) noexcept nogil:
    st.pile[c] += k
    st.pile_total += k


cdef inline int _studio_total(const SAStateC* st, int p) noexcept nogil:
    cdef int c, t = 0
    for c in range(SA_N_CUBES):
        t += st.studio[p][c]
    return t


cdef int _placements(const SAParamsC* P, const SAStateC* st, int p, int* out) noexcept nogil:
    """PAINT_AT ids open to p (§10-§11), in the reference's order; out may be
    NULL to count only (stops at the first)."""
    cdef int n = 0, i, k, c
    cdef uint16_t seen
    cdef bint wild_ok
    cdef int owner = LOC_STUDIO0 + p
    i = -1
    while True:
        i = sa_next_at(P, st, owner, i + 1)
        if i < 0:
            break
        wild_ok = st.studio[p][SA_WILD] > 0 and st.wildm[i] == 0
        seen = 0
        for k in range(P.card_nsq[i]):
            if (st.filled[i] >> k) & 1 or (seen & P.card_kind[i][k]):
                continue
            seen |= P.card_kind[i][k]
            c = P.card_c0[i][k]
            if st.studio[p][c] > 0:
                if out == NULL:
                    return 1
                out[n] = A_PAINT_AT + (i * SA_N_CUBES + c) * SA_MAX_SQUARES + k
                n += 1
            c = P.card_c1[i][k]
            if c >= 0 and st.studio[p][c] > 0:
                if out == NULL:
                    return 1
                out[n] = A_PAINT_AT + (i * SA_N_CUBES + c) * SA_MAX_SQUARES + k
                n += 1
            if wild_ok:
                if out == NULL:
                    return 1
                out[n] = A_PAINT_AT + (i * SA_N_CUBES + SA_WILD) * SA_MAX_SQUARES + k
                n += 1
    return n


cdef inline int _nonwild_pile(const SAStateC* st) noexcept nogil:
    return st.pile_total - st.pile[SA_WILD]


cdef inline bint _has_sold(const SAParamsC* P, const SAStateC* st, int p) noexcept nogil:
    return sa_next_at(P, st, LOC_SOLD0 + p, 0) >= 0


cdef inline bint _takeable(const SAParamsC* P, const SAStateC* st, int c) noexcept nogil:
    if st.pile[c] == 0:
        return False
    return c != SA_WILD or P.solo or not st.turn_wild


cdef inline void _sort(int* a, int n) noexcept nogil:
    """Insertion sort (the lists are short): the contract wants sorted ids."""
    cdef int k, j, x
    for k in range(1, n):
        x = a[k]
        j = k - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


# ------------------------------------------------------------- legal moves
cdef int sa_current_player(const GameC* g, const void* s) noexcept nogil:
    cdef const SAStateC* st = <const SAStateC*> s
    cdef int ph = st.phase
    if ph == PH_END:
        return PLAYER_TERMINAL
    if ph == PH_SETUP or ph == PH_DRAW or ph == PH_CANVAS:
        return PLAYER_CHANCE
    return st.actor


cdef int _sales(const SAParamsC* P, const SAStateC* st, int p, bint skip_announced,
                int* out) noexcept nogil:
    """A_SELL for each complete canvas in p's studio, by index (less those
    announced already if skip_announced); returns how many."""
    cdef int i = -1, k, n = 0
    cdef bint announced
    while True:
        i = sa_next_at(P, st, LOC_STUDIO0 + p, i + 1)
        if i < 0:
            return n
        if not _complete(P, st, i):
            continue
        announced = False
        if skip_announced:
            for k in range(st.n_selling):
                if st.selling[k] == i:
                    announced = True
                    break
        if not announced:
            out[n] = A_SELL + i
            n += 1


cdef int _turn_actions(const SAParamsC* P, const SAStateC* st, int p, int* out) noexcept nogil:
    """The turn menu, sorted by id (the reference sorts its list)."""
    cdef int n = 0, have = _studio_total(st, p), slot, t, give, want, i
    cdef bint can_act = (st.actions_left > 0) if P.solo else (not st.main_done)
    cdef bint market_any = st.market[0] >= 0 or st.market[1] >= 0 or st.market[2] >= 0
    if can_act:
        out[n] = A_WORK
        n += 1
        if _placements(P, st, p, NULL):
            out[n] = A_PAINT
            n += 1
        for slot in range(SA_MARKET):
            if st.market[slot] >= 0 and have >= slot + 1:
                out[n] = A_BUY + slot
                n += 1
    if not st.free_used[p]:
        if not P.solo and have >= 2 and market_any:
            out[n] = A_RESET
            n += 1
        for t in range(P.n_trades):
            if have >= P.trade_pay[t] and _nonwild_pile(st) >= P.trade_take[t]:
                out[n] = A_TRADE + t
                n += 1
    if (P.solo and st.actions_left == 0) or (not P.solo and st.main_done):
        out[n] = A_DONE
        n += 1
    if not st.free_used[p] and P.colour_study:
        for give in range(SA_N_CUBES):
            if st.studio[p][give] >= 4:
                for want in range(SA_N_CUBES):
                    if want != give and st.bag[want] > 0:
                        out[n] = A_STUDY + give * SA_N_CUBES + want
                        n += 1
    if P.solo:
        n += _sales(P, st, p, False, out + n)
    return n


cdef int sa_legal_actions(const GameC* g, const void* s, int* out) noexcept nogil:
    cdef const SAStateC* st = <const SAStateC*> s
    cdef const SAParamsC* P = sa_params(g)
    cdef int ph = st.phase, p = st.actor, n = 0, c, i, k, m
    if ph == PH_TURN:
        return _turn_actions(P, st, p, out)
    if ph == PH_PAINT:
        if st.paints_left < 4:
            out[0] = A_DONE
            n = 1
        m = _placements(P, st, p, out + n)
        _sort(out + n, m)
        return n + m
    if ph == PH_PAY:
        for c in range(SA_N_CUBES):
            if st.studio[p][c] > 0:
                out[n] = A_PAY + c
                n += 1
        return n
    if ph == PH_TAKE:
        for c in range(SA_WILD):
            if st.pile[c] > 0:
                out[n] = A_TAKE + c
                n += 1
        return n
    if ph == PH_COLLECT:
        for c in range(SA_N_CUBES):
            if _takeable(P, st, c):
                out[n] = A_TAKE + c
                n += 1
        return n
    if ph == PH_ANNOUNCE:
        out[0] = A_DONE
        return 1 + _sales(P, st, p, True, out + 1)
    if ph == PH_SUPPER:
        out[0] = A_DONE
        n = 1
        i = -1
        while True:
            i = sa_next_at(P, st, LOC_SOLD0 + p, i + 1)
            if i < 0:
                break
            out[n] = A_SUPPER + i
            n += 1
        return n
    if ph == PH_ADVANCE:
        i = st.adv_card
        k = st.adv_k
        out[0] = A_RETURN + P.card_c0[i][k]
        out[1] = A_RETURN + P.card_c1[i][k]
        return 2
    return 0


# ------------------------------------------------------------------ chance
cdef int sa_chance_outcomes(const GameC* g, const void* s, int* out,
                            double* probs) noexcept nogil:
    cdef const SAStateC* st = <const SAStateC*> s
    cdef const SAParamsC* P = sa_params(g)
    cdef int ph = st.phase, n = 0, i, c
    cdef double total
    if ph == PH_CANVAS:
        for i in range(P.n_cards):
            if st.loc[i] == LOC_UNSEEN:
                out[n] = i
                probs[n] = 1.0 / st.n_unseen
                n += 1
        return n
    if ph == PH_SETUP or ph == PH_DRAW:
        return bag_outcomes(st.bag, SA_N_CUBES, st.bag_total, out, probs)
    return 0


cdef int sa_chance_source(const GameC* g, const void* s) noexcept nogil:
    """GameC.chance_source: the canvases (1), turned up from one shuffled
    pile (§32 ruling), apart from the cubes drawn from the bag (0)."""
    return 1 if (<const SAStateC*> s).phase == PH_CANVAS else 0


cdef int sa_sample_chance(const GameC* g, const void* s, double u) noexcept nogil:
    """The outcome whose cumulative interval (in chance_outcomes order) holds u."""
    cdef const SAStateC* st = <const SAStateC*> s
    cdef const SAParamsC* P = sa_params(g)
    cdef int i, c, k, last = -1
    cdef double acc = 0.0, total
    if st.phase == PH_CANVAS:
        k = <int> (u * st.n_unseen)
        if k >= st.n_unseen:
            k = st.n_unseen - 1
        for i in range(P.n_cards):
            if st.loc[i] == LOC_UNSEEN:
                if k == 0:
                    return i
                k -= 1
        return 0
    total = st.bag_total
    for c in range(SA_N_CUBES):
        if st.bag[c] > 0:
            acc += st.bag[c] / total
            last = c
            if u < acc:
                return c
    return last


# ------------------------------------------------------------------- apply
cdef void _draw(SAStateC* st, int to, int k, int resume) noexcept nogil:
    st.draw_to = to
    st.draws_left = k
    st.resume = resume
    st.phase = PH_DRAW


cdef void _fill_market(SAStateC* st, int resume) noexcept nogil:
    st.resume = resume
    st.phase = PH_CANVAS


cdef void _compact_market(SAStateC* st) noexcept nogil:
    """§12: the canvases slide toward the cheap end, filling the gaps."""
    cdef int tmp[3]
    cdef int k = 0, slot
    for slot in range(SA_MARKET):
        if st.market[slot] >= 0:
            tmp[k] = st.market[slot]
            k += 1
    for slot in range(SA_MARKET):
        st.market[slot] = tmp[slot] if slot < k else -1


cdef void _place_in_market(SAStateC* st, int i) noexcept nogil:
    cdef int slot
    for slot in range(SA_MARKET):
        if st.market[slot] < 0:
            st.market[slot] = i
            _set_loc(st, i, LOC_MARKET)
            return


cdef void _clear_canvas(const SAParamsC* P, SAStateC* st, int i) noexcept nogil:
    cdef int k, c
    for k in range(P.card_nsq[i]):
        c = sa_cube_on(P, st, i, k)
        if c >= 0:
            _bag_add(st, c, 1)
    st.filled[i] = 0
    st.wildm[i] = 0
    st.altm[i] = 0


cdef void _starve(const SAParamsC* P, SAStateC* st, int p) noexcept nogil:
    """§7, §26."""
    cdef int c, i
    st.nutrition[p] = 0
    st.alive[p] = 0
    st.starved_today = 1
    if P.solo:
        st.result = -1
    for c in range(SA_N_CUBES):
        _bag_add(st, c, st.studio[p][c])
        st.studio[p][c] = 0
    for i in range(P.n_cards):
        if st.loc[i] == LOC_STUDIO0 + p:
            _clear_canvas(P, st, i)
            _set_loc(st, i, LOC_REMOVED)


cdef void _nutrition_drop(const SAParamsC* P, SAStateC* st, int p) noexcept nogil:
    st.actor = -1
    st.nutrition[p] -= 1
    if st.nutrition[p] < 1:
        _starve(P, st, p)


cdef bint _nutrition_step(const SAParamsC* P, SAStateC* st, int p) noexcept nogil:
    """Lower p's nutrition (not on day 1); True when p decides on a Last Supper (§30)."""
    if st.day == 1:
        return False
    if P.last_supper and st.nutrition[p] == 1 and _has_sold(P, st, p):
        st.actor = p
        st.phase = PH_SUPPER
        return True
    _nutrition_drop(P, st, p)
    return False


cdef void _last_supper(const SAParamsC* P, SAStateC* st, int p, int i) noexcept nogil:
    _set_loc(st, i, LOC_REMOVED)
    st.stars[p] -= P.card_stars[i]
    st.paintings[p] -= 1
    st.nutrition[p] = min(SA_FULL, st.nutrition[p] + P.card_stars[i])


cdef void _start_turn(const SAParamsC* P, SAStateC* st) noexcept nogil:
    cdef int n = P.n
    while True:
        while st.turn_k < n and not st.alive[_seat(P, st, st.turn_k)]:
            st.turn_k += 1
        if st.turn_k < n:
            st.actor = _seat(P, st, st.turn_k)
            st.main_done = 0
            st.phase = PH_TURN
            return
        if st.round == 2:
            break
        st.round = 2
        st.turn_k = 0
    st.turn_k = 0
    st.actor = -1
    st.phase = PH_ANNOUNCE
    _next_announcer(P, st)


cdef void _next_announcer(const SAParamsC* P, SAStateC* st) noexcept nogil:
    cdef int p, i
    cdef bint any_complete
    while st.turn_k < P.n:
        p = _seat(P, st, st.turn_k)
        if st.alive[p]:
            any_complete = False
            for i in range(P.n_cards):
                if st.loc[i] == LOC_STUDIO0 + p and _complete(P, st, i):
                    any_complete = True
                    break
            if any_complete:
                st.actor = p
                return
        st.turn_k += 1
    st.turn_k = 0
    st.actor = -1
    st.feed_k = 0
    st.fed = 0
    st.phase = PH_FEED


cdef void _dawn(const SAParamsC* P, SAStateC* st) noexcept nogil:
    """§6-§8; solo §32."""
    cdef int p, k
    if P.solo:
        if st.dawn_k == 0:
            if _nutrition_step(P, st, 0):
                return
            st.dawn_k = 1
        if st.result < 0:
            st.dawn_k = 0
            st.phase = PH_END
            return
        if st.dawn_k == 1:
            st.dawn_k = 2
            _draw(st, TO_PILE, 4, PH_DAWN)
            return
        st.dawn_k = 0
        st.actor = 0
        st.actions_left = 2
        st.phase = PH_TURN
        return
    if st.dawn_k == 0:
        st.dawn_k = 1
        _draw(st, TO_PILE, 4, PH_DAWN)
        return
    while st.dawn_k <= P.n:
        p = _seat(P, st, st.dawn_k - 1)
        if st.alive[p] and _nutrition_step(P, st, p):
            return
        st.dawn_k += 1
    st.dawn_k = 0
    k = 0
    for p in range(P.n):
        k += st.alive[p]
    if k == 0:
        st.phase = PH_END
        return
    while not st.alive[st.first]:
        st.first = (st.first + 1) % P.n
    st.round = 1
    st.turn_k = 0
    _start_turn(P, st)


cdef int _sellers(const SAParamsC* P, const SAStateC* st, int* out) noexcept nogil:
    """Players with an announced canvas, in turn order from the first player."""
    cdef int k, p, j, n = 0
    cdef bint has
    for k in range(P.n):
        p = _seat(P, st, k)
        has = False
        for j in range(st.n_selling):
            if st.loc[st.selling[j]] == LOC_STUDIO0 + p:
                has = True
                break
        if has:
            out[n] = p
            n += 1
    return n


cdef bint _feed(const SAParamsC* P, SAStateC* st) noexcept nogil:
    """§19-§20. True while a draw is pending."""
    cdef int sellers[4]
    cdef int m = _sellers(P, st, sellers), p, j, i, food, total
    while st.feed_k < m:
        p = sellers[st.feed_k]
        if not st.fed:
            st.fed = 1
            food = 0
            for j in range(st.n_selling):
                i = st.selling[j]
                if st.loc[i] == LOC_STUDIO0 + p:
                    food += P.card_food[i]
            st.food[p] += food
            total = st.nutrition[p] + food
            st.nutrition[p] = min(SA_FULL, total)
            if total > SA_FULL:
                _draw(st, p, 4 * (total - SA_FULL), PH_FEED)
                return True
        for j in range(st.n_selling):
            i = st.selling[j]
            if st.loc[i] == LOC_STUDIO0 + p:
                _clear_canvas(P, st, i)
        st.fed = 0
        st.feed_k += 1
    st.feed_k = 0
    return False


cdef inline bint _before(const SAParamsC* P, const SAStateC* st, int a, int b) noexcept nogil:
    """Collection order key (§21-§22): higher paint value, then seat from the
    first player, then announcement order."""
    cdef int ia = st.selling[a], ib = st.selling[b]
    cdef int oa, ob
    if P.card_paint[ia] != P.card_paint[ib]:
        return P.card_paint[ia] > P.card_paint[ib]
    oa = (st.loc[ia] - LOC_STUDIO0 - st.first + P.n) % P.n
    ob = (st.loc[ib] - LOC_STUDIO0 - st.first + P.n) % P.n
    if oa != ob:
        return oa < ob
    return a < b


cdef void _start_collection(const SAParamsC* P, SAStateC* st) noexcept nogil:
    cdef int k, j, x
    st.n_order = st.n_selling
    for k in range(st.n_selling):
        st.order[k] = k
        st.got[k] = 0
    for k in range(1, st.n_order):          # insertion sort by _before
        x = st.order[k]
        j = k - 1
        while j >= 0 and _before(P, st, x, st.order[j]):
            st.order[j + 1] = st.order[j]
            j -= 1
        st.order[j + 1] = x
    st.coll_i = 0
    _start_collection_turn(P, st)


cdef inline int _rate(const SAParamsC* P, const SAStateC* st, int pos) noexcept nogil:
    if P.solo:
        return P.card_paint[st.selling[st.order[pos]]]
    return 4 if pos == 0 else (2 if pos == 1 else 1)


cdef inline int _remaining(const SAParamsC* P, const SAStateC* st, int pos) noexcept nogil:
    cdef int k = st.order[pos]
    return P.card_paint[st.selling[k]] - st.got[k]


cdef void _start_collection_turn(const SAParamsC* P, SAStateC* st) noexcept nogil:
    cdef int m = st.n_order, step, pos
    st.turn_taken = 0
    st.turn_wild = 0
    if st.pile_total > 0:
        for step in range(m):
            pos = (st.coll_i + step) % m
            if _remaining(P, st, pos) > 0:
                st.coll_i = pos
                st.actor = st.loc[st.selling[st.order[pos]]] - LOC_STUDIO0
                st.phase = PH_COLLECT
                return
    _finish_sale(P, st)


cdef void _collect(const SAParamsC* P, SAStateC* st, int c) noexcept nogil:
    cdef int p = st.actor, x
    cdef bint more = False
    _pile_add(st, c, -1)
    st.studio[p][c] += 1
    st.got[st.order[st.coll_i]] += 1
    st.turn_taken += 1
    if c == SA_WILD:
        st.turn_wild = 1
    for x in range(SA_N_CUBES):
        if _takeable(P, st, x):
            more = True
            break
    if (st.turn_taken >= _rate(P, st, st.coll_i) or _remaining(P, st, st.coll_i) == 0
            or not more):
        st.coll_i = (st.coll_i + 1) % st.n_order
        _start_collection_turn(P, st)


cdef inline bint _famous(const SAParamsC* P, const SAStateC* st, int p) noexcept nogil:
    return st.stars[p] >= P.fame_stars or st.paintings[p] >= P.fame_paintings


cdef void _finish_sale(const SAParamsC* P, SAStateC* st) noexcept nogil:
    """§24 (solo §36)."""
    cdef int j, i, p
    for j in range(st.n_selling):
        i = st.selling[j]
        p = st.loc[i] - LOC_STUDIO0
        _set_loc(st, i, LOC_SOLD0 + p)
        st.stars[p] += P.card_stars[i]
        st.paintings[p] += 1
    st.n_selling = 0
    st.n_order = 0
    memset(st.selling, 0, sizeof(st.selling))
    memset(st.order, 0, sizeof(st.order))
    memset(st.got, 0, sizeof(st.got))
    st.coll_i = 0
    st.turn_taken = 0
    st.turn_wild = 0
    if P.solo:
        if _famous(P, st, 0):
            st.result = 1
            st.phase = PH_END
        else:
            st.actor = 0
            st.phase = PH_TURN
        return
    st.actor = -1
    st.phase = PH_DUSK


cdef bint _advance(const SAParamsC* P, SAStateC* st) noexcept nogil:
    """§35. True at a decision."""
    cdef int i, k, c0, c1, nsq
    if st.adv_card < 0:
        if st.market[0] < 0 and st.market[1] < 0 and st.market[2] < 0:
            return False
        st.adv_card = st.market[0]
        st.market[0] = -1
        st.adv_k = 0
        i = st.adv_card
        for k in range(P.card_nsq[i]):
            c0 = P.card_c0[i][k]
            if P.card_c1[i][k] < 0 and st.pile[c0] > 0:
                _pile_add(st, c0, -1)
                _bag_add(st, c0, 1)
    i = st.adv_card
    nsq = P.card_nsq[i]
    while st.adv_k < nsq:
        c0 = P.card_c0[i][st.adv_k]
        c1 = P.card_c1[i][st.adv_k]
        if c1 >= 0:
            if st.pile[c0] > 0 and st.pile[c1] > 0:
                st.actor = 0
                st.phase = PH_ADVANCE
                return True
            if st.pile[c0] > 0:
                _pile_add(st, c0, -1)
                _bag_add(st, c0, 1)
            elif st.pile[c1] > 0:
                _pile_add(st, c1, -1)
                _bag_add(st, c1, 1)
        st.adv_k += 1
    _set_loc(st, i, LOC_REMOVED)
    st.adv_card = -1
    st.adv_k = 0
    st.actor = -1
    return False


cdef void _dusk(const SAParamsC* P, SAStateC* st) noexcept nogil:
    """§25-§27; solo §35-§36."""
    cdef int p
    if P.solo:
        if st.dusk_k == 0:
            if _advance(P, st):
                return
            st.dusk_k = 1
            _compact_market(st)
            _fill_market(st, PH_DUSK)
            return
        st.dusk_k = 0
        if st.market[0] < 0 and st.market[1] < 0 and st.market[2] < 0:
            st.result = -1
            st.phase = PH_END
            return
    else:
        if st.starved_today:
            st.phase = PH_END
            st.actor = -1
            return
        for p in range(P.n):
            if _famous(P, st, p):
                st.phase = PH_END
                st.actor = -1
                return
        st.first = (st.first + 1) % P.n
    st.day += 1
    for p in range(SA_MAX_PLAYERS):
        st.free_used[p] = 0
    st.starved_today = 0
    st.actor = -1
    st.phase = PH_DAWN


cdef void _paid(const SAParamsC* P, SAStateC* st, int p) noexcept nogil:
    cdef int pf = st.pay_for, slot
    st.pay_for = -1
    st.pay_left = 0
    if pf == PAY_BUY:
        slot = st.pay_arg
        st.pay_arg = -1
        _set_loc(st, st.market[slot], LOC_STUDIO0 + p)
        st.market[slot] = -1
        _compact_market(st)
        _fill_market(st, PH_TURN)
    elif pf == PAY_TRADE:
        st.pay_arg = -1
        st.phase = PH_TAKE
    else:
        st.pay_arg = -1
        for slot in range(SA_MARKET):
            if st.market[slot] >= 0:
                st.queue[st.q_len] = st.market[slot]
                st.q_len += 1
                _set_loc(st, st.market[slot], LOC_QUEUE)
                st.market[slot] = -1
        _fill_market(st, PH_TURN)


cdef void _turn(const SAParamsC* P, SAStateC* st, int p, int a) noexcept nogil:
    cdef int give, want
    if a == A_DONE:
        if P.solo:
            st.phase = PH_DUSK
        else:
            st.turn_k += 1
            st.main_done = 0
            _start_turn(P, st)
        return
    if a == A_WORK or a == A_PAINT or (A_BUY <= a < A_BUY + SA_MARKET):
        if P.solo:
            st.actions_left -= 1
        else:
            st.main_done = 1
    if a == A_WORK:
        _draw(st, p, 3, PH_TURN)
    elif a == A_PAINT:
        st.paints_left = 4
        st.phase = PH_PAINT
    elif A_BUY <= a < A_BUY + SA_MARKET:
        st.pay_for = PAY_BUY
        st.pay_arg = a - A_BUY
        st.pay_left = a - A_BUY + 1
        st.phase = PH_PAY
    elif A_TRADE <= a < A_TRADE + 3:
        st.free_used[p] = 1
        st.pay_for = PAY_TRADE
        st.pay_arg = a - A_TRADE
        st.pay_left = P.trade_pay[a - A_TRADE]
        st.take_left = P.trade_take[a - A_TRADE]
        st.phase = PH_PAY
    elif a == A_RESET:
        st.free_used[p] = 1
        st.pay_for = PAY_RESET
        st.pay_arg = -1
        st.pay_left = 2
        st.phase = PH_PAY
    elif A_STUDY <= a < A_SELL:
        st.free_used[p] = 1
        give = (a - A_STUDY) // SA_N_CUBES
        want = (a - A_STUDY) % SA_N_CUBES
        _bag_add(st, want, -1)
        st.studio[p][want] += 1
        st.studio[p][give] -= 4
        _bag_add(st, give, 4)
    elif A_SELL <= a < A_SUPPER:
        st.selling[0] = a - A_SELL
        st.n_selling = 1
        st.feed_k = 0
        st.fed = 0
        st.phase = PH_FEED


cdef void _decide(const SAParamsC* P, SAStateC* st, int a) noexcept nogil:
    cdef int ph = st.phase, p = st.actor, i, cube, k, c, rest
    if ph == PH_TURN:
        _turn(P, st, p, a)
    elif ph == PH_PAINT:
        if a == A_DONE:
            st.paints_left = 0
        else:
            rest = (a - A_PAINT_AT) // SA_MAX_SQUARES
            k = (a - A_PAINT_AT) % SA_MAX_SQUARES
            i = rest // SA_N_CUBES
            cube = rest % SA_N_CUBES
            st.studio[p][cube] -= 1
            st.filled[i] |= <uint16_t> (1 << k)
            if cube == SA_WILD:
                st.wildm[i] |= <uint16_t> (1 << k)
            elif cube == P.card_c1[i][k]:
                st.altm[i] |= <uint16_t> (1 << k)
            st.paints_left -= 1
        if st.paints_left == 0:
            st.phase = PH_TURN
    elif ph == PH_PAY:
        c = a - A_PAY
        st.studio[p][c] -= 1
        if st.pay_for == PAY_TRADE:
            st.held[c] += 1
        else:
            _pile_add(st, c, 1)
        st.pay_left -= 1
        if st.pay_left == 0:
            _paid(P, st, p)
    elif ph == PH_TAKE:
        c = a - A_TAKE
        _pile_add(st, c, -1)
        st.studio[p][c] += 1
        st.take_left -= 1
        if st.take_left == 0:
            for c in range(SA_N_CUBES):
                _pile_add(st, c, st.held[c])
                st.held[c] = 0
            st.phase = PH_TURN
    elif ph == PH_COLLECT:
        _collect(P, st, a - A_TAKE)
    elif ph == PH_ANNOUNCE:
        if a == A_DONE:
            st.turn_k += 1
            _next_announcer(P, st)
        else:
            st.selling[st.n_selling] = a - A_SELL
            st.n_selling += 1
    elif ph == PH_SUPPER:
        if a != A_DONE:
            _last_supper(P, st, p, a - A_SUPPER)
        _nutrition_drop(P, st, p)
        st.dawn_k += 1
        st.phase = PH_DAWN
    elif ph == PH_ADVANCE:
        c = a - A_RETURN
        _pile_add(st, c, -1)
        _bag_add(st, c, 1)
        st.adv_k += 1
        st.phase = PH_DUSK


cdef void _settle(const SAParamsC* P, SAStateC* st) noexcept nogil:
    """ENCODING.md 'Settling'."""
    cdef int ph, k
    while True:
        ph = st.phase
        if ph == PH_DRAW:
            if st.draws_left > 0 and st.bag_total > 0:
                return
            st.draws_left = 0
            st.draw_to = TO_PILE
            st.phase = st.resume
            st.resume = -1
        elif ph == PH_CANVAS:
            if st.market[0] >= 0 and st.market[1] >= 0 and st.market[2] >= 0:
                st.phase = st.resume
                st.resume = -1
            elif _drawable(P, st) > 0:
                return
            elif st.q_len > 0:
                # §15: the known canvases under the pile come up in order.
                k = st.queue[0]
                st.q_len -= 1
                memmove(&st.queue[0], &st.queue[1], st.q_len)
                st.queue[st.q_len] = 0
                _place_in_market(st, k)
            else:
                st.phase = st.resume
                st.resume = -1
        elif ph == PH_DAWN:
            _dawn(P, st)
        elif ph == PH_FEED:
            if _feed(P, st):
                continue
            _start_collection(P, st)
        elif ph == PH_DUSK:
            _dusk(P, st)
        elif ph == PH_PAINT:
            if not _placements(P, st, st.actor, NULL):
                st.paints_left = 0
                st.phase = PH_TURN
            else:
                return
        else:
            return


cdef void sa_apply(const GameC* g, void* s, int a) noexcept nogil:
    cdef SAStateC* st = <SAStateC*> s
    cdef const SAParamsC* P = sa_params(g)
    cdef int ph = st.phase, p
    if ph == PH_SETUP:
        _bag_add(st, a, -1)
        p = _seat(P, st, st.setup_k // P.start_cubes)
        st.studio[p][a] += 1
        st.setup_k += 1
        if st.setup_k == P.n * P.start_cubes:
            st.setup_k = 0
            _fill_market(st, PH_DAWN)
    elif ph == PH_DRAW:
        _bag_add(st, a, -1)
        if st.draw_to == TO_PILE:
            _pile_add(st, a, 1)
        else:
            st.studio[st.draw_to][a] += 1
        st.draws_left -= 1
    elif ph == PH_CANVAS:
        _place_in_market(st, a)
    else:
        _decide(P, st, a)
    _settle(P, st)


# ----------------------------------------------------------------- returns
cdef inline int _cmp(const SAStateC* st, int p, int q) noexcept nogil:
    if st.stars[p] != st.stars[q]:
        return 1 if st.stars[p] > st.stars[q] else -1
    if st.paintings[p] != st.paintings[q]:
        return 1 if st.paintings[p] > st.paintings[q] else -1
    if st.food[p] != st.food[q]:
        return 1 if st.food[p] > st.food[q] else -1
    return 0


cdef void sa_returns(const GameC* g, const void* s, double* out) noexcept nogil:
    """§28; solo §36."""
    cdef const SAStateC* st = <const SAStateC*> s
    cdef const SAParamsC* P = sa_params(g)
    cdef int p, q, net
    cdef double a, b, progress
    if st.phase != PH_END:
        for p in range(P.n):
            out[p] = 0.0
        return
    if P.solo:
        if st.result > 0:
            out[0] = 1.0
            return
        a = st.stars[0] / <double> P.fame_stars
        b = st.paintings[0] / <double> P.fame_paintings
        progress = a if a > b else b
        if progress > 1.0:
            progress = 1.0
        out[0] = -1.0 + 0.5 * progress
        return
    for p in range(P.n):
        net = 0
        for q in range(P.n):
            net += _cmp(st, p, q)
        out[p] = net / <double> (P.n - 1)


cdef void sa_scores(const GameC* g, const void* s, double* out) noexcept nogil:
    cdef const SAStateC* st = <const SAStateC*> s
    cdef int p
    for p in range(sa_params(g).n):
        out[p] = st.stars[p]
