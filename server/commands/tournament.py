"""`easel tournament`: configured bot tournaments with a journal, exact resume,
fair seats, ratings and a report (search.tournament; docs/tournament.md)."""
from __future__ import annotations

import os
import signal
import sys
import threading

from easel.server.commands import bot_help


def add_parser(sub):
    p = sub.add_parser(
        "tournament", help="run a configured tournament (journal, resume, ratings, report)",
        description="Run the tournament a TOML (or JSON) configuration describes: many bots, "
                    "games and fields, duplicate blocks with fair seatings, an append-only "
                    "journal (resume a crashed run with --resume DIR), Elo/LOS/SPRT for pairs "
                    "and Plackett-Luce ratings with a seat term for fields of 3-5, and "
                    "report.html, results.json, games.csv and games.egn (every game as "
                    "text, docs/records.md) in the output directory. "
                    "See docs/tournament.md.")
    p.add_argument("config", nargs="?", help="the configuration file (.toml or .json)")
    p.add_argument("--out", metavar="DIR",
                   help="output directory (default: the config file's name without extension)")
    p.add_argument("--resume", metavar="DIR",
                   help="go on with the tournament journaled in DIR (its own configuration)")
    p.add_argument("--report", metavar="DIR", dest="report_only",
                   help="only rewrite results.json, games.csv, games.egn and report.html from "
                        "DIR's journal")
    p.add_argument("--backend", choices=["local", "ray"], help="override [run] backend")
    p.add_argument("--jobs", type=int, help="override [run] jobs (local worker processes)")
    p.add_argument("--address", help="override [run] address for Ray: auto, local, or ray://HOST:PORT")
    p.add_argument("--no-progress", action="store_true", help="no progress line")
    bot_help.add_bot_help(p)
    p.set_defaults(func=run)


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def run(args) -> int:
    from easel.search.tournament import config as config_mod
    from easel.search.tournament import runner
    given = [x for x in (args.config, args.resume, args.report_only) if x]
    if args.resume and args.report_only:
        raise runner.TournamentError("give --resume DIR or --report DIR, not both")
    if not given:
        raise runner.TournamentError("give a configuration file, --resume DIR or --report DIR")
    if args.jobs is not None and args.jobs < 1:
        raise runner.TournamentError(f"--jobs must be at least 1, got {args.jobs}")
    cfg = config_mod.load(args.config) if args.config else None
    if args.report_only:
        out = args.report_only
        cfg, journal = runner.open_run(cfg, out, resume=True)
        results = runner.results_mod.compute(cfg, runner.plan(cfg), journal.events)
    else:
        out = args.resume or args.out or os.path.splitext(os.path.basename(args.config))[0]
        cfg, journal = runner.open_run(cfg, out, resume=bool(args.resume))
        progress = None if args.no_progress else runner.Progress(sys.stderr)
        # A `kill` (SIGTERM) stops the run as Ctrl-C does, through the runner's
        # cleanup: its workers are stopped with it rather than left playing
        # their blocks with no one to journal them.
        main_thread = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGTERM, _interrupt) if main_thread else None
        try:
            results = runner.run(cfg, journal, backend=args.backend, jobs=args.jobs,
                                 address=args.address, progress=progress)
        except KeyboardInterrupt:
            print(f"easel tournament: interrupted; the journal in {out} keeps every finished "
                  f"block and game: easel tournament --resume {out}", file=sys.stderr)
            journal.close()
            return 130
        finally:
            if main_thread:
                signal.signal(signal.SIGTERM, previous)
    results = runner.finish(cfg, journal, out, results)
    journal.close()
    _print_summary(results, out)
    return 0


def _print_summary(res, out):
    p = res["progress"]
    print(f"{res['name']}: {p['games']} games in {p['blocks_counted']} blocks"
          f"{'' if p['complete'] else ' (not complete)'}; results in {out}/ "
          "(report.html, results.json, games.csv, games.egn, journal.jsonl)")
    print("Ratings, all games (Plackett-Luce with a seat term, Elo, 95% bootstrap interval):")
    for r in res["ratings"]["overall"]:
        span = f"[{r['low']:+.0f}, {r['high']:+.0f}]" if r["low"] is not None else ""
        print(f"  {r['bot']:<20} {r['elo']:+7.1f} {span:<14} {r['games']} games")
    for pr in res["pairs"]:
        if len(pr["bots"]) == 2 and (pr["pentanomial"] is not None or pr["sprt"]):
            los = f", LOS {pr['los']:.1%}" if pr["los"] is not None else ""
            sprt = ""
            if pr["sprt"]:
                sprt = f", SPRT {pr['sprt']['decision'] or 'undecided'} (LLR {pr['sprt']['llr']:.2f})"
            print(f"  {pr['game']}: {pr['bots'][0]} vs {pr['bots'][1]}: score "
                  f"{pr['score']['mean']:.3f}, Elo {pr['elo']:+.0f}{los}{sprt}")
    f = res["faults"]
    total = sum(sum(c.values()) for c in f["forfeits"].values())
    if total or f["worker_deaths"] or f["failed_blocks"]:
        print(f"Faults: {total} forfeit(s), {f['worker_deaths']} worker death(s), "
              f"{len(f['failed_blocks'])} failed block(s), quarantined: "
              f"{', '.join(q['bot'] for q in f['quarantined']) or 'none'}")
