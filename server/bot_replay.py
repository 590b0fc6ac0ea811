"""Suggest as a bot (SearchSettings.play_as_bot): the move the bot of the
request would make at this position had it played the current player's seat
from the start of the record, as `easel arena` plays it in-process. A
`remote(...)` bot (search/tournament/bots.py) asks this at each of its
decisions, so two engines meet on the strength of their bots.

An MCTS bot (search.mcts.MCTSBot) is more than one search of the position:
it keeps its tree from one decision to the next until a chance event comes
between (tree reuse, `MCTSBot.keeps_tree`), stops a search early once its
move is settled, and seeds each fresh search from its seed and the position.
Its move therefore depends on its earlier decisions back to the last one
where its tree started afresh. The server rebuilds that bot: it takes a
fresh bot of the spec and seed and lets it make those decisions again, then
this one. A plain search of the position (the analysis a Suggest gives
otherwise) plays weaker than the bot did in the middle of a turn, and the
plan an earlier search of the turn made (`analysis.follow_plan`) weaker
still: at 100 iterations a remote bot following it lost all of 16 Van Gogh
games to the same spec played locally.

Redoing the decisions costs one search each, so the bot that answered a
seat's decision is kept (`BotCache`) under the record up to that decision:
the seat's next call takes it and goes on, as the local bot does. The answer
is the same either way (exactly so with an iteration budget; with one in
seconds, or threads, searches are not repeatable anyway). A call that would
have to redo more than `Limits.max_replayed_searches` searches is refused
(RESOURCE_EXHAUSTED, naming the limit).

A bot that is not MCTS (random, greedy, heuristic) keeps nothing between
decisions but its random numbers; it is seeded here from the request's seed
and the position, so its moves are drawn as the local bot's are.
"""
from __future__ import annotations

import dataclasses
import hashlib
import threading
from array import array
from collections import OrderedDict

from easel.v1 import engine_pb2 as pb

from . import analysis
from .errors import ResourceExhausted
from .queue import SearchControl


def _key(game, bot: str, player: int, origin, steps) -> tuple:
    """The cache key of the bot that searched at the position after `steps`
    (from `origin`, None for the initial state) for `player`."""
    digest = hashlib.blake2b(array("q", steps).tobytes(), digest_size=16)
    digest.update(repr(origin).encode())
    return (game.spec, bot, player, len(steps), digest.digest())


def _nodes(bot) -> int:
    search = getattr(bot, "_search", None)
    return 0 if search is None else sum(t.n_nodes for t in search._trees)


class BotCache:
    """Bots that answered a play_as_bot call, each under the seat's record up
    to the decision it answered, kept for the seat's next call (which takes
    it out). Bounded in bots and in the search-tree nodes they hold; the
    least recently stored go first."""

    def __init__(self, entries: int, nodes: int):
        self.entries = entries
        self.max_nodes = nodes
        self._bots: OrderedDict = OrderedDict()
        self._nodes = 0
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def take(self, key):
        with self._lock:
            bot, nodes = self._bots.pop(key, (None, 0))
            self._nodes -= nodes
            if bot is None:
                self.misses += 1
            else:
                self.hits += 1
            return bot

    def put(self, key, bot) -> None:
        nodes = _nodes(bot)
        if self.entries < 1 or nodes > self.max_nodes:
            return
        with self._lock:
            old = self._bots.pop(key, None)
            if old is not None:
                self._nodes -= old[1]
            self._bots[key] = (bot, nodes)
            self._nodes += nodes
            while len(self._bots) > self.entries or self._nodes > self.max_nodes:
                _, (_, dropped) = self._bots.popitem(last=False)
                self._nodes -= dropped

    def __len__(self) -> int:
        with self._lock:
            return len(self._bots)


def _origin_state(state):
    """The state the position's history starts from (initial or loaded)."""
    game = state.get_game()
    origin = state.loaded_from()
    return game.new_initial_state() if origin is None else game.state_from_json(origin)


def searched_decisions(state):
    """(steps, roots): the step counts of the current player's earlier
    decisions that had a choice (a bot searches only those), and the
    positions there."""
    me = state.current_player()
    walk = _origin_state(state)
    steps, roots = [], []
    for i, action in enumerate(state.history()):
        if walk.current_player() == me and len(walk.legal_actions()) > 1:
            steps.append(i)
            roots.append(walk.clone())
        walk.apply_action(action)
    return steps, roots


def replay_from(bot, state, steps, roots) -> int:
    """The index in `steps` of the decision where `bot`'s tree last started
    afresh before `state` (len(steps) when it starts afresh at `state`)."""
    history = state.history()
    start = len(steps)
    while start > 0:
        until = steps[start] if start < len(steps) else len(history)
        if not bot.keeps_tree(roots[start - 1], history[steps[start - 1]:until]):
            break
        start -= 1
    return start


def redo_decisions(bot, roots, stopped=lambda: False) -> None:
    """Let `bot` make again its decisions at `roots` (in order), unless stopped."""
    for root in roots:
        if stopped():
            return
        bot.step(root)


def rebuild(bot, state) -> int:
    """Let a fresh MCTS `bot` make again the current player's decisions
    since its tree last started afresh, so that it answers at `state` as the
    bot that made them would (a hosted match's bot seat after the server
    restarted: server/matches/seats.py). The searches redone."""
    steps, roots = searched_decisions(state)
    start = replay_from(bot, state, steps, roots)
    redo_decisions(bot, roots[start:])
    return len(steps) - start


def play(plan: analysis.Plan, state, control: SearchControl, limits, cache: BotCache | None,
         deadline: float | None = None):
    """(analysis, stop reason) of `plan`'s bot at `state`, as the bot that
    played the current player's seat from the record's start answers it."""
    if not plan.mcts or len(state.legal_actions()) == 1:
        # A forced move is made without a search, as MCTSBot.step makes it.
        return _cheap_bot_move(plan, state), pb.STOP_REASON_NO_SEARCH
    bot = analysis._make_bot(plan.bot, state.get_game(), "settings")
    steps, roots = searched_decisions(state)
    start = replay_from(bot, state, steps, roots)
    history = state.history()
    me = state.current_player()
    origin = state.loaded_from()
    if start < len(steps):
        kept = (cache.take(_key(state.get_game(), plan.bot, me, origin, history[:steps[-1]]))
                if cache is not None else None)
        if kept is not None:
            bot = kept
        else:
            redo = len(steps) - start
            if redo > limits.max_replayed_searches:
                raise ResourceExhausted(
                    "settings.play_as_bot",
                    f"the bot's tree would take {redo} searches to rebuild (its decisions since "
                    f"its tree last started afresh), over this server's limit of "
                    f"{limits.max_replayed_searches} (max_replayed_searches); ask at every "
                    f"decision of the seat, so that the server goes on with the bot it holds",
                    retry_after=ResourceExhausted.NO_RETRY)
            control.attach(bot)
            redo_decisions(bot, roots[start:], lambda: control.stopped)
    control.attach(bot)
    found = bot.analyze(state.clone(), top_k=plan.top_k)     # cut short if stopped
    search = bot._search
    if not found.candidates:
        found = analysis._at_least_one(search, plan.top_k, control, deadline)
    analysis._raise_if_ended(control, search)
    found = _bots_move_first(found, bot.move_of(search, state), search)
    # Kept for the seat's next call: detached first, since the end of this
    # call stops its control, and a stop would cancel the kept bot's next search.
    control.detach()
    if cache is not None and not control.stopped:
        cache.put(_key(state.get_game(), plan.bot, me, origin, history), bot)
    reason = pb.STOP_REASON_SHUTDOWN if control.reason == "shutdown" else pb.STOP_REASON_BUDGET
    return analysis.answer(search, found, plan), reason


def _cheap_bot_move(plan: analysis.Plan, state) -> pb.Analysis:
    """The move of a bot that keeps nothing between decisions but its random
    numbers (or of any bot at a forced move), seeded from the request's seed
    and the position."""
    from easel.search.arena import derive_seed
    from easel.search.specs import parse_spec
    seeded = parse_spec(plan.bot).with_seed(derive_seed(plan.seed, len(state.history())))
    out = analysis.bot_move(analysis.Plan(**{**plan.__dict__, "bot": seeded.text}), state)
    out.bot = plan.bot
    return out


def _bots_move_first(found, move: int, search):
    """`found` with a candidate of the move the bot plays first: with a
    temperature (levels 1-3) the bot draws among well-visited moves, and the
    client plays the first candidate it is given."""
    if found.candidates and found.candidates[0].action == move:
        return found
    pool = found.candidates
    if not any(c.action == move for c in pool):
        pool = search.analysis(top_k=None).candidates
    first = next(c for c in pool if c.action == move)
    rest = [c for c in found.candidates if c is not first][:max(len(found.candidates) - 1, 0)]
    return dataclasses.replace(found, candidates=[first] + rest)
