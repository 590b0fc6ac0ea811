"""Van Gogh, the core's rules: a line-by-line port of reference.py (the
executable spec) to the fixed-size VanGoghStateC with `noexcept nogil` rule
functions. ENCODING.md fixes the phases, action ids and chance outcomes both
implementations share; the differential test checks identical traces.

Chance probabilities are computed with the reference's formulas in the
reference's order of operations (e.g. `bag[c] / B * roll[o]`), so they are
bit-identical. The rollout policy and the evaluation are in policy.pyx, the
Python face in core.pyx.
"""

from easel.engine.bag cimport bag_outcomes
from easel.engine.contract cimport GameC, PLAYER_CHANCE, PLAYER_TERMINAL
from easel.engine.vangogh.state cimport *


# ------------------------------------------------------------------ scoring
cdef void majority_points(const VanGoghParamsC* P, const VanGoghStateC* st, int slot,
                           int* points) noexcept nogil:
    """Majority scoring of the painting in `slot` (rulebook 'Paintings', R2, R3):
    colours rank by spaces held (whites never rank); tied colours pool the
    scores of the places they occupy and split them, rounded down."""
    cdef int counts[5]
    cdef int c, k
    for c in range(VG_N_COLOURS):
        counts[c] = 0
    for k in range(VG_MAX_SPACES):
        c = st.occ[slot][k]
        if c >= 0 and (c >> 2) != VG_WHITE:
            counts[c >> 2] += 1
    points_from_counts(P, st.painting[slot], counts, points)


cdef void points_from_counts(const VanGoghParamsC* P, int card, const int* counts,
                              int* points) noexcept nogil:
    """The majority points of each colour on `card` holding counts[colour]
    coloured Minigoghs (see majority_points)."""
    cdef int c, k, level, place = 0, pool, group
    for c in range(VG_N_COLOURS):
        points[c] = 0
    for level in range(VG_MAX_SPACES, 0, -1):
        group = 0
        for c in range(VG_N_COLOURS):
            if counts[c] == level:
                group += 1
        if group == 0:
            continue
        pool = 0
        for k in range(place, place + group):
            if k < 3:
                pool += P.card_frame[card][k]
        for c in range(VG_N_COLOURS):
            if counts[c] == level:
                points[c] = pool // group
        place += group


# ------------------------------------------------------------- legal moves
cdef int vg_current_player(const GameC* g, const void* s) noexcept nogil:
    cdef const VanGoghStateC* st = <const VanGoghStateC*> s
    cdef int ph = st.phase
    if ph == PH_END:
        return PLAYER_TERMINAL
    if (ph == PH_SETUP_CARDS or ph == PH_SETUP_TABLE or ph == PH_SETUP_PALETTE
            or ph == PH_GINOUX_DRAW or ph == PH_ROLL or ph == PH_SEC_DRAW or ph == PH_REFILL
            or ph == PH_CARD or ph == PH_BLUE_DRAW or ph == PH_EOR):
        return PLAYER_CHANCE
    if ph == PH_CHOOSE:
        return st.turn_player
    return st.act_player


cdef void slot_masks(const VanGoghParamsC* P, const VanGoghStateC* st,
                             int* empty, int* om) noexcept nogil:
    """Per open slot: bits of the empty spaces (empty[slot]) and of the empty
    spaces requiring each orientation (om[slot*4 + o])."""
    cdef int slot, k, card, o
    for slot in range(VG_N_PAINTINGS):
        empty[slot] = 0
        om[slot * 4] = 0
        om[slot * 4 + 1] = 0
        om[slot * 4 + 2] = 0
        om[slot * 4 + 3] = 0
        card = st.painting[slot]
        if card < 0:
            continue
        for k in range(P.card_size[card]):
            if st.occ[slot][k] < 0:
                empty[slot] |= 1 << k
        for o in range(4):
            om[slot * 4 + o] = empty[slot] & P.card_omask[card][o]


cdef inline int _emit_paints(int src, int o, bint green, const int* empty, const int* om,
                             int* out, int n) noexcept nogil:
    cdef int slot, m, sp, base
    for slot in range(VG_N_PAINTINGS):
        m = empty[slot] if green else om[slot * 4 + o]
        base = A_PAINT + (src * VG_N_PAINTINGS + slot) * VG_MAX_SPACES
        sp = 0
        while m:
            if m & 1:
                out[n] = base + sp
                n += 1
            m >>= 1
            sp += 1
    return n


cdef int _paint_actions(const VanGoghParamsC* P, const VanGoghStateC* st, int p,
                        int* out, int n) noexcept nogil:
    """PAINT ids open to p: source (active code, or purple's leftmost inactive),
    open painting, empty space, matching orientation or the green ability (R5)."""
    cdef int empty[3]
    cdef int om[12]
    cdef int c, left
    cdef bint green = ability_open(st, p) and P.colours[p] == VG_GREEN_C
    slot_masks(P, st, empty, om)
    if empty[0] == 0 and empty[1] == 0 and empty[2] == 0:
        return n
    for c in range(VG_N_CODES):
        if st.active[p][c] > 0:
            n = _emit_paints(c, c & 3, green, empty, om, out, n)
    if P.colours[p] == VG_PURPLE_C and not P.solo:
        left = leftmost_inactive(st, p)
        if left >= 0:
            n = _emit_paints(VG_N_CODES, st.inactive[p][left] & 3, green, empty, om, out, n)
    return n


cdef bint _has_paint(const VanGoghParamsC* P, const VanGoghStateC* st, int p) noexcept nogil:
    cdef int empty[3]
    cdef int om[12]
    cdef int c, left, slot, orients = 0, any_empty
    slot_masks(P, st, empty, om)
    any_empty = empty[0] | empty[1] | empty[2]
    if any_empty == 0:
        return False
    for c in range(VG_N_CODES):
        if st.active[p][c] > 0:
            orients |= 1 << (c & 3)
    if P.colours[p] == VG_PURPLE_C and not P.solo:
        left = leftmost_inactive(st, p)
        if left >= 0:
            orients |= 1 << (st.inactive[p][left] & 3)
    if orients == 0:
        return False
    if ability_open(st, p) and P.colours[p] == VG_GREEN_C:
        return True
    for slot in range(VG_N_PAINTINGS):
        for c in range(4):
            if (orients >> c) & 1 and om[slot * 4 + c]:
                return True
    return False


cdef int _window_actions(const VanGoghParamsC* P, const VanGoghStateC* st, int p,
                         int* out, int n) noexcept nogil:
    """Ability (R5) and solo brush (R13) actions offered at p's CHOOSE/STEP decisions."""
    cdef int colour, t, o, i, c
    if P.solo:
        if st.brush_used == 0:
            out[n] = A_BRUSH
            n += 1
        return n
    if not ability_open(st, p):
        return n
    colour = P.colours[p]
    if colour == VG_YELLOW_C:
        for t in range(4):
            if st.active[p][VG_YELLOW_C * 4 + t] > 0:
                for o in range(4):
                    if o != t:
                        out[n] = A_YELLOW + t * 4 + o
                        n += 1
        for i in range(VG_INACTIVE):
            c = st.inactive[p][i]
            if c >= 0 and (c >> 2) == VG_YELLOW_C:
                for o in range(4):
                    if o != (c & 3):
                        out[n] = A_YELLOW + (4 + i) * 4 + o
                        n += 1
    elif colour == VG_PINK_C:
        for c in range(VG_N_CODES):
            if st.active[p][c] > 0:
                out[n] = A_PINK + c
                n += 1
        for i in range(VG_INACTIVE):
            if st.inactive[p][i] >= 0:
                out[n] = A_PINK + VG_N_CODES + i
                n += 1
    elif colour == VG_BLUE_C:
        if st.bag_total > 0:
            out[n] = A_BLUE
            n += 1
    return n


cdef int _step_actions(const VanGoghParamsC* P, const VanGoghStateC* st, int p,
                       int* out, int n) noexcept nogil:
    """The moves of a STEP, without DONE and the window actions."""
    cdef int ch = st.act_char, c, o
    if ch == VG_VAN_GOGH or ch == VG_ANNA:
        return _paint_actions(P, st, p, out, n)
    if ch == VG_GACHET:
        for c in range(VG_N_CODES):
            if st.active[p][c] > 0:
                for o in range(4):
                    if o != (c & 3):
                        out[n] = A_REORIENT + c * 4 + o
                        n += 1
        return n
    if ch == VG_POSTMAN:
        if not st.postman_used & 1:
            n = _paint_actions(P, st, p, out, n)
        if not st.postman_used & 2 and st.whites > 0:
            for c in range(4 * VG_N_COLOURS):
                if st.active[p][c] > 0:
                    out[n] = A_RESTART + c
                    n += 1
        if not st.postman_used & 4 and leftmost_inactive(st, p) >= 0 and free_spaces(st, p) > 0:
            out[n] = A_EPIPHANY
            n += 1
    return n


cdef bint _has_step_action(const VanGoghParamsC* P, const VanGoghStateC* st,
                           int p) noexcept nogil:
    cdef int ch = st.act_char, c
    if ch == VG_VAN_GOGH or ch == VG_ANNA:
        return _has_paint(P, st, p)
    if ch == VG_GACHET:
        return st.n_active[p] > 0
    if ch == VG_POSTMAN:
        if not st.postman_used & 4 and free_spaces(st, p) > 0 and leftmost_inactive(st, p) >= 0:
            return True
        if not st.postman_used & 2 and st.whites > 0:
            for c in range(4 * VG_N_COLOURS):
                if st.active[p][c] > 0:
                    return True
        if not st.postman_used & 1:
            return _has_paint(P, st, p)
    return False


cdef inline bint _has_window_action(const VanGoghParamsC* P, const VanGoghStateC* st,
                                   int p) noexcept nogil:
    cdef int buf[32]
    return _window_actions(P, st, p, buf, 0) > 0


cdef inline bint _char_available(const VanGoghParamsC* P, const VanGoghStateC* st,
                                 int c, int p) noexcept nogil:
    if st.char_taken[c]:
        return False
    if c == VG_ANNA and (P.solo or st.token_holder == p):
        return False
    return True


cdef int vg_legal_actions(const GameC* g, const void* s, int* out) noexcept nogil:
    cdef const VanGoghStateC* st = <const VanGoghStateC*> s
    cdef const VanGoghParamsC* P = vg_params(g)
    cdef int ph = st.phase, p, n = 0, c, a, b
    if ph == PH_CHOOSE:
        p = st.turn_player
        for c in range(VG_N_CHARS):
            if _char_available(P, st, c, p):
                out[n] = c
                n += 1
        return _window_actions(P, st, p, out, n)
    p = st.act_player
    if ph == PH_STEP:
        out[0] = A_DONE
        n = _step_actions(P, st, p, out, 1)
        return _window_actions(P, st, p, out, n)
    if ph == PH_WAIT_KEEP:
        a = st.char_wait[st.act_char][0]
        b = st.char_wait[st.act_char][1]
        if a >= 0 and b >= 0 and a != b:
            out[0] = A_TAKE + (a if a < b else b)
            out[1] = A_TAKE + (b if a < b else a)
            return 2
        if a >= 0 or b >= 0:
            out[0] = A_TAKE + (a if a >= 0 else b)
            return 1
        return 0
    if ph == PH_GINOUX_KEEP:
        for c in range(VG_N_COLOURS):
            if st.hand[c] > 0:
                out[n] = A_KEEP + c
                n += 1
        return n
    if ph == PH_EUGENE_TAKE:
        for c in range(VG_N_CODES):
            if st.table[c] > 0:
                out[n] = A_TAKE + c
                n += 1
        return n
    if ph == PH_BLUE_ORIENT:
        for c in range(4):
            out[c] = A_BLUE_ORIENT + c
        return 4
    if ph == PH_BLUE_DISCARD:
        for c in range(VG_N_CODES):
            if st.active[p][c] > 0:
                out[n] = A_BLUE_DISCARD + c
                n += 1
        return n
    if ph == PH_BRUSH:
        out[0] = A_DONE
        return _paint_actions(P, st, p, out, 1)
    return 0


# ------------------------------------------------------------------ chance
cdef inline bint _is_draw_roll(int ph) noexcept nogil:
    return (ph == PH_SETUP_TABLE or ph == PH_SETUP_PALETTE or ph == PH_SEC_DRAW
            or ph == PH_REFILL or ph == PH_EOR)


cdef int vg_chance_outcomes(const GameC* g, const void* s, int* out,
                            double* probs) noexcept nogil:
    cdef const VanGoghStateC* st = <const VanGoghStateC*> s
    cdef const VanGoghParamsC* P = vg_params(g)
    cdef int ph = st.phase, n = 0, i, c, o
    cdef double total, left, pc
    if ph == PH_SETUP_CARDS or ph == PH_CARD:
        left = st.deck_left
        for i in range(P.n_cards):
            if st.deck[i]:
                out[n] = i
                probs[n] = 1.0 / left
                n += 1
        return n
    if ph == PH_ROLL:
        for o in range(4):
            if P.roll[o] > 0:
                out[n] = o
                probs[n] = P.roll[o]
                n += 1
        return n
    if ph == PH_GINOUX_DRAW or ph == PH_BLUE_DRAW:
        return bag_outcomes(st.bag, VG_N_COLOURS, st.bag_total, out, probs)
    if _is_draw_roll(ph):
        total = st.bag_total
        for c in range(VG_N_COLOURS):
            if st.bag[c] > 0:
                pc = st.bag[c] / total
                for o in range(4):
                    if P.roll[o] > 0:
                        out[n] = c * 4 + o
                        probs[n] = pc * P.roll[o]
                        n += 1
        return n
    return 0


cdef int vg_chance_source(const GameC* g, const void* s) noexcept nogil:
    """GameC.chance_source: the cards (1) and a lone roll of the die (2) apart
    from the bag (0); a draw rolled with its cube is one event, the bag's."""
    cdef int ph = (<const VanGoghStateC*> s).phase
    if ph == PH_SETUP_CARDS or ph == PH_CARD:
        return 1
    if ph == PH_ROLL:
        return 2
    return 0


cdef int vg_sample_chance(const GameC* g, const void* s, double u) noexcept nogil:
    """The outcome whose cumulative interval (in chance_outcomes order) holds u,
    accumulated as a caller summing the listed probabilities would, without
    building the list."""
    cdef const VanGoghStateC* st = <const VanGoghStateC*> s
    cdef const VanGoghParamsC* P = vg_params(g)
    cdef int ph = st.phase, i, c, o, last = -1
    cdef double total, left, pc, acc = 0.0
    if ph == PH_SETUP_CARDS or ph == PH_CARD:
        left = st.deck_left
        pc = 1.0 / left
        for i in range(P.n_cards):
            if st.deck[i]:
                acc += pc
                last = i
                if u < acc:
                    return i
        return last
    if ph == PH_ROLL:
        for o in range(4):
            if P.roll[o] > 0:
                acc += P.roll[o]
                last = o
                if u < acc:
                    return o
        return last
    if ph == PH_GINOUX_DRAW or ph == PH_BLUE_DRAW:
        total = st.bag_total
        for c in range(VG_N_COLOURS):
            if st.bag[c] > 0:
                acc += st.bag[c] / total
                last = c
                if u < acc:
                    return c
        return last
    if _is_draw_roll(ph):
        total = st.bag_total
        for c in range(VG_N_COLOURS):
            if st.bag[c] > 0:
                pc = st.bag[c] / total
                for o in range(4):
                    if P.roll[o] > 0:
                        acc += pc * P.roll[o]
                        last = c * 4 + o
                        if u < acc:
                            return last
        return last
    return -1


# ------------------------------------------------------------------- apply
cdef void _start_round(const VanGoghParamsC* P, VanGoghStateC* st) noexcept nogil:
    cdef int c
    st.turn = 0
    for c in range(VG_N_CHARS):
        st.char_taken[c] = 0
    st.ability_player = -1
    st.ability_spent = 0
    st.brush_used = 0
    # R7: the token holder starts; without one the first starter does.
    st.round_starter = st.token_holder if st.token_holder >= 0 else st.first_starter
    st.turn_player = st.round_starter
    st.phase = PH_CHOOSE


cdef void _final_scoring(const VanGoghParamsC* P, VanGoghStateC* st) noexcept nogil:
    """End of the game scoring (rulebook 'Scoring at the End of the Game', R4, R5)."""
    cdef int p, c, i, pts
    cdef bint purple
    for p in range(P.n):
        pts = 0
        for c in range(VG_N_CODES):
            pts += st.active[p][c] * (3 if (c >> 2) == VG_WHITE else 1)
        purple = P.colours[p] == VG_PURPLE_C
        for i in range(VG_INACTIVE):
            if st.inactive[p][i] < 0:
                if not purple:
                    pts += inactive_ep(i)
            elif purple and P.purple_active:
                pts += 1
        st.score[p] += pts


cdef inline bint _game_over(const VanGoghParamsC* P, const VanGoghStateC* st) noexcept nogil:
    if P.solo:
        return st.round >= P.solo_rounds
    return st.finished >= P.n + 1 or st.round >= P.max_rounds


cdef void _end_turn(const VanGoghParamsC* P, VanGoghStateC* st) noexcept nogil:
    cdef int t
    st.sec_k = 0
    st.act_player = -1
    st.act_char = -1
    st.act_primary = 0
    st.turn += 1
    if st.turn < P.turns_per_round:
        t = st.round_starter + st.turn
        while t >= P.n:
            t -= P.n
        st.turn_player = t
        st.phase = PH_CHOOSE
        return
    if _game_over(P, st):
        _final_scoring(P, st)
        st.phase = PH_END
        return
    st.eor_char = 0
    st.phase = PH_EOR


cdef inline int _seat(const VanGoghParamsC* P, int p) noexcept nogil:
    while p >= P.n:
        p -= P.n
    return p


cdef bint _start_action(const VanGoghParamsC* P, VanGoghStateC* st, int p, int c,
                        int primary) noexcept nogil:
    """Set up character c's primary (or secondary) action for player p.
    True if the action is over at once (a secondary Ginoux with no free space
    or an empty bag): the caller then finishes it."""
    cdef int k
    st.act_player = p
    st.act_char = c
    st.act_primary = primary
    st.postman_used = 0
    if c == VG_VAN_GOGH or c == VG_GACHET or c == VG_POSTMAN:
        st.steps_left = 2 if primary else 1
        st.phase = PH_STEP
    elif c == VG_ANNA:
        st.steps_left = 1
        st.phase = PH_STEP
    elif c == VG_GINOUX:
        if primary:
            st.draws_left = 3 if free_spaces(st, p) > 0 else 0
            st.phase = PH_GINOUX_DRAW
        else:
            if free_spaces(st, p) > 0 and st.bag_total > 0:
                st.phase = PH_SEC_DRAW
            else:
                st.phase = -1
                return True
    elif c == VG_EUGENE:
        # R16: the primary takes 2 whatever fits (the excess, of the player's
        # choice, goes back to the bag); the secondary 1, only into a free space.
        k = 2 if primary else 1
        if not primary and free_spaces(st, p) < k:
            k = free_spaces(st, p)
        if st.table_total < k:
            k = st.table_total
        st.steps_left = k
        st.phase = PH_EUGENE_TAKE if k > 0 else PH_REFILL
    return False


cdef void _finish_action(const VanGoghParamsC* P, VanGoghStateC* st) noexcept nogil:
    """The current primary or secondary action is over: next secondary, next turn.
    (A loop where the reference recurses through _start_action.)"""
    while True:
        st.steps_left = 0
        st.postman_used = 0
        if P.solo:
            if st.act_primary:
                if _start_action(P, st, st.turn_player, st.act_char, 0):
                    continue
                return
        elif st.act_primary and st.act_char != VG_ANNA and P.n > 1:
            st.sec_k = 1
            if _start_action(P, st, _seat(P, st.turn_player + 1), st.act_char, 0):
                continue
            return
        elif not st.act_primary and st.sec_k < P.n - 1:
            st.sec_k += 1
            if _start_action(P, st, _seat(P, st.turn_player + st.sec_k), st.act_char, 0):
                continue
            return
        _end_turn(P, st)
        return


cdef void _choose(const VanGoghParamsC* P, VanGoghStateC* st, int c) noexcept nogil:
    cdef int p = st.turn_player, free, nw = 0
    st.char_taken[c] = 1
    st.act_char = c
    st.act_player = p
    if c == VG_ANNA:
        st.token_holder = p
        if not P.solo:
            st.ability_player = p
            st.ability_spent = 0
    if st.char_wait[c][0] >= 0:
        nw += 1
    if st.char_wait[c][1] >= 0:
        nw += 1
    free = free_spaces(st, p)
    if nw <= free:
        if st.char_wait[c][0] >= 0:
            add_active(st, p, st.char_wait[c][0], 1)
        if st.char_wait[c][1] >= 0:
            add_active(st, p, st.char_wait[c][1], 1)
    elif free == 0:
        if st.char_wait[c][0] >= 0:
            to_bag(st, st.char_wait[c][0])
        if st.char_wait[c][1] >= 0:
            to_bag(st, st.char_wait[c][1])
    elif st.char_wait[c][0] == st.char_wait[c][1]:
        add_active(st, p, st.char_wait[c][0], 1)
        to_bag(st, st.char_wait[c][1])
    else:
        st.phase = PH_WAIT_KEEP
        return
    st.char_wait[c][0] = -1
    st.char_wait[c][1] = -1
    if _start_action(P, st, p, c, 1):
        _finish_action(P, st)


cdef void _finish_painting(const VanGoghParamsC* P, VanGoghStateC* st, int slot) noexcept nogil:
    cdef int points[5]
    cdef int colour, owner, k
    majority_points(P, st, slot, points)
    for colour in range(VG_N_COLOURS):
        owner = P.owner[colour]
        if owner >= 0 and points[colour]:
            st.score[owner] += points[colour]
    for k in range(VG_MAX_SPACES):
        if st.occ[slot][k] >= 0:
            to_bag(st, st.occ[slot][k])
            st.occ[slot][k] = -1
    st.painting[slot] = -1
    st.finished += 1
    if st.deck_left > 0:
        st.card_slot = slot
        st.card_resume = st.phase
        st.phase = PH_CARD


cdef void _paint(const VanGoghParamsC* P, VanGoghStateC* st, int p, int a) noexcept nogil:
    """Allocate a Minigogh on a painting space, score it, and finish the
    painting when it is full."""
    cdef int x = a - A_PAINT
    cdef int sp = x % VG_MAX_SPACES
    cdef int src = x // VG_MAX_SPACES
    cdef int slot = src % VG_N_PAINTINGS
    cdef int code, i, card, green = 0, k
    src = src // VG_N_PAINTINGS
    if src < VG_N_CODES:
        code = src
        add_active(st, p, code, -1)
    else:
        i = leftmost_inactive(st, p)
        code = st.inactive[p][i]
        st.inactive[p][i] = -1
    card = st.painting[slot]
    if P.card_orient[card][sp] != (code & 3):
        green = 1                   # only the green ability makes this legal (R5)
        st.ability_spent = 1
    st.occ[slot][sp] = code
    st.score[p] += paint_value(P, p, code, P.card_bonus[card][sp], green)
    for k in range(P.card_size[card]):
        if st.occ[slot][k] < 0:
            return
    _finish_painting(P, st, slot)


cdef inline void _resume(VanGoghStateC* st) noexcept nogil:
    """Back from the blue ability or the brush to the decision it interrupted."""
    st.phase = st.resume
    st.resume = -1
    if st.phase == PH_CHOOSE:
        st.act_player = -1


cdef void _window(const VanGoghParamsC* P, VanGoghStateC* st, int a, int p) noexcept nogil:
    """An ability (R5) or the solo brush (R13), used at one of p's decisions."""
    cdef int t, o, c
    if a == A_BRUSH:
        st.brush_used = 1
        st.resume = st.phase
        st.act_player = p
        st.phase = PH_BRUSH
        return
    st.ability_spent = 1
    if a == A_BLUE:
        st.resume = st.phase
        st.act_player = p
        st.phase = PH_BLUE_DRAW
    elif A_YELLOW <= a < A_PINK:
        t = (a - A_YELLOW) >> 2
        o = (a - A_YELLOW) & 3
        if t < 4:
            add_active(st, p, VG_YELLOW_C * 4 + t, -1)
            add_active(st, p, VG_YELLOW_C * 4 + o, 1)
        else:
            st.inactive[p][t - 4] = VG_YELLOW_C * 4 + o
    elif A_PINK <= a < A_BLUE:
        t = a - A_PINK
        if t < VG_N_CODES:
            add_active(st, p, t, -1)
            add_active(st, p, (t & ~3) + pink_next(t & 3), 1)
        else:
            c = st.inactive[p][t - VG_N_CODES]
            st.inactive[p][t - VG_N_CODES] = (c & ~3) + pink_next(c & 3)


cdef void _apply_chance(const VanGoghParamsC* P, VanGoghStateC* st, int a) noexcept nogil:
    cdef int ph = st.phase, c, p
    if _is_draw_roll(ph):
        add_bag(st, a >> 2, -1)
    if ph == PH_SETUP_CARDS:
        st.deck[a] = 0
        st.deck_left -= 1
        st.painting[st.setup_k] = a
        st.setup_k += 1
        if st.setup_k == VG_N_PAINTINGS:
            st.setup_k = 0
            st.phase = PH_SETUP_TABLE
    elif ph == PH_SETUP_TABLE:
        st.table[a] += 1
        st.table_total += 1
        if st.table_total == VG_TABLE_SIZE:
            st.phase = PH_SETUP_PALETTE
    elif ph == PH_SETUP_PALETTE:
        add_active(st, st.setup_k >> 1, a, 1)
        st.setup_k += 1
        if st.setup_k == 2 * P.n:
            st.setup_k = 0
            _start_round(P, st)
    elif ph == PH_CARD:
        st.deck[a] = 0
        st.deck_left -= 1
        st.painting[st.card_slot] = a
        st.card_slot = -1
        st.phase = st.card_resume
        st.card_resume = -1
    elif ph == PH_GINOUX_DRAW:
        add_bag(st, a, -1)
        st.hand[a] += 1
        st.draws_left -= 1
    elif ph == PH_ROLL:
        for c in range(VG_N_COLOURS):
            if st.roll_q[c] > 0:
                break
        st.roll_q[c] -= 1
        add_active(st, st.act_player, c * 4 + a, 1)
    elif ph == PH_SEC_DRAW:
        add_active(st, st.act_player, a, 1)
        _finish_action(P, st)
    elif ph == PH_REFILL:
        st.table[a] += 1
        st.table_total += 1
    elif ph == PH_BLUE_DRAW:
        add_bag(st, a, -1)
        st.blue_colour = a
        st.phase = PH_BLUE_ORIENT
    elif ph == PH_EOR:
        c = st.eor_char
        if st.char_wait[c][0] < 0:
            st.char_wait[c][0] = a
        else:
            st.char_wait[c][1] = a
        st.eor_char += 1


cdef void _apply_decision(const VanGoghParamsC* P, VanGoghStateC* st, int a) noexcept nogil:
    cdef int ph = st.phase, p, code, i, keep, other, c, w0, w1
    if ph == PH_CHOOSE:
        if a < VG_N_CHARS:
            _choose(P, st, a)
        else:
            _window(P, st, a, st.turn_player)
        return
    p = st.act_player
    if ph == PH_STEP:
        if a == A_DONE:
            _finish_action(P, st)
        elif a >= A_YELLOW:
            _window(P, st, a, p)
        else:
            st.steps_left -= 1
            if a < A_REORIENT:
                st.postman_used |= 1
                _paint(P, st, p, a)
            elif a < A_RESTART:
                code = (a - A_REORIENT) >> 2
                add_active(st, p, code, -1)
                add_active(st, p, (code & ~3) + ((a - A_REORIENT) & 3), 1)
            elif a < A_EPIPHANY:
                # Restart: the coloured Minigogh goes to the bag, a white takes
                # its place in the same orientation (R9).
                st.postman_used |= 2
                code = a - A_RESTART
                add_active(st, p, code, -1)
                add_bag(st, code >> 2, 1)
                st.whites -= 1
                add_active(st, p, VG_WHITE * 4 + (code & 3), 1)
            elif a == A_EPIPHANY:
                st.postman_used |= 4
                i = leftmost_inactive(st, p)
                add_active(st, p, st.inactive[p][i], 1)    # keeps its orientation (R4)
                st.inactive[p][i] = -1
    elif ph == PH_WAIT_KEEP:
        keep = a - A_TAKE
        w0 = st.char_wait[st.act_char][0]
        w1 = st.char_wait[st.act_char][1]
        other = w1 if w0 == keep else w0
        add_active(st, p, keep, 1)
        to_bag(st, other)
        st.char_wait[st.act_char][0] = -1
        st.char_wait[st.act_char][1] = -1
        if _start_action(P, st, p, st.act_char, 1):
            _finish_action(P, st)
    elif ph == PH_GINOUX_KEEP:
        c = a - A_KEEP
        st.hand[c] -= 1
        st.roll_q[c] += 1
        st.steps_left -= 1
        if st.steps_left == 0:
            for c in range(VG_N_COLOURS):       # the excess goes back to the bag
                add_bag(st, c, st.hand[c])
                st.hand[c] = 0
            st.phase = PH_ROLL
    elif ph == PH_EUGENE_TAKE:
        code = a - A_TAKE
        st.table[code] -= 1
        st.table_total -= 1
        if free_spaces(st, p) > 0:
            add_active(st, p, code, 1)
        else:
            add_bag(st, code >> 2, 1)           # the excess, of the player's choice (R16)
        st.steps_left -= 1
        if st.steps_left == 0:
            st.phase = PH_REFILL
    elif ph == PH_BLUE_ORIENT:
        add_active(st, p, st.blue_colour * 4 + (a - A_BLUE_ORIENT), 1)
        st.blue_colour = -1
        st.phase = PH_BLUE_DISCARD
    elif ph == PH_BLUE_DISCARD:
        code = a - A_BLUE_DISCARD
        add_active(st, p, code, -1)
        to_bag(st, code)
        _resume(st)
    elif ph == PH_BRUSH:
        _resume(st)
        if a != A_DONE:
            _paint(P, st, p, a)


cdef inline bint _eor_due(const VanGoghParamsC* P, const VanGoghStateC* st, int c) noexcept nogil:
    if st.char_taken[c] or (c == VG_ANNA and P.solo):
        return False
    return st.char_wait[c][1] < 0 and st.bag_total > 0


cdef void _settle(const VanGoghParamsC* P, VanGoghStateC* st) noexcept nogil:
    """Move past phases with nothing to decide or draw (ENCODING.md 'Settling')."""
    cdef int ph, p, k, hand, c
    while True:
        ph = st.phase
        p = st.act_player
        if ph == PH_STEP:
            if st.steps_left > 0 and (_has_step_action(P, st, p)
                                      or _has_window_action(P, st, p)):
                return
            _finish_action(P, st)
        elif ph == PH_GINOUX_DRAW:
            if st.draws_left > 0 and st.bag_total > 0:
                return
            st.draws_left = 0
            hand = 0
            for c in range(VG_N_COLOURS):
                hand += st.hand[c]
            k = 2
            if free_spaces(st, p) < k:
                k = free_spaces(st, p)
            if hand < k:
                k = hand
            st.steps_left = k
            if k > 0:
                st.phase = PH_GINOUX_KEEP
            else:
                for c in range(VG_N_COLOURS):
                    add_bag(st, c, st.hand[c])
                    st.hand[c] = 0
                _finish_action(P, st)
        elif ph == PH_ROLL:
            for c in range(VG_N_COLOURS):
                if st.roll_q[c] > 0:
                    return
            _finish_action(P, st)
        elif ph == PH_REFILL:
            if st.table_total < VG_TABLE_SIZE and st.bag_total > 0:
                return
            _finish_action(P, st)
        elif ph == PH_EOR:
            while st.eor_char < VG_N_CHARS and not _eor_due(P, st, st.eor_char):
                st.eor_char += 1
            if st.eor_char < VG_N_CHARS:
                return
            st.eor_char = 0
            st.round += 1
            _start_round(P, st)
        else:
            return


cdef void vg_apply(const GameC* g, void* s, int action) noexcept nogil:
    cdef VanGoghStateC* st = <VanGoghStateC*> s
    cdef const VanGoghParamsC* P = vg_params(g)
    if vg_current_player(g, s) == PLAYER_CHANCE:
        _apply_chance(P, st, action)
    else:
        _apply_decision(P, st, action)
    _settle(P, st)


# ----------------------------------------------------------------- returns
cdef double solo_utility(double score) noexcept nogil:
    """Solo returns (R13): below the 100-point goal in [-1, 0), at or above it in [0.5, 1]."""
    cdef double d
    if score < 100:
        return score / 100.0 - 1.0
    d = score - 100
    if d > 100:
        d = 100
    return 0.5 + d / 200.0


cdef inline int _cmp_keys(const VanGoghParamsC* P, const VanGoghStateC* st, int p,
                          int q, const int* in_paint, const int* on_pal) noexcept nogil:
    if st.score[p] != st.score[q]:
        return 1 if st.score[p] > st.score[q] else -1
    if in_paint[p] != in_paint[q]:
        return 1 if in_paint[p] > in_paint[q] else -1
    if on_pal[p] != on_pal[q]:
        return 1 if on_pal[p] > on_pal[q] else -1
    return 0


cdef void final_returns(const VanGoghParamsC* P, const VanGoghStateC* st,
                         double* out) noexcept nogil:
    """Rank returns on (score, own-colour Minigoghs in unfinished paintings,
    Minigoghs on the palette) (R12); equal keys share."""
    cdef int in_paint[5]
    cdef int on_pal[5]
    cdef int p, q, s, k, x, i, net
    if P.solo:
        out[0] = solo_utility(st.score[0])
        return
    for p in range(P.n):
        in_paint[p] = 0
        on_pal[p] = st.n_active[p]
        for i in range(VG_INACTIVE):
            if st.inactive[p][i] >= 0:
                on_pal[p] += 1
    for s in range(VG_N_PAINTINGS):
        for k in range(VG_MAX_SPACES):
            x = st.occ[s][k]
            if x >= 0 and (x >> 2) < VG_N_COLOURS and P.owner[x >> 2] >= 0:
                in_paint[P.owner[x >> 2]] += 1
    for p in range(P.n):
        net = 0
        for q in range(P.n):
            net += _cmp_keys(P, st, p, q, in_paint, on_pal)
        out[p] = net / <double> (P.n - 1)


cdef void vg_returns(const GameC* g, const void* s, double* out) noexcept nogil:
    cdef const VanGoghStateC* st = <const VanGoghStateC*> s
    cdef const VanGoghParamsC* P = vg_params(g)
    cdef int p
    if st.phase != PH_END:
        for p in range(P.n):
            out[p] = 0.0
        return
    final_returns(P, st, out)


cdef void vg_scores(const GameC* g, const void* s, double* out) noexcept nogil:
    cdef const VanGoghStateC* st = <const VanGoghStateC*> s
    cdef const VanGoghParamsC* P = vg_params(g)
    cdef int p
    for p in range(P.n):
        out[p] = st.score[p]

