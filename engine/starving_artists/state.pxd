# Starving Artists, the Cython core's shared layout: constants, the state
# struct, the parameter block and the one-line accessors every part of the core
# inlines (the rules in play.pyx, the rollout policy and evaluation in
# policy.pyx, the Python face in core.pyx).
#
# The constants repeat rules.py's, which are the source (Cython needs them at
# compile time; tests/starving_artists/test_sa_fields.py checks every one). The
# state struct holds the fields of the field table (fields.py: the reference's
# attribute, the view's name, the axes, the range of each), which converts the
# struct to the JSON view and from a reference state; the struct's layout
# reaches it through core.state_dtype(), and the core refuses to load while the
# two disagree. C keeps three fields in its own form: the cube on each square
# as three bit masks per canvas (filled, wild, second colour of a split
# square), and the variable lists (the known canvases under the pile, the
# canvases being sold, their order and takings) as fixed arrays with a length.
# The last block holds derived counts (the table's CACHE rows) kept in step
# with the arrays they summarise.
#
# Invariants (tests/starving_artists/test_sa_fields.py: the core's bytes equal the
# field table's packing of the reference state, step by step): bag_total ==
# sum(bag), pile_total == sum(pile), n_unseen == canvases with loc ==
# LOC_UNSEEN; unused entries (players past n, canvases past the deck, list
# entries past their length) stay at their empty values, so two equal
# positions are equal bytes.
from libc.stdint cimport int8_t, int16_t, uint8_t, uint16_t
from libc.string cimport memchr

from easel.engine.contract cimport GameC

cdef enum:
    SA_N_CUBES = 8              # red orange yellow green blue violet black, wild
    SA_WILD = 7
    SA_MARKET = 3
    SA_MAX_SQUARES = 16
    SA_MAX_CARDS = 160
    SA_MAX_PLAYERS = 4
    SA_FULL = 5

    # phases (ENCODING.md "Phases"; rules.PHASES order)
    PH_SETUP = 0
    PH_DRAW = 1
    PH_CANVAS = 2
    PH_DAWN = 3
    PH_SUPPER = 4
    PH_TURN = 5
    PH_PAINT = 6
    PH_PAY = 7
    PH_TAKE = 8
    PH_ANNOUNCE = 9
    PH_FEED = 10
    PH_COLLECT = 11
    PH_ADVANCE = 12
    PH_DUSK = 13
    PH_END = 14

    # decision action ids (ENCODING.md "Decision actions")
    A_WORK = 0
    A_PAINT = 1
    A_BUY = 2
    A_RESET = 5
    A_TRADE = 6
    A_DONE = 9
    A_PAY = 10
    A_TAKE = 18
    A_RETURN = 26
    A_STUDY = 33
    A_SELL = 97
    A_SUPPER = 257
    A_PAINT_AT = 417
    SA_NUM_ACTIONS = 20897

    # where a canvas is
    LOC_UNSEEN = 0
    LOC_QUEUE = 1
    LOC_MARKET = 2
    LOC_REMOVED = 3
    LOC_STUDIO0 = 4
    LOC_SOLD0 = 8

    PAY_BUY = 0
    PAY_TRADE = 1
    PAY_RESET = 2
    TO_PILE = -1


cdef struct SAStateC:
    int16_t day
    int8_t phase
    int8_t round
    int8_t first                            # the carrot
    int8_t turn_k
    int8_t actor
    int8_t main_done
    int8_t actions_left
    int8_t dawn_k
    int8_t dusk_k
    int8_t starved_today
    int8_t result
    int8_t bag[8]
    int8_t pile[8]
    int8_t held[8]
    int8_t alive[4]
    int8_t nutrition[4]
    int8_t studio[4][8]
    int16_t stars[4]
    int16_t paintings[4]
    int16_t food[4]
    int8_t free_used[4]
    uint8_t loc[160]
    uint16_t filled[160]                    # squares holding a cube
    uint16_t wildm[160]                     # ... a wild
    uint16_t altm[160]                      # ... the second colour of a split square
    int16_t market[3]
    uint8_t queue[160]                      # known canvases under the pile, top first
    int16_t q_len
    int8_t setup_k
    int16_t draws_left
    int8_t draw_to
    int8_t resume
    int8_t paints_left
    int8_t pay_left
    int8_t pay_for
    int8_t pay_arg
    int8_t take_left
    uint8_t selling[160]
    uint8_t order[160]
    uint8_t got[160]
    int16_t n_selling
    int16_t n_order
    int16_t coll_i
    int16_t turn_taken
    int8_t turn_wild
    int8_t feed_k
    int8_t fed
    int16_t adv_card
    int8_t adv_k
    int16_t bag_total                       # derived: sum(bag)
    int16_t pile_total                      # derived: sum(pile)
    int16_t n_unseen                        # derived: canvases with loc == LOC_UNSEEN


cdef struct SAParamsC:
    int n                                   # players (1: solo)
    int solo
    int start                               # the first player's seat
    int n_cards
    int fame_stars
    int fame_paintings
    int colour_study
    int last_supper
    int set_aside                           # solo: canvases set aside unseen
    int start_cubes
    int n_trades
    int trade_pay[3]
    int trade_take[3]
    int8_t card_nsq[160]                    # squares per canvas
    int8_t card_c0[160][16]                 # a square's (first) colour
    int8_t card_c1[160][16]                 # its second colour, -1 for a single square
    uint16_t card_kind[160][16]             # bit of the first square with the same colours
    int16_t card_stars[160]
    int16_t card_food[160]
    int16_t card_paint[160]
    SAStateC initial                        # the initial position (the reference's, fields.py)

cdef inline const SAParamsC* sa_params(const GameC* g) noexcept nogil:
    return <const SAParamsC*> g.params


cdef inline int sa_cube_on(const SAParamsC* P, const SAStateC* st, int i, int k) noexcept nogil:
    """The cube on square k of canvas i (a colour, SA_WILD), -1 empty."""
    if not (st.filled[i] >> k) & 1:
        return -1
    if (st.wildm[i] >> k) & 1:
        return SA_WILD
    if (st.altm[i] >> k) & 1:
        return P.card_c1[i][k]
    return P.card_c0[i][k]


cdef inline int sa_next_at(const SAParamsC* P, const SAStateC* st, int where, int i) noexcept nogil:
    """The first canvas from index i on whose loc is `where`, -1 if none.
    A player's studio holds a few of the deck's canvases, and the rollout
    policy and the move list look for them at every step of a playout:
    memchr finds them without a compare per canvas."""
    cdef const void* q
    if i >= P.n_cards:
        return -1
    q = memchr(&st.loc[i], where, P.n_cards - i)
    return -1 if q == NULL else <int> (<const uint8_t*> q - &st.loc[0])
