"""Starving Artists speed, measured in the same run:

- random playouts per second, the Cython core in C (engine.playout, no GIL)
  against the plain-Python reference (target: at least 100x), and the
  core's rollout policy in C;
- MCTS iterations per second from a 2-player opening with 1 and 2 threads
  (target: 2 threads at least 1.8x), reported as the median of per-round
  2-thread/1-thread ratios over 21 rounds of 10,000 iterations, each round
  running the two back to back in alternating order (machine drift between
  and within rounds cancels).

    python -m pytest benchmarks/bench_starving_artists.py -s
"""
from __future__ import annotations

import random
import statistics

import pytest

from easel import engine
from easel.engine.playout import random_playouts

from bench_mcts import thread_speedup
from bench_playouts import _batch, _timed, python_playouts

ROUNDS = 5
THREAD_ROUNDS = 21       # short rounds, many: one search's timing swings with the machine
THREAD_SIMS = 10_000
SPECS = ["starving_artists(players=1)", "starving_artists(players=2)",
         "starving_artists(players=4)"]


@pytest.mark.parametrize("spec", SPECS)
def test_sa_playouts_core_vs_reference(benchmark, spec):
    core = engine.load_game(spec, implementation="core")
    ref = engine.load_game(spec, implementation="reference")
    rng = random.Random(0)
    probe = random_playouts(core, 200, seed=1)
    n_core = _batch(probe["seconds"] / probe["games"], 0.2)
    n_ref = _batch(_timed(python_playouts, ref, 3, rng) / 3, 0.5)
    ref_times = []
    seeds = iter(range(1000, 1000 + 10 * ROUNDS))

    def one_round():
        ref_times.append(_timed(python_playouts, ref, n_ref, rng) / n_ref)
        return (core, n_core, next(seeds)), {}

    benchmark.pedantic(lambda g, n, s: random_playouts(g, n, seed=s), setup=one_round,
                       rounds=ROUNDS, iterations=1, warmup_rounds=0)
    core_s = statistics.median(benchmark.stats.stats.data) / n_core
    ref_s = statistics.median(ref_times)
    info = {"game": spec, "core_games_per_s": 1 / core_s, "reference_games_per_s": 1 / ref_s,
            "ratio_core_vs_reference": ref_s / core_s}
    benchmark.extra_info.update(info)
    print(f"\n{spec}: games/s core {1 / core_s:,.0f}, reference {1 / ref_s:,.1f} -> "
          f"{ref_s / core_s:,.0f}x")


def sa_opening(n=2):
    game = engine.load_game(f"starving_artists(players={n})")
    return game, engine.play_chance(game.new_initial_state(), random.Random(2026))


@pytest.mark.parametrize("rollout", ["policy", "random"])
def test_sa_mcts_threads(benchmark, rollout):
    game, state = sa_opening()
    thread_speedup(benchmark, "starving_artists(players=2)", game, state, THREAD_SIMS, rollout,
                   THREAD_ROUNDS)
