"""Couleurs de Paris, the core's Python face: `make_core` fills a CoreGame
with the parameter block and the rule table (play.pyx) and the rollout
policy (policy.pyx); the rest converts between the state struct and the JSON
view the reference shares (view.py)."""
from libc.string cimport memset

from easel.engine._core cimport CoreGame, CoreState
from easel.engine.couleurs_de_paris.state cimport *
from easel.engine.couleurs_de_paris.play cimport (cdp_apply, cdp_chance_outcomes,
                                                  cdp_current_player, cdp_init,
                                                  cdp_legal_actions, cdp_returns,
                                                  cdp_sample_chance, cdp_scores)
from easel.engine.couleurs_de_paris.policy cimport cdp_rollout_action

from easel.engine.couleurs_de_paris.policy import rollout_scores  # noqa: F401 (tests read it here)


def make_core(params, facts):
    from .rules import NUM_ACTIONS, make_rules
    cdef CoreGame core = CoreGame.from_facts(facts)
    cdef CdpParamsC P
    cdef int i, k
    r = make_rules(params)
    assert NUM_ACTIONS == A_NUM
    d = r.data
    if len(d.paintings) > CDP_MAX_CARDS:
        raise ValueError(f"couleurs_de_paris core: at most {CDP_MAX_CARDS} paintings")
    memset(&P, 0, sizeof(CdpParamsC))
    P.n = r.n
    P.first = r.first
    P.max_rounds = r.max_rounds
    P.easels = r.easels
    P.ncards = len(d.paintings)
    for i in range(CDP_N_WHEEL):
        P.wheel[i] = d.wheel[i]
        P.slot_of[i] = r.slot_of[i]
        P.capacity[i] = r.capacity[i]
    for i in range(CDP_N_TOOLS):
        for k in range(CDP_TRACK_LEN):
            P.tracks[i][k] = r.tracks[i][k]
    for i in range(CDP_N_COLOURS):
        P.box[i] = r.supply[i]
    for i, card in enumerate(d.paintings):
        P.card_value[i] = card.value
        for k in range(CDP_SPACES):
            P.card_space[i][k] = card.spaces[k]
    core.set_params((<char*> &P)[:sizeof(CdpParamsC)])
    core.c.state_size = sizeof(CdpStateC)
    core.c.current_player = cdp_current_player
    core.c.legal_actions = cdp_legal_actions
    core.c.chance_outcomes = cdp_chance_outcomes
    core.c.apply_action = cdp_apply
    core.c.returns = cdp_returns
    core.c.sample_chance = cdp_sample_chance
    core.c.scores = cdp_scores
    core.c.rollout_action = cdp_rollout_action
    return core


def init_state(CoreGame core, CoreState state):
    cdp_init(<const CdpParamsC*> core.c.params, <CdpStateC*> state.ptr())


def _reference_from_struct(game, bytes raw):
    """A reference state (its methods give the derived fields) holding the struct's position."""
    from .reference import CouleursState
    from .rules import rules_of
    cdef const CdpStateC* st = <const CdpStateC*> (<const char*> raw)
    r = rules_of(game)
    n = r.n
    nc = len(r.data.paintings)
    ref = CouleursState.__new__(CouleursState)
    ref.game = game
    ref._history = []
    ref._decisions = 0
    ref.r = r
    ref.phase = st.phase
    ref.round = st.round
    ref.rot = st.rot
    ref.first = st.first
    ref.cur = st.cur
    ref.final = st.final
    ref.supply = [st.supply[c] for c in range(CDP_N_COLOURS)]
    ref.pig = [[st.pig[p][c] for c in range(CDP_N_COLOURS)] for p in range(n)]
    ref.tool = [[st.tool[p][t] for t in range(CDP_N_TOOLS)] for p in range(n)]
    ref.bonus = [[st.bonus[p][t] for t in range(CDP_N_TOOLS)] for p in range(n)]
    ref.hired = [st.hired[p] for p in range(n)]
    ref.to_place = [st.to_place[p] for p in range(n)]
    ref.stand = [[st.stand[p][l] for l in range(CDP_N_LOC)] for p in range(n)]
    ref.lie = [[st.lie[p][l] for l in range(CDP_N_LOC)] for p in range(n)]
    ref.easel = [st.easel[e] for e in range(CDP_N_EASELS)]
    ref.deck = [st.deck[c] for c in range(nc)]
    ref.owner = [st.owner[c] for c in range(nc)]
    ref.fill = [st.fill[c] for c in range(nc)]
    ref.whites = [st.whites[c] for c in range(nc)]
    ref.done = [st.done[c] for c in range(nc)]
    ref.fp_claim = st.fp_claim
    ref.rot_claim = st.rot_claim
    ref.tool_sel = st.tool_sel
    ref.pay_left = st.pay_left
    ref.pay_min = st.pay_min
    ref.paint_left = st.paint_left
    ref.painted = st.painted
    ref.seat_k = st.seat_k
    ref.keep = [st.keep[p] for p in range(n)]
    return ref


def state_to_json(game, bytes raw):
    """Exactly the reference's to_json for the same position (view.state_view)."""
    from .view import state_view
    return state_view(_reference_from_struct(game, raw))


def _struct_from_reference(ref):
    cdef CdpStateC st
    cdef int p, c, t, l, e
    n = ref.r.n
    memset(&st, 0, sizeof(CdpStateC))
    st.phase = ref.phase
    st.round = ref.round
    st.rot = ref.rot
    st.first = ref.first
    st.cur = ref.cur
    st.final = ref.final
    st.seat_k = ref.seat_k
    for c in range(CDP_N_COLOURS):
        st.supply[c] = ref.supply[c]
    for e in range(CDP_N_EASELS):
        st.easel[e] = ref.easel[e]
    for c in range(CDP_MAX_CARDS):
        st.owner[c] = -1
    for c in range(len(ref.deck)):
        st.deck[c] = ref.deck[c]
        st.deck_left += ref.deck[c]
        st.owner[c] = ref.owner[c]
        st.fill[c] = ref.fill[c]
        st.whites[c] = ref.whites[c]
        st.done[c] = ref.done[c]
    for p in range(CDP_MAX_PLAYERS):
        st.keep[p] = -1
    for p in range(n):
        for c in range(CDP_N_COLOURS):
            st.pig[p][c] = ref.pig[p][c]
        for t in range(CDP_N_TOOLS):
            st.tool[p][t] = ref.tool[p][t]
            st.bonus[p][t] = ref.bonus[p][t]
        st.hired[p] = ref.hired[p]
        st.to_place[p] = ref.to_place[p]
        for l in range(CDP_N_LOC):
            st.stand[p][l] = ref.stand[p][l]
            st.lie[p][l] = ref.lie[p][l]
        st.keep[p] = ref.keep[p]
    st.fp_claim = ref.fp_claim
    st.rot_claim = ref.rot_claim
    st.tool_sel = ref.tool_sel
    st.pay_left = ref.pay_left
    st.pay_min = ref.pay_min
    st.paint_left = ref.paint_left
    st.painted = ref.painted
    return (<char*> &st)[:sizeof(CdpStateC)]


def state_from_json(game, view):
    """A core state from its JSON view: checked by the reference's loader (so
    errors are the reference's StateFormatError), then copied into the struct."""
    from .reference import CouleursState
    ref = CouleursState.from_json(game, view)
    return game.core.new_state(_struct_from_reference(ref))


def state_size():
    return sizeof(CdpStateC)
