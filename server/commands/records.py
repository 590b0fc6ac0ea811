"""`easel records convert|show`: game records files in either form
(search/recordfiles.py; the text form, Easel Game Notation, in docs/records.md)."""
from __future__ import annotations

import sys


def add_parser(sub):
    p = sub.add_parser(
        "records", help="convert game records between EGN text and JSON lines, or show them",
        description="Game records come in two forms, told apart by the file's name: "
                    "NAME.egn, Easel Game Notation (text a player reads, docs/records.md), "
                    "and NAME.jsonl, one JSON record per line (for programs). Both hold the "
                    "same records, field for field.")
    actions = p.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    c = actions.add_parser("convert", help="convert a records file into the other form",
                           description="Convert IN into OUT, the form of each by its name "
                                       "(.egn or .jsonl). Every game is replayed; the first "
                                       "that does not read is refused naming its line, and "
                                       "OUT is then left as it was.")
    c.add_argument("source", metavar="IN", help="the records file to read")
    c.add_argument("target", metavar="OUT", help="the records file to write (.egn or .jsonl)")
    _implementation(c)
    c.set_defaults(func=run_convert)
    s = actions.add_parser("show", help="print the games of a records file as EGN text",
                           description="Print every game of FILE (either form) as EGN text, "
                                       "itself a records file; with --positions, the "
                                       "position after each move too (for reading only).")
    s.add_argument("file", metavar="FILE", help="the records file (.egn, .jsonl)")
    s.add_argument("--game-index", type=int, metavar="K",
                   help="only game K of the file, counting from 0 in file order")
    s.add_argument("--positions", action="store_true",
                   help="after each move, the position it leads to")
    _implementation(s)
    s.set_defaults(func=run_show)


def _implementation(p):
    p.add_argument("--implementation", choices=["core", "reference"], default="core",
                   help="replay with the Cython core (default) or the Python reference")


def run_convert(args) -> int:
    from easel.search.recordfiles import convert, name_format
    if name_format(args.target) is None:
        from easel.search.records import RecordError
        raise RecordError(f"{args.target}: the name says no form; end it in .egn (text) or "
                          f".jsonl (JSON lines)")
    n = convert(args.source, args.target, args.implementation)
    print(f"{args.target}: {n} game(s) written", file=sys.stderr)
    return 0


def run_show(args) -> int:
    from easel.search import egn
    from easel.search.recordfiles import read_games
    from easel.search.records import RecordError
    if args.game_index is not None and args.game_index < 0:
        raise RecordError(f"--game-index must be 0 or more, got {args.game_index}")
    cache: dict = {}
    shown = bad = 0
    for k, (line_no, game) in enumerate(read_games(args.file, args.implementation, cache)):
        if args.game_index is not None and k != args.game_index:
            continue
        try:
            if isinstance(game, RecordError):
                raise game
            text = egn.dumps(game.record, args.implementation, cache)
            if args.positions:
                text = _with_positions(text, game.record, args.implementation, cache)
        except RecordError as e:
            where = "" if str(e).startswith("line ") else f"line {line_no}: "
            print(f"easel records: game {k}: {where}{e}", file=sys.stderr)
            bad += 1
            continue
        print(("\n" if shown else "") + text, end="")
        shown += 1
    if args.game_index is not None and shown + bad == 0:
        raise RecordError(f"{args.file} has no game {args.game_index}")
    return 1 if bad else 0


def _with_positions(text: str, record: dict, implementation: str, cache: dict) -> str:
    """The EGN text with the position after each move below its line."""
    from easel.search.records import load_game
    from easel.search.egn import layout
    game = load_game(record["game"], implementation, cache)
    state = game.new_initial_state()
    turns = iter(layout(record["steps"], game.num_players()))
    out = []
    for line in text.splitlines():
        out.append(line)
        if line[:1].isdigit() and ". " in line:
            turn = next(turns)
            for _, action in record["steps"][turn.start:turn.end]:
                state.apply_action(action)
            out += ["    " + row for row in str(state).rstrip().splitlines()]
    return "\n".join(out) + "\n"
