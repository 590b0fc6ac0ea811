"""Pig, the Cython core. Same rules as OpenSpiel's `pig`: on your turn roll
(chance: a face; a 1 loses the turn total and passes the turn) or stop (bank
the turn total, pass). First to `winscore` wins; after `horizon` decisions
nobody wins. Returns: winner 1, every other player -1/(n-1)."""
from libc.string cimport memset

from easel.engine.contract cimport GameC, PLAYER_CHANCE, PLAYER_TERMINAL
from easel.engine._core cimport CoreGame, CoreState
from easel.engine.rng cimport RngC, PlayoutRandC, chance_uniform, rng_below


cdef inline const PigParamsC* _p(const GameC* g) noexcept nogil:
    return <const PigParamsC*> g.params


cdef void pig_init(const GameC* g, void* s) noexcept nogil:
    memset(s, 0, sizeof(PigStateC))


cdef inline bint _over(const PigParamsC* p, const PigStateC* st) noexcept nogil:
    # Kept up to date by pig_apply: scores only change on a stop, and the
    # horizon only moves on a decision.
    return st.over


cdef int pig_current_player(const GameC* g, const void* s) noexcept nogil:
    cdef const PigStateC* st = <const PigStateC*> s
    if _over(_p(g), st):
        return PLAYER_TERMINAL
    return st.cur_player


cdef int pig_legal_actions(const GameC* g, const void* s, int* out) noexcept nogil:
    cdef const PigStateC* st = <const PigStateC*> s
    cdef const PigParamsC* p = _p(g)
    if st.cur_player < 0 or _over(p, st):
        return 0
    if st.scores[st.cur_player] + st.turn_total >= p.win_score:
        out[0] = PIG_STOP
        return 1
    out[0] = PIG_ROLL
    out[1] = PIG_STOP
    return 2


cdef int pig_chance_outcomes(const GameC* g, const void* s, int* out, double* probs) noexcept nogil:
    cdef const PigStateC* st = <const PigStateC*> s
    cdef const PigParamsC* p = _p(g)
    cdef int i
    if st.cur_player != PLAYER_CHANCE or _over(p, st):
        return 0
    if p.piglet:
        out[0] = 0
        probs[0] = p.p_one
        out[1] = 1
        probs[1] = 1.0 - p.p_one
        return 2
    for i in range(p.dice_outcomes):
        out[i] = i
        probs[i] = p.p_one
    return p.dice_outcomes


cdef inline int _face(const PigParamsC* p, double u) noexcept nogil:
    cdef int face
    if p.piglet:
        return 0 if u < p.p_one else 1
    face = <int> (u * p.dice_outcomes)
    return face if face < p.dice_outcomes else p.dice_outcomes - 1


cdef int pig_sample_chance(const GameC* g, const void* s, double u) noexcept nogil:
    return _face(_p(g), u)


cdef inline int _next_player(const PigParamsC* p, int player) noexcept nogil:
    # No modulo: an integer division costs more than the rest of a rollout step.
    player += 1
    return 0 if player == p.players else player


cdef inline void _decide(const PigParamsC* p, PigStateC* st, int action) noexcept nogil:
    st.total_moves += 1
    if st.total_moves >= p.horizon:
        st.over = 1
    if action == PIG_ROLL:
        st.cur_player = PLAYER_CHANCE
        return
    st.scores[st.turn_player] += st.turn_total
    if st.scores[st.turn_player] >= p.win_score:
        st.over = 1
    st.turn_total = 0
    st.turn_player = _next_player(p, st.turn_player)
    st.cur_player = st.turn_player


cdef inline void _land(const PigParamsC* p, PigStateC* st, int face) noexcept nogil:
    if face == 0:
        st.turn_total = 0
        st.turn_player = _next_player(p, st.turn_player)
    else:
        st.turn_total += 1 if p.piglet else face + 1
    st.cur_player = st.turn_player


cdef void pig_apply(const GameC* g, void* s, int action) noexcept nogil:
    cdef PigStateC* st = <PigStateC*> s
    if st.cur_player >= 0:
        _decide(_p(g), st, action)
    else:
        _land(_p(g), st, action)


cdef void pig_random_playout(const GameC* g, void* s, PlayoutRandC* rnd,
                             double* out) noexcept nogil:
    """The search's random rollout in one loop (GameC.random_playout): the
    step through the rule table costs several times the rules here. Same
    draws as the generic loop: rng_below(rng, n) over [roll, stop] or
    [stop], and one chance_uniform per roll."""
    # Local copies of the state and the generator: the compiler keeps them
    # in registers, where through the pointers it stores every field at
    # every step.
    cdef PigStateC st = (<PigStateC*> s)[0]
    cdef RngC rng = rnd.rng[0]
    cdef PlayoutRandC local = rnd[0]
    cdef const PigParamsC* p = _p(g)
    local.rng = &rng
    while not st.over:
        if st.cur_player == PLAYER_CHANCE:
            _land(p, &st, _face(p, chance_uniform(&local)))
        elif st.scores[st.cur_player] + st.turn_total >= p.win_score:
            rng_below(&rng, 1)                     # the loop draws for one action too
            _decide(p, &st, PIG_STOP)
        else:
            _decide(p, &st, PIG_ROLL if rng_below(&rng, 2) == 0 else PIG_STOP)
    rnd.rng[0] = rng
    rnd.chance_k = local.chance_k
    (<PigStateC*> s)[0] = st
    pig_returns(g, s, out)


cdef void pig_returns(const GameC* g, const void* s, double* out) noexcept nogil:
    cdef const PigStateC* st = <const PigStateC*> s
    cdef const PigParamsC* p = _p(g)
    cdef int i, w = -1
    for i in range(p.players):
        out[i] = 0.0
    if not _over(p, st):
        return
    for i in range(p.players):
        if st.scores[i] >= p.win_score:
            w = i
            break
    if w < 0:
        return
    for i in range(p.players):
        out[i] = 1.0 if i == w else -1.0 / (p.players - 1)


cdef void pig_scores(const GameC* g, const void* s, double* out) noexcept nogil:
    cdef const PigStateC* st = <const PigStateC*> s
    cdef int i
    for i in range(_p(g).players):
        out[i] = st.scores[i]


def make_core(params, facts):
    cdef CoreGame core = CoreGame.from_facts(facts)
    cdef PigParamsC p
    p.players = params["players"]
    p.horizon = params["horizon"]
    p.win_score = params["winscore"]
    p.dice_outcomes = params["diceoutcomes"]
    p.piglet = params["piglet"]
    p.p_one = 1.0 / p.dice_outcomes
    core.set_params((<char*> &p)[:sizeof(PigParamsC)])
    core.c.state_size = sizeof(PigStateC)
    core.c.current_player = pig_current_player
    core.c.legal_actions = pig_legal_actions
    core.c.chance_outcomes = pig_chance_outcomes
    core.c.apply_action = pig_apply
    core.c.returns = pig_returns
    core.c.sample_chance = pig_sample_chance
    core.c.scores = pig_scores
    core.c.random_playout = pig_random_playout
    return core


def init_state(CoreGame core, CoreState state):
    pig_init(&core.c, state.ptr())


def state_to_json(game, bytes raw):
    cdef const PigStateC* st = <const PigStateC*> (<const char*> raw)
    n = game.params["players"]
    return {
        "scores": [st.scores[i] for i in range(n)],
        "turn_total": st.turn_total,
        "turn_player": st.turn_player,
        "total_moves": st.total_moves,
        "current_player": pig_current_player(&(<CoreGame> game.core).c, st),
        "piglet": bool(game.params["piglet"]),
    }
