"""Bots in seats: one `MatchHost` thread per open match plays its bot seats,
draws its server chance, enforces its clocks and lets its bots ponder.

Each bot seat keeps one bot object for the whole match (while the server
runs): an MCTS bot is handed the whole position each time and keeps the
subtree of what was played since its last search (tree reuse, see
`search.mcts.MCTSBot`). While a client seat thinks, the match's MCTS bots
may ponder on that position, growing the tree they will reuse, but only
within the server's CPU budget (`BotCPU`): bot moves come first, and a
ponderer gives its threads back within one short chunk when a move waits.

A bot that raises, or answers an illegal move, ends its seat (and the
match): the reason is recorded in the result, the server goes on.

Time controls: a bot seat with a per-move limit searches for at most 80% of
it; with a clock it spends about 1/20 of what is left plus most of the
increment (never more than half the clock); its time runs from when it gets
its CPU share (waiting for it is not charged). A client seat that lets its
per-move limit or its clock run out loses on time, decided here when the
deadline passes (and by SubmitAction if its step comes too late).
"""
from __future__ import annotations

import logging
import math
import threading
import time

from easel.engine import PLAYER_CHANCE

from ..queue import FairOrder
from . import draws
from .match import FINISHED, Match
from .trees import KeptTrees

log = logging.getLogger("easel.server.matches")

PONDER_CHUNK = 0.05          # seconds of pondering between checks
PONDER_MAX = 60.0            # pondering per position at most (bounds tree growth)
STORE_RETRY = 1.0            # seconds before retrying a failed commit


class _Ask:
    """One bot decision waiting for threads."""
    __slots__ = ("client", "threads", "granted")

    def __init__(self, client: str, threads: int):
        self.client, self.threads, self.granted = client, threads, False


class BotCPU:
    """The search threads that all bot seats of the server may use at once.
    A move takes its bot's threads, waiting its turn if need be; pondering
    takes threads only when they are free, no move waits, and fewer than
    `ponder_threads` are pondering.

    Waiting moves are served fairly across clients (server/queue.py
    `FairOrder`, by the client that created the match): when threads free,
    the next decision is that of the client with the fewest moves running,
    ties to the client served longest ago; one client's own matches take
    turns first come, first served. So a client's many bot-vs-bot matches do
    not hold back another client's bot: its first move waits for at most
    about one decision of each other client with moves waiting. The client
    next in turn keeps its place until enough threads are free for its bot
    (a bot with more threads is not overtaken for ever by smaller ones)."""

    def __init__(self, threads: int, ponder_threads: int = 0):
        self.threads = threads
        self.ponder_threads = ponder_threads
        self._cond = threading.Condition()
        self._used = 0
        self._pondering = 0
        self._fair = FairOrder()
        self.granted_order = self._fair.granted_order   # clients in grant order (tests, logs)
        self._closed = False

    def acquire(self, n: int, give_up, client: str = "") -> bool:
        """Take n threads for a move of `client`'s match, waiting for its
        turn; False (nothing taken) once the server closes or `give_up()`
        is true."""
        with self._cond:
            if self._closed or give_up():
                return False
            ask = _Ask(client, n)
            self._fair.add(client, ask)
            self._dispatch_locked()
            while not ask.granted and not (self._closed or give_up()):
                self._cond.wait(0.25)
            if not ask.granted:
                self._fair.remove(client, ask)
                self._dispatch_locked()         # the next in turn may fit now
                return False
            if self._closed or give_up():
                self._release_locked(n, client)
                return False
            return True

    def _dispatch_locked(self) -> None:
        while True:
            turn = self._fair.next()
            if turn is None or self._used + turn[1].threads > self.threads:
                break
            ask = self._fair.pop()
            ask.granted = True
            self._used += ask.threads
        self._cond.notify_all()

    def _release_locked(self, n: int, client: str) -> None:
        self._used -= n
        self._fair.finished(client)
        self._dispatch_locked()

    def try_ponder(self, n: int) -> bool:
        with self._cond:
            if (self._closed or self._fair.waiting or self._used + n > self.threads
                    or self._pondering + n > self.ponder_threads):
                return False
            self._used += n
            self._pondering += n
            return True

    def release(self, n: int, pondered: bool = False, client: str = "") -> None:
        """Give back a move's threads (of `client`, as acquired) or, with
        `pondered`, threads `try_ponder` took."""
        with self._cond:
            if pondered:
                self._used -= n
                self._pondering -= n
                self._dispatch_locked()
            else:
                self._release_locked(n, client)

    @property
    def move_waiting(self) -> bool:
        return self._fair.waiting > 0

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def busy(self) -> tuple[int, int]:
        with self._cond:
            return self._used, self._pondering


class SeatBot:
    """The bot of one seat, with its spec's budget and the seat's time control."""

    def __init__(self, seat, game, match_seed: bytes, max_nodes: int | None = None,
                 kept: KeptTrees | None = None):
        from easel.search.mcts import MCTSBot
        from easel.search.specs import make_bot
        self.seat = seat.seat
        self.spec = seat.bot
        self.row = seat
        # max_nodes: the server's node budget for each of the bot's searches
        self.bot = make_bot(seat.bot, game, seed=draws.derive_int(match_seed, f"bot:{seat.seat}"),
                            max_nodes=max_nodes)
        self.mcts = isinstance(self.bot, MCTSBot)
        self.threads = int(self.bot.options["threads"]) if self.mcts else 1
        self.base_iterations = self.bot.iterations if self.mcts else None
        self.base_time = self.bot.time_limit if self.mcts else None
        self.timed = seat.move_seconds > 0 or seat.clock_seconds > 0
        if self.mcts and self.timed and not _has_budget(seat.bot):
            self.base_iterations = None       # the time control alone sets the budget
        self.kept = kept if self.mcts else None
        # Held while the bot searches or ponders: its tree is not dropped then.
        self._lock = threading.Lock()

    def time_budget(self, clock_left: float | None) -> float | None:
        """Seconds this move may take, from the spec and the time control."""
        limits = [self.base_time] if self.base_time else []
        if self.row.move_seconds > 0:
            limits.append(max(self.row.move_seconds * 0.8 - 0.02, 0.01))
        if self.row.clock_seconds > 0 and clock_left is not None:
            alloc = clock_left / 20.0 + self.row.increment * 0.8
            limits.append(max(min(alloc, clock_left * 0.5), 0.01))
        return min(limits) if limits else None

    def move(self, state, clock_left: float | None) -> int:
        if not self.mcts:
            return self.bot.step(state)
        with self._lock:
            try:
                return self._mcts_move(state, clock_left)
            finally:
                self._note()

    def _mcts_move(self, state, clock_left: float | None) -> int:
        self.bot.time_limit = self.time_budget(clock_left)
        self.bot.iterations = self.base_iterations
        if self.bot.iterations is None and self.bot.time_limit is None:
            from easel.search.mcts import BOT_ITERATIONS
            self.bot.iterations = BOT_ITERATIONS     # MCTSBot's own default
        if self.bot._history is None and self.bot.time_limit is None:
            # The bot's first search here: in a match resumed after a restart,
            # it first rebuilds the tree it had (a time budget would spend the
            # seat's clock on it, and would not rebuild the same tree).
            from easel.server.bot_replay import rebuild
            rebuild(self.bot, state)
        return self.bot.step(state)

    def ponder(self, state, seconds: float) -> int:
        if not self.mcts:
            return 0
        with self._lock:
            try:
                return self.bot.ponder(state, seconds)
            finally:
                self._note()

    def _note(self) -> None:
        if self.kept is not None:
            self.kept.note(self)

    def tree_bytes(self) -> int:
        return self.bot.tree_bytes() if self.mcts else 0

    def forget_tree(self) -> None:
        """Drop the kept tree (the caller holds this seat's lock)."""
        self.bot.forget_tree()

    def try_forget_tree(self) -> bool:
        """Drop the kept tree unless the bot is searching or pondering now."""
        if not self._lock.acquire(blocking=False):
            return False
        try:
            self.bot.forget_tree()
            return True
        finally:
            self._lock.release()

    def cancel(self) -> None:
        if self.mcts:
            self.bot.cancel()


def _has_budget(spec: str) -> bool:
    """Whether the spec sets its own budget: iterations or time, or a level
    (whose budget is its strength; the time control only caps it)."""
    from easel.search.specs import parse_spec
    parsed = parse_spec(spec)
    return parsed.name == "level" or bool({"iterations", "time"} & set(parsed.args))


class MatchHost(threading.Thread):
    """Plays one open match's server side until it ends or the server stops."""

    def __init__(self, match: Match, cpu: BotCPU, on_exit=None, max_nodes: int | None = None,
                 kept: KeptTrees | None = None):
        super().__init__(name=f"match-{match.id}", daemon=True)
        self.match = match
        self.cpu = cpu
        self.stop_event = threading.Event()
        self.on_exit = on_exit
        self.bots: dict[int, SeatBot] = {}
        self.failed_setup: tuple[int, str] | None = None
        self.kept = kept
        for seat in match.seats:
            if seat.kind == "bot":
                try:
                    self.bots[seat.seat] = SeatBot(seat, match.game, match.row.seed, max_nodes,
                                                   kept)
                except Exception as e:     # e.g. a spec this build no longer takes
                    self.failed_setup = (seat.seat, f"seat {seat.seat} ({seat.bot}) could not "
                                                    f"be set up: {type(e).__name__}: {e}")
                    break
        self._thinking: SeatBot | None = None
        self._ponder_version = -1         # the position pondered on, and for how long
        self._ponder_spent = 0.0
        self.moves = 0
        self.pondered = 0

    def stop(self) -> None:
        self.stop_event.set()
        with self.match.cond:
            self.match.cond.notify_all()
        self.interrupt()

    def interrupt(self) -> None:
        """Cut short the search of the bot thinking now, if any (the match
        has ended or the server stops: its move would be thrown away)."""
        thinking = self._thinking
        if thinking is not None:
            thinking.cancel()

    def run(self) -> None:
        try:
            self._run()
        except Exception:       # a bug here must not take the server down
            log.exception("match %s: host failed", self.match.id)
        finally:
            if self.kept is not None:
                for bot in self.bots.values():
                    self.kept.release(bot)
            if self.on_exit is not None:
                self.on_exit(self.match)

    def _run(self) -> None:
        m = self.match
        if self.failed_setup is not None:
            with m.cond:
                self._safely(lambda: m.end(FINISHED, "bot_failed", *self.failed_setup))
        while not self.stop_event.is_set():
            job = None
            with m.cond:
                if m.ended:
                    return
                version = m.version
                player = m.state.current_player()
                deadline = m.deadline()
                if player == PLAYER_CHANCE and not m.table_mode:
                    self._safely(lambda: m.commit_step(m.server_draw(), "server"))
                    continue
                if deadline is not None and time.monotonic() >= deadline:
                    self._flag(player)
                    continue
                if player >= 0 and player in self.bots:
                    job = (player, m.state.clone(), len(m.steps))
                    ponder_state = None
                else:       # a client seat or the table is to act
                    ponder_state = m.state.clone() if player >= 0 else None
            if job is not None:
                self._bot_move(*job)
            else:
                self._wait(version, deadline, ponder_state)

    def _safely(self, change) -> bool:
        """Run a commit; a failing store (disk full, I/O error) is logged and
        retried later, never fatal. Holds m.cond."""
        try:
            change()
            return True
        except Exception:
            log.exception("match %s: cannot commit; retrying in %.0f s", self.match.id,
                          STORE_RETRY)
            self.match.cond.wait(STORE_RETRY)
            return False

    def _flag(self, player: int) -> None:
        m = self.match
        seat = m.seats[player]
        what = ("its per-move limit" if seat.move_seconds > 0 and (
            seat.clock_seconds <= 0 or seat.move_seconds < m.clock_left[player])
            else "its clock")
        self._safely(lambda: m.end(FINISHED, "time", player,
                                   f"seat {player} ran out of time ({what})"))

    def _bot_move(self, player: int, state, n: int) -> None:
        m = self.match
        bot = self.bots[player]
        client = m.row.client           # whose fair share the move takes
        if not self.cpu.acquire(bot.threads, lambda: self.stop_event.is_set() or m.ended
                                or len(m.steps) != n, client):
            return
        error = None
        action = None
        with m.cond:
            # Thinking from here on: an end (or stop) from now interrupts it.
            self._thinking = bot
            if m.ended or len(m.steps) != n or self.stop_event.is_set():
                self._thinking = None
                self.cpu.release(bot.threads, client=client)
                return
            # The bot's time runs from when it has CPU: waiting for the
            # server's bot share is not charged to it.
            m.turn_started = time.monotonic()
            clock = m.clock_left[player] if m.seats[player].clock_seconds > 0 else None
        try:
            action = bot.move(state, clock)
        except Exception as e:
            error = e
        finally:
            self._thinking = None
            self.cpu.release(bot.threads, client=client)
        with m.cond:
            if m.ended or len(m.steps) != n or self.stop_event.is_set():
                return          # the match moved on (aborted, expired) or the server stops
            if error is None and not (isinstance(action, int) and m.state.is_legal(action)):
                error = ValueError(f"illegal move {action!r}")
            if error is not None:
                log.warning("match %s: seat %d (%s) failed: %s: %s", m.id, player, bot.spec,
                            type(error).__name__, error)
                self._safely(lambda: m.end(FINISHED, "bot_failed", player,
                                           f"seat {player} ({bot.spec}) failed: "
                                           f"{type(error).__name__}: {error}"))
                return
            deadline = m.deadline()
            if deadline is not None and time.monotonic() > deadline:
                self._flag(player)
                return
            if self._safely(lambda: m.commit_step(action, "bot")):
                self.moves += 1

    def _wait(self, version: int, deadline: float | None, ponder_state) -> None:
        m = self.match
        ponderers = [b for b in self.bots.values()
                     if b.mcts and ponder_state is not None
                     and b.seat != ponder_state.current_player()]
        if version != self._ponder_version:
            self._ponder_version, self._ponder_spent = version, 0.0
        if ponderers and self.cpu.ponder_threads > 0 and self._ponder_spent < PONDER_MAX:
            threads = max(b.threads for b in ponderers)
            if self.cpu.try_ponder(threads):
                try:
                    self._ponder(ponderers, version, deadline, ponder_state)
                finally:
                    self.cpu.release(threads, pondered=True)
                return
        with m.cond:
            if m.version != version or self.stop_event.is_set():
                return
            timeout = 1.0
            if deadline is not None:
                timeout = min(timeout, max(deadline - time.monotonic(), 0.0) + 0.001)
            m.cond.wait(timeout)

    def _ponder(self, ponderers, version, deadline, state) -> None:
        m = self.match
        started = time.monotonic()
        i = 0
        while (m.version == version and not self.stop_event.is_set()
               and not self.cpu.move_waiting
               and self._ponder_spent + time.monotonic() - started < PONDER_MAX
               and (deadline is None or time.monotonic() < deadline)):
            bot = ponderers[i % len(ponderers)]
            self._thinking = bot
            try:
                self.pondered += bot.ponder(state, PONDER_CHUNK)
            except Exception:
                log.exception("match %s: seat %d could not ponder", m.id, bot.seat)
                return
            finally:
                self._thinking = None
            i += 1
        self._ponder_spent += time.monotonic() - started
