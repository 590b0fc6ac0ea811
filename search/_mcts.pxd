# Monte Carlo tree search over the C-level game contract: declarations.
cimport cython
from libc.stdint cimport int32_t, int8_t, uint64_t

from easel.engine._core cimport CoreGame
from easel.engine.contract cimport GameC, MAX_PLAYERS
from easel.engine.rng cimport RngC

cdef enum:
    FORM_IS = 0          # information-set (open loop over chance): one tree over
                         # decisions; each iteration samples fresh chance outcomes
    FORM_CLOSED = 1      # closed loop: chance nodes in the tree, one child per outcome
    FORM_PIMC = 2        # a fixed determinization (a world seed) searched closed-loop

    ROLLOUT_RANDOM = 0   # uniformly random playout moves
    ROLLOUT_POLICY = 1   # the game's rollout policy (GameC.rollout_action)

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
    # The root player's final score margin over the best other player (the
    # score alone in a one-player game), summed and squared: the variance
    # behind a review's points lost (search/review.py) is read from them.
    double sum_margin
    double sum_margin2


# The options a tree takes: the search options of search/params.py marked
# tree=True, each a field by its name (form and rollout as the values above).
# Tree.__init__ fills the struct from the checked options in one assignment,
# and the module refuses to load when the fields and the options differ: a
# new tree option is its Param, its field here, and the code that reads it.
cdef struct TreeOptionsC:
    int form               # FORM_IS, FORM_CLOSED or FORM_PIMC
    double uct_c           # UCB1's exploration constant
    int rollout            # ROLLOUT_RANDOM or ROLLOUT_POLICY
    int rollout_depth      # decisions a playout makes before the evaluation; -1: to the end
    double margin_weight   # weight of the score-margin term in the utilities
    double margin_cap      # the margin, in score scales, is clamped to [-margin_cap, margin_cap]
    double policy_bias     # weight of the bias toward the rollout policy's move
    double loss_weight     # one-player games: a loss counts min_utility + loss_weight * progress ** loss_power
    double loss_power


# Where one iteration's descent stands (Tree._iterate and its steps).
cdef struct WalkC:
    int node               # the node reached
    int depth              # its depth: path[0..depth] is the line from the root
    uint64_t chance_k      # chance events met so far (a PIMC world's k-th draw)
    int after_chance       # (IS form) a chance event since the last decision node


# What one iteration backs up: the game's returns at the end of the playout
# (or the evaluation where it was cut), the final scores, and the utilities
# the nodes add (returns plus the score-margin term).
cdef struct OutcomeC:
    double r[MAX_PLAYERS]
    double sc[MAX_PLAYERS]     # set only when the game has scores
    double u[MAX_PLAYERS]


@cython.final
cdef class Tree:
    cdef CoreGame core
    cdef const GameC* g
    cdef char* root_state
    cdef char* work            # the position of the running iteration
    cdef NodeC* nodes
    cdef int n_nodes, cap_nodes, max_nodes
    cdef TurnStatsC* ext
    cdef int n_ext, cap_ext
    cdef int* path             # the running iteration's line of nodes
    cdef int path_cap
    cdef int* actions          # scratch: legal actions
    cdef int* untried          # scratch: legal actions without a child yet
    cdef int* outcomes         # scratch: chance outcomes
    cdef double* probs         # scratch: their probabilities
    cdef int* stamp_of         # stamp_of[a] == stamp: action a has a child (child_of[a])
    cdef int* child_of
    cdef int stamp
    cdef RngC rng
    cdef TreeOptionsC opt
    cdef bint native_playout
    cdef uint64_t world
    # The world read by source (GameC.chance_source): each source's draws
    # counted apart, 16 bits a source in chance_k, the iterations starting
    # from chance_k0 (the clairvoyant's known future, search/clairvoyant.py).
    cdef bint sources
    cdef bint known           # chance reads the world in the IS form too
    cdef uint64_t chance_k0
    # The best line (search/clairvoyant.py, "best line"): in a one-player
    # tree told its world every line is deterministic, so a playout that
    # reached the end is a line the player can replay to the same end. With
    # keep_line each iteration's decisions are recorded in `line` and the
    # best finished one (a win first, then the score, then the return) is
    # kept in `kept_line` (best_line() reads it).
    cdef bint keep_line
    cdef int* line
    cdef int n_line
    cdef int* kept_line
    cdef int n_best
    cdef bint have_best
    cdef double best_r, best_sc
    cdef int root_player
    cdef volatile int cancelled
    cdef readonly long long iterations
    cdef readonly double elapsed
    # Nodes the readers of the tree (root_children, children) have looked
    # at: what a decision or an analysis cost after the search, counted so a
    # test can bound it without timing it.
    cdef public long long nodes_read

    # the arena
    cdef void _reset_nodes(self) except *
    cdef int _new_ext(self) noexcept nogil
    cdef void _reserve(self, long long want) noexcept
    cdef int _new_node(self, int parent, int action, int mover, int kind) noexcept nogil
    # one iteration, step by step (search/_mcts.pyx, "one iteration"); inline,
    # so that the C compiler may put the steps back into one loop
    cdef void _iterate(self) noexcept nogil
    cdef inline void _descend(self, WalkC* w) noexcept nogil
    cdef inline bint _chance_step(self, WalkC* w) noexcept nogil
    cdef inline bint _decision_step(self, WalkC* w, int p) noexcept nogil
    cdef inline int _sort_children(self, int node, int p, int n) noexcept nogil
    cdef inline int _policy_action(self, int n) noexcept nogil
    cdef inline void _expand(self, WalkC* w, int p, int n_untried, int pa) noexcept nogil
    cdef inline int _select(self, int n, int pa) noexcept nogil
    cdef inline void _push(self, WalkC* w, int c) noexcept nogil
    cdef inline int _sample_chance(self, uint64_t* k) noexcept nogil
    cdef inline void _playout(self, WalkC* w, OutcomeC* out) noexcept nogil
    cdef inline void _rollout(self, uint64_t chance_k, int cut, double* r) noexcept nogil
    cdef inline void _utilities(self, OutcomeC* out) noexcept nogil
    cdef inline void _backpropagate(self, int depth, OutcomeC* out) noexcept nogil
    cdef inline void _record(self, int a) noexcept nogil
    cdef void _keep_if_best(self, OutcomeC* out) noexcept nogil
    # moving the root
    cdef void _check_legal(self, int a, int p) except *
    cdef void _reroot(self, int new_root) except *
    cdef void _attach_turn_stats(self, int node) except *
