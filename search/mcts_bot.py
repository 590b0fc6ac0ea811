"""`MCTSBot`: a bot that plays with `Search` (search/tree_search.py): its
budgets, tree reuse between moves, early stopping, pondering, cancelling,
and the choice of the move (most visited, or drawn with a temperature)."""
from __future__ import annotations

import math
import random

from . import params
from .analysis import Analysis, RootMove
from .bots import Bot
from .errors import SearchError
from .seeds import game_seed, mix, new_seed
from .tree_search import Search

BOT_ITERATIONS = 1000     # an MCTSBot's budget per decision when its spec sets none
# temperature > 0: a first action is drawn only among those with at least this
# share of the most visited one's visits (MCTSBot._choose)
TEMPERATURE_SHARE = 0.1
TEMPERATURE_SALT = 0x7E3D_A11E_5EED_0001


class MCTSBot(Bot):
    """Plays with `Search`. Budgets per decision: `iterations`, `time_limit`
    (seconds), or both (whichever ends first). Keeps its tree between moves
    when the new position follows from the last searched one (tree reuse).

    In the IS form a chance event has no node of its own: the subtree below
    it mixes the statistics of every outcome, so kept across a chance event
    it misleads the next search (in Pig it cost -346 Elo [-430, -285] at 300
    iterations over 200 games, benchmarks/bench_matches.py). The tree is
    therefore kept only when no chance event happened since the last search,
    unless `reuse_across_chance` is set."""

    def __init__(self, game, iterations: int | None = None, time_limit: float | None = None,
                 **options):
        """options: search/params.py's search options (as `Search` takes
        them) and bot options (reuse, reuse_across_chance, early_stop), each
        checked against its range here, before any move."""
        budget = params.check_options(
            {"iterations": params.MCTS["iterations"], "time_limit": params.MCTS["time"]},
            dict(iterations=iterations, time_limit=time_limit), "MCTSBot")
        bot = params.check_options(params.BOT_KEYWORDS, options, "MCTSBot")
        if getattr(game, "implementation", None) != "core":
            raise SearchError("MCTSBot needs a game loaded with implementation='core'")
        self.game = game
        self.iterations = budget.get("iterations")
        self.time_limit = budget.get("time_limit")
        if self.iterations is None and self.time_limit is None:
            self.iterations = BOT_ITERATIONS
        seed = bot.pop("seed", None)
        self.reuse = bot.pop("reuse", params.MCTS["reuse"].default)
        self.reuse_across_chance = bot.pop("reuse_across_chance",
                                           params.MCTS["reuse_across_chance"].default)
        self.early_stop = bot.pop("early_stop", params.MCTS["early_stop"].default)
        self.temperature = bot.pop("temperature", params.MCTS["temperature"].default)
        self.options = params.resolve_search(game, bot)
        del self.options["seed"]        # each search gets one derived from the bot's
        self.seed = new_seed() if seed is None else seed
        self._search: Search | None = None
        self._history: list[int] | None = None
        self._origin = None         # the loaded position the history starts from, if any
        self._searches = 0
        self._games = 0             # games searched before this one (see restart, game_seed)
        self._cancel_requested = False

    def restart(self) -> None:
        if self._history is not None:     # it searched: the next game draws new numbers
            self._games += 1
        self._search = None
        self._history = None
        self._cancel_requested = False

    def _search_for(self, state) -> Search:
        search = self._reused_or_new(state)
        if self._cancel_requested:      # a cancel() that may have come before this search
            self._cancel_requested = False
            search.cancel()
        return search

    def _reused_or_new(self, state) -> Search:
        history = state.history()
        # A history is a path from the state's origin: the initial state, or
        # the position it was loaded from (two loaded positions both have [] ).
        origin = state.loaded_from()
        if (self._search is not None and self._history is not None
                and origin == self._origin
                and history[:len(self._history)] == self._history
                and self.keeps_tree(self._search._root, history[len(self._history):])):
            try:
                self._search.advance(history[len(self._history):])
                self._search._resume()
                self._history = history
                return self._search
            except ValueError:
                pass
        self._searches += 1
        # The seed of a fresh search comes from the game's seed and the
        # position (its steps), not from the searches made before: a bot
        # rebuilt at this position (a server answering as this bot,
        # server/bot_replay.py) draws the same numbers.
        self._search = Search(self.game, state,
                              seed=mix(game_seed(self.seed, self._games), len(history)),
                              **self.options)
        self._history = history
        self._origin = origin
        return self._search

    def tree_bytes(self) -> int:
        """Bytes the trees of the search this bot keeps hold (0 without one)."""
        search = self._search
        return 0 if search is None else sum(t.memory_bytes() for t in search._trees)

    def forget_tree(self) -> None:
        """Drop the search this bot keeps (a server bounding the trees its
        bots hold, server/matches/trees.py): the next decision searches
        afresh, as with reuse off, from the seed any fresh search at that
        position takes."""
        self._search = None

    def keeps_tree(self, root, actions) -> bool:
        """Whether this bot keeps a search made at `root` (a state) once
        `actions` (actions and chance outcomes) have been played from it:
        its tree is reused unless reuse is off, the form is PIMC, or (in the
        IS form, without reuse_across_chance) a chance event came between."""
        form = self.options["form"]
        return (self.reuse and form != "pimc"
                and (self.reuse_across_chance or form != "is"
                     or not _crosses_chance(root, actions)))

    def analyze(self, state, top_k: int | None = None) -> Analysis:
        try:
            return self._analyze(state, top_k)
        finally:
            self._cancel_requested = False  # a cancel before or during this call ends with it

    def _analyze(self, state, top_k: int | None) -> Analysis:
        return self._grow(state).analysis(top_k)

    def _grow(self, state) -> Search:
        """The search at `state`, grown by this bot's budget."""
        search = self._search_for(state)
        if not (self.early_stop and self.iterations is not None and self.time_limit is None
                and self.options["form"] != "pimc"):
            search.run(self.iterations, self.time_limit)
            return search
        # Stop early when the choice is settled: once the most visited first
        # action leads the runner-up by more than the iterations left, no
        # outcome of the rest can change the move (the iterations are saved).
        chunk = max(self.iterations // 8, 64)
        done = 0
        while done < self.iterations:
            step = min(chunk, self.iterations - done)
            if search.run(step) < step:
                break                       # cancelled
            done += step
            first, second = search.root_visit_leaders()
            if first - second > self.iterations - done:
                break
        return search

    def step(self, state) -> int:
        """The move: the most visited first action (temperature 0), or one
        drawn among the well-visited ones by their values (`_choose`). Read
        from the roots' children only (Search.root_ranking), never the whole
        tree, so that the time after the search does not grow with it."""
        legal = state.legal_actions()
        if len(legal) == 1:                 # a forced move needs no search
            return legal[0]
        try:
            search = self._grow(state)
        finally:
            self._cancel_requested = False  # a cancel before or during this call ends with it
        return self.move_of(search, state)

    def move_of(self, search: Search, state) -> int:
        """The move this bot plays at `state` once `search` has grown there."""
        ranked = search.root_ranking()
        if not ranked:                      # cancelled before any iteration
            return search.best_action()
        return self._choose(ranked, len(state.history()))

    def _choose(self, ranked: list[RootMove], steps: int) -> int:
        """With a temperature T > 0: among the first actions with at least
        TEMPERATURE_SHARE of the most visited one's visits (a value from a
        handful of visits is noise, not a judgement), draw one with
        probability proportional to exp(value / T), value the root player's
        mean utility, from a generator seeded by the game's seed and the
        position's step count, as a fresh search is (so a seeded game
        replays, and a bot rebuilt at this position, server/bot_replay.py,
        draws the same). A person who misjudges
        picks a move that looked nearly as good, not a random one."""
        if self.temperature <= 0 or len(ranked) == 1:
            return ranked[0].action
        least = ranked[0].visits * TEMPERATURE_SHARE
        pool = [m for m in ranked if m.visits >= least]
        top = max(m.value for m in pool)
        weights = [math.exp((m.value - top) / self.temperature) for m in pool]
        rng = random.Random(mix(game_seed(self.seed, self._games) ^ TEMPERATURE_SALT, steps))
        return rng.choices(pool, weights)[0].action

    def ponder(self, state, seconds: float) -> int:
        """Grow the tree at `state` for about `seconds` while another player
        is to move there (pondering): the subtree of the move they make is
        kept for this bot's next search (tree reuse). Returns the iterations
        run. Does nothing for PIMC, whose worlds are drawn afresh each move."""
        if self.options["form"] == "pimc" or not self.reuse or state.current_player() < 0:
            return 0
        try:
            return self._search_for(state).run(time_limit=seconds)
        finally:
            self._cancel_requested = False  # a cancel before or during this call ends with it

    def cancel(self) -> None:
        """From another thread: stop the running `step` or `ponder` within
        about one iteration, or, if none has started its search yet, the
        next one (so a cancel racing a call's start is not lost; the move
        then comes from whatever the tree holds). A cancel ends with the
        call it stopped: the next call searches with its full budget,
        reusing the tree. `restart()` clears a cancel no call has consumed."""
        self._cancel_requested = True
        search = self._search
        if search is not None:
            search.cancel()


def _crosses_chance(root, actions) -> bool:
    """Whether any of `actions`, played from the state `root`, is a chance outcome."""
    walk = root.clone()
    for a in actions:
        if walk.is_chance_node():
            return True
        walk.apply_action(a)
    return False
