"""`easel matches list|export`: read a match database (also beside a running
server: read-only, no lock taken). `export` writes finished matches as game
records (JSON lines, the format `easel replay` validates)."""
from __future__ import annotations

import sys


def add_parser(sub):
    from easel.server.matches.store import default_path
    p = sub.add_parser("matches", help="list or export the matches of a match database",
                       description="Read a match database (see `easel serve --db`).")
    p.add_argument("action", choices=["list", "export"],
                   help="list: one line per match; export: finished matches as game records "
                        "(JSON lines) for `easel replay`")
    p.add_argument("--db", default=default_path(), help="the database (default %(default)s)")
    p.add_argument("-o", "--output", default="-", help="export: file to write (default stdout)")
    p.add_argument("--status", choices=["in_progress", "finished", "aborted", "expired"],
                   help="list: only matches with this status")
    p.set_defaults(func=run)


def run(args) -> int:
    from easel.engine.errors import EaselError
    from easel.server.matches.store import Store, StoreError
    try:
        store = Store(args.db, read_only=True)
    except StoreError as e:
        raise EaselError(str(e)) from None
    try:
        if args.action == "list":
            return _list(store, args.status)
        return _export(store, args.output)
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


def export_record(m, index: int) -> dict | None:
    """The game record of a match that was played to its end, else None."""
    from easel.search.records import RECORD_FORMAT
    if m.status != "finished" or not m.result or m.result.get("reason") != "game_over":
        return None
    return {
        "format": RECORD_FORMAT, "game": m.game, "index": index, "match_id": m.id,
        "seats": [{"seat": s.seat, "spec": s.bot if s.kind == "bot" else f"client:{s.name}",
                   "kind": s.kind} for s in m.seats],
        "steps": [[st.player, st.action] for st in m.steps],
        "returns": m.result["returns"], "scores": m.result.get("scores"),
        "decisions": sum(1 for st in m.steps if st.player >= 0),
        "chance": m.chance, "created_at": m.created_at,
    }


def _export(store, output) -> int:
    from easel.search.records import write_record
    f = sys.stdout if output == "-" else open(output, "w", encoding="utf-8")
    written = skipped = 0
    try:
        for mid in reversed(_ids(store, "finished")):      # oldest first
            rec = export_record(store.load(mid), written)
            if rec is None:
                skipped += 1
                continue
            write_record(f, rec)
            written += 1
    finally:
        if f is not sys.stdout:
            f.close()
    print(f"exported {written} finished match(es); {skipped} ended without reaching the "
          f"game's end (resigned, on time, failed bot) and have no full record",
          file=sys.stderr)
    return 0
