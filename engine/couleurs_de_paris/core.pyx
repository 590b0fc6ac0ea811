"""Couleurs de Paris, the core's Python face: `make_core` fills a CoreGame
with the parameter block (the options, the board, the paintings and the
initial position) and the rule table (play.pyx) and the rollout policy
(policy.pyx). The state struct converts to the JSON view and from a
reference state through the field table (fields.py), which reads the
struct's layout from `state_dtype()`."""
from libc.string cimport memcpy, memset

from easel.engine._core cimport CoreGame, CoreState
from easel.engine.couleurs_de_paris.state cimport *
from easel.engine.couleurs_de_paris.play cimport (cdp_apply, cdp_chance_outcomes,
                                                  cdp_current_player, cdp_legal_actions,
                                                  cdp_returns, cdp_sample_chance, cdp_scores)
from easel.engine.couleurs_de_paris.policy cimport cdp_rollout_action

from easel.engine.couleurs_de_paris.policy import (  # noqa: F401 (tests read them here)
    ROLLOUT_EPSILON, rollout_scores)
from easel.engine.structcore import StructFace


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
    P.max_rounds = r.max_rounds
    P.easels = r.easels
    P.ncards = len(d.paintings)
    for i in range(CDP_N_WHEEL):
        P.slot_of[i] = r.slot_of[i]
        P.capacity[i] = r.capacity[i]
    for i in range(CDP_N_TOOLS):
        for k in range(CDP_TRACK_LEN):
            P.tracks[i][k] = r.tracks[i][k]
    for i, card in enumerate(d.paintings):
        P.card_value[i] = card.value
        for k in range(CDP_SPACES):
            P.card_space[i][k] = card.spaces[k]
    # The initial position (before the deal's chance nodes) is the
    # reference's, packed once per game: init_state copies it.
    initial = FACE.initial_struct(params, r)
    memcpy(&P.initial, <const char*> initial, sizeof(CdpStateC))
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
    memcpy(state.ptr(), &cdp_params(&core.c).initial, sizeof(CdpStateC))


# The state struct as the compiler laid it out, read through Cython's buffer
# format (names, integer types, shapes, offsets): the field table converts
# through it (engine/fieldtable.py StructCodec). A const view: a writable one
# would make Cython write a dict-to-struct conversion it never uses.
cdef CdpStateC _layout


def state_dtype():
    """numpy's structured dtype of CdpStateC."""
    import numpy
    cdef const CdpStateC[::1] one = <const CdpStateC[:1]> &_layout
    return numpy.asarray(one).dtype


def state_size():
    return sizeof(CdpStateC)


# The rest of the face (the codec, the JSON view both ways) is the one every
# field-table struct core shares (engine/structcore.py).
FACE = StructFace("easel.engine.couleurs_de_paris", "CouleursState", state_dtype,
                  view_of_reference=True)
struct_codec = FACE.struct_codec
state_to_json = FACE.state_to_json
state_from_json = FACE.state_from_json
