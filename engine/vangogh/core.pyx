"""Van Gogh, the core's Python face: `make_core` fills a CoreGame with the
parameter block (the options, the deck and the initial position) and the rule
table (play.pyx) and game knowledge (policy.pyx). The state struct converts
to the JSON view and from a reference state through the field table
(fields.py), which reads the struct's layout from `state_dtype()`.
"""
from libc.string cimport memcpy, memset

from easel.engine._core cimport CoreGame, CoreState
from easel.engine.vangogh.state cimport *
from easel.engine.vangogh.play cimport (vg_apply, vg_chance_outcomes, vg_current_player,
                                        vg_legal_actions, vg_returns, vg_sample_chance, vg_chance_source,
                                        vg_scores)
from easel.engine.vangogh.policy cimport vg_evaluate, vg_rollout_action

from easel.engine.structcore import StructFace
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
    # The initial position (before setup's chance nodes) is the reference's,
    # packed once per game: init_state copies it.
    initial = FACE.initial_struct(params, r)
    memcpy(&P.initial, <const char*> initial, sizeof(VanGoghStateC))
    core.set_params((<char*> &P)[:sizeof(VanGoghParamsC)])
    core.c.state_size = sizeof(VanGoghStateC)
    core.c.current_player = vg_current_player
    core.c.legal_actions = vg_legal_actions
    core.c.chance_outcomes = vg_chance_outcomes
    core.c.apply_action = vg_apply
    core.c.returns = vg_returns
    core.c.evaluate = vg_evaluate
    core.c.sample_chance = vg_sample_chance
    core.c.chance_source = vg_chance_source
    core.c.scores = vg_scores
    core.c.rollout_action = vg_rollout_action
    return core


def init_state(CoreGame core, CoreState state):
    memcpy(state.ptr(), &vg_params(&core.c).initial, sizeof(VanGoghStateC))


# The state struct as the compiler laid it out, read through Cython's buffer
# format (names, integer types, shapes, offsets): the field table converts
# through it (engine/fieldtable.py StructCodec). A const view: a writable one
# would make Cython write a dict-to-struct conversion it never uses.
cdef VanGoghStateC _layout


def state_dtype():
    """numpy's structured dtype of VanGoghStateC."""
    import numpy
    cdef const VanGoghStateC[::1] one = <const VanGoghStateC[:1]> &_layout
    return numpy.asarray(one).dtype


def state_size():
    return sizeof(VanGoghStateC)


# The rest of the face (the codec, the JSON view both ways) is the one every
# field-table struct core shares (engine/structcore.py).
FACE = StructFace("easel.engine.vangogh", "VanGoghState", state_dtype)
struct_codec = FACE.struct_codec
state_to_json = FACE.state_to_json
state_from_json = FACE.state_from_json

