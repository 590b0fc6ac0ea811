"""Uniformly random playouts of any core game, entirely in C without the GIL.

From a start state (the initial state unless one is given) each game is played
to the end through the game's GameC function table (engine/contract.pxd):
at a decision node a legal action is picked uniformly (`rng_below` over the
legal list), at a chance node an outcome is drawn with its probability
(`rng_pick`). Nothing in the loop touches a Python object, so other Python
threads run meanwhile, and the figure measured is the speed of the rules
themselves: the baseline every search rollout builds on.

The state is cloned by memcpy of `state_size` bytes (the contract's promise
that a state holds no pointers). A core that breaks the contract (a decision
node with no legal action, a chance node with no outcome, more decisions than
max_game_length) is reported as a RuntimeError once the GIL is back.
"""
import time

from libc.stdint cimport uint64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy

from easel.engine.contract cimport GameC, PLAYER_CHANCE, PLAYER_TERMINAL, MAX_PLAYERS
from easel.engine._core cimport CoreGame, CoreState
from easel.engine.rng cimport RngC, rng_seed, rng_below, rng_pick


cdef enum:
    PLAYOUT_OK = 0
    PLAYOUT_NO_ACTIONS = 1      # a decision node offered no legal action
    PLAYOUT_NO_OUTCOMES = 2     # a chance node offered no outcome
    PLAYOUT_TOO_LONG = 3        # more decisions than max_game_length
    PLAYOUT_BAD_PLAYER = 4      # current_player out of range


cdef struct PlayoutTotalsC:
    long long n_games                       # games played to the end
    long long n_decisions                   # actions chosen by players
    long long n_chance                      # chance outcomes applied
    double sum_returns[MAX_PLAYERS]         # sum over games of each player's return
    long long n_wins[MAX_PLAYERS]           # games in which the player's return was the unique best


cdef int _play(const GameC* g, const char* start, char* work, int* actions,
               int* outcomes, double* probs, RngC* rng, long long n_games,
               PlayoutTotalsC* tot) noexcept nogil:
    """Play n_games from `start`; add to `tot`. Returns a PLAYOUT_ code."""
    cdef long long k
    cdef int player, n, i, best, decisions
    cdef double returns[MAX_PLAYERS]
    cdef bint unique
    for k in range(n_games):
        memcpy(work, start, g.state_size)
        decisions = 0
        while True:
            player = g.current_player(g, work)
            if player == PLAYER_TERMINAL:
                break
            if player == PLAYER_CHANCE:
                n = g.chance_outcomes(g, work, outcomes, probs)
                if n <= 0:
                    return PLAYOUT_NO_OUTCOMES
                g.apply_action(g, work, outcomes[rng_pick(rng, probs, n)])
                tot.n_chance += 1
                continue
            if player < 0 or player >= g.facts.num_players:
                return PLAYOUT_BAD_PLAYER
            n = g.legal_actions(g, work, actions)
            if n <= 0:
                return PLAYOUT_NO_ACTIONS
            decisions += 1
            if decisions > g.facts.max_game_length:
                return PLAYOUT_TOO_LONG
            g.apply_action(g, work, actions[rng_below(rng, n)])
        tot.n_decisions += decisions
        tot.n_games += 1
        g.returns(g, work, returns)
        best = 0
        unique = True
        for i in range(g.facts.num_players):
            tot.sum_returns[i] += returns[i]
            if i > 0:
                if returns[i] > returns[best]:
                    best = i
                    unique = True
                elif returns[i] == returns[best]:
                    unique = False
        if unique:
            tot.n_wins[best] += 1
    return PLAYOUT_OK


_PROBLEMS = {
    PLAYOUT_NO_ACTIONS: "a decision node offered no legal action",
    PLAYOUT_NO_OUTCOMES: "a chance node offered no outcome",
    PLAYOUT_TOO_LONG: "a game took more decisions than max_game_length",
    PLAYOUT_BAD_PLAYER: "current_player returned an id outside the contract",
}


def _core_of(game):
    if isinstance(game, CoreGame):
        return game
    core = getattr(game, "core", None)
    if isinstance(core, CoreGame):
        return core
    raise TypeError(
        f"random_playouts needs a core game (engine.load_game(spec, implementation='core')), "
        f"got {game!r}")


def random_playouts(game, long long n_games, uint64_t seed=0, state=None):
    """Play `n_games` uniformly random games of a core game without the GIL.

    game: a Game from engine.load_game(..., implementation="core") (or its
    CoreGame). state: an optional CoreState of that game to start from
    (default: the initial state). Same seed, same games.

    Returns a dict: games, steps (decisions + chance outcomes), decisions,
    chance_steps, seconds, games_per_second, steps_per_second, mean_length
    (decisions per game), mean_returns (per player) and win_rate (per player:
    share of games in which that player's return was the unique best).
    """
    cdef CoreGame core = _core_of(game)
    cdef CoreState start
    cdef const GameC* g = &core.c
    cdef PlayoutTotalsC tot
    cdef RngC rng
    cdef int code, i
    cdef char* work = NULL
    cdef int* actions = NULL
    cdef int* outcomes = NULL
    cdef double* probs = NULL
    if n_games < 0:
        raise ValueError(f"n_games must be >= 0, got {n_games}")
    if state is None:
        start = core.new_state()
    elif isinstance(state, CoreState) and (<CoreState> state).core is core:
        start = state
    else:
        raise TypeError("state must be a core state of the same game")
    tot.n_games = tot.n_decisions = tot.n_chance = 0
    for i in range(MAX_PLAYERS):
        tot.sum_returns[i] = 0.0
        tot.n_wins[i] = 0
    rng_seed(&rng, seed)
    try:
        work = <char*> malloc(g.state_size)
        actions = <int*> malloc(sizeof(int) * (g.facts.num_distinct_actions + 1))
        outcomes = <int*> malloc(sizeof(int) * (g.facts.max_chance_outcomes + 1))
        probs = <double*> malloc(sizeof(double) * (g.facts.max_chance_outcomes + 1))
        if work == NULL or actions == NULL or outcomes == NULL or probs == NULL:
            raise MemoryError()
        t0 = time.perf_counter()
        with nogil:
            code = _play(g, start.buf, work, actions, outcomes, probs, &rng, n_games, &tot)
        seconds = time.perf_counter() - t0
    finally:
        free(work)
        free(actions)
        free(outcomes)
        free(probs)
    if code != PLAYOUT_OK:
        raise RuntimeError(f"{core.game.spec}: core broke the game contract after "
                           f"{tot.n_games} games: {_PROBLEMS[code]}")
    steps = tot.n_decisions + tot.n_chance
    games = tot.n_games
    return {
        "game": core.game.spec if core.game is not None else None,
        "games": games,
        "steps": steps,
        "decisions": tot.n_decisions,
        "chance_steps": tot.n_chance,
        "seconds": seconds,
        "games_per_second": games / seconds if seconds > 0 else float("inf"),
        "steps_per_second": steps / seconds if seconds > 0 else float("inf"),
        "mean_length": tot.n_decisions / games if games else 0.0,
        "mean_returns": [tot.sum_returns[i] / games if games else 0.0
                         for i in range(g.facts.num_players)],
        "win_rate": [tot.n_wins[i] / games if games else 0.0 for i in range(g.facts.num_players)],
    }
