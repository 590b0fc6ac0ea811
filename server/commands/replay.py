"""`easel replay`: re-run game records through the engine and validate them."""
from __future__ import annotations

import sys
from collections import Counter


def add_parser(sub):
    p = sub.add_parser(
        "replay", help="validate a game-records file by replaying every game",
        description="Replay every record of a records file (as written by `easel arena "
                    "--records`): each step must be legal for the player recorded, and the "
                    "final returns and scores must match. Exits 1 if any record is invalid.")
    p.add_argument("file", help="records file (JSON lines)")
    p.add_argument("--implementation", choices=["core", "reference"], default="core",
                   help="replay with the Cython core (default) or the Python reference")
    p.add_argument("--max-errors", type=int, default=20, help="errors to print (default 20)")
    p.set_defaults(func=run)


def run(args) -> int:
    from easel.search.records import RecordError, read_records, validate_record
    from easel.search.stats import seat_outcomes
    cache: dict = {}
    valid, errors = 0, []
    games, steps = Counter(), 0
    wins = Counter()
    # A file that is not read (missing, a FIFO, over RECORD_FILES) is a
    # RecordError naming it (engine/userfiles.py).
    source = list(read_records(args.file))
    for line_no, record in source:
        try:
            if isinstance(record, RecordError):
                raise record
            result = validate_record(record, line_no, args.implementation, cache)
        except RecordError as e:
            errors.append(str(e))
            continue
        valid += 1
        games[result.game] += 1
        steps += result.steps
        for seat, (share, _, _) in enumerate(seat_outcomes(record["returns"],
                                                           record.get("scores"))):
            wins[record["seats"][seat].get("spec", f"seat {seat}")] += share
    total = valid + len(errors)
    print(f"{args.file}: {total} record(s), {valid} valid, {len(errors)} invalid "
          f"({args.implementation} implementation)")
    for g, n in sorted(games.items()):
        print(f"  {g}: {n} game(s)")
    if valid:
        print(f"  {steps} steps replayed; wins (ties shared): " +
              ", ".join(f"{k} {v:.1f}" for k, v in sorted(wins.items())))
    for text in errors[:args.max_errors]:
        print(f"invalid: {text}", file=sys.stderr)
    if len(errors) > args.max_errors:
        print(f"... and {len(errors) - args.max_errors} more invalid record(s)", file=sys.stderr)
    if total == 0:
        print(f"easel replay: {args.file} holds no records", file=sys.stderr)
        return 1
    return 1 if errors else 0
