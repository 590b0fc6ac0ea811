# The C-level game contract: what every game core provides so that one search
# serves every game (docs/design.md, The C-level contract).
#
# A game core is a fixed-size state struct with no pointers (cloning is a
# memcpy of `state_size` bytes) and a GameC: immutable facts plus a table of
# rule functions, all `noexcept nogil`. Per-game constant data (options, card
# decks) lives in a parameter block that `params` points at; the owner of the
# GameC (engine._core.CoreGame) keeps that block alive.
#
# Invariants every core honours (checked by tests/test_conformance.py):
#   * current_player is in [0, num_players), or PLAYER_CHANCE, or PLAYER_TERMINAL;
#   * legal_actions writes the sorted, unique actions of the player to move,
#     each in [0, num_distinct_actions), and returns how many (0 iff not a
#     decision node);
#   * chance_outcomes writes outcome ids in [0, max_chance_outcomes) with
#     probabilities > 0 that sum to 1, and returns how many (0 iff not a
#     chance node); apply_action takes those ids at chance nodes;
#   * apply_action is only called with a legal action or outcome (callers
#     check); it never allocates;
#   * returns writes one value per player in [min_utility, max_utility];
#     zeros before the end;
#   * a game takes at most max_game_length decisions (chance outcomes are
#     not counted, as in OpenSpiel).

from easel.engine.rng cimport PlayoutRandC

cdef enum:
    PLAYER_CHANCE = -1      # OpenSpiel's kChancePlayerId
    PLAYER_TERMINAL = -4    # OpenSpiel's kTerminalPlayerId
    MAX_PLAYERS = 10        # upper bound on num_players over all games
    MAX_CHANCE_SOURCES = 4  # GameC.chance_source: 0 .. 3


# The facts of one game instance: one field per field of engine.kit.GameFacts,
# of the same name, in the same order, int for int and double for float.
# CoreGame.from_facts and CoreGame.facts() convert it to and from a Python
# dict field by field (Cython's struct coercion), so adding a fact is a field
# here and one in GameFacts; tests/test_kit.py fails when the two differ.
cdef struct FactsC:
    int num_players                 # players in this game instance
    int num_distinct_actions        # size of the decision action space
    int max_chance_outcomes         # size of the chance outcome space
    int max_game_length             # most decisions in one game
    double min_utility              # bounds of returns()
    double max_utility
    double score_scale              # typical spread of final scores (0: no scores);
                                    # the search divides score margins by it
    double loss_span                # a solo loss returns min_utility + loss_span * progress
                                    # toward the goal (0: none); read by loss_weight


cdef struct GameC:
    FactsC facts                    # read by the search and the rule functions
    size_t state_size               # bytes of the state struct (clone = memcpy)
    const void* params              # per-instance constants, owned by CoreGame

    int (*current_player)(const GameC* g, const void* s) noexcept nogil
    int (*legal_actions)(const GameC* g, const void* s, int* out) noexcept nogil
    int (*chance_outcomes)(const GameC* g, const void* s, int* out, double* probs) noexcept nogil
    void (*apply_action)(const GameC* g, void* s, int action) noexcept nogil
    void (*returns)(const GameC* g, const void* s, double* out) noexcept nogil
    # Optional (NULL when the game has none): a fast heuristic estimate of the
    # returns from a non-terminal state, in [min_utility, max_utility]. The
    # search may use it to cut rollouts short.
    void (*evaluate)(const GameC* g, const void* s, double* out) noexcept nogil
    # Optional (NULL: the search samples from chance_outcomes): the outcome
    # whose cumulative probability interval, in chance_outcomes order, holds u
    # in [0, 1). A fast path for games whose chance nodes have many outcomes
    # or cheap closed forms; tests check it against chance_outcomes.
    int (*sample_chance)(const GameC* g, const void* s, double u) noexcept nogil
    # Optional (NULL when the game has no points): each player's score so far
    # (final scores at the end), for expected-score analysis and margins.
    void (*scores)(const GameC* g, const void* s, double* out) noexcept nogil
    # Optional (NULL: rollouts choose uniformly): the game's rollout policy
    # ("heavy playouts"). Given the state at a decision node and its n >= 1
    # legal actions (legal_actions order), returns an index in [0, n): a
    # cheap, domain-informed choice, randomised only through u1 and u2,
    # uniforms in [0, 1) drawn by the caller, so that a seeded search stays
    # deterministic. Never the rules: tests check the index is always valid.
    int (*rollout_action)(const GameC* g, const void* s, const int* legal, int n,
                          double u1, double u2) noexcept nogil
    # Optional (NULL: the search runs its own loop over the rule functions):
    # play from `s` to the end with uniformly random moves and write the
    # returns. A fast path for the search's random rollouts, where a step
    # through the table costs more than the rules of a small game. It must
    # make exactly the moves the loop makes from the same numbers: at a
    # decision node legal[rng_below(rnd.rng, n)] (legal_actions order, n >= 1),
    # at a chance node the outcome whose interval in chance_outcomes order
    # holds chance_uniform(rnd). Tests check it against the loop
    # (tests/search/test_random_playout.py).
    void (*random_playout)(const GameC* g, void* s, PlayoutRandC* rnd,
                           double* returns) noexcept nogil
    # Optional (NULL: one source): which of the game's sources of chance the
    # chance event at `s` draws from, 0 to MAX_CHANCE_SOURCES - 1 (a bag of
    # cubes, a deck of cards, a die). A known future (search/clairvoyant.py)
    # fixes each source's sequence apart, so that the j-th card turned up is
    # the same card however many cubes were drawn before it: with one shared
    # sequence, a search told the future could choose its cards by the
    # number of cubes it draws first (docs/starving-artists-solo.md, "The
    # bound chose its future").
    int (*chance_source)(const GameC* g, const void* s) noexcept nogil
