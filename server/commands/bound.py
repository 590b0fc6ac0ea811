"""`easel bound`: the clairvoyant bound of a solo game (search.clairvoyant).

A command of its own, not a bot spec: the clairvoyant player is told the
real future draws, so it must never be seated in an arena, a tournament, a
hosted match or the server's Suggest; only this command's game loop, which
owns the chance stream, can give it the future."""
from __future__ import annotations

import json
import sys


def add_parser(sub):
    p = sub.add_parser(
        "bound", help="the clairvoyant bound of a solo game: a search told the real future",
        description="Play solo games with a search that is told the game's real future "
                    "draws (an analysis tool; it can never play a match) and report its win "
                    "rate, score and final day: what no player who cannot see the future "
                    "can beat. --vs plays ordinary bots on the same worlds for comparison.")
    p.add_argument("game", help="a solo game string, e.g. 'starving_artists(players=1)'")
    p.add_argument("--iterations", type=int, default=2000,
                   help="iterations of the clairvoyant search per decision (default 2000)")
    from easel.search import params         # the tree's options, named once there
    tree = ", ".join(p.name for p in params.MCTS.values() if p.tree and p.name != "form")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help=f"a search option of the clairvoyant ({tree}); the game's defaults "
                        f"otherwise")
    p.add_argument("--vs", nargs="*", default=[], metavar="SPEC",
                   help="bot specs to play on the same worlds, e.g. 'mcts(iterations=2000)'")
    from easel.search.clairvoyant import DRAWS, FOLLOW
    p.add_argument("--draws", choices=DRAWS, default="fixed",
                   help="how a world's future is fixed: 'fixed' (default), each source of chance "
                        "(bag, deck, die) a sequence of its own, so the j-th card turned up is "
                        "the same whatever the player does; 'shared', one sequence for every "
                        "chance event, as journals before 2026-12-06 were played (a search told "
                        "that future can choose its cards by the cubes it draws first)")
    p.add_argument("--follow", choices=FOLLOW, default="tree",
                   help="how the clairvoyant chooses: 'tree' (default, as every journal "
                        "before 2026-12-06 was played), the most visited move of each "
                        "decision's search; 'line', the best finished line any of its "
                        "playouts has found so far (in a world told in full a line replays to "
                        "its end, so the game ends at least as well as the best playout): the "
                        "stronger estimate of the bound")
    p.add_argument("--games", type=int, default=100, help="worlds to play (default 100)")
    p.add_argument("--seed", type=int, default=0, help="master seed of the worlds (default 0)")
    p.add_argument("--jobs", type=int, default=1, help="games played in parallel processes")
    p.add_argument("--records", metavar="FILE", help="write every game as a JSON line")
    p.add_argument("--resume", action="store_true",
                   help="keep the games the --records FILE already holds for this run (the "
                        "same worlds, players and resolved search options) and play only the "
                        "rest")
    p.add_argument("--json", metavar="FILE", help="write the summary as JSON ('-' for stdout)")
    p.set_defaults(func=run)


def _options(pairs) -> dict:
    from easel.search.clairvoyant import ClairvoyantError
    out = {}
    for pair in pairs:
        key, eq, text = pair.partition("=")
        if not eq or not key.strip():
            raise ClairvoyantError(f"--set {pair!r}: write KEY=VALUE, e.g. --set uct_c=0.5")
        value: object = text.strip()
        for kind in (int, float):
            try:
                value = kind(text)
                break
            except ValueError:
                pass
        out[key.strip()] = value
    return out


def _row(who: str, s: dict) -> str:
    lo, hi = s["win_ci"]
    row = (f"  {who}: {s['games']} games, won {s['win_rate']:.3f} "
           f"[{lo if lo is not None else float('nan'):.3f}, "
           f"{hi if hi is not None else float('nan'):.3f}]")
    for name in ("score", "day"):
        if name in s:
            q = s[name]
            row += (f"; {name} median {q['median']:g} (quartiles {q['quartiles'][0]:g}-"
                    f"{q['quartiles'][1]:g}, range {q['range'][0]:g}-{q['range'][1]:g}, "
                    f"mean {q['mean']:.2f})")
    if "cpu_a_decision" in s:
        row += f"; {s['cpu_a_decision']:.3f} CPU s a searched decision"
    return row


def format_summary(summary: dict) -> str:
    lines = [f"{summary['game']}: clairvoyant at {summary['iterations']} iterations a decision, "
             f"{summary['draws']} draws, following its {summary['follow']}"
             + (f" ({', '.join(f'{k}={v}' for k, v in summary['options'].items())})"
                if summary["options"] else "") + f", seed {summary['seed']}"]
    lines += [_row(who, s) for who, s in summary["players"].items()]
    if "best" in summary:
        lines.append(_row("the best game of each world (any player above, chosen knowing "
                          "the future)", summary["best"]))
    return "\n".join(lines)


def run(args) -> int:
    from easel.search.clairvoyant import run_bound
    progress = sys.stderr.isatty()

    def tick(rec):
        if progress:
            print(f"\r{rec['player'][:30]} world {rec['index']}: {rec['returns'][0]:+.3f}",
                  end="", file=sys.stderr, flush=True)

    def stale(n):
        print(f"{args.records}: {n} games of this run were played with other options than "
              f"this code resolves (or recorded none, written before options were recorded) "
              f"or other --draws or --follow; playing them again, not mixing them in", file=sys.stderr)

    summary = run_bound(args.game, iterations=args.iterations, games=args.games, seed=args.seed,
                        options=_options(args.set), vs=args.vs, jobs=args.jobs,
                        records_path=args.records, resume=args.resume, on_record=tick,
                        on_stale=stale, draws=args.draws, follow=args.follow)
    if progress:
        print(file=sys.stderr)
    if args.json == "-":
        print(json.dumps(summary, indent=2))
        return 0
    print(format_summary(summary))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(summary, f, indent=2)
            f.write("\n")
    return 0
