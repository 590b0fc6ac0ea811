"""`easel replay`: re-run game records through the engine and validate them,
from a records file of either form (JSON lines, or EGN text: docs/records.md)."""
from __future__ import annotations

import sys
from collections import Counter


def add_parser(sub):
    p = sub.add_parser(
        "replay", help="validate a game-records file by replaying every game",
        description="Replay every record of a records file (as written by `easel arena "
                    "--records`, `easel tournament`, `easel play --save` or `easel matches "
                    "export`): each step must be legal for the player recorded, and the "
                    "final returns and scores must match. Exits 1 if any record is invalid.")
    p.add_argument("file", help="records file: NAME.egn (Easel Game Notation, text) or "
                                "NAME.jsonl (JSON lines); another name is read by its content")
    p.add_argument("--implementation", choices=["core", "reference"], default="core",
                   help="replay with the Cython core (default) or the Python reference")
    p.add_argument("--max-errors", type=int, default=20, help="errors to print (default 20)")
    p.set_defaults(func=run)


def run(args) -> int:
    from easel.search.recordfiles import read_records
    from easel.search.records import RecordError, validate_record
    from easel.search.stats import seat_outcomes
    cache: dict = {}
    valid, errors = 0, []
    games, steps = Counter(), 0
    wins = Counter()
    # A file that is not read (missing, not a regular file, over its cap)
    # is a RecordError naming it (search/records.record_lines).
    for line_no, record in read_records(args.file, args.implementation, cache):
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
