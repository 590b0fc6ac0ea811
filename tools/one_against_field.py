"""One bot against a field of copies of another, read from arena records.

    python tools/one_against_field.py RECORDS [RECORDS ...]

For runs such as `easel arena "vangogh(players=4)" --bots "level(10)"
"level(9)" "level(9)" "level(9)" --records F`, where bot 0 meets three
bots that are one spec: the arena reports bot 0 against each of the three
apart, and this pools them. Per records file it prints the share of bot 0's
meetings with the others that it finished ahead of (ties half; par 0.5),
its share of the wins (ties split; par 1 / players), and its mean rank
(par (players + 1) / 2). The interval is over the duplicate blocks when
there are 5 or more complete ones (a block's games share their chance
outcomes, so they are not independent), else over the games, and says
which. docs/strength.md ("Level 10 against level 9 with four players")
prints these.

A tool on top of the layers (docs/design.md): it reads records only, with
search/stats.py's scoring, so it needs no build of the games.
"""
from __future__ import annotations

import argparse
import sys
from collections import defaultdict

from easel.search.records import RecordError, read_records
from easel.search.stats import head_score, interval, seat_outcomes

MIN_BLOCKS = 5


def read(path: str) -> list[dict]:
    """The records of a JSON-lines file, through the project's reader (a
    bad line is an error naming its line)."""
    out = []
    for _, rec in read_records(path):
        if isinstance(rec, RecordError):
            raise rec
        out.append(rec)
    return out


def pooled(records: list[dict]) -> dict:
    """Bot 0 against every other bot of the records, pooled."""
    if not records:
        raise ValueError("no records")
    rows = []
    for rec in records:
        seats = [s["seat"] for s in rec["seats"] if s["bot"] == 0]
        if len(seats) != 1:
            raise ValueError(f"game {rec.get('index')}: bot 0 holds {len(seats)} seats, not one")
        others = sorted({s["bot"] for s in rec["seats"]} - {0})
        ahead = sum(head_score(rec, 0, b) for b in others) / len(others)
        won, rank, _ = seat_outcomes(rec["returns"])[seats[0]]
        rows.append((rec.get("block", 0), ahead, won, rank))
    blocks = defaultdict(list)
    for block, ahead, _, _ in rows:
        blocks[block].append(ahead)
    size = max(len(v) for v in blocks.values())
    complete = [sum(v) / len(v) for v in blocks.values() if len(v) == size]
    by_blocks = len(complete) >= MIN_BLOCKS
    units = complete if by_blocks else [a for _, a, _, _ in rows]
    spread = interval(units, bounds=(0.0, 1.0))
    n = len(rows)
    return {"games": n, "players": len(records[0]["returns"]),
            "ahead": sum(a for _, a, _, _ in rows) / n,
            "low": spread["low"], "high": spread["high"],
            "over": f"{len(complete)} blocks" if by_blocks else "games",
            "won": sum(w for _, _, w, _ in rows) / n,
            "rank": sum(k for *_, k in rows) / n}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("records", nargs="+", help="arena records files (JSON lines)")
    args = ap.parse_args(argv)
    print("| records | games | finished ahead [95%] | won | mean rank |")
    print("| --- | --- | --- | --- | --- |")
    for path in args.records:
        try:
            p = pooled(read(path))
        except (OSError, ValueError, KeyError, TypeError, RecordError) as e:
            print(f"{path}: {e}", file=sys.stderr)
            return 2
        spread = ("" if p["low"] is None
                  else f" [{p['low']:.3f}, {p['high']:.3f}] over {p['over']}")
        print(f"| {path} | {p['games']} | {p['ahead']:.3f}{spread} | {p['won']:.3f} "
              f"| {p['rank']:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
