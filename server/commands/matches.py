"""`easel matches list|export`: read a match database (also beside a running
server: read-only, no lock taken). `export` writes finished matches as game
records, JSON lines or EGN text by the output's name (docs/records.md), the
files `easel replay` validates."""
from __future__ import annotations

import sys


def add_parser(sub):
    from easel.server.matches.store import default_path
    p = sub.add_parser("matches", help="list or export the matches of a match database",
                       description="Read a match database (see `easel serve --db`).")
    p.add_argument("action", choices=["list", "export"],
                   help="list: one line per match; export: finished matches as game records "
                        "for `easel replay`")
    p.add_argument("--db", default=default_path(), help="the database (default %(default)s)")
    p.add_argument("-o", "--output", default="-",
                   help="export: file to write, EGN text if it ends in .egn (docs/records.md), "
                        "else JSON lines (default: JSON lines on stdout)")
    p.add_argument("--status", choices=["in_progress", "finished", "aborted", "expired"],
                   help="list: only matches with this status")
    p.set_defaults(func=run)


def run(args) -> int:
    from easel.engine.errors import EaselError
    from easel.server.matches.errors import DatabaseFailed
    from easel.server.matches.store import Store, StoreError
    try:
        store = Store(args.db, read_only=True)
    except StoreError as e:
        raise EaselError(str(e)) from None
    try:
        if args.action == "list":
            return _list(store, args.status)
        return _export(store, args.output)
    except DatabaseFailed as e:     # damaged (or unreadable) since the check at open
        raise EaselError(f"{args.db}: {e}") from None
    finally:
        store.close()


def _ids(store, status):
    out, before = [], None
    while True:
        rows = store.list(status, 500, before)
        out += [r[0] for r in rows]
        if len(rows) < 500:
            return out
        before = rows[-1][1]


def _list(store, status) -> int:
    import time
    for mid in _ids(store, status):
        m = store.load(mid)
        seats = ", ".join(s.bot if s.kind == "bot" else f"client:{s.name}" for s in m.seats)
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(m.created_at))
        end = f" {m.result['reason']}" if m.result else ""
        print(f"{m.id}  {when}  {m.game}  {m.status}{end}  {len(m.steps)} steps  [{seats}]")
    return 0


def _export(store, output) -> int:
    from easel.search.recordfiles import write_atomically
    from easel.search.records import write_record
    from easel.server.matches.records import match_record, played_to_the_end
    written = skipped = 0

    def records():
        nonlocal written, skipped
        for mid in reversed(_ids(store, "finished")):      # oldest first
            m = store.load(mid)
            if not played_to_the_end(m):
                skipped += 1
                continue
            yield f"match {mid}", match_record(m, written)
            written += 1
    if output == "-":
        for _, rec in records():
            write_record(sys.stdout, rec)
    else:
        write_atomically(output, records())
    print(f"exported {written} finished match(es); {skipped} ended without reaching the "
          f"game's end (resigned, on time, failed bot) and have no full record"
          + ("" if output == "-" else f"; written to {output}"), file=sys.stderr)
    return 0
