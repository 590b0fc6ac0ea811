# Van Gogh, the Cython core's shared layout: constants, the state struct, the
# parameter block, and the few one-line accessors every part of the core
# inlines (the rules in play.pyx, the rollout policy and evaluation in
# policy.pyx, the Python face in core.pyx).
#
# The constants repeat rules.py's, which are the source (Cython needs them at
# compile time; tests/vangogh/test_fields.py checks every one). The state
# struct holds the fields of the field table (fields.py: the reference's
# attribute, the view's name, the axes, the range of each), which converts
# the struct to the JSON view and from a reference state; the struct's layout
# reaches it through core.state_dtype(), and the core refuses to load while
# the two disagree. The last block holds derived counts (the table's CACHE
# rows) kept in step with the arrays they summarise so the hot paths never
# sum them.
#
# Invariants (tests/vangogh/test_fields.py: the core's bytes equal the field
# table's packing of the reference state, step by step):
#   * n_active[p] == sum(active[p]), bag_total == sum(bag),
#     table_total == sum(table), deck_left == sum(deck);
#   * arrays are sized for 5 players whatever the game's n; unused entries
#     stay 0 (counts) or -1 (codes), so two equal positions are equal bytes.
from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t

from easel.engine.contract cimport GameC

cdef enum:
    VG_N_COLOURS = 5            # yellow, blue, pink, green, purple
    VG_WHITE = 5                # colour index of a white Minigogh
    VG_N_CODES = 24             # code = colour*4 + orientation
    VG_N_CHARS = 6
    VG_N_PAINTINGS = 3
    VG_MAX_SPACES = 7
    VG_MAX_CARDS = 32
    VG_TABLE_SIZE = 5
    VG_ACTIVE_CAP = 7
    VG_INACTIVE = 3
    VG_MAX_PLAYERS = 5

    # colours
    VG_YELLOW_C = 0
    VG_BLUE_C = 1
    VG_PINK_C = 2
    VG_GREEN_C = 3
    VG_PURPLE_C = 4

    # characters
    VG_VAN_GOGH = 0
    VG_GACHET = 1
    VG_GINOUX = 2
    VG_ANNA = 3
    VG_POSTMAN = 4
    VG_EUGENE = 5

    # phases (ENCODING.md, "Phases")
    PH_SETUP_CARDS = 0
    PH_SETUP_TABLE = 1
    PH_SETUP_PALETTE = 2
    PH_CHOOSE = 3
    PH_WAIT_KEEP = 4
    PH_STEP = 5
    PH_GINOUX_DRAW = 6
    PH_GINOUX_KEEP = 7
    PH_ROLL = 8
    PH_SEC_DRAW = 9
    PH_EUGENE_TAKE = 10
    PH_REFILL = 11
    PH_CARD = 12
    PH_BLUE_DRAW = 13
    PH_BLUE_ORIENT = 14
    PH_BLUE_DISCARD = 15
    PH_BRUSH = 16
    PH_EOR = 17
    PH_END = 18

    # decision action ids (ENCODING.md, "Decision actions")
    A_DONE = 6
    A_PAINT = 7                 # + (src*3 + slot)*7 + space, src 0..24
    A_REORIENT = 532            # + code*4 + new orientation
    A_RESTART = 628             # + code
    A_EPIPHANY = 652
    A_TAKE = 653                # + code
    A_KEEP = 677                # + colour
    A_YELLOW = 682              # + target*4 + new orientation
    A_PINK = 710                # + target
    A_BLUE = 737
    A_BLUE_ORIENT = 738         # + orientation
    A_BLUE_DISCARD = 742        # + code
    A_BRUSH = 766
    VG_NUM_ACTIONS = 767


cdef struct VanGoghStateC:
    int32_t score[5]                        # EP per player
    int16_t round                           # 1-based round number
    int8_t phase                            # PH_* (ENCODING.md "Phases")
    int8_t turn                             # turn within the round, 0-based
    int8_t first_starter                    # starting player chosen at setup
    int8_t round_starter                    # who started this round
    int8_t turn_player                      # who chose (or chooses) this turn's character
    int8_t token_holder                     # Starting Player token holder, -1 nobody
    int8_t ability_player                   # who took Anna this round, -1 nobody
    int8_t ability_spent                    # 0/1: that ability was used this round
    int8_t brush_used                       # solo: 0/1 brush paint used this round
    int8_t finished                         # paintings finished so far
    int8_t bag[5]                           # coloured Minigoghs in the bag per colour
    int8_t whites                           # white Minigoghs in the supply
    int8_t table[24]                        # table's Minigoghs, counts per code
    int8_t char_taken[6]                    # 0/1: character chosen this round
    int8_t char_wait[6][2]                  # codes waiting on each character, -1 empty (slot 0 first)
    int8_t painting[3]                      # card index per painting slot, -1 empty
    int8_t occ[3][7]                        # code on each painting space, -1 empty
    int8_t deck[32]                         # 0/1 per card: still in the draw pile
    int8_t active[5][24]                    # active area per player, counts per code
    int8_t inactive[5][3]                   # inactive spaces per player (codes, -1 empty)
    int8_t setup_k                          # setup draws done in the current setup phase
    int8_t act_player                       # who performs the current action, -1 none
    int8_t act_char                         # its character, -1 none
    int8_t act_primary                      # 1 primary, 0 secondary
    int8_t sec_k                            # secondary k: player (turn_player + k) % n
    int8_t steps_left                       # steps / takes / keeps left
    int8_t postman_used                     # bits: 1 paint, 2 restart, 4 epiphany
    int8_t hand[5]                          # Madame Ginoux: drawn colours not yet kept
    int8_t draws_left                       # Madame Ginoux: draws still to make
    int8_t roll_q[5]                        # kept colours waiting to be rolled
    int8_t blue_colour                      # blue ability: drawn colour, -1 none
    int8_t resume                           # phase to return to after blue/brush, -1 none
    int8_t card_slot                        # slot waiting for a new painting, -1 none
    int8_t card_resume                      # phase to return to after CARD, -1 none
    int8_t eor_char                         # end of round: next character to check
    int8_t n_active[5]                      # derived: sum(active[p])
    int8_t bag_total                        # derived: sum(bag)
    int8_t table_total                      # derived: sum(table)
    int8_t deck_left                        # derived: sum(deck)


cdef struct VanGoghParamsC:
    int n                                   # players (1: solo)
    int solo                                # 1 in the solo game
    int colours[5]                          # colour of each player
    int owner[5]                            # player of each colour, -1 uncontrolled
    int start                               # first starting player (option start)
    double roll[4]                          # normalised roll weights per orientation
    int purple_active                       # purple's inactive Minigoghs score as active
    int max_rounds                          # multi-player round cap (option maxrounds)
    int solo_rounds                         # rounds of the solo game
    int turns_per_round                     # 4 with 2 players, 3 solo, else n
    int n_cards                             # cards in the deck file
    int8_t card_size[32]                    # spaces per card
    int8_t card_orient[32][7]               # required orientation per space
    int8_t card_bonus[32][7]                # +1 EP per space (0/1)
    int16_t card_frame[32][3]               # majority scores for places 1, 2, 3
    uint8_t card_omask[32][4]               # derived: bit k set if space k requires orientation o
    uint8_t card_full[32]                   # derived: bits of all the card's spaces
    VanGoghStateC initial                   # the initial position (the reference's, fields.py)



# ------------------------------------------------------------------ accessors
# Defined here, not in a .pyx, so that each module inlines them (a function
# shared through a .pxd otherwise becomes a call through a pointer).
cdef inline const VanGoghParamsC* vg_params(const GameC* g) noexcept nogil:
    return <const VanGoghParamsC*> g.params


cdef inline int free_spaces(const VanGoghStateC* st, int p) noexcept nogil:
    return VG_ACTIVE_CAP - st.n_active[p]


cdef inline void add_active(VanGoghStateC* st, int p, int code, int k) noexcept nogil:
    st.active[p][code] += k
    st.n_active[p] += k


cdef inline void add_bag(VanGoghStateC* st, int colour, int k) noexcept nogil:
    st.bag[colour] += k
    st.bag_total += k


cdef inline void to_bag(VanGoghStateC* st, int code) noexcept nogil:
    """A Minigogh leaves play: coloured to the bag, white to the supply (RULINGS.md R9)."""
    if code >> 2 == VG_WHITE:
        st.whites += 1
    else:
        add_bag(st, code >> 2, 1)


cdef inline bint ability_open(const VanGoghStateC* st, int p) noexcept nogil:
    return st.ability_player == p and st.ability_spent == 0


cdef inline int leftmost_inactive(const VanGoghStateC* st, int p) noexcept nogil:
    cdef int i
    for i in range(VG_INACTIVE):
        if st.inactive[p][i] >= 0:
            return i
    return -1


cdef inline int inactive_ep(int i) noexcept nogil:
    """End-of-game EP of the empty inactive space i (RULINGS.md R4): 1, 3, 5."""
    return 2 * i + 1


cdef inline int pink_next(int o) noexcept nogil:
    """The pink ability's cycle (RULINGS.md R6): lying down -> upright ->
    sideway -> upside down -> lying down."""
    if o == 0:
        return 2
    if o == 2:
        return 1
    if o == 1:
        return 3
    return 0


cdef inline int paint_value(const VanGoghParamsC* P, int p, int code, int bonus,
                            int green) noexcept nogil:
    """Score for Paint (rulebook 'Score for Paint'; solo RULINGS.md R13)."""
    cdef int colour = code >> 2, v
    if colour == VG_WHITE:
        v = 5
    elif P.solo:
        v = 2 if colour == P.colours[0] else 4
    elif colour == P.colours[p]:
        v = 3
    elif P.owner[colour] >= 0:
        v = 4
    else:
        v = 2
    return v + bonus - green
