"""Tournament throughput: local jobs scaling, the Ray backend's overhead, and
the seconds per game behind docs/scaling.md's throughput model.
Run: python -m pytest benchmarks/bench_tournament.py -s

Each comparison runs its contenders in alternating rounds in the same
process on the same tournament (a fresh output directory each time), and
reports the median of the per-round ratios, so that machine load drifting
between rounds affects both alike. A run is timed from the first block
handed out to the last journaled (workers' start-up included, the report
not: `runner.run` only). The Ray instance is started once, outside the
timings (a cluster outlives its tournaments).

The scaling workload is large enough (960 games, some 40 s on one core)
that the fixed costs of a run, spawning the workers and the tail of the
last block, do not decide the ratio; a tournament of a few seconds gets
less (docs/scaling.md gives both)."""
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
    "games_per_field": 96, "report": {"bootstrap": 0},
}


LAST = {}


def timed_run(data, backend="local", jobs=1):
    """(wall seconds, games); LAST gets the workers' utilization: the share of
    jobs x wall time in which they were playing a block (the rest is start-up,
    hand-over and the tail), and the CPU seconds of the local workers."""
    import resource
    cfg = config_mod.parse(data)
    with tempfile.TemporaryDirectory() as out:
        cfg, journal = runner.open_run(cfg, out, resume=False)
        cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        res = runner.run(cfg, journal, backend=backend, jobs=jobs)
        seconds = time.perf_counter() - t0
        cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        busy = sum(e["seconds"] for e in journal.events if e["type"] == "block")
        journal.close()
    LAST.update(utilization=busy / (jobs * seconds),
                cpu=(cpu1.ru_utime + cpu1.ru_stime) - (cpu0.ru_utime + cpu0.ru_stime))
    return seconds, res["progress"]["games"]


def test_local_jobs_scaling():
    ratios, one, two, util, cpu = [], [], [], {1: [], 2: []}, {1: [], 2: []}
    for _ in range(ROUNDS):
        t1, games = timed_run(WORKLOAD, jobs=1)
        util[1].append(LAST["utilization"])
        cpu[1].append(LAST["cpu"])
        t2, _ = timed_run(WORKLOAD, jobs=2)
        util[2].append(LAST["utilization"])
        cpu[2].append(LAST["cpu"])
        one.append(t1)
        two.append(t2)
        ratios.append(t1 / t2)
    print(f"\nlocal, {games} games: 1 job {statistics.median(one):.2f} s "
          f"({games / statistics.median(one) * 3600:.0f} games/h), 2 jobs "
          f"{statistics.median(two):.2f} s ({games / statistics.median(two) * 3600:.0f} "
          f"games/h); speed-up, median of per-round ratios: {statistics.median(ratios):.2f}x "
          f"(rounds: {', '.join(f'{r:.2f}' for r in ratios)}); load average "
          f"{os.getloadavg()[0]:.1f}")
    print(f"worker utilization (share of jobs x wall spent playing blocks): 1 job "
          f"{statistics.median(util[1]):.3f}, 2 jobs {statistics.median(util[2]):.3f}; "
          f"worker CPU seconds: 1 job {statistics.median(cpu[1]):.1f}, 2 jobs "
          f"{statistics.median(cpu[2]):.1f}; on two free cores the speed-up would be about "
          f"2 x {statistics.median(util[2]):.3f} / {statistics.median(util[1]):.3f} x "
          f"{statistics.median(cpu[1]):.1f} / {statistics.median(cpu[2]):.1f} = "
          f"{2 * statistics.median(util[2]) / statistics.median(util[1]) * statistics.median(cpu[1]) / statistics.median(cpu[2]):.2f}x")


def test_ray_overhead_against_local_processes():
    import ray
    import easel
    home = os.path.dirname(os.path.dirname(os.path.abspath(easel.__file__)))
    t0 = time.perf_counter()
    from easel.search.tournament.runner import neutral_directory
    with neutral_directory():
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
                 runtime_env={"env_vars": {"PYTHONPATH": home}})
    start = time.perf_counter() - t0
    try:
        timed_run(WORKLOAD, backend="ray", jobs=2)          # warm the Ray workers once
        overheads, local, remote, ul, ur = [], [], [], [], []
        for _ in range(ROUNDS):
            tl, games = timed_run(WORKLOAD, jobs=2)
            ul.append(LAST["utilization"])
            tr, _ = timed_run(WORKLOAD, backend="ray", jobs=2)
            ur.append(LAST["utilization"])
            local.append(tl)
            remote.append(tr)
            overheads.append(tr / tl - 1.0)
        tiny = {}
        for backend in ("local", "ray"):
            t, blocks = timed_run(TINY, backend=backend, jobs=2)
            tiny[backend] = t / (blocks / 2)
    finally:
        ray.shutdown()
    print(f"\nray vs local, 2 CPUs, {games} games: local {statistics.median(local):.2f} s, "
          f"ray {statistics.median(remote):.2f} s; overhead, median of per-round ratios: "
          f"{100 * statistics.median(overheads):+.1f}% (rounds: "
          f"{', '.join(f'{100 * o:+.1f}%' for o in overheads)}); ray.init took {start:.1f} s; "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"worker utilization (share of 2 x wall spent playing blocks): local "
          f"{statistics.median(ul):.3f}, ray {statistics.median(ur):.3f}; "
          f"overhead by utilization: {100 * (1 - statistics.median(ur) / statistics.median(ul)):+.1f}%")
    print(f"dispatch cost per block ({TINY['games_per_field'] // 2} blocks of two games of "
          f"about a millisecond): local {1000 * tiny['local']:.1f} ms, "
          f"ray {1000 * tiny['ray']:.1f} ms (wall per block, start-up included)")


# Blocks of almost no work: what handing out and collecting a block costs.
TINY = {"seed": 1, "games": ["pig(winscore=20)"], "format": "head-to-head",
        "bots": {"h": "heuristic", "r": "random"}, "games_per_field": 600,
        "report": {"bootstrap": 0}}


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
    ("couleurs_de_paris(players=2)", ["heuristic", "heuristic"]),
    ("couleurs_de_paris(players=2)", ["mcts(iterations=400,threads=1)"] * 2),
    ("couleurs_de_paris(players=4)", ["heuristic"] * 4),
    ("starving_artists(players=2)", ["heuristic", "heuristic"]),
    ("starving_artists(players=2)", ["mcts(iterations=400,threads=1)"] * 2),
    ("starving_artists(players=4)", ["heuristic"] * 4),
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
