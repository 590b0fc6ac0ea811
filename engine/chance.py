"""Chance outcomes drawn in Python, by their probabilities, with a caller's
`random.Random`: for tests, benchmarks and tools that play games through
the Python face. (The search draws its own in C, engine/rng.pxd.)"""
from __future__ import annotations


def draw_outcome(state, rng) -> int:
    """An outcome of the chance node `state`, drawn by its probability."""
    outcomes = state.chance_outcomes()
    return rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]


def play_chance(state, rng):
    """Apply drawn outcomes until `state` is at a decision or the end; returns it."""
    while state.is_chance_node():
        state.apply_action(draw_outcome(state, rng))
    return state
