"""Search requests: validate the settings against the server's limits, run the
search (whole, or in report-sized chunks for streaming) and turn its analysis
into protobuf. Plain functions and small classes; the servicer only wires
them to gRPC.

One request = one `search.Search` over a clone of the request's own state.
Stopping: whoever wants a search to end (the client's cancel or deadline via
the gRPC callback, or the server's shutdown) calls `SearchControl.stop`,
which records why and calls `Search.cancel()`; a running `run()` returns
within about a millisecond, so the streaming loop notices within one chunk.
"""
from __future__ import annotations

import math
import os
import threading
import time
from dataclasses import dataclass, field

from easel.engine.errors import EaselError
from easel.v1 import engine_pb2 as pb

from .errors import (Cancelled, DeadlineExceeded, InvalidArgument, ResourceExhausted,
                     Unavailable, Unimplemented)


@dataclass(frozen=True)
class Limits:
    """What one server allows. Budgets above a maximum are refused (not
    clamped), so a client never gets a weaker search than it asked for
    without knowing."""
    max_iterations: int = 1_000_000        # per request
    max_seconds: float = 60.0              # per request (search time)
    max_concurrent_searches: int = 2       # Suggest + Analyze calls searching at once
    max_threads: int = os.cpu_count() or 1  # per search
    max_message_bytes: int = 4 * 1024 * 1024
    default_iterations: int = 10_000       # when a request sets no budget
    default_report_ms: int = 200

    def __post_init__(self):
        for name in ("max_iterations", "max_concurrent_searches", "max_threads",
                     "max_message_bytes", "default_iterations", "default_report_ms"):
            if getattr(self, name) < 1:
                raise ValueError(f"limit {name} must be at least 1")
        if not self.max_seconds > 0:
            raise ValueError("limit max_seconds must be positive")


@dataclass
class Plan:
    """A validated search request."""
    bot: str                     # canonical bot spec
    mcts: bool
    iterations: int | None
    seconds: float | None
    seed: int
    threads: int
    top_k: int | None
    options: dict = field(default_factory=dict)   # other mcts keys (uct_c, form, ...)


# mcts spec keys that the request's own fields override
_BUDGET_KEYS = ("iterations", "time", "threads", "seed")


def plan(settings: pb.SearchSettings, game, limits: Limits, field: str = "settings") -> Plan:
    from easel.search.specs import BOT_KINDS, BotSpecError, parse_spec

    text = settings.bot.strip() or "mcts"
    try:
        spec = parse_spec(text)
    except BotSpecError as e:
        raise InvalidArgument(f"{field}.bot", str(e)) from None
    if not BOT_KINDS[spec.name].served:
        raise InvalidArgument(f"{field}.bot", f"the server does not play {spec.name!r} bots "
                                              "(they connect elsewhere or fail on purpose)")
    args = dict(spec.args)

    budget = settings.budget
    iterations = budget.iterations if budget.HasField("iterations") else args.get("iterations")
    seconds = budget.seconds if budget.HasField("seconds") else args.get("time")
    where_it = f"{field}.budget.iterations" if budget.HasField("iterations") else f"{field}.bot"
    where_s = f"{field}.budget.seconds" if budget.HasField("seconds") else f"{field}.bot"
    if iterations is not None:
        if iterations < 1:
            raise InvalidArgument(where_it, f"iterations must be at least 1, got {iterations}")
        if iterations > limits.max_iterations:
            raise InvalidArgument(where_it, f"{iterations} iterations is over this server's "
                                            f"limit of {limits.max_iterations}")
    if seconds is not None:
        if not (isinstance(seconds, (int, float)) and math.isfinite(seconds) and seconds > 0):
            raise InvalidArgument(where_s, f"seconds must be a positive number, got {seconds}")
        if seconds > limits.max_seconds:
            raise InvalidArgument(where_s, f"{seconds:g} s is over this server's limit of "
                                           f"{limits.max_seconds:g} s")
    if iterations is None and seconds is None:
        iterations = limits.default_iterations

    threads = settings.threads or int(args.get("threads", 1))
    where_t = f"{field}.threads" if settings.threads else f"{field}.bot"
    if threads < 1:
        raise InvalidArgument(where_t, f"threads must be at least 1, got {threads}")
    if threads > limits.max_threads:
        raise InvalidArgument(where_t, f"{threads} threads is over this server's limit of "
                                       f"{limits.max_threads}")
    if settings.num_candidates < 0:
        raise InvalidArgument(f"{field}.num_candidates",
                              f"must be 0 (all) or more, got {settings.num_candidates}")
    seed = settings.seed if settings.HasField("seed") else int(args.get("seed", 0))

    options = {k: v for k, v in args.items() if k not in _BUDGET_KEYS}
    mcts = spec.name == "mcts"
    if mcts:
        args.update(seed=seed, threads=threads)
        args.pop("iterations", None)
        args.pop("time", None)
        if iterations is not None:
            args["iterations"] = iterations
        if seconds is not None:
            args["time"] = seconds
    else:
        args["seed"] = seed
    canonical = type(spec)(spec.name, args).text
    if not mcts:
        # Build it now, so that a bot that cannot play this game is refused
        # as a bad field before any slot is taken.
        _make_bot(canonical, game, field)
    elif game.implementation != "core":
        raise Unimplemented(f"{field}.bot", f"{game.name} has no fast core yet, and the "
                                            f"MCTS search needs one; try bot 'random'")
    return Plan(bot=canonical, mcts=mcts, iterations=iterations, seconds=seconds, seed=seed,
                threads=threads, top_k=settings.num_candidates or None, options=options)


def _make_bot(spec: str, game, field: str):
    from easel.search.specs import BotSpecError, make_bot
    try:
        return make_bot(spec, game)
    except (BotSpecError, EaselError, ValueError, TypeError) as e:
        raise InvalidArgument(f"{field}.bot", str(e)) from None


def check_searchable(state, field: str = "position") -> None:
    if state.is_terminal():
        raise InvalidArgument(field, "the game is over; there is nothing to suggest")
    if state.is_chance_node():
        raise InvalidArgument(field, "it is a chance node: apply the chance outcome that "
                                     "happened (ApplyAction) before asking for a suggestion")


# -- capacity and stopping -----------------------------------------------------

class SearchControl:
    """One running search: why it was stopped, and the search to cancel."""

    def __init__(self):
        self._lock = threading.Lock()
        self._search = None
        self.reason: str | None = None       # "cancelled", "deadline", "shutdown"
        self.finished = threading.Event()

    def attach(self, search) -> None:
        with self._lock:
            self._search = search
            stopped = self.reason is not None
        if stopped:
            search.cancel()

    def stop(self, reason: str) -> None:
        with self._lock:
            if self.reason is None:
                self.reason = reason
            search = self._search
        if search is not None:
            search.cancel()

    @property
    def stopped(self) -> bool:
        return self.reason is not None


class SearchSlots:
    """At most `limit` searches at once; beyond, RESOURCE_EXHAUSTED. Keeps the
    running searches so that a shutdown can cut them short, and so that tests
    and logs can see how many are running."""

    def __init__(self, limit: int):
        self.limit = limit
        self._lock = threading.Lock()
        self._running: set[SearchControl] = set()
        self._closed = False

    def acquire(self) -> SearchControl:
        with self._lock:
            if self._closed:
                raise Unavailable("", "the server is shutting down")
            if len(self._running) >= self.limit:
                raise ResourceExhausted(
                    "", f"the server is already running {self.limit} searches, its limit; "
                        f"retry later")
            control = SearchControl()
            self._running.add(control)
            return control

    def release(self, control: SearchControl) -> None:
        with self._lock:
            self._running.discard(control)
        control.finished.set()

    def running(self) -> int:
        with self._lock:
            return len(self._running)

    def shutdown(self) -> None:
        """Refuse new searches; stop the running ones (they still answer)."""
        with self._lock:
            self._closed = True
            running = list(self._running)
        for c in running:
            c.stop("shutdown")


# -- running -------------------------------------------------------------------

def _new_search(plan: Plan, state):
    from easel.search import Search
    try:
        return Search(state.get_game(), state, seed=plan.seed, threads=plan.threads,
                      **plan.options)
    except TypeError as e:          # an mcts key the search does not take
        raise InvalidArgument("settings.bot", f"{plan.bot}: {e}") from None
    except EaselError as e:         # a bad value (form, uct_c, ...)
        raise InvalidArgument("settings.bot", f"{plan.bot}: {e}") from None


def _run_chunk(search, plan: Plan, started: float, chunk_seconds: float | None,
               deadline: float | None) -> bool:
    """Run until the chunk, the budget or the deadline ends; True if the
    budget is spent."""
    left_it = None
    if plan.iterations is not None:
        left_it = plan.iterations - search.iterations
        if left_it <= 0:
            return True
    limits = []
    if plan.seconds is not None:
        left_s = plan.seconds - (time.monotonic() - started)
        if left_s <= 0:
            return True
        limits.append(left_s)
    if chunk_seconds is not None:
        limits.append(chunk_seconds)
    if deadline is not None:
        limits.append(max(deadline - time.monotonic(), 1e-4))
    time_limit = min(limits) if limits else None
    search.run(iterations=left_it, time_limit=time_limit)
    if plan.iterations is not None and search.iterations >= plan.iterations:
        return True
    return plan.seconds is not None and time.monotonic() - started >= plan.seconds - 1e-4


def suggest(plan: Plan, state, control: SearchControl, deadline: float | None = None
            ) -> pb.Analysis:
    """The whole search in one go (the caller's thread); its final analysis.
    `deadline` (time.monotonic()) cuts the search short if it comes first."""
    if not plan.mcts:
        return bot_move(plan, state)
    search = _new_search(plan, state)
    control.attach(search)
    started = time.monotonic()
    while not control.stopped:
        if _run_chunk(search, plan, started, None, deadline):
            break
        if deadline is not None and time.monotonic() >= deadline:
            control.stop("deadline")
    _raise_if_ended(control, search)
    return to_proto(search.analysis(top_k=plan.top_k), plan.bot)


def _raise_if_ended(control: SearchControl, search) -> None:
    """A search stopped for the client's sake ends the call with its status,
    never with a truncated answer that looks complete."""
    if control.reason == "deadline":
        raise DeadlineExceeded("", f"the call's deadline passed; the search was stopped after "
                                   f"{search.iterations} iterations")
    if control.reason == "cancelled":
        raise Cancelled("", "the call was cancelled")


def analyze(plan: Plan, state, control: SearchControl, interval: float,
            deadline: float | None = None):
    """Yield (analysis, final, stop_reason): a report every `interval` seconds
    of search, then one final report when the budget is spent or the server
    shuts down. Once the client cancelled or the deadline passed, nothing
    more is yielded: DeadlineExceeded or Cancelled is raised instead."""
    if not plan.mcts:
        yield bot_move(plan, state), True, pb.STOP_REASON_NO_SEARCH
        return
    search = _new_search(plan, state)
    control.attach(search)
    started = time.monotonic()
    while True:
        done = _run_chunk(search, plan, started, interval, deadline)
        if deadline is not None and time.monotonic() >= deadline:
            control.stop("deadline")
        _raise_if_ended(control, search)
        analysis = to_proto(search.analysis(top_k=plan.top_k), plan.bot)
        if done:
            yield analysis, True, pb.STOP_REASON_BUDGET
            return
        if control.reason == "shutdown":
            yield analysis, True, pb.STOP_REASON_SHUTDOWN
            return
        yield analysis, False, pb.STOP_REASON_UNSPECIFIED


def bot_move(plan: Plan, state) -> pb.Analysis:
    """A non-searching bot's move, as the only candidate."""
    bot = _make_bot(plan.bot, state.get_game(), "settings")
    action = bot.step(state.clone())
    text = state.action_to_string(action)
    out = pb.Analysis(player=state.current_player(), bot=plan.bot)
    out.candidates.add(id=action, text=text, rank=1, turn_length=1,
                       pv=[pb.PvStep(id=action, text=text, player=state.current_player())])
    return out


def to_proto(a, bot: str) -> pb.Analysis:
    out = pb.Analysis(player=a.player, iterations=a.iterations, elapsed_seconds=a.elapsed,
                      bot=bot)
    for rank, c in enumerate(a.candidates, start=1):
        out.candidates.add(
            id=c.action, text=c.text, rank=rank, visits=c.visits, win_probability=c.win_prob,
            value=c.value, values=list(c.values),
            expected_scores=list(c.scores) if c.scores is not None else [],
            confidence_half_width=c.ci, turn_length=len(c.turn),
            pv=[_pv_step(s) for s in list(c.turn) + list(c.pv)])
    return out


def _pv_step(s) -> pb.PvStep:
    step = pb.PvStep(text=s.text, player=s.player, is_chance=s.is_chance)
    if s.action is not None:
        step.id = s.action
    return step
