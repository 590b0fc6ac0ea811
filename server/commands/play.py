"""`easel play GAME --vs SPEC`: a person plays against bots in the terminal.

Two ways to play:

* a local game (the default): the person and the bots at one table in this
  process (server/playtable/local.py). `--position TEXT|FILE` starts it
  from a table position (the game's table notation, or a file holding it),
  and `undo` takes back the person's last decision.
* a hosted match, with `--server HOST:PORT` (a running `easel serve`,
  reached with the client options `easel suggest` has,
  server/commands/connection.py) or with the options only a match has
  (`--db`, `--clock`, `--increment`: a server started in this process).
  The Matches service keeps every committed step for good and starts every
  match at the game's beginning, so a hosted match has neither `undo` nor
  `--position`.

Either way the person sees the table once per decision of theirs
(server/playtable/display.py: the game's own compact table), with what the
others did since and the chance draws summed up on one line, and types a
move by its text, any start of it no other move shares, or its short form
(the number `?` lists it with; a Connect Four column 1 to 7);
server/playtable/moves.py reads it. `hint` asks for a search's advice
(where the match allows hints), `resign` gives up, `quit` stops. With
--table the person also types each chance outcome that happened at their
real table (a die roll, a card drawn).

--save FILE keeps the game once it is over (however it ended): as Easel
Game Notation if FILE ends in .egn (docs/records.md), else as a JSON
record; `easel replay`, `easel records show` and `easel suggest --record`
read it. A game started from --position is not saved (a record starts at
the game's beginning).
"""
from __future__ import annotations

import itertools
import os
import sys
import tempfile

from easel.server.commands import bot_help, connection


def add_parser(sub):
    p = sub.add_parser("play", help="play a game against bots in the terminal",
                       description="Play GAME against bots: a local game, or a hosted match "
                                   "with --server (or --db, --clock). At your turn type a "
                                   "move's text, any start of it no other move shares, or its "
                                   "number as '?' lists them (a Connect Four column 1-7); "
                                   "'undo' takes back your last move (local games only: a "
                                   "hosted match keeps every step), 'hint' asks for advice, "
                                   "'resign' gives up, 'quit' stops.")
    p.add_argument("game", help="game string, e.g. connect_four or 'pig(winscore=50)'")
    p.add_argument("--vs", action="append", required=True, metavar="SPEC",
                   help="bot spec of the other seats, e.g. 'mcts(time=2)'; repeat it to give "
                        "each other seat its own, in seat order")
    p.add_argument("--server", metavar="ADDR",
                   help="play a hosted match on this `easel serve` (host:port); default: a "
                        "local game in this process")
    connection.add_arguments(p)      # TLS, client certificate, bearer token of --server
    p.add_argument("--seat", type=int, default=0,
                   help="your seat, 0-based (default 0: the table calls it player 1)")
    p.add_argument("--position", metavar="TEXT|FILE",
                   help="local games: start from this table position, the game's table "
                        "notation as text or a file holding it (the game's ENCODING.md)")
    p.add_argument("--seed", type=int, default=None,
                   help="local games: the seed of the chance draws and the bots (default: "
                        "a fresh one)")
    p.add_argument("--table", action="store_true",
                   help="table mode: you type each chance outcome (dice, draws) yourself")
    p.add_argument("--no-hints", action="store_true", help="a match without hints")
    p.add_argument("--clock", type=float, default=0.0, metavar="SECONDS",
                   help="your clock (a hosted match; default: none)")
    p.add_argument("--increment", type=float, default=0.0, metavar="SECONDS",
                   help="added to your clock after each of your moves (a hosted match)")
    p.add_argument("--hint-iterations", type=int, default=2000,
                   help="search iterations of a hint (default %(default)s)")
    p.add_argument("--db", help="play a hosted match on a server started in this process, "
                                "keeping it in this match database")
    p.add_argument("--quiet-table", action="store_true",
                   help="no effect, kept for scripts that give it: the table is shown only "
                        "when you are to act")
    p.add_argument("--save", metavar="FILE",
                   help="once the match is over, save the game there: EGN text if FILE ends "
                        "in .egn (docs/records.md), else a JSON record")
    bot_help.add_bot_help(p)
    p.set_defaults(func=run)


def hosted(args) -> bool:
    """Whether the command plays a hosted match (else a local game)."""
    return bool(args.server or args.db or args.clock or args.increment)


def run(args) -> int:
    connection.channel_options(args)     # refuses client options without --server, first
    if not hosted(args):
        from easel.server.commands import play_local
        return play_local.run(args)
    if args.position is not None:
        print("easel play: error: --position: a hosted match starts at the game's beginning (the "
              "Matches service takes no position); leave out --server, --db and --clock to "
              "play a local game from it", file=sys.stderr)
        return 2
    return run_hosted(args)


def run_hosted(args) -> int:
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
        self.news: list[tuple[int, str]] = []      # steps since this seat last decided
        self.mirror = None       # the match's state kept here, for the table (or None)
        from easel.server.playtable.prompt import Ask
        self.ask = Ask(self.say)

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
        self.say("type a move, any start of it or its number; '?' lists the moves; 'hint', "
                 "'resign', 'quit' (a hosted match keeps every step: no 'undo')")
        self.mirror = self._mirror(made.match.game)
        from easel.server.playtable.prompt import setup_completion
        setup_completion(self.ask, sys.stdin)
        stream = self.matches.WatchMatch(pb.WatchMatchRequest(
            match_id=made.match_id, token=self.token, positions=True))
        try:
            return self._follow(stream)
        finally:
            stream.cancel()
            if args.save:
                self._save(args.save)

    def _follow(self, stream) -> int:
        """Follow the match's events, showing the table and prompting at this
        seat's turns, to its end."""
        from easel.server.playtable import display
        from easel.v1 import engine_pb2 as epb
        for ev in stream:
            kind = ev.WhichOneof("event")
            if kind == "snapshot":
                turn, position = ev.snapshot.turn, ev.snapshot.position
            elif kind == "step":
                st = ev.step
                self.steps.append(epb.Step(id=st.action.id, text=st.action.text,
                                           kind=st.action.kind))
                self.next_step = st.step + 1
                if self.mirror is not None:
                    note = display.move_notes(self.mirror, [st.action.id])[0]
                    self.mirror.apply_action(st.action.id)
                else:
                    note = ""
                if st.player != self.args.seat:
                    self.news.append((st.player, st.action.text + note))
                turn, position = st.turn, st.position
            elif kind == "hint":
                continue
            else:
                self._show(position)
                return self._ended(ev.end)
            if self._mine(turn):
                self._show(position)
                if self._prompt(turn) == "quit":
                    return 1
        self.say("the stream ended before the match did")
        return 1

    def _mirror(self, game_string: str):
        """The match's state kept in this process, for the game's own table
        (server/playtable/display.py), or None when this process cannot
        build the game (a data file only the server has): the table is then
        the server's text."""
        from easel import engine
        from easel.engine.errors import EaselError
        try:
            return engine.load_game(game_string).new_initial_state()
        except EaselError:
            return None

    def name(self, player: int) -> str:
        from easel.server.playtable.layout import player_label
        if player == self.args.seat:
            return "you"
        return f"{player_label(player, self.args.seat)} ({self.names.get(player, '?')})"

    def _show(self, position) -> None:
        """What happened since this seat last decided, then the table."""
        from easel.server.playtable import display
        from easel.server.playtable.prompt import news_lines
        for line in news_lines(self.news, self.name):
            self.say(line)
        self.news = []
        if self.mirror is not None:
            display.render(display.table(self.mirror, self.args.seat), self.out)
        else:
            self.say(position.text.rstrip())

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

    def _prompt(self, turn) -> str | None:
        import grpc

        from easel.server.playtable import display, moves
        from easel.v1 import engine_pb2 as epb
        from easel.v1 import matches_pb2 as pb
        chance = turn.kind == 2
        legal = self._legal()
        texts = [a.text for a in legal]
        own = None
        extra = None
        if self.mirror is not None and not chance:
            own = display.own_short_forms(self.mirror, [a.id for a in legal])
            extra = display.move_notes(self.mirror, [a.id for a in legal])
        shorts = moves.short_forms(len(legal), own)
        if chance:
            extra = [f"  (p={a.probability:.3g})" for a in legal]
        prompt = ("chance: what happened at the table? " if chance
                  else "your move ('?' lists them): ")
        while True:
            kind, value = self.ask(prompt, texts, shorts, extra)
            if kind == "move":
                try:
                    self.matches.SubmitAction(pb.SubmitActionRequest(
                        match_id=self.match_id, step=self.next_step,
                        token=self.table_token if chance else self.token,
                        action=epb.Step(id=legal[value].id, text=texts[value])), timeout=30)
                    return None
                except grpc.RpcError as e:
                    if e.code() == grpc.StatusCode.INVALID_ARGUMENT:
                        self.say(f"not legal here: {e.details().split(': ', 1)[-1]}")
                        continue
                    self.say(f"refused: {e.code().name}: {e.details()}")
                    return None
            if value == "eof":
                self.say("(input ended: resigning)")
                value = "resign"
            if value == "undo":
                self.say("no undo in a hosted match: the server keeps every step once played "
                         "(docs/matches.md); a local game (no --server, --db, --clock) has it")
                continue
            if value == "hint":
                self._hint(chance)
                continue
            if value == "resign":
                self.matches.Resign(pb.ResignRequest(match_id=self.match_id, token=self.token),
                                    timeout=30)
                return "resigned"
            self.matches.Abort(pb.AbortRequest(match_id=self.match_id, token=self.creator),
                               timeout=30)
            self.say("match aborted")
            return "quit"

    def _hint(self, chance: bool) -> None:
        import grpc

        from easel.server.commands import hints
        from easel.v1 import engine_pb2 as epb
        from easel.v1 import matches_pb2 as pb
        if chance:
            self.say("no hints for chance")
            return
        try:
            h = self.matches.RequestHint(pb.RequestHintRequest(
                match_id=self.match_id, token=self.token,
                settings=epb.SearchSettings(budget=epb.Budget(
                    iterations=self.args.hint_iterations), num_candidates=3)),
                timeout=120)
        except grpc.RpcError as e:
            self.say(f"no hint: {e.details()}")
            return
        self.say(hints.render(h.analysis))
