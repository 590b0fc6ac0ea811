"""`easel suggest GAME --record FILE`: ranked move suggestions for a position.

With --server HOST:PORT it asks that server. Without, it starts a private
in-process server on a free loopback port and asks it through the same
client, so both ways run exactly the same code path and limits.

The record file lists the steps since the initial state, one per line: an
action id or its text as `easel` writes it ("x in column 4", "roll", "Roll 4");
blank lines and lines starting with '#' are skipped. A file written by
`state.serialize()` (first line "easel-state-v1", then the game string) is
read too; its game string must then match GAME. "-" reads standard input.

A records file (EGN text or JSON lines, docs/records.md: what `easel arena
--records`, `easel tournament`, `easel play --save` and `easel matches
export` write) is read as well: its game string is the game (GAME may be left
out), --game-index K picks the game of a file of several, and --at N searches
the position after move N, numbered as the EGN text numbers its moves (the
end of the record by default).
--position TEXT gives the position in the game's table notation instead (for
games that have one); --position-file FILE reads that notation from a file.

With no budget (--iterations, --time) the search runs until its two leading
turns are told apart, within the server's default cap (search/separation.py),
and the output says when they were not. The answer is a row per whole turn:
win probability, visits, expected scores, the turn's steps and the line of
play after it (server/commands/hints.py; README, "Reading a hint"). --json
prints the SuggestResponse in protobuf's JSON mapping instead.

The private in-process server accepts data-file paths in game options (it
is this user's own command), and only from this process: it listens on a
loopback port and requires a random bearer token.
"""
from __future__ import annotations

import argparse
import math
import sys

from easel.engine import userfiles
from easel.engine.errors import StateFormatError
from easel.client.credentials import MAX_FILE_BYTES as MAX_POSITION_BYTES
from easel.server.commands import bot_help, connection


def add_parser(sub):
    p = sub.add_parser("suggest", help="suggest moves for a position (gRPC client)")
    add_arguments(p)
    p.set_defaults(func=run, ask=ask)


def add_arguments(p):
    """The position, search and server arguments of `suggest` (and of
    `analyze`, which asks for the same search as a stream)."""
    p.add_argument("game", nargs="?", default=None,
                   help="game string, e.g. connect_four or 'pig(players=3)' (from the record "
                        "when --record is a records file)")
    p.add_argument("--record", metavar="FILE", default=None,
                   help="steps since the initial state, one per line ('-': stdin), or a "
                        "records file (.egn, .jsonl); default: the initial position")
    p.add_argument("--at", type=int, metavar="N", default=None,
                   help="with a records file: the position after move N, as its EGN text "
                        "numbers the moves (0: after the chance before the first decision); "
                        "default: the end of the record")
    p.add_argument("--game-index", type=int, metavar="K", default=None,
                   help="with a records file of several games: game K, counting from 0 "
                        "in file order")
    p.add_argument("--position", metavar="TEXT", default=None,
                   help="the position in the game's table notation (instead of --record)")
    p.add_argument("--position-file", metavar="FILE", default=None,
                   help="the position in the game's table notation, read from FILE (a regular "
                        f"file of at most {MAX_POSITION_BYTES} bytes)")
    p.add_argument("--iterations", type=at_least(1), default=None,
                   help="iteration budget (default: until the two leading turns are told "
                        "apart, within the server's cap)")
    p.add_argument("--time", type=seconds, default=None,
                   help="time budget in seconds (default: as for --iterations)")
    p.add_argument("--seed", type=at_least(0), default=None)
    p.add_argument("--threads", type=at_least(0), default=0)
    p.add_argument("--top", type=at_least(0), default=5, help="candidates to show (0: all)")
    p.add_argument("--bot", default="", help="bot spec (default mcts)")
    p.add_argument("--server", metavar="HOST:PORT", default=None,
                   help="ask this server (default: start one in-process)")
    connection.add_arguments(p)
    p.add_argument("--json", action="store_true",
                   help="print the answer as JSON (protobuf's JSON mapping of the response)")
    bot_help.add_bot_help(p)


def at_least(low: int):
    """An argparse type: an integer of at least `low` (argparse names the
    option and exits with status 2)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be an integer, got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {value}")
        return value
    return parse


def seconds(text: str) -> float:
    """An argparse type: a positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, got {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text!r}")
    return value


def read_position_file(path: str) -> str:
    """The table notation in --position-file: a regular file (not a FIFO or
    a device, which could block or never end) of at most MAX_POSITION_BYTES,
    UTF-8 text; errors name the flag and the file."""
    from easel.client.credentials import read_file
    try:
        data = read_file(path, "position file")
    except ValueError as e:
        raise connection.ClientOptionsError(f"--position-file: {e}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise connection.ClientOptionsError(f"--position-file: {path!r} is not UTF-8 text "
                                            f"(byte {e.start})") from None


def _need_game(args) -> str:
    if not args.game:
        raise StateFormatError("the game string is needed (e.g. easel suggest connect_four), "
                               "unless --record is a records file (.egn, .jsonl)")
    return args.game


def _read_input(name: str) -> bytes:
    """The bytes of the --record file, or of standard input for '-'. Read
    through the one opener of records files (search/records.record_lines):
    a regular file under its cap."""
    if name == "-":         # standard input, capped as a steps file is
        return userfiles.read_stream(sys.stdin, "the --record file", userfiles.STEPS_FILES,
                                     StateFormatError).encode()
    from easel.search.recordfiles import name_format
    if name_format(name) is None:       # a steps file: its own, smaller cap
        return userfiles.read_bytes(name, "the --record file", userfiles.STEPS_FILES,
                                    StateFormatError)
    from easel.search.records import record_lines
    return b"".join(record_lines(name, "the --record file"))


def read_record(text: str, game: str) -> list:
    lines = [ln.strip() for ln in text.splitlines()]
    lines = [ln for ln in lines if ln and not ln.startswith("#")]
    if lines and lines[0] == "easel-state-v1":
        from easel import engine
        if len(lines) < 2:
            raise StateFormatError("record: the game string line is missing after easel-state-v1")
        want, have = engine.load_game(game).spec, engine.load_game(lines[1]).spec
        if want != have:
            raise StateFormatError(f"record is for {have!r}, not {want!r}")
        lines = lines[2:]
    return [int(ln) if ln.lstrip("-").isdigit() else ln for ln in lines]


def pick_game(data: bytes, name: str, index: int | None, cache: dict | None = None):
    """Game `index` of a records file's bytes (the only one if None), read
    (an EGN game replayed as it is read): a search.egn.ParsedGame, or a
    StateFormatError naming the file, the game and what is wrong."""
    from easel.search.recordfiles import name_format, parse_games
    from easel.search.records import RecordError
    if index is not None and index < 0:
        raise StateFormatError(f"--game-index must be 0 or more, got {index}")
    chosen, count = None, 0
    for k, (line_no, parsed) in enumerate(parse_games(data.splitlines(keepends=True),
                                                      name_format(name),
                                                      cache={} if cache is None else cache)):
        count += 1
        if index is None and k > 0:
            raise StateFormatError(f"{name} holds more than one game; choose one with "
                                   f"--game-index K (0 for the first)")
        if index is None or k == index:
            if isinstance(parsed, RecordError):
                raise StateFormatError(f"{name}: game {k}: {parsed}")
            chosen = parsed
            if index is not None:
                break
    if chosen is None:
        raise StateFormatError(f"{name} has no game {index} (it holds {count})" if count
                               else f"{name} holds no game")
    return chosen


def record_file_steps(data: bytes, name: str, game: str | None, index: int | None,
                      at: int | None) -> tuple[str, list]:
    """(game string, action ids) of the position a records file names: game
    `index` of the file (the only one if None), after move `at` (the end if None)."""
    from easel import engine
    from easel.search.recordfiles import steps_at
    from easel.search.records import RecordError
    cache: dict = {}
    chosen = pick_game(data, name, index, cache)
    spec = chosen.record.get("game")
    if game is not None and engine.load_game(game).spec != engine.load_game(spec).spec:
        raise StateFormatError(f"{name}: the record is of {spec!r}, not {game!r}")
    try:
        return spec, steps_at(chosen, at, cache=cache)
    except RecordError as e:
        raise StateFormatError(f"{name}: game {index or 0}, line {chosen.line}: {e}") from None


def run(args) -> int:
    import secrets

    import grpc

    from easel.v1 import engine_pb2 as pb
    from easel.client import EngineClient

    if args.position is not None and args.record:
        print("easel suggest: error: give --record or --position, not both", file=sys.stderr)
        return 2
    options = connection.channel_options(args)     # before anything is read or started
    steps, from_records = [], False
    if args.record:
        from easel.search.recordfiles import looks_like_records, name_format
        data = _read_input(args.record)
        from_records = (name_format(args.record) is not None
                        or looks_like_records(data[:4096]))
        if from_records:
            args.game, steps = record_file_steps(data, args.record, args.game,
                                                 args.game_index, args.at)
        else:
            steps = read_record(data.decode("utf-8", errors="replace"), _need_game(args))
    if (args.at is not None or args.game_index is not None) and not from_records:
        raise StateFormatError("--at and --game-index read a records file: give it with "
                               "--record FILE (.egn, .jsonl)")
    _need_game(args)
    position_msg = None
    if args.position is not None:
        position_msg = pb.Position(notation=pb.TableNotation(game=args.game, text=args.position))
    if args.position_file is not None:
        if args.position is not None or args.record:
            print(f"easel {args.command}: error: give one of --record, --position and "
                  f"--position-file", file=sys.stderr)
            return 2
        position_msg = pb.Position(notation=pb.TableNotation(
            game=args.game, text=read_position_file(args.position_file)))
    local = None
    target = args.server
    if target is None:
        from easel.server.datafiles import DataFiles
        from easel.server.service import build_server
        options["token"] = secrets.token_urlsafe(24)
        local = build_server(port=0, files=DataFiles(allow_paths=True),
                             auth_token=options["token"],
                             limits=getattr(args, "private_limits", None)).start()
        target = f"127.0.0.1:{local.port}"
    try:
        with EngineClient(target, timeout=None, **options) as client:
            try:
                return args.ask(client, args, steps, position_msg)
            except grpc.RpcError as e:
                print(f"easel {args.command}: {e.code().name}: {e.details()}"
                      f"{connection.hint(e, args)}", file=sys.stderr)
                return 2
    finally:
        if local is not None:
            local.stop(grace=0)


def search_settings(args) -> dict:
    """The search the command's arguments ask for, as EngineClient takes it."""
    return dict(iterations=args.iterations, seconds=args.time, seed=args.seed,
                threads=args.threads, num_candidates=args.top, bot=args.bot)


def ask(client, args, steps, position_msg) -> int:
    """`easel suggest`: one Suggest, printed as rows (or JSON)."""
    from google.protobuf import json_format

    from easel.server.commands import hints
    r = client.suggest_response(args.game, steps, position_msg=position_msg,
                                **search_settings(args))
    if args.json:
        print(json_format.MessageToJson(r, always_print_fields_with_no_presence=True))
    else:
        print(hints.render(r.analysis, r.position.game, r.stop_reason))
    return 0
