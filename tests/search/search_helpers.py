"""Helpers shared by the search tests."""
from __future__ import annotations

import random

from easel import engine


def position(game, seed: int, decisions: int):
    """A decision node with a choice, after `decisions` random decisions
    from the start (or the end, if the game ends first)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    made = 0
    while True:
        if state.is_chance_node():
            state.apply_action(engine.draw_outcome(state, rng))
            continue
        if state.is_terminal() or (made >= decisions and len(state.legal_actions()) > 1):
            return state
        state.apply_action(rng.choice(state.legal_actions()))
        made += 1
