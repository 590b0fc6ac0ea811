"""Random playouts per second: the Cython core in C (engine.playout, no GIL)
against the plain-Python reference, measured in the same run.

    python -m pytest benchmarks/bench_playouts.py -s

One benchmark per game. Each round plays a batch of uniformly random games
(chance outcomes drawn by their probabilities) three ways, one after the
other, so that machine load falls on all alike:
  core       engine.playout.random_playouts: the whole loop in C
  reference  a Python loop over the reference's public API
  core_py    the same Python loop over the core's Python API (how much of
             the gap is the loop, how much the rules)
pytest-benchmark times the core batches; the other two are timed around
them (in the round's setup). Reported: the median seconds per game of each
and the ratios reference/core and core_py/core, printed and stored in
benchmark.extra_info. Batch sizes are calibrated so that a batch takes about
TARGET_SECONDS."""
from __future__ import annotations

import random
import statistics
import time

import pytest

from easel import engine
from easel.engine.playout import random_playouts

ROUNDS = 7
TARGET_SECONDS = {"core": 0.2, "reference": 0.4, "core_py": 0.3}

SPECS = ["connect_four", "pig", "vangogh(players=2)", "vangogh(players=5)"]


def python_playouts(game, n_games, rng):
    """n uniformly random games through the Python face; returns total steps."""
    steps = 0
    for _ in range(n_games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes],
                                     weights=[p for _, p in outcomes])[0]
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
            state.apply_action(action)
            steps += 1
    return steps


def _timed(fn, *args):
    t0 = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t0


def _batch(per_game_seconds, target):
    return max(1, int(target / max(per_game_seconds, 1e-9)))


def _load_or_skip(spec):
    name = spec.split("(")[0]
    if name not in {e.name for e in engine.registered_games()}:
        pytest.skip(f"{name} is not registered")
    if engine.game_entry(name).core is None:
        pytest.skip(f"{name} has no core implementation yet (reference only): nothing to compare")
    return (engine.load_game(spec, implementation="core"),
            engine.load_game(spec, implementation="reference"))


@pytest.mark.parametrize("spec", SPECS)
def test_random_playouts(benchmark, spec):
    core, ref = _load_or_skip(spec)
    rng = random.Random(0)

    # Calibrate the batch sizes on a short warm-up.
    probe = random_playouts(core, 200, seed=1)
    n_core = _batch(probe["seconds"] / probe["games"], TARGET_SECONDS["core"])
    n_ref = _batch(_timed(python_playouts, ref, 3, rng) / 3, TARGET_SECONDS["reference"])
    n_py = _batch(_timed(python_playouts, core, 5, rng) / 5, TARGET_SECONDS["core_py"])

    per_game = {"reference": [], "core_py": []}
    seeds = iter(range(1000, 1000 + 10 * ROUNDS))
    results = []

    def one_round():
        per_game["reference"].append(_timed(python_playouts, ref, n_ref, rng) / n_ref)
        per_game["core_py"].append(_timed(python_playouts, core, n_py, rng) / n_py)
        return (core, n_core, next(seeds)), {}

    def core_batch(game, n, seed):
        results.append(random_playouts(game, n, seed=seed))

    benchmark.pedantic(core_batch, setup=one_round, rounds=ROUNDS, iterations=1,
                       warmup_rounds=0)

    core_s = statistics.median(benchmark.stats.stats.data) / n_core
    ref_s = statistics.median(per_game["reference"])
    py_s = statistics.median(per_game["core_py"])
    steps_per_game = sum(r["steps"] for r in results) / sum(r["games"] for r in results)
    info = {
        "game": core.spec,
        "games_per_round": {"core": n_core, "reference": n_ref, "core_py": n_py},
        "steps_per_game": round(steps_per_game, 1),
        "core_games_per_s": 1.0 / core_s,
        "reference_games_per_s": 1.0 / ref_s,
        "core_py_games_per_s": 1.0 / py_s,
        "ratio_core_vs_reference": ref_s / core_s,
        "ratio_core_vs_core_py": py_s / core_s,
    }
    benchmark.extra_info.update(info)
    print(f"\n{core.spec}: {steps_per_game:.0f} steps/game; games/s (median of {ROUNDS}): "
          f"core {info['core_games_per_s']:,.0f}  core via Python {info['core_py_games_per_s']:,.0f}  "
          f"reference {info['reference_games_per_s']:,.1f}  ->  core/reference "
          f"{info['ratio_core_vs_reference']:,.0f}x, core/core-via-Python "
          f"{info['ratio_core_vs_core_py']:,.0f}x")
    assert all(r["games"] == n_core for r in results)
