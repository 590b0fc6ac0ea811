"""`easel review RECORD`: every turn of a recorded game searched and judged,
as a game review does (search/review.py; docs/review.md).

The record is a records file of either form (EGN text or JSON lines,
docs/records.md); --game-index K picks the game of a file of several. Each
turn is searched with the budget per turn (--iterations, --time; default
search.review.DEFAULT_ITERATIONS iterations), its played turn's win
probability set against the best turn's, and the loss classified. Printed:
a table of the turns (all, or only the flagged ones with --flagged), then a
summary per player. --json prints the same as JSON; --html FILE writes a
self-contained page with the win-probability graph (search/review_page.py).

The review runs in this process (it reads only the file named and writes
only --html's file), or with --server HOST:PORT on that server, through its
Review call (the record is sent; the same review, the server's limits).
"""
from __future__ import annotations

import json
import math
import sys

from easel.engine.errors import StateFormatError
from easel.server.commands import connection
from easel.server.commands.suggest import _read_input, at_least, pick_game, seconds


def add_parser(sub):
    from easel.search import review
    p = sub.add_parser(
        "review", help="review a recorded game: each turn's loss against the best turn",
        description="Search every turn of a recorded game, compare the played turn's win "
                    "probability with the best turn's, flag inaccuracies, mistakes and "
                    "blunders (docs/review.md) and summarise each player.")
    p.add_argument("record", metavar="RECORD",
                   help="records file: NAME.egn (Easel Game Notation) or NAME.jsonl")
    p.add_argument("--game-index", type=at_least(0), metavar="K", default=None,
                   help="with a file of several games: game K, counting from 0")
    p.add_argument("--iterations", type=at_least(1), default=None,
                   help=f"search iterations per turn (default {review.DEFAULT_ITERATIONS} "
                        f"when --time is not given)")
    p.add_argument("--time", type=seconds, default=None, help="search seconds per turn")
    p.add_argument("--seed", type=at_least(0), default=0)
    p.add_argument("--threads", type=at_least(1), default=1)
    p.add_argument("--flagged", action="store_true",
                   help="list only the flagged turns (the summary counts all)")
    p.add_argument("--json", action="store_true", help="print the review as JSON")
    p.add_argument("--html", metavar="FILE", default=None,
                   help="also write the review as a self-contained HTML page")
    p.add_argument("--server", metavar="HOST:PORT", default=None,
                   help="have this server review it (its Review call; default: review here)")
    connection.add_arguments(p)
    p.set_defaults(func=run)


def load(args):
    """(game, steps, title) of the record the arguments name; a
    StateFormatError naming the file and the problem otherwise."""
    from easel.search.records import load_game
    data = _read_input(args.record)
    cache: dict = {}
    chosen = pick_game(data, args.record, args.game_index, cache)
    record = chosen.record
    where = f"{args.record}: game {args.game_index or 0}"
    try:
        game = load_game(record.get("game"), "core", cache)
    except Exception as e:      # EaselError naming the option; anything else is a bad string
        raise StateFormatError(f"{where}: game {record.get('game')!r}: {e}") from None
    from easel.search.review import ReviewError, record_steps
    try:
        steps = record_steps(record)
    except ReviewError as e:
        raise StateFormatError(f"{where}: {e}") from None
    check_steps(game, steps, where)
    seats = record.get("seats") or []
    names = [str(s.get("spec", "?")) if isinstance(s, dict) else "?" for s in seats]
    title = f"{game.spec}" + (f" ({' vs '.join(names)})" if names else "")
    return game, steps, title


def check_steps(game, steps, where: str) -> None:
    """Replay the steps; a StateFormatError naming the first that is not legal."""
    state = game.new_initial_state()
    for i, (player, action) in enumerate(steps, start=1):
        if state.is_terminal():
            raise StateFormatError(f"{where}: step {i}: the game is already over")
        if state.current_player() != player:
            raise StateFormatError(f"{where}: step {i}: recorded for player {player}, but "
                                   f"{state.current_player()} is to move")
        if not state.is_legal(action):
            raise StateFormatError(f"{where}: step {i}: action {action} is not legal here")
        state.apply_action(action)


def settings_of(args):
    from easel.search import review
    iterations = args.iterations
    if iterations is None and args.time is None:
        iterations = review.DEFAULT_ITERATIONS
    return review.Settings(iterations=iterations, seconds=args.time, seed=args.seed,
                           threads=args.threads)


def budget_text(s) -> str:
    parts = []
    if s.iterations is not None:
        parts.append(f"{s.iterations:,} iterations")
    if s.seconds is not None:
        parts.append(f"{s.seconds:g} s")
    return " or ".join(parts) + " per turn"


def _num(x):
    return None if isinstance(x, float) and math.isnan(x) else x


def as_json(game, decisions, settings) -> dict:
    from easel.search import review
    return {"game": game.spec, "iterations": settings.iterations, "seconds": settings.seconds,
            "seed": settings.seed,
            "thresholds": {"inaccuracy": review.INACCURACY, "mistake": review.MISTAKE,
                           "blunder": review.BLUNDER},
            "decisions": [{k: _num(v) for k, v in d.to_dict().items()} for d in decisions],
            "players": [vars(s) for s in review.summarise(decisions, game.num_players())]}


def render(game, decisions, settings, flagged_only: bool):
    """The rich renderables: the turns' table and the players' summary."""
    from rich.table import Table

    from easel.search import review
    style = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}
    turns = Table(title=f"{game.spec}: {len(decisions)} turns, {budget_text(settings)}",
                  title_justify="left")
    for name, kw in (("move", {"justify": "right"}), ("player", {}),
                     ("played", {"overflow": "fold"}), ("win", {"justify": "right"}),
                     ("best", {"overflow": "fold"}), ("best win", {"justify": "right"}),
                     ("loss", {"justify": "right"}), ("", {}), ("lost in", {})):
        turns.add_column(name, **kw)
    for d in decisions:
        if flagged_only and d.classification == "good":
            continue
        same = list(d.played) == list(d.best)
        turns.add_row(str(d.move), f"player {d.player + 1}", d.played_text,
                      "forced" if d.forced else f"{100 * d.played_win:.1f}%",
                      "=" if same else d.best_text,
                      "" if d.forced else f"{100 * d.best_win:.1f}%",
                      "" if d.forced else f"{100 * d.loss:.1f}",
                      d.classification if d.classification != "good" else "",
                      review.cause_text(d), style=style.get(d.classification))
    players = Table(title="players (losses in points of 100)", title_justify="left")
    for name in ("player", "turns", "accuracy", "mean loss", "inaccuracies", "mistakes",
                 "blunders"):
        players.add_column(name, justify="left" if name == "player" else "right",
                           no_wrap=True)
    players.add_column("biggest losses", overflow="fold")
    for s in review.summarise(decisions, game.num_players()):
        worst = ", ".join(f"move {m} (-{100 * loss:.1f})" for loss, m, _ in s.biggest) or "-"
        players.add_row(f"player {s.player + 1}", str(s.decisions), f"{s.accuracy:.1f}",
                        f"{100 * s.mean_loss:.1f}", str(s.counts["inaccuracy"]),
                        str(s.counts["mistake"]), str(s.counts["blunder"]), worst)
    return turns, players


def from_message(m) -> "review.ReviewedDecision":
    """A ReviewedDecision message (the Review call) as search/review.py's."""
    from easel.search import review
    nan = float("nan")
    return review.ReviewedDecision(
        m.step, m.move, m.player, list(m.played_ids), m.played_text,
        nan if m.forced else m.played_win_probability, m.played_visits, m.played_source,
        list(m.best_ids), m.best_text, nan if m.forced else m.best_win_probability,
        m.best_visits, m.loss, review.CLASSES[max(m.judgement - 1, 0)],
        played_value=nan if m.forced else m.played_value,
        best_value=nan if m.forced else m.best_value,
        played_margin=m.played_margin if m.HasField("played_margin") else None,
        best_margin=m.best_margin if m.HasField("best_margin") else None,
        margin_se=(m.margin_standard_error if m.HasField("margin_standard_error") else None),
        cause=m.loss_cause, forced=m.forced, iterations=m.iterations, seconds=m.elapsed_seconds)


def _remote(args, game, steps, settings):
    """The decisions of the Review call of --server, as they come."""
    import grpc

    from easel.client import EngineClient
    options = connection.channel_options(args)
    with EngineClient(args.server, timeout=None, **options) as client:
        try:
            for m in client.review(game.spec, [a for _, a in steps],
                                   iterations=settings.iterations, seconds=settings.seconds,
                                   seed=settings.seed, threads=settings.threads):
                if m.WhichOneof("item") == "decision":
                    yield from_message(m.decision)
        except grpc.RpcError as e:
            raise connection.ClientOptionsError(
                f"--server {args.server}: {e.code().name}: {e.details()}"
                f"{connection.hint(e, args)}") from None


def run(args) -> int:
    from easel.search import review
    from easel.search.review_page import page
    if args.server is None:
        connection.channel_options(args)        # refuses TLS and token flags without --server
    game, steps, title = load(args)
    settings = settings_of(args)
    points = review.decision_points(steps, game.num_players())
    if not points:
        raise StateFormatError(f"{args.record}: the record has no decision to review")
    reviewed = (_remote(args, game, steps, settings) if args.server else
                review.Reviewer(game, settings).review(steps, points))
    decisions = []
    progress = sys.stderr.isatty() and not args.json
    for k, d in enumerate(reviewed, start=1):
        decisions.append(d)
        if progress:
            print(f"\rreviewed {k}/{len(points)} turns", end="", file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)
    if args.html:
        text = page(game.spec, decisions, game.num_players(), budget_text(settings), title)
        try:
            with open(args.html, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            raise StateFormatError(f"--html: cannot write {args.html!r}: {e.strerror}") from None
    if args.json:
        print(json.dumps(as_json(game, decisions, settings), indent=1))
        return 0
    from rich.console import Console
    # A pipe or a file gets lines wide enough for the turns' texts, not 80.
    console = Console(width=None if sys.stdout.isatty() else 140)
    for table in render(game, decisions, settings, args.flagged):
        console.print(table)
    if args.html:
        console.print(f"wrote {args.html}")
    return 0
