"""`easel analyze GAME --record FILE`: a search that refines its ranking as it
runs, redrawn in place until Ctrl-C or the budget.

It asks the server's Analyze stream for the position `easel suggest` would
search (the same arguments: --record, --position, --position-file, --server,
the search options) and draws each report as a table of whole turns (rows as
`easel suggest` prints them, server/commands/hints.py) under a progress bar.
With no budget it searches until Ctrl-C (AnalyzeRequest.until_cancelled; a
server stops it at its largest budget, the private in-process server after a
day); the last table stays on screen. --json prints each report as a line
of JSON (protobuf's JSON mapping of AnalyzeResponse) instead.

The live display is drawn with `rich` (a table that wraps long turns to the
terminal, redrawn in place); a terminal is not required: piped, only the
final table is printed.
"""
from __future__ import annotations

from easel.server.commands import suggest

# The private in-process server's largest budget: "until Ctrl-C" for a
# person at a terminal (a day, the mcts `time` option's largest value).
PRIVATE_MAX_SECONDS = 86400.0


def add_parser(sub):
    from easel.server.limits import Limits
    p = sub.add_parser("analyze", help="a search's ranking, refined live until Ctrl-C "
                                       "(gRPC client)")
    suggest.add_arguments(p)
    p.add_argument("--interval", type=suggest.at_least(10), default=250, metavar="MS",
                   help="milliseconds between reports (default %(default)s)")
    p.set_defaults(func=suggest.run, ask=ask,
                   private_limits=Limits(max_seconds=PRIVATE_MAX_SECONDS))


def ask(client, args, steps, position_msg) -> int:
    """Stream the analysis and show it; Ctrl-C cancels the call and keeps the
    last report."""
    until_cancelled = args.iterations is None and args.time is None and not _spec_budget(args)
    call = client.analyze(args.game, steps, position_msg=position_msg,
                          report_interval_ms=args.interval, report_candidates=args.top,
                          until_cancelled=until_cancelled, timeout=None,
                          **suggest.search_settings(args))
    show = _JsonLines() if args.json else _LiveTable(args, until_cancelled)
    with show:
        try:
            for msg in call:
                show.update(msg)
        except KeyboardInterrupt:
            call.cancel()
            show.stopped()
    return 0


def _spec_budget(args) -> bool:
    """Whether the bot spec sets a budget of its own (then the server keeps it)."""
    from easel.search.specs import BotSpecError, parse_spec
    try:
        spec = parse_spec(args.bot or "mcts")
    except BotSpecError:        # the server names what is wrong with it
        return False
    return "iterations" in spec.args or "time" in spec.args


class _JsonLines:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def update(self, msg):
        from google.protobuf import json_format
        print(json_format.MessageToJson(msg, indent=None,
                                        always_print_fields_with_no_presence=True), flush=True)

    def stopped(self):
        pass


class _LiveTable:
    """The progress bar and the table of the latest report, redrawn in place."""

    def __init__(self, args, until_cancelled: bool):
        from rich.console import Console
        self.console = Console()
        self.budget_iterations = args.iterations
        self.budget_seconds = args.time
        self.until_cancelled = until_cancelled
        self.game = args.game
        self.last = None
        self.stop_reason = None
        self.live = None
        self.interrupted = False

    def __enter__(self):
        from rich.live import Live
        self.live = Live(self._render(), console=self.console, auto_refresh=False,
                         transient=False)
        self.live.__enter__()
        return self

    def __exit__(self, *exc):
        self.live.update(self._render(), refresh=True)
        self.live.__exit__(*exc)
        return False

    def update(self, msg):
        if msg.HasField("position"):
            self.game = msg.position.game or self.game
        self.last = msg.analysis
        if msg.final:
            self.stop_reason = msg.stop_reason
        self.live.update(self._render(), refresh=True)

    def stopped(self):
        self.interrupted = True

    def _progress(self):
        """A bar of the budget spent (pulsing with no budget) and the count."""
        from rich.progress_bar import ProgressBar
        from rich.table import Table
        a = self.last
        done = (f"{a.iterations:,} iterations, {a.elapsed_seconds:.1f} s" if a is not None
                else "searching...")
        share = None
        if a is not None and self.budget_iterations:
            share = a.iterations / self.budget_iterations
        if a is not None and self.budget_seconds:
            share = max(share or 0.0, a.elapsed_seconds / self.budget_seconds)
        if self.stop_reason is not None or self.interrupted:
            share = 1.0 if self.stop_reason is not None else share
        if share is None and self.until_cancelled and not self.interrupted:
            done += "; Ctrl-C stops it"
        bar = ProgressBar(total=None if share is None else 1000,
                          completed=0 if share is None else int(1000 * min(share, 1.0)),
                          width=30)
        grid = Table.grid(padding=(0, 2))
        grid.add_row(bar, done)
        return grid

    def _render(self):
        from rich.console import Group
        from rich.table import Table
        from rich.text import Text

        from easel.server.commands import hints
        a = self.last
        parts = [self._progress()]
        if a is None:
            return Group(*parts)
        title = hints.header(a, self.game)
        table = Table(title=title, title_justify="left", show_lines=False, expand=False)
        cols = hints.columns(a)
        for c in cols:
            table.add_column(c, justify="right" if c in ("rank", "win", "visits") else "left",
                             overflow="fold")
        for r in hints.rows(a):
            cells = [r["rank"], r["win"], r["visits"]]
            if "scores (" in " ".join(cols):
                cells.append(r.get("scores", ""))
            turn = Text(r["turn"])
            if r["line"]:
                turn.append("\nthen " + r["line"], style="dim")
            table.add_row(*cells, turn)
        parts.append(table)
        note = hints.note(a, self.stop_reason)
        if self.interrupted:
            note = (f"Stopped (Ctrl-C) after {a.iterations:,} iterations. " + note).strip()
        if note:
            parts.append(Text(note))
        if hints.has_chance(a):
            parts.append(Text(hints.CHANCE_KEY, style="dim"))
        return Group(*parts)
