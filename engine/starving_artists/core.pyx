"""Starving Artists, the core's Python face: `make_core` fills a CoreGame with
the parameter block (the options, the deck and the initial position) and the
rule table (play.pyx) and game knowledge (policy.pyx). The state struct
converts to the JSON view and from a reference state through the field table
(fields.py), which reads the struct's layout from `state_dtype()`.
"""
from libc.string cimport memcpy, memset

from easel.engine._core cimport CoreGame, CoreState
from easel.engine.starving_artists.state cimport *
from easel.engine.starving_artists.play cimport (sa_apply, sa_chance_outcomes, sa_current_player,
                                                 sa_legal_actions, sa_returns, sa_sample_chance, sa_chance_source,
                                                 sa_scores)
from easel.engine.starving_artists.policy cimport sa_evaluate, sa_rollout_action

from easel.engine.structcore import StructFace


def make_core(params, facts):
    from .rules import NUM_ACTIONS, make_rules
    cdef CoreGame core = CoreGame.from_facts(facts)
    cdef SAParamsC P
    cdef int i, k, j
    r = make_rules(params)
    assert NUM_ACTIONS == SA_NUM_ACTIONS
    memset(&P, 0, sizeof(SAParamsC))
    P.n = r.n
    P.solo = 1 if r.solo else 0
    P.start = r.start
    P.n_cards = r.n_cards
    P.fame_stars = r.fame_stars
    P.fame_paintings = r.fame_paintings
    P.colour_study = 1 if r.colour_study else 0
    P.last_supper = 1 if r.last_supper else 0
    P.set_aside = r.set_aside
    P.start_cubes = r.start_cubes
    P.n_trades = len(r.trades)
    for k, (pay, take) in enumerate(r.trades):
        P.trade_pay[k] = pay
        P.trade_take[k] = take
    for i, card in enumerate(r.deck.cards):
        P.card_nsq[i] = len(card.squares)
        P.card_stars[i] = card.stars
        P.card_food[i] = card.food
        P.card_paint[i] = card.paint
        for k, cols in enumerate(card.squares):
            P.card_c0[i][k] = cols[0]
            P.card_c1[i][k] = cols[1] if len(cols) > 1 else -1
            j = next(j for j in range(k + 1) if card.squares[j] == cols)
            P.card_kind[i][k] = 1 << j
    # The initial position (before setup's chance nodes) is the reference's,
    # packed once per game: init_state copies it.
    initial = FACE.initial_struct(params, r)
    memcpy(&P.initial, <const char*> initial, sizeof(SAStateC))
    core.set_params((<char*> &P)[:sizeof(SAParamsC)])
    core.c.state_size = sizeof(SAStateC)
    core.c.current_player = sa_current_player
    core.c.legal_actions = sa_legal_actions
    core.c.chance_outcomes = sa_chance_outcomes
    core.c.apply_action = sa_apply
    core.c.returns = sa_returns
    core.c.sample_chance = sa_sample_chance
    core.c.chance_source = sa_chance_source
    core.c.scores = sa_scores
    core.c.rollout_action = sa_rollout_action
    if not r.solo:
        core.c.evaluate = sa_evaluate
    return core


def init_state(CoreGame core, CoreState state):
    memcpy(state.ptr(), &sa_params(&core.c).initial, sizeof(SAStateC))


# The state struct as the compiler laid it out, read through Cython's buffer
# format (names, integer types, shapes, offsets): the field table converts
# through it (engine/fieldtable.py StructCodec). A const view: a writable one
# would make Cython write a dict-to-struct conversion it never uses.
cdef SAStateC _layout


def state_dtype():
    """numpy's structured dtype of SAStateC."""
    import numpy
    cdef const SAStateC[::1] one = <const SAStateC[:1]> &_layout
    return numpy.asarray(one).dtype


def state_size():
    return sizeof(SAStateC)


# The rest of the face (the codec, the JSON view both ways) is the one every
# field-table struct core shares (engine/structcore.py).
FACE = StructFace("easel.engine.starving_artists", "StarvingArtistsState", state_dtype)
struct_codec = FACE.struct_codec
state_to_json = FACE.state_to_json
state_from_json = FACE.state_from_json
