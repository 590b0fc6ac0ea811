"""Van Gogh, the core's Python face: `make_core` fills a CoreGame with the
parameter block and the rule table (play.pyx) and game knowledge
(policy.pyx); the rest converts between the state struct and the JSON view
the reference shares (view.py).
"""
from libc.string cimport memset

from easel.engine._core cimport CoreGame, CoreState
from easel.engine.vangogh.state cimport *
from easel.engine.vangogh.play cimport (vg_apply, vg_chance_outcomes, vg_current_player,
                                        vg_init, vg_legal_actions, vg_returns,
                                        vg_sample_chance, vg_scores)
from easel.engine.vangogh.policy cimport vg_evaluate, vg_rollout_action

from easel.engine.vangogh.policy import EVAL_SCALE, ROLLOUT_EPSILON  # noqa: F401 (tests read them here)


def make_core(params, facts):
    from .rules import NUM_ACTIONS, make_rules
    cdef CoreGame core = CoreGame.from_facts(facts)
    cdef VanGoghParamsC P
    cdef int i, k, o
    r = make_rules(params)
    assert NUM_ACTIONS == VG_NUM_ACTIONS
    memset(&P, 0, sizeof(VanGoghParamsC))
    P.n = r.n
    P.solo = 1 if r.solo else 0
    for i in range(VG_N_COLOURS):
        P.owner[i] = r.owner[i]
        P.colours[i] = -1
    for i in range(r.n):
        P.colours[i] = r.colours[i]
    P.start = r.start
    for i in range(4):
        P.roll[i] = r.roll[i]
    P.purple_active = 1 if r.purple_active else 0
    P.max_rounds = r.max_rounds
    P.solo_rounds = r.solo_rounds
    P.turns_per_round = r.turns_per_round
    cards = r.deck.cards
    if len(cards) > VG_MAX_CARDS:
        raise ValueError(f"vangogh core: at most {VG_MAX_CARDS} cards")
    P.n_cards = len(cards)
    for i, card in enumerate(cards):
        P.card_size[i] = len(card.orient)
        for k in range(len(card.orient)):
            o = card.orient[k]
            P.card_orient[i][k] = o
            P.card_bonus[i][k] = card.bonus[k]
            P.card_omask[i][o] |= 1 << k
            P.card_full[i] |= 1 << k
        for k in range(3):
            P.card_frame[i][k] = card.frame[k]
    core.set_params((<char*> &P)[:sizeof(VanGoghParamsC)])
    core.c.state_size = sizeof(VanGoghStateC)
    core.c.current_player = vg_current_player
    core.c.legal_actions = vg_legal_actions
    core.c.chance_outcomes = vg_chance_outcomes
    core.c.apply_action = vg_apply
    core.c.returns = vg_returns
    core.c.evaluate = vg_evaluate
    core.c.sample_chance = vg_sample_chance
    core.c.scores = vg_scores
    core.c.rollout_action = vg_rollout_action
    return core


def init_state(CoreGame core, CoreState state):
    vg_init(<const VanGoghParamsC*> core.c.params, <VanGoghStateC*> state.ptr())


class _StructView:
    """The struct's fields under the reference's names, for view.state_view."""

    def __init__(self, game, bytes raw):
        from .rules import rules_of
        cdef const VanGoghStateC* st = <const VanGoghStateC*> (<const char*> raw)
        cdef CoreGame core = game.core
        r = rules_of(game)
        n = r.n
        self.r = r
        self._player = vg_current_player(&core.c, st)
        self.phase = st.phase
        self.round = st.round
        self.turn = st.turn
        self.first_starter = st.first_starter
        self.round_starter = st.round_starter
        self.turn_player = st.turn_player
        self.token_holder = st.token_holder
        self.ability_player = st.ability_player
        self.ability_spent = st.ability_spent
        self.brush_used = st.brush_used
        self.finished = st.finished
        self.score = [st.score[p] for p in range(n)]
        self.bag = [st.bag[c] for c in range(VG_N_COLOURS)]
        self.whites = st.whites
        self.table = [st.table[c] for c in range(VG_N_CODES)]
        self.char_taken = [st.char_taken[c] for c in range(VG_N_CHARS)]
        self.char_wait = [[st.char_wait[c][0], st.char_wait[c][1]] for c in range(VG_N_CHARS)]
        self.painting = [st.painting[i] for i in range(VG_N_PAINTINGS)]
        self.occ = [[st.occ[i][k] for k in range(VG_MAX_SPACES)] for i in range(VG_N_PAINTINGS)]
        self.deck = [st.deck[i] for i in range(len(r.deck.cards))]
        self.active = [[st.active[p][c] for c in range(VG_N_CODES)] for p in range(n)]
        self.inactive = [[st.inactive[p][i] for i in range(VG_INACTIVE)] for p in range(n)]
        self.setup_k = st.setup_k
        self.act_player = st.act_player
        self.act_char = st.act_char
        self.act_primary = st.act_primary
        self.sec_k = st.sec_k
        self.steps_left = st.steps_left
        self.postman_used = st.postman_used
        self.hand = [st.hand[c] for c in range(VG_N_COLOURS)]
        self.draws_left = st.draws_left
        self.roll_q = [st.roll_q[c] for c in range(VG_N_COLOURS)]
        self.blue_colour = st.blue_colour
        self.resume = st.resume
        self.card_slot = st.card_slot
        self.card_resume = st.card_resume
        self.eor_char = st.eor_char

    def _current_player(self):
        return self._player


def state_to_json(game, bytes raw):
    """Exactly the reference's to_json for the same position (view.state_view)."""
    from .view import state_view
    return state_view(_StructView(game, raw))


def _struct_from_reference(game, ref):
    """The bytes of the struct holding the reference state `ref`'s position."""
    cdef CoreGame core = game.core
    cdef VanGoghStateC st
    cdef int p, c, i, k
    n = ref.r.n
    memset(&st, 0, sizeof(VanGoghStateC))
    st.phase = ref.phase
    st.round = ref.round
    st.turn = ref.turn
    st.first_starter = ref.first_starter
    st.round_starter = ref.round_starter
    st.turn_player = ref.turn_player
    st.token_holder = ref.token_holder
    st.ability_player = ref.ability_player
    st.ability_spent = ref.ability_spent
    st.brush_used = ref.brush_used
    st.finished = ref.finished
    for p in range(n):
        st.score[p] = ref.score[p]
    for c in range(VG_N_COLOURS):
        st.bag[c] = ref.bag[c]
        st.bag_total += ref.bag[c]
        st.hand[c] = ref.hand[c]
        st.roll_q[c] = ref.roll_q[c]
    st.whites = ref.whites
    for c in range(VG_N_CODES):
        st.table[c] = ref.table[c]
        st.table_total += ref.table[c]
    for c in range(VG_N_CHARS):
        st.char_taken[c] = ref.char_taken[c]
        st.char_wait[c][0] = ref.char_wait[c][0]
        st.char_wait[c][1] = ref.char_wait[c][1]
    for i in range(VG_N_PAINTINGS):
        st.painting[i] = ref.painting[i]
        for k in range(VG_MAX_SPACES):
            st.occ[i][k] = ref.occ[i][k]
    for i in range(len(ref.deck)):
        st.deck[i] = ref.deck[i]
        st.deck_left += ref.deck[i]
    for p in range(VG_MAX_PLAYERS):
        for i in range(VG_INACTIVE):
            st.inactive[p][i] = ref.inactive[p][i] if p < n else -1
        if p < n:
            for c in range(VG_N_CODES):
                st.active[p][c] = ref.active[p][c]
                st.n_active[p] += ref.active[p][c]
    st.setup_k = ref.setup_k
    st.act_player = ref.act_player
    st.act_char = ref.act_char
    st.act_primary = ref.act_primary
    st.sec_k = ref.sec_k
    st.steps_left = ref.steps_left
    st.postman_used = ref.postman_used
    st.draws_left = ref.draws_left
    st.blue_colour = ref.blue_colour
    st.resume = ref.resume
    st.card_slot = ref.card_slot
    st.card_resume = ref.card_resume
    st.eor_char = ref.eor_char
    return (<char*> &st)[:sizeof(VanGoghStateC)]


def state_from_json(game, view):
    """A core state from its JSON view: checked by the reference's loader (so
    errors are the reference's StateFormatError), then copied into the struct."""
    from .reference import VanGoghState
    ref = VanGoghState.from_json(game, view)
    return game.core.new_state(_struct_from_reference(game, ref))


def state_size():
    return sizeof(VanGoghStateC)


def scores(CoreState state):
    """Each player's EP as the core's scores() reports it (final at the end)."""
    cdef CoreGame core = state.core
    cdef double out[VG_MAX_PLAYERS]
    core.c.scores(&core.c, state.ptr(), out)
    return [out[i] for i in range(core.c.facts.num_players)]

