"""Couleurs de Paris speed: random playouts per second, the Cython core
against the plain-Python reference (target: at least 100x), and MCTS
iterations per second from an opening with 1 and 2 threads (target: 2
threads at least 1.8x). Run: python -m pytest benchmarks/bench_couleurs_de_paris.py -s

The playout benchmark is bench_playouts.test_random_playouts over this
game's player counts (same method: core batches in C, reference and
core-via-Python batches timed around them in the same rounds). The thread
benchmark follows bench_mcts's Van Gogh one: the 2-thread/1-thread speedup is
the median of per-round ratios, so machine drift between rounds cancels."""
from __future__ import annotations

import random

import pytest

from easel import engine

from bench_mcts import thread_speedup
from bench_playouts import test_random_playouts as _random_playouts

SIMS = 40_000
THREAD_ROUNDS = 7


@pytest.mark.parametrize("spec", ["couleurs_de_paris(players=2)",
                                  "couleurs_de_paris(players=4)"])
def test_cdp_random_playouts(benchmark, spec):
    _random_playouts(benchmark, spec)


def cdp_opening(players=2):
    """An opening: the easels dealt (fixed seed), the first player to place."""
    game = engine.load_game(f"couleurs_de_paris(players={players})")
    return game, engine.play_chance(game.new_initial_state(), random.Random(2026))


@pytest.mark.parametrize("rollout", ["policy", "random"])
def test_cdp_mcts_threads(benchmark, rollout):
    game, state = cdp_opening()
    thread_speedup(benchmark, "couleurs_de_paris(players=2)", game, state, SIMS, rollout,
                   THREAD_ROUNDS)
