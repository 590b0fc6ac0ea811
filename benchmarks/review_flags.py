"""What a game review flags (search/review.py, docs/review.md, "What the
review can tell"): games of two bots played by the arena (seats rotated),
each reviewed at a budget, and per bot the flagged turns over the turns
reviewed, with the drop that decided each flag (win probability, expected
result or points). The table of docs/review.md is made with it.

    python benchmarks/review_flags.py --game vangogh --bots random "mcts(iterations=1000)" \\
        --games 4 [--iterations 1500] [--seed 3] [--records FILE]
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from easel import engine
from easel.search import review
from easel.search.arena import run_arena


def tally(records, iterations: int, seed: int = 1) -> dict:
    """{bot spec: {"flagged", "turns", "causes": Counter, "seats": {seat: [flagged, turns]}}}
    over the records, each reviewed with `iterations` a turn (review seed
    `seed`, as tests/search/test_review.py reviews)."""
    out: dict = {}
    for rec in records:
        game = engine.load_game(rec["game"])
        reviewer = review.Reviewer(game, review.Settings(iterations=iterations, seed=seed))
        decisions = list(reviewer.review(rec["steps"]))
        for p in range(game.num_players()):
            spec = rec["seats"][p]["spec"]
            mine = [d for d in decisions if d.player == p and not d.forced]
            flags = review.flagged(mine)
            t = out.setdefault(spec, {"flagged": 0, "turns": 0, "causes": Counter(),
                                      "seats": {}})
            t["flagged"] += len(flags)
            t["turns"] += len(mine)
            t["causes"].update(d.cause for d in flags)
            seat = t["seats"].setdefault(p, [0, 0])
            seat[0] += len(flags)
            seat[1] += len(mine)
    return out


def report(result: dict) -> str:
    lines = []
    for spec, t in result.items():
        causes = ", ".join(f"{n} by {c}" for c, n in sorted(t["causes"].items())) or "none"
        seats = ", ".join(f"seat {p + 1}: {f}/{n}" for p, (f, n) in sorted(t["seats"].items()))
        lines.append(f"{spec}: {t['flagged']}/{t['turns']} flagged ({causes}; {seats})")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="vangogh")
    ap.add_argument("--bots", nargs=2, default=["random", "mcts(iterations=1000)"])
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--seed", type=int, default=3, help="the arena's seed")
    ap.add_argument("--iterations", type=int, default=review.DEFAULT_ITERATIONS,
                    help="the review's budget per turn")
    ap.add_argument("--records", help="keep the games' records in this file")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(args.records or Path(tmp) / "games.jsonl")
        run_arena(args.game, args.bots, games=args.games, seed=args.seed,
                  records_path=str(path))
        records = [json.loads(line) for line in path.read_text().splitlines()]
        cpu = time.process_time()
        result = tally(records, args.iterations)
        cpu = time.process_time() - cpu
    print(f"{args.game}: {args.games} game(s), review at {args.iterations} iterations a turn "
          f"({cpu:.1f} s CPU)")
    print(report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
