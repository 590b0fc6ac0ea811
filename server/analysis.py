"""Search requests: validate the settings against the server's limits, run the
search (whole, or in report-sized chunks for streaming) and turn its analysis
into protobuf. Plain functions and small classes; the servicer only wires
them to gRPC.

One request = one `search.Search` over a clone of the request's own state
(two or more when a mid-turn Suggest follows the turn's plan, see
`follow_plan`, or when a Suggest playing as a bot rebuilds it, see
server/bot_replay.py). Stopping: whoever wants a search to end (the client's cancel
or deadline via the gRPC callback, or the server's shutdown) calls
`SearchControl.stop` (server/queue.py), which records why and calls
`Search.cancel()`; a running `run()` returns within about a millisecond, so
the streaming loop notices within one chunk. Every final answer names at
least one move (`_at_least_one`).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from easel.engine.errors import EaselError
from easel.search import params
from easel.v1 import engine_pb2 as pb

from . import bot_specs
from .errors import Cancelled, DeadlineExceeded, InvalidArgument, Unimplemented, quote
from .limits import Limits  # noqa: F401  (re-exported: analysis.Limits)
from .queue import SearchControl


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
    options: dict = field(default_factory=dict)   # other mcts keys (uct_c, form, ...) and
                                                  # the server's max_nodes
    # No budget was given: search until the two leading candidates are told
    # apart (search/separation.py), `iterations` and `seconds` being the cap.
    until_apart: bool = False


# mcts spec keys that the request's own fields override
_BUDGET_KEYS = ("iterations", "time", "threads", "seed")


def plan(settings: pb.SearchSettings, game, limits: Limits, field: str = "settings",
         as_bot: bool = False, until_cancelled: bool = False) -> Plan:
    """The request's search, checked against `limits`. `as_bot`: the call
    plays as a bot (SearchSettings.play_as_bot, server/bot_replay.py): a
    spec with no budget takes the bot's own default, and an MCTS spec may set
    the bot's options (reuse, early_stop, ...) besides the search's. Only the
    calls that can play as a bot pass it; elsewhere play_as_bot is refused.
    `until_cancelled` (AnalyzeRequest.until_cancelled): no budget may be
    given, and the search runs to this server's largest one.
    Otherwise a request with no budget searches until its leading
    candidates are told apart, the server's default budget being the cap."""
    if settings.play_as_bot and not as_bot:
        raise InvalidArgument(f"{field}.play_as_bot", "only Suggest plays as a bot; this call "
                                                      "analyses the position (leave it unset)")
    text = settings.bot.strip() or "mcts"
    spec = bot_specs.served_spec(text, f"{field}.bot", seat=as_bot)
    spec = bot_specs.expand_level(spec, game, f"{field}.bot", seat=as_bot)
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
    if until_cancelled:
        if iterations is not None or seconds is not None:
            raise InvalidArgument("until_cancelled", f"searches until the call is cancelled: "
                                                     f"give no budget with it (none in "
                                                     f"{field}.budget, nor in the bot spec)")
        iterations, seconds = limits.max_iterations, limits.max_seconds
    until_apart = False
    if iterations is None and seconds is None:
        iterations = limits.default_iterations
        until_apart = not as_bot
        if until_apart:            # the cap, never above what a request may ask
            iterations = min(iterations, limits.max_iterations)
            seconds = min(limits.default_seconds, limits.max_seconds)
        if as_bot:                   # the bot's own budget, as it plays locally
            from easel.search.mcts import BOT_ITERATIONS
            iterations = BOT_ITERATIONS
            if iterations > limits.max_iterations:
                raise InvalidArgument(f"{field}.budget", f"no budget is set, and the bot's own "
                                                         f"{iterations} iterations are over this "
                                                         f"server's limit of "
                                                         f"{limits.max_iterations}")

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
        bot_specs.check_trees(args, threads, game, limits, f"{field}.bot")
        options["max_nodes"] = limits.max_search_nodes
        try:            # what this game cannot do (rollout=policy without a policy)
            params.resolve_search(game, dict({k: v for k, v in options.items()
                                              if params.MCTS[k].scope != "bot"},
                                             threads=threads))
        except EaselError as e:
            raise InvalidArgument(f"{field}.bot", str(e)) from None
        args.update(seed=seed, threads=threads)
        args.pop("iterations", None)
        args.pop("time", None)
        # The spec says the budget it searched with; with none given it is
        # the stopping rule's, whose caps (iterations, seconds) it leaves out.
        if iterations is not None and not until_apart:
            args["iterations"] = iterations
        if seconds is not None and not until_apart:
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
                threads=threads, top_k=settings.num_candidates or None, options=options,
                until_apart=until_apart and mcts)


def _clean(e: Exception) -> str:
    """An error's text without Python's call syntax (a client does not know
    our functions): "Bot.__init__() got an unexpected keyword argument 'x'"
    becomes "unexpected option 'x'"."""
    text = str(e)
    if isinstance(e, TypeError) and "()" in text:
        import re
        m = re.search(r"unexpected keyword argument '([^']*)'", text)
        if m:
            return f"unknown option {quote(m.group(1))}"
        return "bad options: " + re.sub(r"[\w.]+\(\)\s*", "", text)
    return text


def _make_bot(spec: str, game, field: str):
    from easel.search.specs import BotSpecError, make_bot
    try:
        return make_bot(spec, game)
    except (BotSpecError, EaselError, ValueError, TypeError) as e:
        raise InvalidArgument(f"{field}.bot", _clean(e)) from None


def check_searchable(state, field: str = "position") -> None:
    if state.is_terminal():
        raise InvalidArgument(field, "the game is over; there is nothing to suggest")
    if state.is_chance_node():
        raise InvalidArgument(field, "it is a chance node: apply the chance outcome that "
                                     "happened (ApplyAction) before asking for a suggestion")


# -- running -------------------------------------------------------------------

def _new_search(plan: Plan, state):
    from easel.search import Search
    try:
        return Search(state.get_game(), state, seed=plan.seed, threads=plan.threads,
                      **plan.options)
    except (TypeError, EaselError, ValueError) as e:    # a bad value (form, uct_c, ...)
        raise InvalidArgument("settings.bot", f"{quote(plan.bot, 120)}: {_clean(e)}") from None


def _run_chunk(search, plan: Plan, started: float, chunk_seconds: float | None,
               deadline: float | None, rule=None) -> bool:
    """Run until the chunk, the budget or the deadline ends; True if the
    budget is spent. `rule` (search/separation.py `UntilApart`, for a plan
    `until_apart`): run by it, which also ends once the leaders are apart."""
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
    if rule is not None:
        if rule.run(time_limit=time_limit):
            return True
    else:
        search.run(iterations=left_it, time_limit=time_limit)
    if plan.iterations is not None and search.iterations >= plan.iterations:
        return True
    return plan.seconds is not None and time.monotonic() - started >= plan.seconds - 1e-4


def _search_through(plan: Plan, state, control: SearchControl, deadline: float | None):
    """A search of `state` run until its budget is spent (or, with no budget,
    its leaders are told apart), the server shuts down (it still answers) or
    the call ends (DeadlineExceeded, Cancelled). (search, stopping rule or
    None)."""
    search = _new_search(plan, state)
    control.attach(search)
    rule = search.until_apart(plan.iterations) if plan.until_apart else None
    started = time.monotonic()
    while not control.stopped:
        if _run_chunk(search, plan, started, None, deadline, rule):
            break
        if deadline is not None and time.monotonic() >= deadline:
            control.stop("deadline")
    _raise_if_ended(control, search)
    return search, rule


def _stop_reason(control: SearchControl, rule) -> int:
    if control.reason == "shutdown":
        return pb.STOP_REASON_SHUTDOWN
    return pb.STOP_REASON_TOLD_APART if rule is not None and rule.apart else pb.STOP_REASON_BUDGET


def _separation(search, a, rule=None):
    """Whether the leaders of `a` (an analysis of `search`, best first) are
    told apart: the stopping rule's last check when it was made at this
    very iteration, else read now (from `a` when it holds the first two)."""
    from easel.search.separation import told_apart
    sep = rule.separation if rule is not None else None
    if sep is not None and sep.iterations == search.iterations:
        return sep
    cands = a.candidates if len(a.candidates) >= 2 else search.analysis(top_k=2).candidates
    return told_apart(cands, search.value_range(), search.iterations)


def answer(search, a, plan: Plan, rule=None) -> pb.Analysis:
    """The message of `a`, an analysis of `search` made for `plan` (`rule`:
    the plan's stopping rule, if it has one)."""
    return to_proto(a, plan.bot, search.value_range(), _separation(search, a, rule).apart)


def suggest(plan: Plan, state, control: SearchControl, deadline: float | None = None):
    """The whole search in one go (the caller's thread): (final analysis,
    stop reason). `deadline` (time.monotonic()) cuts the search short if it
    comes first (DeadlineExceeded); a shutdown cuts it short and answers
    (STOP_REASON_SHUTDOWN). The analysis has at least one candidate."""
    if not plan.mcts:
        return bot_move(plan, state), pb.STOP_REASON_NO_SEARCH
    search, rule = _search_through(plan, state, control, deadline)
    result = _at_least_one(search, plan.top_k, control, deadline)
    return answer(search, result, plan, rule), _stop_reason(control, rule)


def _at_least_one(search, top_k, control: SearchControl, deadline):
    """The search's analysis, grown by a few iterations if it has no
    candidate yet (a tiny time budget can end before the first iteration):
    an answer always names a move when one exists."""
    a = search.analysis(top_k=top_k)
    tries = 0
    while not a.candidates and tries < 64:
        if control.reason in ("cancelled", "deadline"):
            break
        search._cancelled = False      # a shutdown stop still answers: give it its move
        for t in search._trees:
            t.uncancel()
        search.run(iterations=8)
        a = search.analysis(top_k=top_k)
        tries += 1
    _raise_if_ended(control, search)
    return a


def _raise_if_ended(control: SearchControl, search) -> None:
    """A search stopped for the client's sake ends the call with its status,
    never with a truncated answer that looks complete."""
    if control.reason == "deadline":
        raise DeadlineExceeded("", f"the call's deadline passed; the search was stopped after "
                                   f"{search.iterations} iterations")
    if control.reason == "cancelled":
        raise Cancelled("", "the call was cancelled")


def analyze(plan: Plan, state, control: SearchControl, interval: float,
            deadline: float | None = None, report_top_k: int | None = 3):
    """Yield (analysis, final, stop_reason): a report every `interval` seconds
    of search (its top `report_top_k` candidates; none before the search has
    one), then one final report
    (`plan.top_k` candidates, at least one) when the budget is spent or the
    server shuts down. Once the client cancelled or the deadline passed,
    nothing more is yielded: DeadlineExceeded or Cancelled is raised instead."""
    if not plan.mcts:
        yield bot_move(plan, state), True, pb.STOP_REASON_NO_SEARCH
        return
    search = _new_search(plan, state)
    control.attach(search)
    rule = search.until_apart(plan.iterations) if plan.until_apart else None
    started = time.monotonic()
    if plan.top_k is not None and report_top_k is not None:
        report_top_k = min(report_top_k, plan.top_k)
    while True:
        done = _run_chunk(search, plan, started, interval, deadline, rule)
        if deadline is not None and time.monotonic() >= deadline:
            control.stop("deadline")
        _raise_if_ended(control, search)
        if done or control.reason == "shutdown":
            final = answer(search, _at_least_one(search, plan.top_k, control, deadline), plan,
                            rule)
            yield final, True, _stop_reason(control, rule)
            return
        report = search.analysis(top_k=report_top_k)
        if report.candidates:        # a report names a move, or waits for the next chunk
            yield answer(search, report, plan, rule), False, pb.STOP_REASON_UNSPECIFIED


def follow_plan(plan: Plan, turn_state, taken: list[int], control: SearchControl,
                deadline: float | None = None):
    """The plan made at the start of the current turn, followed: search
    `turn_state` (the turn's first position) with `plan`, keep the candidate
    turns that begin with the decisions `taken` since, and give each as the
    rest of its turn. (analysis, stop reason), or None when no planned turn
    begins with `taken` (the caller then searches the position itself)."""
    search, rule = _search_through(plan, turn_state, control, deadline)
    a = search.analysis(top_k=None)
    k = len(taken)
    kept = []
    for c in a.candidates:
        steps = [s.action for s in c.turn]
        if len(steps) > k and steps[:k] == list(taken) and not c.turn[k].is_chance:
            c.turn = c.turn[k:]
            c.action, c.text = c.turn[0].action, c.turn[0].text
            kept.append(c)
    if not kept:
        return None
    from easel.search.separation import told_apart
    apart = told_apart(kept, search.value_range(), search.iterations).apart
    a.candidates = kept if plan.top_k is None else kept[:plan.top_k]
    out = to_proto(a, plan.bot, search.value_range(), apart)
    out.plan_move_number = turn_state.move_number()
    return out, _stop_reason(control, rule)


def bot_move(plan: Plan, state) -> pb.Analysis:
    """A non-searching bot's move, as the only candidate."""
    bot = _make_bot(plan.bot, state.get_game(), "settings")
    action = bot.step(state.clone())
    text = state.action_to_string(action)
    out = pb.Analysis(player=state.current_player(), bot=plan.bot)
    step = pb.PvStep(id=action, text=text, player=state.current_player())
    out.candidates.add(id=action, text=text, rank=1, turn_length=1, pv=[step], turn=[step],
                       turn_text=text)
    return out


def to_proto(a, bot: str, value_range: tuple[float, float], leaders_apart: bool
             ) -> pb.Analysis:
    """A search's analysis as the message; `value_range` is the scale of its
    values (Search.value_range), `leaders_apart` whether its first two
    candidates are told apart (search/separation.py)."""
    out = pb.Analysis(player=a.player, iterations=a.iterations, elapsed_seconds=a.elapsed,
                      bot=bot, value_min=value_range[0], value_max=value_range[1],
                      leaders_apart=leaders_apart)
    for rank, c in enumerate(a.candidates, start=1):
        turn = [_pv_step(s) for s in c.turn]
        out.candidates.add(
            id=c.action, text=c.text, rank=rank, visits=c.visits, win_probability=c.win_prob,
            value=c.value, values=list(c.values),
            expected_scores=list(c.scores) if c.scores is not None else [],
            confidence_half_width=c.ci, turn_length=len(c.turn),
            pv=turn + [_pv_step(s) for s in c.pv], turn=turn, turn_text=c.turn_text)
    return out


def _pv_step(s) -> pb.PvStep:
    step = pb.PvStep(text=s.text, player=s.player, is_chance=s.is_chance)
    if s.action is not None:
        step.id = s.action
    return step
