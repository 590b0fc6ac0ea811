# Couleurs de Paris, the Cython core's shared layout: constants, the state
# struct, the parameter block, and the few one-line accessors every part of
# the core inlines (the rules in play.pyx, the rollout policy in policy.pyx,
# the Python face in core.pyx).
#
# The constants repeat rules.py's, which are the source (Cython needs them at
# compile time; tests/couleurs_de_paris/test_cdp_fields.py checks every one).
# The state struct holds the fields of the field table (fields.py: the
# reference's attribute, the view's name, the axes, the range of each), which
# converts the struct to the JSON view and from a reference state; the
# struct's layout reaches it through core.state_dtype(), and the core refuses
# to load while the two disagree. Arrays are sized for 4 players and 32
# paintings whatever the game's n and deck; unused entries stay 0 (counts) or
# -1 (ids), so two equal positions are equal bytes (the test checks the core's
# bytes against the table's packing of the reference, step by step).
from libc.stdint cimport int8_t, int16_t, uint16_t

from easel.engine.contract cimport GameC

cdef enum:
    CDP_MAX_PLAYERS = 4
    CDP_MAX_CARDS = 32
    CDP_SPACES = 9
    CDP_FULL = 511              # all 9 spaces filled
    CDP_POSITIONS = 10
    CDP_N_COLOURS = 8
    CDP_N_PAYABLE = 7
    CDP_N_WHEEL = 10
    CDP_N_LOC = 14
    CDP_N_TOOLS = 3
    CDP_TRACK_LEN = 8
    CDP_BONUS_LEVEL = 6
    CDP_LIMIT = 12
    CDP_WHITE_PER_PAINTING = 3
    CDP_N_EASELS = 4

    # colours
    C_RED = 0
    C_ORANGE = 1
    C_YELLOW = 2
    C_GREEN = 3
    C_BLUE = 4
    C_VIOLET = 5
    C_WHITE = 6
    C_BLACK = 7

    # wheel actions and centre spaces
    K_BLACK = 6
    K_IMPROVE = 7
    K_TAKE = 8
    K_PAINT = 9
    L_FIRST = 10
    L_IMITATOR = 11
    L_ROTATE = 12
    L_WHITE = 13

    # tools
    T_TUBE = 0
    T_PALETTE = 1
    T_BRUSH = 2

    # decision action ids (ENCODING.md, mirrored in rules.py)
    A_PLACE = 0
    A_USE = 16
    A_LAYDOWN = 32
    A_TOOL = 48
    A_PAY = 52
    A_BONUS_ASSISTANT = 60
    A_BONUS_POINTS = 61
    A_TAKE = 64
    A_IMITATE = 68
    A_PAINT = 80
    A_PAINT_WHITE = 368
    A_STOP = 656
    A_ROTATE_0 = 657
    A_ROTATE_2 = 658
    A_DISCARD = 660
    A_STAND = 668
    A_NUM = 720

    # phases
    PH_DEAL = 0
    PH_PLACE = 1
    PH_ACT = 2
    PH_TOOL = 3
    PH_PAY = 4
    PH_BONUS = 5
    PH_TAKE = 6
    PH_IMITATE = 7
    PH_PAINT = 8
    PH_ROTATE = 9
    PH_REFILL = 10
    PH_DISCARD = 11
    PH_STAND = 12
    PH_END = 13


cdef struct CdpStateC:
    int8_t phase
    int8_t rot
    int8_t first
    int8_t cur
    int8_t final
    int8_t seat_k
    int16_t round
    int16_t supply[8]
    int8_t easel[4]
    int8_t deck[32]
    int8_t deck_left            # == sum(deck)
    int8_t owner[32]
    uint16_t fill[32]
    uint16_t whites[32]
    int8_t done[32]
    int16_t pig[4][8]
    int8_t tool[4][3]
    int8_t bonus[4][3]          # 0 none, 1 assistant, 2 points
    int8_t hired[4]
    int8_t to_place[4]
    int8_t stand[4][14]
    int8_t lie[4][14]
    int8_t keep[4]
    int8_t fp_claim
    int8_t rot_claim
    int8_t tool_sel
    int8_t pay_left
    int8_t pay_min
    int8_t paint_left
    int8_t painted


# Constants of one game instance (options and data file).
cdef struct CdpParamsC:
    int n
    int max_rounds
    int easels
    int ncards
    int8_t slot_of[10]          # wheel slot of each action kind
    int8_t capacity[10]         # usable spaces per lower-board position
    int8_t tracks[3][8]         # amount per tool and level (index level-1)
    int8_t card_space[32][9]    # colour each space needs
    int16_t card_value[32]
    CdpStateC initial           # the initial position (the reference's, fields.py)


# ------------------------------------------------------------------ accessors
# Defined here, not in a .pyx, so that each module inlines them (a function
# shared through a .pxd otherwise becomes a call through a pointer).
cdef inline const CdpParamsC* cdp_params(const GameC* g) noexcept nogil:
    return <const CdpParamsC*> g.params


cdef inline int pos_of(const CdpParamsC* P, const CdpStateC* st, int kind) noexcept nogil:
    return (P.slot_of[kind] + st.rot) % CDP_POSITIONS


cdef inline int loc_of(const CdpParamsC* P, const CdpStateC* st, int location) noexcept nogil:
    if location < CDP_N_WHEEL:
        return pos_of(P, st, location)
    return location


cdef inline int amount(const CdpParamsC* P, int tool, int level) noexcept nogil:
    return P.tracks[tool][level - 1]


cdef inline int nonblack(const CdpStateC* st, int p) noexcept nogil:
    cdef int c, k = 0
    for c in range(C_BLACK):
        k += st.pig[p][c]
    return k


cdef inline int standing(const CdpStateC* st, int p) noexcept nogil:
    cdef int l, k = 0
    for l in range(CDP_N_LOC):
        k += st.stand[p][l]
    return k


cdef inline int occupancy(const CdpParamsC* P, const CdpStateC* st, int loc) noexcept nogil:
    cdef int q, k = 0
    for q in range(P.n):
        k += st.stand[q][loc] + st.lie[q][loc]
    return k


cdef inline bint standing_at(const CdpParamsC* P, const CdpStateC* st, int loc) noexcept nogil:
    cdef int q
    for q in range(P.n):
        if st.stand[q][loc]:
            return True
    return False


cdef inline int mix_a(int s) noexcept nogil:
    return s - 1


cdef inline int mix_b(int s) noexcept nogil:
    return (s + 1) % 6
