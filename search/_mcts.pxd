# Monte Carlo tree search over the C-level game contract: declarations.
from libc.stdint cimport int32_t, int8_t, uint64_t

from easel.engine.contract cimport GameC, MAX_PLAYERS
from easel.engine.rng cimport RngC

cdef enum:
    FORM_IS = 0          # information-set (open loop over chance): one tree over
                         # decisions; each iteration samples fresh chance outcomes
    FORM_CLOSED = 1      # closed loop: chance nodes in the tree, one child per outcome
    FORM_PIMC = 2        # a fixed determinization (a world seed) searched closed-loop

    KIND_DECISION = 0    # the node was reached by a player's action
    KIND_CHANCE = 1      # the node was reached by a chance outcome

    FLAG_AFTER_CHANCE = 1  # (IS form) chance happened between parent and node


# One tree node: 32 bytes. Children form a singly linked list (first_child,
# next_sibling) so that a node can gain children later, when an action that
# was illegal in earlier determinizations becomes legal (IS form).
cdef struct NodeC:
    int32_t first_child     # index of the first child, -1 if none
    int32_t next_sibling    # index of the next sibling, -1 if last
    int32_t action          # action (or chance outcome) leading here
    int32_t n_visits        # iterations through this node
    int32_t n_avail         # times the parent was visited while this action was legal
    int32_t ext             # index into the turn-statistics pool, -1 if none
    float total             # sum of the mover's utility over the visits
    int8_t mover            # player who chose `action` (PLAYER_CHANCE for outcomes)
    int8_t kind             # KIND_DECISION or KIND_CHANCE
    int8_t flags            # FLAG_AFTER_CHANCE
    int8_t pad


# Full statistics for nodes within the root player's current turn (the
# candidates a hint is made of): per-player utilities, win shares and scores.
cdef struct TurnStatsC:
    double n                       # visits counted here (since the record was made)
    double sum_u[MAX_PLAYERS]      # sum of utilities
    double sum_u2                  # sum of the root player's squared utility
    double sum_win[MAX_PLAYERS]    # sum of win shares (1/k for a k-way tie for first)
    double sum_score[MAX_PLAYERS]  # sum of final scores (when the game has scores)
