"""Van Gogh, the core's game knowledge for the search: not rules (the
reference has a twin only of the evaluation).

The evaluation heuristic (`vg_evaluate`) is the reference's `evaluate()`,
operation for operation: current EP, plus the palette's worth (2 per coloured
Minigogh, 4 per white, the empty inactive spaces' end bonus, 2 per usable
purple inactive Minigogh), plus each open painting's majority points as if it
ended now, scaled by how full it is; turned into a rank utility by tanh of
score differences over EVAL_SCALE (solo: the solo utility of that estimate).
"""
from libc.math cimport tanh

from easel.engine.contract cimport GameC
from easel.engine.vangogh.state cimport *
from easel.engine.vangogh.play cimport (final_returns, majority_points, points_from_counts,
                                        slot_masks, solo_utility, vg_current_player)

from easel.engine.vangogh import rules as _rules

# The evaluation's weights, shared with the reference's evaluate(): read from
# rules.py (their one source) when the module is imported.
cdef int _EVAL_WHITE = _rules.EVAL_WHITE         # palette worth of a white Minigogh
cdef int _EVAL_COLOURED = _rules.EVAL_COLOURED   # ... of a coloured one (or a usable purple inactive)
cdef double _EVAL_SCALE = _rules.EVAL_SCALE      # EP difference that counts as a clear lead

EVAL_SCALE = _EVAL_SCALE


# --------------------------------------------------------------- evaluation
cdef void vg_evaluate(const GameC* g, const void* s, double* out) noexcept nogil:
    """The reference's evaluate(), operation for operation (see the module docstring)."""
    cdef const VanGoghStateC* st = <const VanGoghStateC*> s
    cdef const VanGoghParamsC* P = vg_params(g)
    cdef double est[5]
    cdef int points[5]
    cdef int p, q, c, i, x, pal, slot, card, size, filled, k, owner
    cdef bint purple
    cdef double acc
    if st.phase == PH_END:
        final_returns(P, st, out)
        return
    for p in range(P.n):
        pal = 0
        for c in range(VG_N_CODES):
            pal += st.active[p][c] * (_EVAL_WHITE if (c >> 2) == VG_WHITE else _EVAL_COLOURED)
        purple = P.colours[p] == VG_PURPLE_C
        for i in range(VG_INACTIVE):
            x = st.inactive[p][i]
            if x < 0:
                if not purple:
                    pal += inactive_ep(i)
            elif purple and not P.solo:
                pal += _EVAL_COLOURED
        est[p] = <double> (st.score[p] + pal)
    for slot in range(VG_N_PAINTINGS):
        card = st.painting[slot]
        if card < 0:
            continue
        size = P.card_size[card]
        filled = 0
        for k in range(size):
            if st.occ[slot][k] >= 0:
                filled += 1
        if filled == 0:
            continue
        majority_points(P, st, slot, points)
        for c in range(VG_N_COLOURS):
            owner = P.owner[c]
            if owner >= 0 and points[c]:
                est[owner] += (points[c] * filled) / <double> size
    if P.solo:
        out[0] = solo_utility(est[0])
        return
    for p in range(P.n):
        acc = 0.0
        for q in range(P.n):
            if q != p:
                acc += tanh((est[p] - est[q]) / _EVAL_SCALE)
        out[p] = acc / (P.n - 1)


# ----------------------------------------------------------- rollout policy
# GameC.rollout_action: a cheap rule of thumb for the search's playouts, in
# place of uniformly random moves (which often stop instead of painting and
# take characters that do nothing). Each legal action gets a quick score in
# EP-like units read off the state (no state copies); with probability
# _ROLLOUT_EPSILON the move is uniform instead, so playouts stay diverse.
# Not part of the rules: the reference has no twin of it.

cdef double _ROLLOUT_EPSILON = 0.3   # measured against 0.15 (docs/strength.md, "Van Gogh")
cdef double _PAINT_GUESS = 4.0        # a typical paint's worth, for character choice
cdef double _ABILITY_WORTH = 1.0      # Anna's token and ability, beyond her paint

ROLLOUT_EPSILON = _ROLLOUT_EPSILON


cdef struct _PolicyC:
    int p                       # player to move
    int colour                  # p's colour
    int want[4]                 # empty spaces of the open paintings asking for each orientation
    int have[4]                 # p's usable Minigoghs per orientation (active, purple's leftmost)
    int paintable               # paints p could make now, each Minigogh and space once
    int empty[3]                # per slot: bits of the empty spaces
    int om[12]                  # per slot and orientation: bits of those empty spaces
    int counts[3][5]            # per slot: coloured Minigoghs per colour
    int filled[3]               # per slot: spaces filled


cdef void _policy_init(const VanGoghParamsC* P, const VanGoghStateC* st, int p,
                       _PolicyC* x) noexcept nogil:
    cdef int slot, o, c, k, code, left, m
    x.p = p
    x.colour = P.colours[p]
    slot_masks(P, st, x.empty, x.om)
    for o in range(4):
        x.want[o] = 0
        x.have[o] = 0
    for slot in range(VG_N_PAINTINGS):
        x.filled[slot] = 0
        for c in range(VG_N_COLOURS):
            x.counts[slot][c] = 0
        for o in range(4):
            m = x.om[slot * 4 + o]
            while m:
                x.want[o] += m & 1
                m >>= 1
        for k in range(VG_MAX_SPACES):
            code = st.occ[slot][k]
            if code >= 0:
                x.filled[slot] += 1
                if (code >> 2) != VG_WHITE:
                    x.counts[slot][code >> 2] += 1
    for code in range(VG_N_CODES):
        x.have[code & 3] += st.active[p][code]
    if x.colour == VG_PURPLE_C and not P.solo:
        left = leftmost_inactive(st, p)
        if left >= 0:
            x.have[st.inactive[p][left] & 3] += 1
    x.paintable = 0
    for o in range(4):
        x.paintable += x.have[o] if x.have[o] < x.want[o] else x.want[o]


cdef inline double _colour_worth(const VanGoghParamsC* P, const _PolicyC* x,
                                 int colour) noexcept nogil:
    """What painting a Minigogh of this colour is worth to the player: its EP,
    plus a little for building the player's own majorities, minus a little
    for feeding an opponent's."""
    if colour == VG_WHITE:
        return 5.0
    if P.solo:
        return 3.0
    if colour == x.colour:
        return 4.0
    if P.owner[colour] >= 0:
        return 2.0
    return 2.0


cdef inline double _keep_worth(const VanGoghParamsC* P, const _PolicyC* x,
                               int code) noexcept nogil:
    """What gaining this Minigogh in the active area is worth: its end-of-game
    point, and its paint if some open space still asks for its orientation."""
    cdef double end = 3.0 if (code >> 2) == VG_WHITE else 1.0
    if x.want[code & 3] > x.have[code & 3]:
        return end + _colour_worth(P, x, code >> 2)
    return end + 0.3 * _colour_worth(P, x, code >> 2)


cdef inline bint _needed(const _PolicyC* x, int o) noexcept nogil:
    """A Minigogh of orientation o that the player holds has a space to go to."""
    return x.have[o] <= x.want[o] and x.want[o] > 0


cdef double _paint_score(const VanGoghParamsC* P, const VanGoghStateC* st,
                         const _PolicyC* x, int a) noexcept nogil:
    cdef int v = a - A_PAINT
    cdef int sp = v % VG_MAX_SPACES
    cdef int src = v // VG_MAX_SPACES
    cdef int slot = src % VG_N_PAINTINGS
    cdef int code, card, colour, c, best_other
    cdef int counts[5]
    cdef int points[5]
    cdef double score
    src = src // VG_N_PAINTINGS
    code = src if src < VG_N_CODES else st.inactive[x.p][leftmost_inactive(st, x.p)]
    colour = code >> 2
    card = st.painting[slot]
    score = paint_value(P, x.p, code, P.card_bonus[card][sp],
                         1 if P.card_orient[card][sp] != (code & 3) else 0)
    if x.filled[slot] + 1 == P.card_size[card]:
        # Finishing: the majorities are scored now.
        for c in range(VG_N_COLOURS):
            counts[c] = x.counts[slot][c]
        if colour != VG_WHITE:
            counts[colour] += 1
        points_from_counts(P, card, counts, points)
        best_other = 0
        for c in range(VG_N_COLOURS):
            if c != x.colour and P.owner[c] >= 0 and points[c] > best_other:
                best_other = points[c]
        if x.colour >= 0:
            score += points[x.colour]
        score -= best_other
    elif colour == x.colour:
        score += 1.0
    elif colour != VG_WHITE and P.owner[colour] >= 0:
        score -= 2.0
    return score


cdef double _ability_score(const VanGoghParamsC* P, const VanGoghStateC* st,
                           const _PolicyC* x, int a) noexcept nogil:
    """Yellow and pink turn a Minigogh: worth it when it makes a spare one fit."""
    cdef int t, o, code
    if a == A_BRUSH:
        return 4.0 if x.paintable > 0 else -1.0
    if a == A_BLUE:
        # a Minigogh in the orientation of choice, for an unmatched space
        o = x.want[0] + x.want[1] + x.want[2] + x.want[3]
        return 1.5 if x.paintable < o else -1.0
    if a < A_PINK:
        t = (a - A_YELLOW) >> 2
        o = (a - A_YELLOW) & 3
        if t >= 4:
            return -1.0
        code = VG_YELLOW_C * 4 + t
    else:
        t = a - A_PINK
        if t >= VG_N_CODES:
            return -1.0
        code = t
        o = pink_next(t & 3)
    if not _needed(x, code & 3) and x.want[o] > x.have[o]:
        return 1.0 + 0.5 * _colour_worth(P, x, code >> 2)
    return -1.0


cdef double _char_score(const VanGoghParamsC* P, const VanGoghStateC* st,
                        const _PolicyC* x, int c) noexcept nogil:
    cdef int p = x.p, free = free_spaces(st, p), i, code, o, k, spare, unmatched
    cdef double score = 0.0, v, best1 = -1e9, best2 = -1e9
    cdef double opts[3]
    cdef int n_opts = 0
    # Minigoghs waiting on the character come along.
    k = 0
    for i in range(2):
        code = st.char_wait[c][i]
        if code >= 0 and k < free:
            score += _keep_worth(P, x, code)
            k += 1
    free -= k
    if c == VG_VAN_GOGH:
        k = x.paintable if x.paintable < 2 else 2
        score += _PAINT_GUESS * k if k > 0 else -1.0
    elif c == VG_ANNA:
        score += (_PAINT_GUESS if x.paintable > 0 else 0.0) + _ABILITY_WORTH
    elif c == VG_POSTMAN:
        if x.paintable > 0:
            opts[n_opts] = _PAINT_GUESS
            n_opts += 1
        if free > 0 and leftmost_inactive(st, p) >= 0:
            opts[n_opts] = 2.0 if x.colour != VG_PURPLE_C else 0.2
            n_opts += 1
        if st.whites > 0 and st.n_active[p] > 0:
            opts[n_opts] = 1.5
            n_opts += 1
        for i in range(n_opts):
            if opts[i] > best1:
                best2 = best1
                best1 = opts[i]
            elif opts[i] > best2:
                best2 = opts[i]
        if n_opts == 0:
            score -= 1.0
        else:
            score += best1 + (best2 if n_opts > 1 else 0.0)
    elif c == VG_GACHET:
        spare = st.n_active[p] - x.paintable
        unmatched = 0
        for o in range(4):
            unmatched += x.want[o] - x.have[o] if x.want[o] > x.have[o] else 0
        k = spare if spare < unmatched else unmatched
        if k > 2:
            k = 2
        score += 3.0 * k if k > 0 else -1.0
    elif c == VG_GINOUX:
        k = free if free < 2 else 2
        score += 2.0 * k if (k > 0 and st.bag_total > 0) else -1.0
    elif c == VG_EUGENE:
        k = free if free < 2 else 2
        if k == 0 or st.table_total == 0:
            score -= 1.0
        else:
            for code in range(VG_N_CODES):
                if st.table[code] > 0:
                    v = _keep_worth(P, x, code)
                    if v > best1:
                        best2 = best1
                        best1 = v
                    elif v > best2:
                        best2 = v
                    if st.table[code] > 1 and v > best2:
                        best2 = v
            score += 0.8 * (best1 + (best2 if k > 1 and best2 > -1e8 else 0.0))
    return score


cdef double _action_score(const VanGoghParamsC* P, const VanGoghStateC* st,
                          const _PolicyC* x, int a) noexcept nogil:
    cdef int ph = st.phase, code, o, left
    if A_YELLOW <= a <= A_BLUE or a == A_BRUSH:
        return _ability_score(P, st, x, a)
    if ph == PH_CHOOSE:
        return _char_score(P, st, x, a)
    if a == A_DONE:
        return 0.0
    if a < A_REORIENT:
        return _paint_score(P, st, x, a)
    if a < A_RESTART:
        code = (a - A_REORIENT) >> 2
        o = (a - A_REORIENT) & 3
        if not _needed(x, code & 3) and x.want[o] > x.have[o]:
            return 1.0 + 0.5 * _colour_worth(P, x, code >> 2)
        return -1.0
    if a < A_EPIPHANY:
        return 1.0 + 0.5 * (5.0 - _colour_worth(P, x, (a - A_RESTART) >> 2))
    if a == A_EPIPHANY:
        if x.colour == VG_PURPLE_C and not P.solo:
            return 0.2
        left = leftmost_inactive(st, x.p)
        return inactive_ep(left) + (2.0 if x.want[st.inactive[x.p][left] & 3] >
                                     x.have[st.inactive[x.p][left] & 3] else 0.5)
    if a < A_KEEP:
        return _keep_worth(P, x, a - A_TAKE)
    if a < A_YELLOW:
        return _colour_worth(P, x, a - A_KEEP)
    if a < A_BLUE_DISCARD:
        o = a - A_BLUE_ORIENT
        return <double> (x.want[o] - x.have[o])
    return -_keep_worth(P, x, a - A_BLUE_DISCARD)


cdef int vg_rollout_action(const GameC* g, const void* s, const int* legal, int n,
                           double u1, double u2) noexcept nogil:
    """Epsilon-greedy over _action_score: uniform with probability
    _ROLLOUT_EPSILON (u1), else the best score, ties broken by u2."""
    cdef const VanGoghStateC* st = <const VanGoghStateC*> s
    cdef const VanGoghParamsC* P = vg_params(g)
    cdef _PolicyC x
    cdef double scores[VG_NUM_ACTIONS]
    cdef double best = -1e300
    cdef int i, ties = 0, k
    if u1 < _ROLLOUT_EPSILON:
        i = <int> (u2 * n)
        return i if i < n else n - 1
    _policy_init(P, st, vg_current_player(g, s), &x)
    for i in range(n):
        scores[i] = _action_score(P, st, &x, legal[i])
        if scores[i] > best:
            best = scores[i]
    for i in range(n):
        if scores[i] >= best - 1e-9:
            ties += 1
    k = <int> (u2 * ties)
    if k >= ties:
        k = ties - 1
    for i in range(n):
        if scores[i] >= best - 1e-9:
            if k == 0:
                return i
            k -= 1
    return 0

