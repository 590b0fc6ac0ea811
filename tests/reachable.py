"""Scenario tests build positions play can reach (the loaders refuse any
other: each game's RULINGS.md "Invariants of play"). A scenario shows what
some rounds or days of play make; its helpers offer the candidate views (the
scene on each later round or day, with the rest completed as play would
have it) and load the first the loader accepts."""
from __future__ import annotations

from easel.engine import UnreachablePositionError


def first_loadable(load, candidates):
    """load(view) for the first candidate view the loader accepts; if none,
    the refusal of the first, which names what the scenario must change."""
    first_error = None
    for view in candidates:
        try:
            return load(view)
        except UnreachablePositionError as e:
            first_error = first_error or e
    if first_error is None:
        raise AssertionError("the scenario offers no position to load")
    raise first_error


def positions_in_play(game, choose, games=2, seed=0, every=7):
    """States met in `games` games played with choose(state, rng) at the
    decisions and random chance: every `every`-th state and each game's end."""
    import random

    from easel import engine
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        s = game.new_initial_state()
        k = 0
        while not s.is_terminal():
            if k % every == 0:
                out.append(s.clone())
            s.apply_action(engine.draw_outcome(s, rng) if s.is_chance_node()
                           else choose(s, rng))
            k += 1
        out.append(s)
    return out
