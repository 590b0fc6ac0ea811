"""The search's seeds: one drawn afresh where none is given, and the ones
derived from a given seed (each tree's of a search, each search's of a bot's
game and position) by a splitmix64 step, so that a seeded run replays."""
from __future__ import annotations

import os


def new_seed() -> int:
    return int.from_bytes(os.urandom(8), "little")


def mix(seed: int, k: int) -> int:
    """The `k`-th seed derived from `seed` (splitmix64's finalizer)."""
    z = (seed + (k + 1) * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return z ^ (z >> 31)


def game_seed(seed: int, games: int) -> int:
    """A bot's seed for its game after `games` earlier games (its own seed
    for the first): a bot restarted for a new game does not replay the last."""
    return int(seed) if games == 0 else mix(int(seed), games)
