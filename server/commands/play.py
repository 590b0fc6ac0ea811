"""`easel play GAME --vs SPEC`: a person plays a hosted match in the terminal.

Without --server it starts a server of its own in this process (on a free
loopback port, with a temporary match database unless --db is given) and
plays against it exactly as against a remote one: the same Matches calls,
the same event stream. A --server with TLS or a bearer token is reached with
the client options `easel suggest` has (server/commands/connection.py).

At your turn, type a move by its text, as `?` lists the legal moves (case
and spacing aside; anything else is refused naming the closest; Tab
completes them where the terminal allows), `hint` asks the server for one
(where the match allows hints), `resign` gives up, `quit` aborts the match.
With --table you also type each chance outcome that happened at your real
table (a die roll, a card drawn).

--save FILE keeps the game once the match is over (however it ended): as
Easel Game Notation if FILE ends in .egn (docs/records.md), else as a JSON
record; `easel replay`, `easel records show` and `easel suggest --record`
read it.
"""
from __future__ import annotations

import itertools
import os
import sys
import tempfile

from easel.server.commands import bot_help, connection


def add_parser(sub):
    p = sub.add_parser("play", help="play a game against bots in the terminal",
                       description="Play GAME against bots on a server (hosted match). "
                                   "At your turn type a move's text; '?' lists the legal "
                                   "moves, 'hint' asks for one, 'resign' gives up, 'quit' "
                                   "aborts.")
    p.add_argument("game", help="game string, e.g. connect_four or 'pig(winscore=50)'")
    p.add_argument("--vs", action="append", required=True, metavar="SPEC",
                   help="bot spec of the other seats, e.g. 'mcts(time=2)'; repeat it to give "
                        "each other seat its own, in seat order")
    p.add_argument("--server", metavar="ADDR",
                   help="host:port of an `easel serve`; default: start one in this process")
    connection.add_arguments(p)      # TLS, client certificate, bearer token of --server
    p.add_argument("--seat", type=int, default=0, help="your seat, 0-based (default 0)")
    p.add_argument("--table", action="store_true",
                   help="table mode: you type each chance outcome (dice, draws) yourself")
    p.add_argument("--no-hints", action="store_true", help="a match without hints")
    p.add_argument("--clock", type=float, default=0.0, metavar="SECONDS",
                   help="your clock for the match (default: none)")
    p.add_argument("--increment", type=float, default=0.0, metavar="SECONDS",
                   help="added to your clock after each of your moves")
    p.add_argument("--hint-iterations", type=int, default=2000,
                   help="search iterations of a hint (default %(default)s)")
    p.add_argument("--db", help="the local server's match database (default: temporary)")
    p.add_argument("--quiet-table", action="store_true",
                   help="show the table only when you are to act, not after every step")
    p.add_argument("--save", metavar="FILE",
                   help="once the match is over, save the game there: EGN text if FILE ends "
                        "in .egn (docs/records.md), else a JSON record")
    bot_help.add_bot_help(p)
    p.set_defaults(func=run)


def run(args) -> int:
    import grpc

    from easel.engine.errors import EaselError
    from easel.client import open_channel
    options = connection.channel_options(args)     # before a local server starts
    local = None
    tmp = None
    address = args.server
    if address is None:
        from easel.server.analysis import Limits
        from easel.server.matches import MatchLimits, MatchManager, Store
        from easel.server.service import build_server
        if args.db is None:
            tmp = tempfile.TemporaryDirectory(prefix="easel-play-")
        db = args.db or os.path.join(tmp.name, "matches.sqlite3")
        try:
            manager = MatchManager(Store(db), MatchLimits(
                bot_threads=max(1, (os.cpu_count() or 1) - 1)), Limits()).start()
        except Exception as e:
            raise EaselError(f"cannot start a local server: {e}") from None
        local = build_server(port=0, matches=manager).start()
        address = f"127.0.0.1:{local.port}"
    channel = open_channel(address, **options)
    try:
        return Session(channel, args).play()
    except grpc.RpcError as e:
        print(f"easel play: {e.code().name}: {e.details()}{connection.hint(e, args)}",
              file=sys.stderr)
        return 2
    finally:
        channel.close()
        if local is not None:
            local.stop(grace=0)
            manager.store.close()
        if tmp is not None:
            tmp.cleanup()


class Session:
    def __init__(self, channel, args, out=None):
        from easel.v1 import engine_pb2_grpc, matches_pb2_grpc
        self.engine = engine_pb2_grpc.EngineStub(channel)
        self.matches = matches_pb2_grpc.MatchesStub(channel)
        self.args = args
        self.out = out or sys.stdout
        self.steps = []          # the record so far (engine_pb2.Step)
        self.next_step = 0
        self._completions: list[str] = []

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def play(self) -> int:
        from easel.v1 import engine_pb2 as epb
        from easel.v1 import matches_pb2 as pb
        args = self.args
        game = self.engine.NewGame(epb.NewGameRequest(game=args.game), timeout=30)
        n = game.position.num_players
        self.game = game.position.game
        if not 0 <= args.seat < n:
            self.say(f"--seat must be from 0 to {n - 1} ({self.game} has {n} players)")
            return 2
        if len(args.vs) not in (1, n - 1):
            self.say(f"give one --vs for all other seats, or {n - 1} (one per other seat)")
            return 2
        specs = itertools.cycle(args.vs)
        seats = []
        for i in range(n):
            if i == args.seat:
                seats.append(pb.SeatConfig(client=True, name="you", time_control=pb.TimeControl(
                    clock_seconds=args.clock, increment_seconds=args.increment)))
            else:
                seats.append(pb.SeatConfig(bot=next(specs)))
        made = self.matches.CreateMatch(pb.CreateMatchRequest(
            game=args.game, seats=seats, allow_hints=not args.no_hints,
            chance=pb.CHANCE_SOURCE_TABLE if args.table else pb.CHANCE_SOURCE_SERVER),
            timeout=30)
        self.match_id = made.match_id
        self.token = made.seat_tokens[0].token
        self.creator = made.creator_token
        self.table_token = made.table_token
        self.names = {s.seat: ("you" if s.seat == args.seat else s.bot)
                      for s in made.match.seats}
        self.say(f"match {made.match_id}: {self.game}; you are seat {args.seat}; " +
                 ", ".join(f"seat {k}: {v}" for k, v in sorted(self.names.items())) +
                 ("; table mode: you report chance" if args.table else ""))
        self.say("type a move's text; '?' lists the legal moves, 'hint', 'resign', 'quit'")
        self._setup_completion()
        stream = self.matches.WatchMatch(pb.WatchMatchRequest(
            match_id=made.match_id, token=self.token, positions=True))
        try:
            return self._follow(stream)
        finally:
            stream.cancel()
            if args.save:
                self._save(args.save)

    def _follow(self, stream) -> int:
        """Show the match's events, prompting at this seat's turns, to its end."""
        from easel.v1 import engine_pb2 as epb
        args = self.args
        for ev in stream:
            kind = ev.WhichOneof("event")
            if kind == "snapshot":
                turn, position = ev.snapshot.turn, ev.snapshot.position
                self.say(position.text.rstrip())
            elif kind == "step":
                st = ev.step
                self.steps.append(epb.Step(id=st.action.id, text=st.action.text,
                                           kind=st.action.kind))
                self.next_step = st.step + 1
                who = ("chance" if st.player < 0 else
                       f"seat {st.player} ({self.names.get(st.player, '?')})")
                self.say(f"{st.step}. {who}: {st.action.text}")
                turn, position = st.turn, st.position
                if not args.quiet_table or self._mine(turn):
                    self.say(position.text.rstrip())
            elif kind == "hint":
                continue
            else:
                return self._ended(ev.end)
            if self._mine(turn):
                if self._prompt(turn) == "quit":
                    return 1
        self.say("the stream ended before the match did")
        return 1

    def _save(self, path: str) -> None:
        """Write the match's record to `path` (EGN text for .egn, else JSON)
        and say where; a failure is said, not raised: the match is over."""
        import grpc

        from easel.engine.errors import EaselError
        from easel.search import egn
        from easel.search.recordfiles import EGN, name_format, write_atomically
        from easel.v1 import matches_pb2 as pb
        try:
            text = self.matches.GetMatch(pb.GetMatchRequest(
                match_id=self.match_id, with_record_text=True), timeout=60).record_text
            if not text:
                self.say(f"not saved: the server gives no record text (a server older "
                         f"than --save); {path} is not written")
                return
            if name_format(path) == EGN:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
            else:
                write_atomically(path, [(f"match {self.match_id}", egn.loads(text)[0])])
        except grpc.RpcError as e:
            self.say(f"not saved: {e.code().name}: {e.details()}")
        except (OSError, EaselError) as e:
            self.say(f"not saved in {path}: {e}")
        else:
            self.say(f"the game is saved in {path}")

    def _mine(self, turn) -> bool:
        if turn.kind == 2:          # NODE_KIND_CHANCE
            return bool(turn.table and self.args.table)
        return turn.kind == 1 and turn.player == self.args.seat

    def _ended(self, end) -> int:
        from easel.v1 import matches_pb2 as pb
        r = end.result
        self.say(f"the match has ended ({pb.MatchStatus.Name(end.status)}, "
                 f"{pb.EndReason.Name(r.reason)}): {r.detail}")
        if r.returns:
            self.say("returns: " + ", ".join(f"seat {i} ({self.names.get(i, '?')}) {v:+g}"
                                             for i, v in enumerate(r.returns)))
        if r.scores:
            self.say("scores: " + ", ".join(f"{v:g}" for v in r.scores))
        return 0

    def _legal(self):
        from easel.v1 import engine_pb2 as epb
        rec = epb.GameRecord(game=self.game, steps=self.steps)
        return self.engine.LegalActions(epb.LegalActionsRequest(
            position=epb.Position(record=rec)), timeout=30).actions

    def _setup_completion(self) -> None:
        if not sys.stdin.isatty():
            return
        try:
            import readline
        except ImportError:
            return

        def complete(text, k):
            hits = [c for c in self._completions if c.lower().startswith(text.lower())]
            return hits[k] if k < len(hits) else None
        readline.set_completer(complete)
        readline.set_completer_delims("")
        readline.parse_and_bind("tab: complete")

    def _prompt(self, turn) -> str | None:
        import grpc

        from easel.v1 import engine_pb2 as epb
        from easel.v1 import matches_pb2 as pb
        chance = turn.kind == 2
        legal = self._legal()
        self._completions = [a.text for a in legal] + ["?", "hint", "resign", "quit"]
        prompt = ("chance: what happened at the table? " if chance
                  else f"step {self.next_step}, your move: ")
        while True:
            try:
                line = input(prompt)
            except EOFError:
                self.say("(input ended: resigning)")
                self.matches.Resign(pb.ResignRequest(match_id=self.match_id, token=self.token),
                                    timeout=30)
                return "resigned"
            text = line.strip()
            if not text:
                continue
            low = text.lower()
            if low in ("?", "moves", "help"):
                for a in legal:
                    extra = f"  (p={a.probability:.3g})" if chance else ""
                    self.say(f"  {a.text}{extra}")
                continue
            if low == "hint":
                if chance:
                    self.say("no hints for chance")
                    continue
                try:
                    h = self.matches.RequestHint(pb.RequestHintRequest(
                        match_id=self.match_id, token=self.token,
                        settings=epb.SearchSettings(budget=epb.Budget(
                            iterations=self.args.hint_iterations), num_candidates=3)),
                        timeout=120)
                except grpc.RpcError as e:
                    self.say(f"no hint: {e.details()}")
                    continue
                for c in h.analysis.candidates:
                    turn_text = "; ".join(s.text for s in c.pv[:max(c.turn_length, 1)])
                    self.say(f"  {c.rank}. {turn_text}  win {100 * c.win_probability:.0f}%, "
                             f"{c.visits} visits")
                continue
            if low == "resign":
                self.matches.Resign(pb.ResignRequest(match_id=self.match_id, token=self.token),
                                    timeout=30)
                return "resigned"
            if low == "quit":
                self.matches.Abort(pb.AbortRequest(match_id=self.match_id, token=self.creator),
                                   timeout=30)
                self.say("match aborted")
                return "quit"
            try:
                self.matches.SubmitAction(pb.SubmitActionRequest(
                    match_id=self.match_id, step=self.next_step,
                    token=self.table_token if chance else self.token,
                    action=epb.Step(text=text)), timeout=30)
                return None
            except grpc.RpcError as e:
                if e.code() == grpc.StatusCode.INVALID_ARGUMENT:
                    self.say(f"not legal here: {e.details().split(': ', 1)[-1]} ('?' lists "
                             f"the moves)")
                    continue
                self.say(f"refused: {e.code().name}: {e.details()}")
                return None
