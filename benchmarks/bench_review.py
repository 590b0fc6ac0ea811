"""How long a game review takes (search/review.py, docs/review.md): seconds
per reviewed turn and per whole game at the default budget
(review.DEFAULT_ITERATIONS iterations a turn, one thread), over games of
two equal searches. The target: a whole two-player Van Gogh game reviewed
in under 60 s on one core. Each game is played first (not timed), then
reviewed; the figures are wall clock and CPU seconds of the process (a
loaded machine inflates the first, hardly the second: the CPU seconds are
what one free core takes).

    python benchmarks/bench_review.py [--games N] [--game SPEC] [--iterations N]
    python -m pytest benchmarks/bench_review.py -s
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time

from easel import engine
from easel.search import review
from easel.search.arena import GameTask, play_game

PLAYERS = "mcts(iterations=1000)"     # the bots that play the reviewed games


def measure(spec: str = "vangogh", games: int = 3, iterations: int = review.DEFAULT_ITERATIONS,
            seed: int = 1) -> list[dict]:
    game = engine.load_game(spec)
    out = []
    for k in range(games):
        seats = tuple((i, PLAYERS, seed * 1000 + 10 * k + i) for i in range(game.num_players()))
        record = play_game(GameTask(k, k, 0, seed * 7919 + k, spec, "core", seats))
        reviewer = review.Reviewer(game, review.Settings(iterations=iterations, seed=seed + k))
        wall, cpu = time.perf_counter(), time.process_time()
        decisions = list(reviewer.review(record["steps"]))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        searched = [d for d in decisions if not d.forced]
        out.append({"turns": len(decisions), "searched": len(searched),
                    "second_searches": sum(d.source.startswith("searched") for d in decisions),
                    "wall": wall, "cpu": cpu,
                    "per_turn": wall / max(len(searched), 1),
                    "flagged": len(review.flagged(decisions)),
                    "by_points": sum(d.cause == "points" for d in review.flagged(decisions))})
    return out


def report(spec: str, rows: list[dict], iterations: int) -> str:
    lines = [f"{spec}: review at {iterations} iterations a turn, one thread, "
             f"{len(rows)} game(s) of {PLAYERS} self-play"]
    for i, r in enumerate(rows):
        lines.append(f"  game {i}: {r['turns']} turns ({r['searched']} searched, "
                     f"{r['second_searches']} second searches, {r['flagged']} flagged, "
                     f"{r['by_points']} by points): "
                     f"{r['wall']:.1f} s wall, {r['cpu']:.1f} s CPU, "
                     f"{1000 * r['per_turn']:.0f} ms a turn")
    lines.append(f"  median: {statistics.median(r['wall'] for r in rows):.1f} s wall a game, "
                 f"{statistics.median(r['cpu'] for r in rows):.1f} s CPU a game, "
                 f"{1000 * statistics.median(r['per_turn'] for r in rows):.0f} ms a turn")
    return "\n".join(lines)


def test_review_time_per_game():
    rows = measure(games=1)
    print("\n" + report("vangogh", rows, review.DEFAULT_ITERATIONS))
    assert rows[0]["searched"] > 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="vangogh")
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--iterations", type=int, default=review.DEFAULT_ITERATIONS)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rows = measure(args.game, args.games, args.iterations, args.seed)
    print(report(args.game, rows, args.iterations))
    return 0


if __name__ == "__main__":
    sys.exit(main())
