"""Games for the rollout-policy tests of every game: each decision is the
core's policy move or a uniform one, so positions of both kinds are met."""
from __future__ import annotations

import random

from easel import engine


def play_mixed(game, seed, visit, policy_share=0.5):
    """A game from the opening; `visit(state, rng)` at every decision, then
    the policy's move with probability `policy_share`, else a uniform one.
    Returns the final state."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(engine.draw_outcome(state, rng))
            continue
        visit(state, rng)
        if rng.random() < policy_share:
            state.apply_action(state.rollout_action(rng.random(), rng.random()))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state
