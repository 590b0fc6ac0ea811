"""Tournament throughput: local jobs scaling, the Ray backend's overhead, and
the seconds per game behind docs/scaling.md's throughput model.
Run: python -m pytest benchmarks/bench_tournament.py -s

Each comparison runs its contenders in alternating rounds in the same
process on the same tournament (a fresh output directory each time), and
reports the median of the per-round ratios, so that machine load drifting
between rounds affects both alike. A run is timed from the first block
handed out to the last journaled (workers' start-up included, the report
not: `runner.run` only). The Ray instance is started once, outside the
timings (a cluster outlives its tournaments)."""
from __future__ import annotations

import os
import statistics
import tempfile
import time

from easel.search.tournament import config as config_mod
from easel.search.tournament import runner

ROUNDS = int(os.environ.get("EASEL_BENCH_ROUNDS", "3"))

WORKLOAD = {
    "seed": 1, "games": ["vangogh(players=3)", "pig(winscore=50)"],
    "bots": {"heuristic": "heuristic", "greedy": "greedy(budget=40)", "random": "random",
             "mcts": "mcts(iterations=60,threads=1)"},
    "games_per_field": 24, "report": {"bootstrap": 0},
}


def timed_run(data, backend="local", jobs=1):
    cfg = config_mod.parse(data)
    with tempfile.TemporaryDirectory() as out:
        cfg, journal = runner.open_run(cfg, out, resume=False)
        t0 = time.perf_counter()
        res = runner.run(cfg, journal, backend=backend, jobs=jobs)
        seconds = time.perf_counter() - t0
        journal.close()
    return seconds, res["progress"]["games"]


def test_local_jobs_scaling():
    ratios, one, two = [], [], []
    for _ in range(ROUNDS):
        t1, games = timed_run(WORKLOAD, jobs=1)
        t2, _ = timed_run(WORKLOAD, jobs=2)
        one.append(t1)
        two.append(t2)
        ratios.append(t1 / t2)
    print(f"\nlocal, {games} games: 1 job {statistics.median(one):.2f} s "
          f"({games / statistics.median(one) * 3600:.0f} games/h), 2 jobs "
          f"{statistics.median(two):.2f} s ({games / statistics.median(two) * 3600:.0f} "
          f"games/h); speed-up, median of per-round ratios: {statistics.median(ratios):.2f}x "
          f"(rounds: {', '.join(f'{r:.2f}' for r in ratios)}); load average "
          f"{os.getloadavg()[0]:.1f}")


def test_ray_overhead_against_local_processes():
    import ray
    import easel
    home = os.path.dirname(os.path.dirname(os.path.abspath(easel.__file__)))
    t0 = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             runtime_env={"env_vars": {"PYTHONPATH": home}})
    start = time.perf_counter() - t0
    try:
        timed_run(WORKLOAD, backend="ray", jobs=2)          # warm the Ray workers once
        overheads, local, remote = [], [], []
        for _ in range(ROUNDS):
            tl, games = timed_run(WORKLOAD, jobs=2)
            tr, _ = timed_run(WORKLOAD, backend="ray", jobs=2)
            local.append(tl)
            remote.append(tr)
            overheads.append(tr / tl - 1.0)
    finally:
        ray.shutdown()
    print(f"\nray vs local, 2 CPUs, {games} games: local {statistics.median(local):.2f} s, "
          f"ray {statistics.median(remote):.2f} s; overhead, median of per-round ratios: "
          f"{100 * statistics.median(overheads):+.1f}% (rounds: "
          f"{', '.join(f'{100 * o:+.1f}%' for o in overheads)}); ray.init took {start:.1f} s; "
          f"load average {os.getloadavg()[0]:.1f}")


MODEL = [
    ("connect_four", ["heuristic", "heuristic"]),
    ("connect_four", ["mcts(iterations=400,threads=1)"] * 2),
    ("pig", ["heuristic", "heuristic"]),
    ("pig", ["mcts(iterations=400,threads=1)"] * 2),
    ("vangogh(players=3)", ["heuristic"] * 3),
    ("vangogh(players=3)", ["greedy"] * 3),
    ("vangogh(players=3)", ["mcts(iterations=100,threads=1)"] * 3),
    ("vangogh(players=3)", ["mcts(iterations=400,threads=1)"] * 3),
    ("vangogh(players=5)", ["heuristic"] * 5),
]


def test_seconds_per_game_for_the_throughput_model():
    """One block of self-play per game and budget, in this process (one core)."""
    from easel.search.tournament.play import BlockTask, play_block
    from easel.search.tournament.schedule import fair_orders
    print("\ngame | bots | games | s/game | games/h/core")
    for game, specs in MODEL:
        orders = tuple(fair_orders(len(specs)))
        task = BlockTask("bench", game, "core", tuple((f"b{i}", s) for i, s in enumerate(specs)),
                         0, 7, orders, None)
        t0 = time.perf_counter()
        entry = play_block(task)
        per_game = (time.perf_counter() - t0) / len(entry["games"])
        print(f"{game} | {specs[0]} | {len(entry['games'])} | {per_game:.4f} | "
              f"{3600 / per_game:.0f}")
