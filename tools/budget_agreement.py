"""How often a smaller iteration budget chooses the move a larger one chooses.

    python tools/budget_agreement.py RECORDS --top 70000 --budgets 1000,2500,11000
        [--positions 60] [--first K] [--seed 5]

RECORDS is an arena records file (`easel arena ... --records FILE`); its
game is the one its first record names. The tool draws `--positions`
decision positions from its games (a game at random, a step at random,
kept when a player is to move with two legal moves or more), searches each
with the default search at `--top` iterations under two seeds (11 and 12),
and at each of `--budgets` under two other seeds (21 and 22: never a seed
of the top search, whose first iterations a smaller search with the same
seed would repeat), every search on a fresh tree. It prints, per budget, the
share of the four (small, top) pairs that chose the same move, and the
share of positions where the two top searches agree: a budget can agree
with the top search no more often than that, on average, once the top
search's own seed noise is what is left.

It reads what a larger budget changes, not whether the change is better:
docs/strength.md ("Level 10 against level 9 with four players") sets it
beside the head-to-head results. `--first K` uses only the first K records,
so that a records file still growing gives the same positions later.

A tool on top of the layers (docs/design.md): it needs an installed Easel,
or a clone built in place with PYTHONPATH=. .
"""
from __future__ import annotations

import argparse
import random
import sys

from easel.engine.registry import load_game
from easel.search.records import RecordError, read_records
from easel.search.specs import make_bot

TOP_SEEDS = (11, 12)
SMALL_SEEDS = (21, 22)


def positions(game, records: list[dict], count: int, seed: int) -> list:
    """`count` decision positions with two legal moves or more, drawn from
    the records' games."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        steps = rng.choice(records)["steps"]
        k = rng.randrange(len(steps))
        if steps[k][0] < 0:
            continue
        state = game.new_initial_state()
        for _, action in steps[:k]:
            state.apply_action(action)
        if len(state.legal_actions()) < 2:
            continue
        out.append(state)
    return out


def move(game, state, iterations: int, seed: int) -> int:
    return make_bot(f"mcts(iterations={iterations})", game, seed=seed).step(state.clone())


def agreement(game, states, top: int, budgets: list[int], progress=None) -> dict:
    """{"top": share of positions where the two top searches agree, budget:
    share of (small, top) pairs that agree}."""
    hits = {"top": 0.0, **{b: 0.0 for b in budgets}}
    for i, state in enumerate(states, start=1):
        tops = [move(game, state, top, s) for s in TOP_SEEDS]
        hits["top"] += tops[0] == tops[1]
        for b in budgets:
            smalls = [move(game, state, b, s) for s in SMALL_SEEDS]
            hits[b] += sum(x == y for x in smalls for y in tops) / (len(smalls) * len(tops))
        if progress is not None:
            progress(i, {k: v / i for k, v in hits.items()})
    return {k: v / len(states) for k, v in hits.items()}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("records", help="an arena records file (JSON lines)")
    ap.add_argument("--top", type=int, required=True, help="the larger budget (iterations)")
    ap.add_argument("--budgets", required=True,
                    help="the smaller budgets, comma-separated (e.g. 1000,2500)")
    ap.add_argument("--positions", type=int, default=60, help="positions drawn (default 60)")
    ap.add_argument("--first", type=int, default=None, help="use only the first K records")
    ap.add_argument("--seed", type=int, default=5, help="seed of the draw of positions")
    ap.add_argument("--quiet", action="store_true", help="no line per position")
    args = ap.parse_args(argv)
    try:
        budgets = [int(x) for x in args.budgets.split(",") if x.strip()]
    except ValueError:
        ap.error(f"--budgets: {args.budgets!r} is not a comma-separated list of integers")
    if args.top < 1 or not budgets or min(budgets) < 1 or args.positions < 1:
        ap.error("--top, every --budgets entry and --positions must be at least 1")
    records = []
    for _, rec in read_records(args.records):
        if isinstance(rec, RecordError):
            ap.error(str(rec))
        records.append(rec)
    if args.first is not None:
        records = records[:args.first]
    if not records:
        ap.error(f"{args.records}: no records")
    game = load_game(records[0]["game"])
    states = positions(game, records, args.positions, args.seed)

    def show(i, so_far):
        if not args.quiet:
            print(i, {k: round(v, 3) for k, v in so_far.items()}, flush=True)

    result = agreement(game, states, args.top, budgets, show)
    print(f"{records[0]['game']}, {len(records)} games, {len(states)} positions")
    print(f"| budget | chooses the {args.top:,}-iteration move |")
    print("| --- | --- |")
    print(f"| {args.top:,} (another seed) | {result['top']:.3f} |")
    for b in sorted(budgets, reverse=True):
        print(f"| {b:,} | {result[b]:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
