"""The match manager: creates matches, resumes the open ones at start, keeps
them in memory while they run, applies client actions, ends idle matches,
and enforces the server's match limits. Plain Python (no gRPC): the servicer
in server/matches/service.py only translates.
"""
from __future__ import annotations

import logging
import math
import os
import secrets
import threading
import time
from dataclasses import dataclass

from easel.engine.errors import EaselError

from .. import bot_specs, positions
from ..errors import InvalidArgument, Unavailable, quote
from . import draws
from .errors import FailedPrecondition, LimitReached, NotFound, PermissionDenied
from .match import ABORTED, EXPIRED, FINISHED, IN_PROGRESS, Match
from .seats import BotCPU, MatchHost
from .trees import KeptTrees
from .store import MatchRow, SeatRow, Store, hash_token

log = logging.getLogger("easel.server.matches")

MAX_NAME = 64
MAX_SECONDS = 7 * 24 * 3600.0       # longest time control accepted


@dataclass(frozen=True)
class MatchLimits:
    """What one server allows for hosted matches. Each refusal names its limit."""
    max_open_matches: int = 200          # in progress at once, whole server
    max_open_per_client: int = 20        # in progress at once, per client (server/auth.py)
    bot_threads: int = max(1, (os.cpu_count() or 1) - 1)   # search threads of all bots at once
    ponder_threads: int = 0              # of those, how many may ponder on opponents' time
    max_streams: int = 64                # spectator WatchMatch streams at once, whole server
    max_streams_per_match: int = 16      # spectator streams on one match
    max_seat_streams: int = 200          # seats' own WatchMatch streams at once, whole server
    idle_expiry: float = 24 * 3600.0     # seconds without a step before a match expires
    # A full server ends the longest-idle match of another client waiting this
    # long for its client seat (or table) rather than refuse a newcomer.
    idle_grace: float = 60.0
    # Bytes of search tree all bot seats keep between their moves, whole server
    # (server/matches/trees.py); each tree is also within --max-search-nodes.
    max_kept_tree_bytes: int = 512 << 20

    def __post_init__(self):
        for name in ("max_open_matches", "max_open_per_client", "bot_threads", "max_streams",
                     "max_streams_per_match", "max_seat_streams"):
            if getattr(self, name) < 1:
                raise ValueError(f"limit {name} must be at least 1")
        if self.max_kept_tree_bytes < 0:
            raise ValueError("limit max_kept_tree_bytes must be at least 0 (0: no seat keeps "
                             "its tree between moves)")
        if not 0 <= self.ponder_threads <= self.bot_threads:
            raise ValueError("limit ponder_threads must be from 0 to bot_threads")
        for name in ("idle_expiry", "idle_grace"):
            if not getattr(self, name) > 0:
                raise ValueError(f"limit {name} must be positive")


def _new_id() -> str:
    return secrets.token_hex(8)


def _new_token() -> str:
    return secrets.token_urlsafe(24)


class MatchManager:
    def __init__(self, store: Store, limits: MatchLimits | None = None, engine_limits=None):
        from ..analysis import Limits
        self.store = store
        self.limits = limits or MatchLimits()
        self.engine_limits = engine_limits or Limits()
        self.cpu = BotCPU(self.limits.bot_threads, self.limits.ponder_threads)
        self.kept_trees = KeptTrees(self.limits.max_kept_tree_bytes)
        self._lock = threading.Lock()
        self._open: dict[str, Match] = {}
        self._clients: dict[str, str] = {}      # match id -> client key
        self._stopping = threading.Event()
        self._janitor = threading.Thread(target=self._expire_loop, name="match-janitor",
                                         daemon=True)
        self.resumed = 0
        self.evicted = 0
        # Time the server was down is nobody's idling: idle time counts from
        # the later of a match's last step and this.
        self._started_at = time.time()

    # -- life ------------------------------------------------------------------------
    def start(self) -> "MatchManager":
        """Resume every open match of the database (bots continue, chance
        continues its hidden sequence), then start the idle janitor."""
        for match_id in self.store.open_ids():
            try:
                m = self._load(match_id)
            except Exception:
                log.exception("match %s: cannot be resumed; left as it is", match_id)
                continue
            self._start(m, m.row.client)
            self.resumed += 1
        if self.resumed:
            log.info("resumed %d open match(es)", self.resumed)
        self._janitor.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the bots (a search in progress is cut short and not played)
        and end every stream; open matches stay open in the database."""
        self._stopping.set()
        self.cpu.close()
        with self._lock:
            matches = list(self._open.values())
        for m in matches:
            if m.host is not None:
                m.host.stop()
        end = time.monotonic() + timeout
        for m in matches:
            if m.host is not None:
                m.host.join(max(end - time.monotonic(), 0.01))

    @property
    def stopping(self) -> bool:
        return self._stopping.is_set()

    def _start(self, m: Match, client: str) -> None:
        m.host = MatchHost(m, self.cpu, on_exit=self._exited,
                           max_nodes=self.engine_limits.max_search_nodes, kept=self.kept_trees)
        with self._lock:
            self._open[m.id] = m
            self._clients[m.id] = client
        m.host.start()

    def _exited(self, m: Match) -> None:
        with self._lock:
            if self._open.get(m.id) is m and m.ended:
                del self._open[m.id]
                self._clients.pop(m.id, None)

    def _load(self, match_id: str) -> Match:
        row = self.store.load(match_id)
        if row is None:
            raise NotFound("match_id", f"no match {match_id!r} on this server")
        game = positions.load_game(row.game, "game")
        return Match(row, game, self.store)

    def open_count(self) -> int:
        with self._lock:
            return len(self._open)

    # -- finding -----------------------------------------------------------------------
    def get(self, match_id: str) -> Match:
        """The live match, or (ended) a read-only copy from the database."""
        if not match_id:
            raise InvalidArgument("match_id", "a match id is required")
        if len(match_id) > 64:
            raise InvalidArgument("match_id", "too long to be a match id")
        with self._lock:
            m = self._open.get(match_id)
        if m is not None:
            return m
        if self.stopping:
            raise Unavailable("", "the server is shutting down")
        m = self._load(match_id)
        with self._lock:            # it may have been resumed meanwhile
            live = self._open.get(match_id)
        if live is not None:
            return live
        if not m.ended:
            # In the database as open but not running here: only while the
            # server starts or stops. Never serve it half-alive.
            raise Unavailable("", f"match {match_id} is not running on this server right now; "
                                  f"retry")
        m.store = None              # read-only
        return m

    def list(self, status: str | None, page_size: int, page_token: str):
        if page_size < 0:
            raise InvalidArgument("page_size", f"must be 0 (default 50) to 500, got {page_size}")
        if page_size > 500:
            raise InvalidArgument("page_size", f"at most 500, got {page_size}")
        size = page_size or 50
        before = None
        if page_token:
            try:
                before = int(page_token)
            except ValueError:
                before = None
            if before is None or not 0 < before < 2 ** 63:    # a rowid, as SQLite stores it
                raise InvalidArgument("page_token", "not a page token from ListMatches")
        rows = self.store.list(status, size + 1, before)
        more = len(rows) > size
        rows = rows[:size]
        out = []
        for mid, _ in rows:
            try:
                out.append(self.get(mid))
            except Unavailable:
                continue
        token = str(rows[-1][1]) if more and rows else ""
        return out, token

    # -- creating ------------------------------------------------------------------------
    def create(self, game_string: str, seats, chance: str, allow_hints: bool, client: str):
        """`seats`: a list of dicts {kind, bot, name, move_seconds,
        clock_seconds, increment} (kind "bot" or "client"), validated here.
        Returns (match, seat tokens {seat: token}, creator token, table token)."""
        if self.stopping:
            raise Unavailable("", "the server is shutting down")
        game = positions.load_game(game_string, "game")
        n = game.num_players()
        if len(seats) != n:
            raise InvalidArgument("seats", f"{game.spec} has {n} players: give {n} seats, "
                                           f"got {len(seats)}")
        rows = []
        tokens = {}
        for i, s in enumerate(seats):
            rows.append(self._seat_row(i, s, game, tokens))
        if chance not in ("server", "table"):
            raise InvalidArgument("chance", f"unknown chance source {chance!r}")
        while True:
            with self._lock:
                mine = sum(1 for c in self._clients.values() if c == client)
                if mine >= self.limits.max_open_per_client:
                    raise LimitReached("max_open_per_client", f"you already have {mine} "
                                       f"matches in progress on this server, the limit per "
                                       f"client")
                victim = None
                if len(self._open) >= self.limits.max_open_matches:
                    victim = self._victim_locked(client)      # raises if there is none
                else:
                    m, creator, table = self._insert_locked(game, rows, chance, allow_hints,
                                                            client)
                    break
            self._evict(victim)       # then try again: its slot, unless taken meanwhile
        self._start(m, client)
        log.info("match %s created: %s, seats %s, chance %s", m.id, quote(game.spec, 80),
                 ", ".join(quote(r.bot, 40) if r.bot else "client" for r in rows), chance)
        return m, tokens, creator, table

    def _insert_locked(self, game, rows, chance, allow_hints, client):
        """A new match, stored and counted: (match, creator token, table token)."""
        creator = _new_token()
        table = _new_token() if chance == "table" else ""
        now = time.time()
        row = MatchRow(id=_new_id(), game=game.spec, status=IN_PROGRESS, chance=chance,
                       allow_hints=bool(allow_hints), seed=draws.new_seed(),
                       creator_hash=hash_token(creator),
                       table_hash=hash_token(table) if table else None, client=client,
                       created_at=now, updated_at=now, seats=rows)
        self.store.create(row)
        m = Match(row, game, self.store)
        # counted before the lock is let go, so a burst cannot overshoot
        self._open[m.id] = m
        self._clients[m.id] = client
        return m, creator, table

    # -- a full server -----------------------------------------------------------------
    def _idle_for(self, m: Match, now: float) -> float | None:
        """Seconds a match has waited for a client seat or the table (its
        players, not the server), or None while the server's side (a bot,
        server chance) is to act or it has ended."""
        if m.ended:
            return None
        player = m.state.current_player()
        waits_on_client = (m.seats[player].kind == "client" if player >= 0
                           else m.table_mode and m.state.is_chance_node())
        if not waits_on_client:
            return None
        return now - max(m.updated_at, self._started_at)

    def _victim_locked(self, client: str) -> Match:
        """The server is full: the match of another client idle longest, if
        idle for at least `idle_grace`; else LimitReached saying when one
        may be."""
        now = time.time()
        idle = []
        for mid, m in self._open.items():
            if self._clients.get(mid) == client:
                continue
            t = self._idle_for(m, now)    # without m.cond (lock order); _evict checks again
            if t is not None:
                idle.append((t, m))
        grace = self.limits.idle_grace
        if idle:
            t, m = max(idle, key=lambda x: x[0])
            if t >= grace:
                return m
            when = (f"another client's match idle longest will have waited the idle grace "
                    f"({grace:g} s) in {grace - t:.0f} s; retry then")
        else:
            when = "every match is being played (none waits for its client); retry later"
        raise LimitReached("max_open_matches", f"this server already has {len(self._open)} "
                           f"matches in progress, its limit; {when}")

    def _evict(self, m: Match) -> None:
        """End an idle match (EXPIRED) to make room on a full server, if it is
        still idle (its client may have moved since it was chosen)."""
        with m.cond:
            t = self._idle_for(m, time.time())
            if t is not None and t >= self.limits.idle_grace:
                m.end(EXPIRED, "expired", -1, f"evicted: the server was full and this match "
                                              f"had waited {t:.0f} s for its player "
                                              f"(idle grace {self.limits.idle_grace:g} s)")
                self.evicted += 1
                log.info("match %s evicted (idle %.0f s, server full)", m.id, t)
        self._exited(m)           # its slot is free now, whatever its host does next

    def _seat_row(self, i: int, s: dict, game, tokens: dict) -> SeatRow:
        where = f"seats[{i}]"
        tc = {}
        for key in ("move_seconds", "clock_seconds", "increment"):
            x = s.get(key, 0.0)
            field = f"{where}.time_control.{'increment_seconds' if key == 'increment' else key}"
            if not (isinstance(x, (int, float)) and math.isfinite(x) and 0 <= x <= MAX_SECONDS):
                raise InvalidArgument(field, f"must be from 0 to {MAX_SECONDS:g} seconds, got {x}")
            tc[key] = float(x)
        if tc["increment"] > 0 and tc["clock_seconds"] == 0:
            raise InvalidArgument(f"{where}.time_control.increment_seconds",
                                  "an increment needs a clock (clock_seconds)")
        name = s.get("name") or ""
        if len(name) > MAX_NAME or any(ord(c) < 32 for c in name):
            raise InvalidArgument(f"{where}.name", f"at most {MAX_NAME} printable characters")
        kind = s.get("kind")
        token_hash = None
        spec = ""
        if kind == "bot":
            spec = self._check_bot(s.get("bot", ""), game, f"{where}.bot")
            name = name or spec
        elif kind == "client":
            token = _new_token()
            tokens[i] = token
            token_hash = hash_token(token)
            name = name or f"seat {i}"
        else:
            raise InvalidArgument(where, "set 'bot' (a bot spec) or 'client' (true)")
        return SeatRow(i, kind, spec, name, token_hash, tc["move_seconds"], tc["clock_seconds"],
                       tc["increment"])

    def _check_bot(self, text: str, game, field: str) -> str:
        """The canonical spec, once sure this server may run it for this game."""
        from easel.search.specs import BotSpecError, make_bot
        if not text.strip():
            raise InvalidArgument(field, "a bot spec is required, e.g. 'mcts(time=1)' or "
                                         "'heuristic'")
        spec = bot_specs.served_spec(text, field, seat=True)
        lim = self.engine_limits
        runs = bot_specs.expand_level(spec, game, field, seat=True)   # level(N): its mcts spec
        args = runs.args
        if runs.name == "mcts":
            it, sec, th = args.get("iterations"), args.get("time"), args.get("threads", 1)
            if it is not None and it > lim.max_iterations:
                raise InvalidArgument(field, f"{it} iterations is over this server's limit of "
                                             f"{lim.max_iterations}")
            if sec is not None and sec > lim.max_seconds:
                raise InvalidArgument(field, f"{sec:g} s is over this server's limit of "
                                             f"{lim.max_seconds:g} s")
            if th > self.limits.bot_threads:
                raise InvalidArgument(field, f"{th} threads is over this server's bot CPU "
                                             f"share of {self.limits.bot_threads} threads")
            bot_specs.check_trees(args, th, game, lim, field)
            if getattr(game, "implementation", None) != "core":
                raise InvalidArgument(field, f"{game.name} has no fast core; the MCTS bot "
                                             f"needs one")
        try:
            make_bot(spec, game, seed=0, max_nodes=lim.max_search_nodes)
        except (BotSpecError, EaselError, ValueError, TypeError) as e:
            raise InvalidArgument(field, str(e)) from None
        return spec.text

    # -- acting ------------------------------------------------------------------------------
    def submit(self, match_id: str, token: str, step_no: int, step_msg):
        """Apply a client seat's action (or the table's chance outcome).
        Returns (match, committed StepRow, state before the step)."""
        m = self.get(match_id)
        with m.cond:
            seat = m.seat_of_token(token)
            table = m.is_table_token(token)
            if seat is None and not table:
                raise PermissionDenied("token", f"not a seat token (or table token) of match "
                                                f"{m.id}")
            if m.ended:
                raise FailedPrecondition("", f"match {m.id} has ended ({m.status}) at step "
                                             f"{len(m.steps)}")
            now = len(m.steps)
            if step_no != now:
                raise FailedPrecondition("step", f"the match is at step {now}, not {step_no}: "
                                                 f"{m.to_act()}")
            player = m.state.current_player()
            if m.state.is_chance_node():
                if not table:
                    raise FailedPrecondition("", f"step {now}: {m.to_act()}")
            elif seat != player:
                who = "the table token acts only for chance" if table else f"you are seat {seat}"
                raise FailedPrecondition("", f"step {now}: {m.to_act()}; {who}")
            deadline = m.deadline()
            if deadline is not None and time.monotonic() > deadline:
                m.end(FINISHED, "time", player, f"seat {player} ran out of time")
                raise FailedPrecondition("", f"step {now}: too late: seat {player} ran out "
                                             f"of time; the match has ended")
            action = positions.resolve_step(m.state, step_msg, "action")
            before = m.state.clone()
            row = m.commit_step(action, "table" if table else "client")
            return m, row, before

    def resign(self, match_id: str, token: str) -> Match:
        m = self.get(match_id)
        with m.cond:
            seat = m.seat_of_token(token)
            if seat is None:
                raise PermissionDenied("token", f"not a seat token of match {m.id}")
            if m.ended:
                raise FailedPrecondition("", f"match {m.id} has already ended ({m.status})")
            m.end(FINISHED, "resigned", seat, f"seat {seat} resigned")
            return m

    def abort(self, match_id: str, token: str) -> Match:
        m = self.get(match_id)
        with m.cond:
            if not m.is_creator_token(token):
                raise PermissionDenied("token", f"not the creator token of match {m.id}")
            if m.ended:
                raise FailedPrecondition("", f"match {m.id} has already ended ({m.status})")
            m.end(ABORTED, "aborted", -1, "aborted by its creator")
            return m

    def hint_position(self, match_id: str, token: str):
        """(match, seat, step number, state clone) for a hint, once allowed."""
        m = self.get(match_id)
        with m.cond:
            seat = m.seat_of_token(token)
            if seat is None:
                raise PermissionDenied("token", f"not a seat token of match {m.id}")
            if not m.row.allow_hints:
                raise PermissionDenied("", f"match {m.id} does not allow hints")
            if m.ended:
                raise FailedPrecondition("", f"match {m.id} has ended ({m.status})")
            if m.state.current_player() != seat:
                raise FailedPrecondition("", f"step {len(m.steps)}: {m.to_act()}; a hint is "
                                             f"for your own turn (seat {seat})")
            return m, seat, len(m.steps), m.state.clone()

    def add_hint(self, m: Match, seat: int, step: int, analysis) -> None:
        with m.cond:
            m.add_hint(seat, step, analysis)

    # -- idle expiry ---------------------------------------------------------------------------
    def _expire_loop(self) -> None:
        period = min(max(self.limits.idle_expiry / 4.0, 0.05), 10.0)
        while not self._stopping.wait(period):
            self.expire_idle()

    def expire_idle(self) -> int:
        now = time.time()
        with self._lock:
            matches = list(self._open.values())
        n = 0
        for m in matches:
            with m.cond:
                if not m.ended and now - m.updated_at > self.limits.idle_expiry:
                    try:
                        m.end(EXPIRED, "expired", -1,
                              f"no step for {self.limits.idle_expiry:g} s")
                        n += 1
                    except Exception:
                        log.exception("match %s: cannot expire", m.id)
        return n
