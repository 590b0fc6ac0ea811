"""`easel arena`: bot-versus-bot tournaments in duplicate blocks (search.arena)."""
from __future__ import annotations

import json
import sys

from easel.server.commands import bot_help


def add_parser(sub):
    p = sub.add_parser(
        "arena", help="play bots against each other: ratings, seat balance, game records",
        description="Play bot-versus-bot games in duplicate blocks (one seed per block, every "
                    "seat rotation, the same chance outcomes within a block) and report win "
                    "rate, mean rank and score margin with 95% intervals, head-to-head scores "
                    "and Elo for every pair of bots, Bradley-Terry ratings for more than two, "
                    "and per-seat results.")
    p.add_argument("game", help="game string, e.g. pig or 'vangogh(players=3)'")
    p.add_argument("--bots", nargs="+", required=True, metavar="SPEC",
                   help="bot specs: random, greedy, heuristic, 'mcts(iterations=4000,threads=2)'")
    p.add_argument("--games", type=int, default=100,
                   help="number of games (rounded up to whole duplicate blocks; default 100)")
    p.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    p.add_argument("--jobs", type=int, default=1, help="games played in parallel processes")
    p.add_argument("--json", metavar="FILE", help="write the results as JSON ('-' for stdout)")
    p.add_argument("--records", metavar="FILE",
                   help="write every game to FILE: as EGN text if it ends in .egn "
                        "(docs/records.md), else as a JSON line")
    p.add_argument("--resume", action="store_true",
                   help="go on with an interrupted run: keep the games its --records FILE "
                        "holds (either form; checked against this run's plan and replayed), "
                        "play the rest and append them; give the same game, bots, --games "
                        "and --seed")
    p.add_argument("--implementation", choices=["core", "reference"], default="core",
                   help="play the Cython core (default) or the Python reference")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--sprt", nargs=2, type=float, metavar=("ELO0", "ELO1"),
                   help="two bots: stop once a sequential probability ratio test accepts "
                        "H0 (the first bot is ELO0 stronger) or H1 (ELO1 stronger); --games "
                        "is then the most played")
    p.add_argument("--alpha", type=float, default=0.05,
                   help="SPRT false-positive rate (default 0.05)")
    p.add_argument("--beta", type=float, default=0.05,
                   help="SPRT false-negative rate (default 0.05)")
    bot_help.add_bot_help(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from easel.search.arena import format_report, run_arena
    result = run_arena(args.game, args.bots, games=args.games, seed=args.seed, jobs=args.jobs,
                       records_path=args.records, implementation=args.implementation,
                       resume=args.resume,
                       progress=not args.no_progress and sys.stderr.isatty(),
                       sprt=(None if args.sprt is None else
                             {"elo0": args.sprt[0], "elo1": args.sprt[1],
                              "alpha": args.alpha, "beta": args.beta}))
    summary = result.summary
    if args.json == "-":
        print(json.dumps(summary, indent=2))
    else:
        print(format_report(summary))
        if args.json:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump(summary, f, indent=2)
                f.write("\n")
    if result.interrupted:
        print(f"easel arena: interrupted; {summary['games']} finished game(s) reported",
              file=sys.stderr)
        return 130
    return 0
