"""Couleurs de Paris, the core's rules: the rules of reference.py (the
executable spec) over the flat CdpStateC (state.pxd), function for function,
so the differential test can compare the two step by step. ENCODING.md fixes
the phases, action ids and chance outcomes both implementations share.
RULINGS.md sections are cited as §N. The rollout policy is in policy.pyx, the
Python face in core.pyx.
"""
from easel.engine.bits cimport popcount
from easel.engine.contract cimport GameC, PLAYER_CHANCE, PLAYER_TERMINAL
from easel.engine.couleurs_de_paris.state cimport *


cdef bint can_paint(const CdpParamsC* P, const CdpStateC* st, int p) noexcept nogil:
    cdef int c, j
    cdef bint white_ok
    for c in range(P.ncards):
        if st.owner[c] != p or st.done[c]:
            continue
        white_ok = st.pig[p][C_WHITE] > 0 and popcount(st.whites[c]) < CDP_WHITE_PER_PAINTING
        for j in range(CDP_SPACES):
            if not (st.fill[c] >> j) & 1 and (white_ok or st.pig[p][P.card_space[c][j]] > 0):
                return True
    return False


cdef bint _performable(const CdpParamsC* P, const CdpStateC* st, int p, int location) noexcept nogil:
    cdef int t, e
    cdef const int16_t* pig = st.pig[p]
    if location == C_RED or location == C_YELLOW or location == C_BLUE:       # §8
        return st.supply[location] > 0
    if location == C_ORANGE or location == C_GREEN or location == C_VIOLET:  # §9
        return (pig[mix_a(location)] > 0 and pig[mix_b(location)] > 0
                and st.supply[location] > 0)
    if location == K_BLACK:                                                   # §10
        return (pig[C_ORANGE] > 0 and pig[C_GREEN] > 0 and pig[C_VIOLET] > 0
                and st.supply[C_BLACK] > 0)
    if location == K_IMPROVE:                                                 # §11
        if nonblack(st, p) < 2:
            return False
        for t in range(CDP_N_TOOLS):
            if st.tool[p][t] < CDP_TRACK_LEN:
                return True
        return False
    if location == K_TAKE:                                                    # §14
        for e in range(P.easels):
            if st.easel[e] >= 0:
                return True
        return False
    if location == K_PAINT:                                                   # §15
        return can_paint(P, st, p)
    if location == L_IMITATOR:                                                # §17
        return _imitable(P, st, p, NULL) > 0
    if location == L_WHITE:                                                   # §19
        return st.supply[C_WHITE] > 0
    return True


cdef int _imitable(const CdpParamsC* P, const CdpStateC* st, int p, int* out) noexcept nogil:
    """§17: wheel actions with an assistant standing on them that p could perform."""
    cdef int k, n = 0
    for k in range(CDP_N_WHEEL):
        if standing_at(P, st, pos_of(P, st, k)) and _performable(P, st, p, k):
            if out != NULL:
                out[n] = A_IMITATE + k
            n += 1
    return n


cdef int cdp_current_player(const GameC* g, const void* s) noexcept nogil:
    cdef const CdpStateC* st = <const CdpStateC*> s
    if st.phase == PH_END:
        return PLAYER_TERMINAL
    if st.phase == PH_DEAL or st.phase == PH_REFILL:
        return PLAYER_CHANCE
    return st.cur


cdef int cdp_legal_actions(const GameC* g, const void* s, int* out) noexcept nogil:
    cdef const CdpParamsC* P = cdp_params(g)
    cdef const CdpStateC* st = <const CdpStateC*> s
    cdef int p = st.cur, n = 0, k, pos, l, c, d, t, e, j
    cdef int ph = st.phase
    cdef bint ok, white_ok
    if ph == PH_PLACE:                                                        # §5, §6
        for k in range(CDP_N_WHEEL):
            pos = pos_of(P, st, k)
            if occupancy(P, st, pos) < P.capacity[pos]:
                out[n] = A_PLACE + k
                n += 1
        if occupancy(P, st, L_FIRST) == 0 and st.first != p:
            out[n] = A_PLACE + L_FIRST
            n += 1
        if occupancy(P, st, L_IMITATOR) == 0:
            out[n] = A_PLACE + L_IMITATOR
            n += 1
        if occupancy(P, st, L_ROTATE) == 0:
            out[n] = A_PLACE + L_ROTATE
            n += 1
        out[n] = A_PLACE + L_WHITE
        n += 1
    elif ph == PH_ACT:                                                        # §7, §22
        for l in range(CDP_N_LOC):
            if st.stand[p][loc_of(P, st, l)] and _performable(P, st, p, l):
                out[n] = A_USE + l
                n += 1
        for l in range(CDP_N_LOC):
            if st.stand[p][loc_of(P, st, l)]:
                out[n] = A_LAYDOWN + l
                n += 1
    elif ph == PH_TOOL:                                                       # §11
        for t in range(CDP_N_TOOLS):
            if st.tool[p][t] < CDP_TRACK_LEN:
                out[n] = A_TOOL + t
                n += 1
    elif ph == PH_PAY:                                                        # §11, §13
        for c in range(st.pay_min, CDP_N_PAYABLE):
            if st.pig[p][c] == 0:
                continue
            if st.pay_left == 2 and st.pig[p][c] < 2:
                ok = False
                for d in range(c + 1, CDP_N_PAYABLE):
                    if st.pig[p][d]:
                        ok = True
                        break
                if not ok:
                    continue
            out[n] = A_PAY + c
            n += 1
    elif ph == PH_BONUS:                                                      # §12
        out[0] = A_BONUS_ASSISTANT
        out[1] = A_BONUS_POINTS
        n = 2
    elif ph == PH_TAKE:                                                       # §14
        for e in range(P.easels):
            if st.easel[e] >= 0:
                out[n] = A_TAKE + e
                n += 1
    elif ph == PH_IMITATE:                                                    # §17
        n = _imitable(P, st, p, out)
    elif ph == PH_PAINT:                                                      # §15
        for c in range(P.ncards):
            if st.owner[c] != p or st.done[c]:
                continue
            for j in range(CDP_SPACES):
                if not (st.fill[c] >> j) & 1 and st.pig[p][P.card_space[c][j]] > 0:
                    out[n] = A_PAINT + c * CDP_SPACES + j
                    n += 1
        if st.pig[p][C_WHITE] > 0:
            for c in range(P.ncards):
                if st.owner[c] != p or st.done[c]:
                    continue
                if popcount(st.whites[c]) >= CDP_WHITE_PER_PAINTING:
                    continue
                for j in range(CDP_SPACES):
                    if not (st.fill[c] >> j) & 1:
                        out[n] = A_PAINT_WHITE + c * CDP_SPACES + j
                        n += 1
        if st.painted > 0:
            out[n] = A_STOP
            n += 1
    elif ph == PH_ROTATE:                                                     # §18
        out[0] = A_ROTATE_0
        out[1] = A_ROTATE_2
        n = 2
    elif ph == PH_DISCARD:                                                    # §20
        for c in range(CDP_N_PAYABLE):
            if st.pig[p][c] > 0:
                out[n] = A_DISCARD + c
                n += 1
    elif ph == PH_STAND:                                                      # §21
        for k in range(CDP_N_WHEEL):
            if st.lie[p][pos_of(P, st, k)]:
                out[n] = A_STAND + k
                n += 1
    return n


cdef int cdp_chance_outcomes(const GameC* g, const void* s, int* out,
                             double* probs) noexcept nogil:
    # §4, §20: each card left in the deck with the same probability.
    cdef const CdpParamsC* P = cdp_params(g)
    cdef const CdpStateC* st = <const CdpStateC*> s
    cdef int c, n = 0
    cdef double pr
    if st.phase != PH_DEAL and st.phase != PH_REFILL:
        return 0
    pr = 1.0 / st.deck_left
    for c in range(P.ncards):
        if st.deck[c]:
            out[n] = c
            probs[n] = pr
            n += 1
    return n


cdef int cdp_sample_chance(const GameC* g, const void* s, double u) noexcept nogil:
    """The card whose interval (in card order, each 1/deck_left) holds u."""
    cdef const CdpParamsC* P = cdp_params(g)
    cdef const CdpStateC* st = <const CdpStateC*> s
    cdef int c, k = <int> (u * st.deck_left), last = -1
    if k >= st.deck_left:
        k = st.deck_left - 1
    for c in range(P.ncards):
        if st.deck[c]:
            if k == 0:
                return c
            k -= 1
            last = c
    return last


# ------------------------------------------------------------------- apply
cdef inline int _next_seat(const CdpParamsC* P, const CdpStateC* st, int start,
                           int which) noexcept nogil:
    """First player from start on (cyclic) with assistants to place (which 0)
    or standing (which 1); -1 if none."""
    cdef int i, q
    for i in range(P.n):
        q = (start + i) % P.n
        if which == 0 and st.to_place[q] > 0:
            return q
        if which == 1 and standing(st, q) > 0:
            return q
    return -1


cdef inline void _gain(CdpStateC* st, int p, int c, int k) noexcept nogil:
    # §27: a short supply gives what is left.
    if k > st.supply[c]:
        k = st.supply[c]
    st.supply[c] -= k
    st.pig[p][c] += k


cdef inline void _spend(CdpStateC* st, int p, int c) noexcept nogil:
    st.pig[p][c] -= 1
    st.supply[c] += 1


cdef int _finished_count(const CdpParamsC* P, const CdpStateC* st, int p) noexcept nogil:
    cdef int c, k = 0
    for c in range(P.ncards):
        if st.done[c] and st.owner[c] == p:
            k += 1
    return k


cdef void _start_round(const CdpParamsC* P, CdpStateC* st) noexcept nogil:
    cdef int q
    for q in range(P.n):
        st.to_place[q] = st.hired[q] - standing(st, q)
    st.phase = PH_PLACE
    st.cur = st.first


cdef void _next_stand(const CdpParamsC* P, CdpStateC* st) noexcept nogil:
    cdef int q, l
    cdef bint any_lower
    while st.seat_k < P.n:
        q = (st.first + st.seat_k) % P.n
        any_lower = False
        for l in range(CDP_POSITIONS):
            if st.lie[q][l]:
                any_lower = True
                break
        if any_lower:
            st.phase = PH_STAND
            st.cur = q
            return
        st.seat_k += 1
    # §21: retrieve the rest; the stood assistants stay placed.
    for q in range(P.n):
        for l in range(CDP_N_LOC):
            st.stand[q][l] = 0
            st.lie[q][l] = 0
        if st.keep[q] >= 0:
            st.stand[q][st.keep[q]] = 1
            st.keep[q] = -1
    if st.fp_claim >= 0:                                                      # §16
        st.first = st.fp_claim
    st.fp_claim = -1
    st.rot_claim = -1
    st.seat_k = 0
    st.round += 1
    _start_round(P, st)


cdef void _next_discard(const CdpParamsC* P, CdpStateC* st) noexcept nogil:
    cdef int q
    while st.seat_k < P.n:
        q = (st.first + st.seat_k) % P.n
        if nonblack(st, q) > CDP_LIMIT:
            st.phase = PH_DISCARD
            st.cur = q
            return
        st.seat_k += 1
    st.seat_k = 0
    _next_stand(P, st)


cdef void _refill_or_continue(const CdpParamsC* P, CdpStateC* st) noexcept nogil:
    cdef int e
    if st.deck_left > 0:
        for e in range(P.easels):
            if st.easel[e] < 0:
                return                  # a chance node turns up the next card
    if st.phase == PH_DEAL:
        _start_round(P, st)
    else:
        st.seat_k = 0
        _next_discard(P, st)


cdef void _rotate(const CdpParamsC* P, CdpStateC* st, int steps) noexcept nogil:
    # §20: red reaching or passing a printed Forbidden Action (0 or 5)
    # replaces every painting left on the easels.
    cdef int k, e
    cdef bint refresh = False
    for k in range(1, steps + 1):
        if (st.rot + k) % (CDP_POSITIONS // 2) == 0:
            refresh = True
    st.rot = (st.rot + steps) % CDP_POSITIONS
    if refresh:
        for e in range(P.easels):
            st.easel[e] = -1
    st.phase = PH_REFILL
    _refill_or_continue(P, st)


cdef void _finish_action(const CdpParamsC* P, CdpStateC* st) noexcept nogil:
    cdef int nxt
    st.tool_sel = -1
    st.pay_left = 0
    st.pay_min = 0
    st.paint_left = 0
    st.painted = 0
    st.phase = PH_ACT
    nxt = _next_seat(P, st, st.cur + 1, 1)
    if nxt >= 0:
        st.cur = nxt
        return
    if st.final or st.round >= P.max_rounds:                                  # §23, §28
        st.phase = PH_END
        return
    if st.rot_claim >= 0:                                                     # §18
        st.phase = PH_ROTATE
        st.cur = st.rot_claim
    else:
        _rotate(P, st, 1)


cdef void _perform(const CdpParamsC* P, CdpStateC* st, int p, int location) noexcept nogil:
    if location == C_RED or location == C_YELLOW or location == C_BLUE:       # §8
        _gain(st, p, location, amount(P, T_TUBE, st.tool[p][T_TUBE]))
    elif location == C_ORANGE or location == C_GREEN or location == C_VIOLET: # §9
        _spend(st, p, mix_a(location))
        _spend(st, p, mix_b(location))
        _gain(st, p, location, amount(P, T_PALETTE, st.tool[p][T_PALETTE]))
    elif location == K_BLACK:                                                 # §10
        _spend(st, p, C_ORANGE)
        _spend(st, p, C_GREEN)
        _spend(st, p, C_VIOLET)
        _gain(st, p, C_BLACK, 1)
        if st.supply[C_BLACK] == 0:                                           # §23
            st.final = 1
    elif location == K_IMPROVE:
        st.phase = PH_TOOL
        return
    elif location == K_TAKE:
        st.phase = PH_TAKE
        return
    elif location == K_PAINT:
        st.phase = PH_PAINT
        st.paint_left = amount(P, T_BRUSH, st.tool[p][T_BRUSH])
        st.painted = 0
        return
    elif location == L_FIRST:                                                 # §16
        _gain(st, p, C_WHITE, 1)
        st.fp_claim = p
    elif location == L_IMITATOR:                                              # §17
        st.phase = PH_IMITATE
        return
    elif location == L_ROTATE:                                                # §18
        st.rot_claim = p
    elif location == L_WHITE:                                                 # §19
        _gain(st, p, C_WHITE, amount(P, T_TUBE, st.tool[p][T_TUBE]))
    _finish_action(P, st)


cdef void _paint(const CdpParamsC* P, CdpStateC* st, int p, int a) noexcept nogil:
    cdef bint white = a >= A_PAINT_WHITE
    cdef int base = a - (A_PAINT_WHITE if white else A_PAINT)
    cdef int c = base // CDP_SPACES, j = base % CDP_SPACES, k
    cdef int colour = C_WHITE if white else P.card_space[c][j]
    st.pig[p][colour] -= 1
    st.fill[c] |= 1 << j
    if white:
        st.whites[c] |= 1 << j
    st.paint_left -= 1
    st.painted += 1
    if st.fill[c] == CDP_FULL:
        # §24, §27: finished; its cubes go back to the supply.
        st.done[c] = 1
        for k in range(CDP_SPACES):
            if (st.whites[c] >> k) & 1:
                st.supply[C_WHITE] += 1
            else:
                st.supply[P.card_space[c][k]] += 1
        if _finished_count(P, st, p) == 2:                                    # §23
            st.final = 1


cdef void cdp_apply(const GameC* g, void* s, int action) noexcept nogil:
    cdef const CdpParamsC* P = cdp_params(g)
    cdef CdpStateC* st = <CdpStateC*> s
    cdef int ph = st.phase, p = st.cur, e, location, loc, c, t, nxt
    if ph == PH_DEAL or ph == PH_REFILL:
        e = 0
        while st.easel[e] >= 0:         # the lowest empty easel (one exists: §4, §20)
            e += 1
        st.easel[e] = action
        st.deck[action] = 0
        st.deck_left -= 1
        _refill_or_continue(P, st)
        return
    if ph == PH_PLACE:
        st.stand[p][loc_of(P, st, action - A_PLACE)] += 1
        st.to_place[p] -= 1
        nxt = _next_seat(P, st, p + 1, 0)
        if nxt >= 0:
            st.cur = nxt
        else:                                                                 # §7
            st.phase = PH_ACT
            st.cur = _next_seat(P, st, st.first, 1)
    elif ph == PH_ACT:
        location = action - A_USE if action < A_LAYDOWN else action - A_LAYDOWN
        loc = loc_of(P, st, location)
        st.stand[p][loc] -= 1
        st.lie[p][loc] += 1
        if action < A_LAYDOWN:
            _perform(P, st, p, location)
        else:
            _finish_action(P, st)
    elif ph == PH_TOOL:
        st.tool_sel = action - A_TOOL
        st.pay_left = 2
        st.pay_min = 0
        st.phase = PH_PAY
    elif ph == PH_PAY:
        c = action - A_PAY
        _spend(st, p, c)
        st.pay_left -= 1
        st.pay_min = c
        if st.pay_left == 0:
            st.pay_min = 0
            t = st.tool_sel
            st.tool[p][t] += 1
            if st.tool[p][t] == CDP_BONUS_LEVEL:                              # §12
                st.phase = PH_BONUS
            else:
                _finish_action(P, st)
    elif ph == PH_BONUS:
        if action == A_BONUS_ASSISTANT:
            st.hired[p] += 1
            st.bonus[p][st.tool_sel] = 1
        else:
            st.bonus[p][st.tool_sel] = 2
        _finish_action(P, st)
    elif ph == PH_TAKE:
        e = action - A_TAKE
        st.owner[st.easel[e]] = p
        st.easel[e] = -1
        _finish_action(P, st)
    elif ph == PH_IMITATE:
        _perform(P, st, p, action - A_IMITATE)
    elif ph == PH_PAINT:
        if action == A_STOP:
            _finish_action(P, st)
            return
        _paint(P, st, p, action)
        if st.paint_left == 0 or not can_paint(P, st, p):
            _finish_action(P, st)
    elif ph == PH_ROTATE:
        _rotate(P, st, 0 if action == A_ROTATE_0 else 2)
    elif ph == PH_DISCARD:
        _spend(st, p, action - A_DISCARD)
        if nonblack(st, p) <= CDP_LIMIT:
            st.seat_k += 1
            _next_discard(P, st)
    elif ph == PH_STAND:
        st.keep[p] = pos_of(P, st, action - A_STAND)
        st.seat_k += 1
        _next_stand(P, st)


# ----------------------------------------------------------------- results
cdef int _score(const CdpParamsC* P, const CdpStateC* st, int p) noexcept nogil:
    """§24: finished paintings less 2 per white on them, 6 per black, tokens."""
    cdef int c, t, total = 6 * st.pig[p][C_BLACK]
    for t in range(CDP_N_TOOLS):
        if st.tool[p][t] == CDP_TRACK_LEN:
            total += 10
        elif st.bonus[p][t] == 2:
            total += 6
    for c in range(P.ncards):
        if st.done[c] and st.owner[c] == p:
            total += P.card_value[c] - 2 * popcount(st.whites[c])
    return total


cdef inline long _key(const CdpParamsC* P, const CdpStateC* st, int p) noexcept nogil:
    """§25 as one number: score, then fewer whites, then the best painting."""
    cdef int c, whites = 0, best = 0
    for c in range(P.ncards):
        if st.done[c] and st.owner[c] == p:
            whites += popcount(st.whites[c])
            if P.card_value[c] > best:
                best = P.card_value[c]
    return (<long> _score(P, st, p) * 1000 + (999 - whites)) * 1000 + best


cdef void cdp_returns(const GameC* g, const void* s, double* out) noexcept nogil:
    cdef const CdpParamsC* P = cdp_params(g)
    cdef const CdpStateC* st = <const CdpStateC*> s
    cdef long keys[CDP_MAX_PLAYERS]
    cdef int p, q, w
    for p in range(P.n):
        out[p] = 0.0
    if st.phase != PH_END:
        return
    for p in range(P.n):
        keys[p] = _key(P, st, p)
    for p in range(P.n):
        w = 0
        for q in range(P.n):
            if keys[p] > keys[q]:
                w += 1
            elif keys[p] < keys[q]:
                w -= 1
        out[p] = w / <double> (P.n - 1)


cdef void cdp_scores(const GameC* g, const void* s, double* out) noexcept nogil:
    cdef const CdpParamsC* P = cdp_params(g)
    cdef int p
    for p in range(P.n):
        out[p] = _score(P, <const CdpStateC*> s, p)
