"""The Python face of the search: `Search` (a resumable, cancellable search
over one position) and `MCTSBot` (a bot that plays with it).

Threads: root parallelism. Each thread grows its own tree with its own seed
(search/_mcts.pyx releases the GIL), and the trees' statistics are summed
when read. Trees share nothing, so N threads do N times the iterations per
second on N free cores; summing root statistics of independent trees is the
root-parallel MCTS of Chaslot, Winands and van den Herik (2008).

PIMC (`form="pimc"`): `worlds` fixed determinizations, each searched by its
own closed-loop tree with an equal share of the iterations; each world votes
for its most visited action and the votes decide (Long et al. 2010).

A hint for a multi-step turn is the whole turn: candidates are the distinct
sequences of the root player's decisions from the root up to the end of the
turn or the first chance event inside it, ranked by visits.
"""
from __future__ import annotations

import heapq
import math
import os
import random
import threading
from dataclasses import dataclass, field

import numpy as np

from easel.engine.contract_ids import PLAYER_CHANCE

from . import params
from ._mcts import Tree
from .bots import Bot
from .errors import SearchError
from .params import search_defaults  # noqa: F401  (re-exported: mcts.search_defaults)

KIND_CHANCE = 1
FLAG_AFTER_CHANCE = 1
Z95 = 1.959963984540054
PV_LENGTH = 12            # steps of principal variation shown after a candidate's turn
BOT_ITERATIONS = 1000     # an MCTSBot's budget per decision when its spec sets none
# temperature > 0: a first action is drawn only among those with at least this
# share of the most visited one's visits (MCTSBot._choose)
TEMPERATURE_SHARE = 0.1
TEMPERATURE_SALT = 0x7E3D_A11E_5EED_0001


@dataclass
class PVStep:
    action: int | None        # None for a chance event whose outcome is not in the tree
    text: str
    player: int               # PLAYER_CHANCE (-1) for chance
    is_chance: bool
    visits: int = 0


@dataclass
class Candidate:
    action: int                       # the action to play now
    text: str
    turn: list[PVStep]                # the whole turn this candidate stands for
    visits: int
    value: float                      # mean utility of the root player
    values: list[float]               # mean utility of each player
    win_prob: float                   # the root player's share of wins
    scores: list[float] | None        # expected final score of each player
    ci: float                         # 95% half-width of `value`
    pv: list[PVStep] = field(default_factory=list)   # what follows the turn
    votes: int = 0                    # PIMC: worlds whose best action this is

    @property
    def turn_text(self) -> str:
        """The whole turn as a player would say it, chance events included."""
        return "; ".join(step.text for step in self.turn)


@dataclass
class RootMove:
    """A first action as the roots' children count it, over all trees."""
    action: int
    visits: int = 0
    total: float = 0.0                # summed utility of the root player
    votes: int = 0                    # PIMC: worlds whose most visited action this is

    @property
    def value(self) -> float:
        return self.total / self.visits if self.visits else 0.0


@dataclass
class Analysis:
    player: int
    iterations: int
    elapsed: float
    nodes: int
    form: str
    threads: int
    candidates: list[Candidate]

    @property
    def best(self) -> Candidate:
        return self.candidates[0]


def _new_seed() -> int:
    return int.from_bytes(os.urandom(8), "little")


def _mix(seed: int, k: int) -> int:
    z = (seed + (k + 1) * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return z ^ (z >> 31)


def game_seed(seed: int, games: int) -> int:
    """A bot's seed for its game after `games` earlier games (its own seed
    for the first): a bot restarted for a new game does not replay the last."""
    return int(seed) if games == 0 else _mix(int(seed), games)


def _crosses_chance(root, actions) -> bool:
    """Whether any of `actions`, played from the state `root`, is a chance outcome."""
    walk = root.clone()
    for a in actions:
        if walk.is_chance_node():
            return True
        walk.apply_action(a)
    return False


class Search:
    """A search over one position, grown by `run` and read by `analysis`."""

    def __init__(self, game, state, **options):
        """options: any of search/params.py's search options (threads, seed,
        form, uct_c, rollout, rollout_depth, margin_weight, policy_bias,
        worlds, max_nodes); those not given take the game's measured
        `search_defaults`, then the generic ones. Each is checked against its
        range, and `max_nodes` (summed over the trees) against the trees."""
        o = params.resolve_search(game, options)
        seed = o.pop("seed")
        if getattr(game, "implementation", None) != "core":
            raise SearchError(f"the search needs a game's Cython core; {game!r} is "
                              f"{getattr(game, 'implementation', 'not a game')}")
        if state.get_game() is not game:
            raise SearchError("the state does not belong to this game")
        if state.current_player() < 0:
            what = "the game is over" if state.is_terminal() else "it is a chance node"
            raise SearchError(f"nothing to search: {what}; a search needs a decision node")
        self.options = o
        self.game = game
        self.form = o["form"]
        self.threads = o["threads"]
        self.seed = _new_seed() if seed is None else int(seed) & 0xFFFFFFFFFFFFFFFF
        self._root = state.clone()
        # One share of the node budget per tree (thread or PIMC world), so
        # that the search as a whole holds at most max_nodes nodes.
        self._n_trees = params.tree_count(o)
        self._tree_nodes = o["max_nodes"] // self._n_trees
        self._tree_options = params.tree_options(o)
        self._trees: list = []
        self._cancelled = False
        self._lock = threading.Lock()
        self._make_trees(0 if self.form == "pimc" else self._n_trees)

    def _make_trees(self, upto: int) -> None:
        """Make the trees up to `upto` at the current root, in index order (so
        each gets the seeds it would get made at once): the PIMC worlds are
        made as the search first runs, and a cancel stops their making too."""
        while len(self._trees) < upto and not self._cancelled:
            i = len(self._trees)
            self._trees.append(Tree(self._root, seed=_mix(self.seed, i),
                                    world_seed=_mix(self.seed ^ 0x5EED, i),
                                    max_nodes=self._tree_nodes, **self._tree_options))

    @property
    def trees_made(self) -> int:
        return len(self._trees)

    # -- running -------------------------------------------------------------
    @property
    def iterations(self) -> int:
        return sum(t.iterations for t in self._trees)

    @property
    def elapsed(self) -> float:
        return max((t.elapsed for t in self._trees), default=0.0)

    def run(self, iterations: int | None = None, time_limit: float | None = None) -> int:
        """Grow the search by `iterations` (in all) and/or for `time_limit`
        seconds; returns the iterations done. Thread-safe against cancel()."""
        if iterations is None and time_limit is None:
            raise SearchError("give iterations, time_limit, or both")
        if iterations is not None and (not isinstance(iterations, int) or iterations < 0):
            raise SearchError(f"iterations must be a non-negative integer, got {iterations!r}")
        if time_limit is not None and not (time_limit > 0 and math.isfinite(time_limit)):
            raise SearchError(f"time_limit must be a positive number of seconds, got {time_limit!r}")
        if self._cancelled:
            return 0
        self._make_trees(self._n_trees)
        if self._cancelled:             # while the worlds were being made
            return 0
        n = len(self._trees)
        shares = ([-1] * n if iterations is None else
                  [iterations // n + (1 if i < iterations % n else 0) for i in range(n)])
        limit = float(time_limit or 0.0)
        before = self.iterations
        if self.threads == 1:
            for tree, share in zip(self._trees, shares):
                if share != 0:
                    tree.run(share, limit)
        else:
            groups = [list(range(i, n, self.threads)) for i in range(min(self.threads, n))]

            def work(indices):
                for i in indices:
                    if shares[i] != 0:
                        self._trees[i].run(shares[i], limit)

            workers = [threading.Thread(target=work, args=(g,), daemon=True) for g in groups]
            for w in workers:
                w.start()
            for w in workers:
                w.join()
        return self.iterations - before

    def cancel(self) -> None:
        """Stop a running `run` within about one iteration; later runs do nothing."""
        self._cancelled = True
        for t in self._trees:
            t.cancel()

    def _resume(self) -> None:
        """Let a cancelled search run again (MCTSBot, reusing its tree for the
        next move). The trees hold their own stop flags, which `advance` keeps
        when it keeps a subtree: both levels are cleared."""
        self._cancelled = False
        for t in self._trees:
            t.uncancel()

    def advance(self, actions) -> bool:
        """Tell the search the actions and chance outcomes played since its
        root; keeps the subtrees that are still valid (tree reuse)."""
        kept = True
        for a in actions:
            self._root.apply_action(a)
        for t in self._trees:
            kept = t.advance(list(actions)) and kept
        return kept

    @property
    def root(self):
        return self._root.clone()

    def until_apart(self, max_iterations: int):
        """The default budget of a hint: a search/separation.py `UntilApart`,
        whose `.run()` grows this search until its two leading candidates are
        told apart, or `max_iterations` in all."""
        from .separation import UntilApart
        return UntilApart(self, max_iterations)

    # -- reading -------------------------------------------------------------
    def value_range(self) -> tuple[float, float]:
        """The scale of every value this search reports (`Candidate.value`,
        `values`, and their intervals): the game's returns, [min_utility,
        max_utility], widened by `margin_weight` each way when the tree adds
        the score-margin term (search/_mcts.pyx: the margin over the best
        other player divided by the game's score scale, clamped to [-1, 1],
        times margin_weight; only in games with scores and several players)."""
        game = self.game
        facts = game.facts()
        low, high = float(facts.min_utility), float(facts.max_utility)
        w = float(self.options["margin_weight"])
        if (w > 0 and game.entry.capabilities.scores and facts.score_scale > 0
                and game.num_players() > 1):
            low, high = low - w, high + w
        return low, high

    def _first_visits(self, legal) -> dict[int, int]:
        """Visits of each first action legal in the real position (the
        root's children), over all trees."""
        visits: dict[int, int] = {}
        for t in self._trees:
            for action, n in t.root_visits():
                if action in legal:
                    visits[action] = visits.get(action, 0) + n
        return visits

    def root_visit_leaders(self) -> tuple[int, int]:
        """Visits of the two most visited first actions, over all trees."""
        visits = self._first_visits(set(self._root.legal_actions()))
        top = sorted(visits.values(), reverse=True) + [0, 0]
        return top[0], top[1]

    def root_ranking(self) -> list[RootMove]:
        """The first actions legal here, as the analysis ranks them: most
        visits over all trees (robust child, the choice early stopping
        settles); in PIMC most world votes, then most visits; then the lower
        action. Read from the roots' children alone, so that its cost does
        not grow with the tree: all a bot needs to decide."""
        legal = set(self._root.legal_actions())
        moves: dict[int, RootMove] = {}
        for t in self._trees:
            best, best_visits = None, -1
            for action, visits, total in t.root_children():
                if action not in legal:
                    continue
                m = moves.setdefault(action, RootMove(action))
                m.visits += visits
                m.total += total
                if visits > best_visits:     # the world's (tree's) vote: first of the most visited
                    best, best_visits = m, visits
            if best is not None:
                best.votes += 1
        ranked = [m for m in moves.values() if m.visits > 0]
        if self.form == "pimc":
            ranked.sort(key=lambda m: (-m.votes, -m.visits, m.action))
        else:
            ranked.sort(key=lambda m: (-m.visits, m.action))
        return ranked

    def best_action(self) -> int:
        """The move to play: the first of `root_ranking`."""
        ranked = self.root_ranking()
        return ranked[0].action if ranked else self.analysis(top_k=1).best.action

    def analysis(self, top_k: int | None = None) -> Analysis:
        """The candidates, best first: the distinct turns (the root player's
        decisions from the root to the end of the turn or the first chance
        event inside it), their first actions in `root_ranking`'s order,
        the turns of one first action by visits (then by their actions).

        Built best first from the roots down: a line's visits bound every
        turn that continues it, so the turns come out in order, and only the
        lines that can still hold one of the `top_k` best are read (with the
        candidates' principal variations). The cost grows with what is asked
        for, not with the tree; `top_k=None` reads every turn."""
        player = self._root.current_player()
        ranking = self.root_ranking()
        order = {m.action: i for i, m in enumerate(ranking)}
        votes = {m.action: m.votes for m in ranking}
        n_players = self.game.num_players()
        has_scores = self.game.entry.capabilities.scores
        # Heap items: (first action's rank, -visits, key, 0 for a line still
        # to read / 1 for a whole turn, its members). A key is the turn's
        # steps as ((kind, action), ...) and a member (tree, path of node
        # indices, rows): the same line in every tree holding it, merged.
        # A line sorts before every turn continuing it (fewer or as many
        # visits, a longer key), so each turn pops only once nothing left
        # can rank above it.
        heap: list = []
        self._push_lines(heap, order, [(t, (), None) for t in range(len(self._trees))], ())
        cands = []
        while heap and (top_k is None or len(cands) < top_k):
            rank, neg_visits, key, whole, members = heapq.heappop(heap)
            if not whole:
                self._read_line(heap, order, player, key, members)
                continue
            cand = self._candidate(key[0][1], -neg_visits, members, player, n_players,
                                   has_scores, votes)
            if cand is not None:
                cands.append(cand)
        return Analysis(player=player, iterations=self.iterations, elapsed=self.elapsed,
                        nodes=sum(t.n_nodes for t in self._trees), form=self.form,
                        threads=self.threads, candidates=cands)

    def _push_lines(self, heap, order, members, key, player=None) -> list:
        """Push the lines one step longer than `key`: the children of the
        members' last nodes that continue the root player's turn (at the
        root, key (): every decision child whose action is legal here),
        merged over the trees by (kind, action). Returns the members with
        none: there the line is a whole turn."""
        grown: dict[tuple, list] = {}
        ends = []
        for m in members:
            t, path, _ = m
            ix, rows = self._trees[t].children(path[-1] if path else 0)
            more = False
            for i, row in zip(ix.tolist(), rows):
                if row["kind"] == KIND_CHANCE:
                    continue
                if not key:
                    if int(row["action"]) not in order:
                        continue
                elif row["mover"] != player or row["flags"] & FLAG_AFTER_CHANCE:
                    continue
                more = True
                grown.setdefault((int(row["kind"]), int(row["action"])), []).append(
                    (t, path + (i,), row))
            if not more:
                ends.append(m)
        for step, kids in grown.items():
            line = key + (step,)
            heapq.heappush(heap, (order[line[0][1]], -sum(int(r["n_visits"]) for *_, r in kids),
                                  line, 0, kids))
        return ends

    def _read_line(self, heap, order, player, key, members) -> None:
        """Read a line's next steps; where it ends, it is a whole turn,
        queued with the visits of the members it ends in."""
        whole = self._push_lines(heap, order, members, key, player)
        visits = sum(int(r["n_visits"]) for *_, r in whole)
        if visits > 0:
            heapq.heappush(heap, (order[key[0][1]], -visits, key, 1, whole))

    def _candidate(self, action, visits, members, player, n_players, has_scores, votes):
        """The candidate of one whole turn (its members: the trees where it
        ends), described along its most visited member's path."""
        n, sum_u2 = 0.0, 0.0
        sums = {"sum_u": None, "sum_win": None, "sum_score": None}
        for t, _, row in members:
            if row["ext"] >= 0:
                st = self._trees[t].turn_stats(int(row["ext"]))
                n += float(st["n"])
                sum_u2 += float(st["sum_u2"])
                for name in sums:
                    sums[name] = st[name].copy() if sums[name] is None else sums[name] + st[name]
        t, path, _ = max(members, key=lambda m: int(m[2]["n_visits"]))
        turn, pv = self._describe(self._trees[t], path)
        if not turn or turn[0].is_chance:
            return None
        n = n or 1.0
        values = ([float(x) / n for x in sums["sum_u"][:n_players]] if sums["sum_u"] is not None
                  else [0.0] * n_players)
        mean = values[player]
        var = max(sum_u2 / n - mean * mean, 0.0)
        return Candidate(
            action=action, text=turn[0].text, turn=turn, visits=visits, value=mean,
            values=values,
            win_prob=(float(sums["sum_win"][player]) / n if sums["sum_win"] is not None else 0.0),
            scores=([float(x) / n for x in sums["sum_score"][:n_players]]
                    if has_scores and sums["sum_score"] is not None else None),
            ci=Z95 * math.sqrt(var / n), votes=votes.get(action, 0), pv=pv)

    def _describe(self, tree, path, pv_length: int = PV_LENGTH):
        """Texts for a turn path (node indices in `tree`) and the principal
        variation after it: from each node on, its most visited child."""
        state = self._root.clone()
        turn = []
        node = 0
        for i in path:
            ix, rows = tree.children(node)
            step = _step(state, rows[int(np.flatnonzero(ix == i)[0])])
            turn.extend(step)
            node = i
            if not step or step[-1].action is None:
                break
        pv = []
        node = path[-1]
        while len(pv) < pv_length and state.current_player() != -4:
            ix, rows = tree.children(node)
            if len(ix) == 0:
                break
            best = int(np.argmax(rows["n_visits"]))     # the first of the most visited
            step = _step(state, rows[best])
            if not step:
                break
            pv.extend(step)
            node = int(ix[best])
        return turn, pv


def _step(state, node) -> list[PVStep]:
    """Apply a node's action (its row) to `state` (a Python-face clone),
    first resolving any chance event the IS form left out of the tree with
    its most likely outcome; return the steps taken (empty if the action is
    not legal here)."""
    steps = []
    if node["kind"] == KIND_CHANCE:
        if not state.is_chance_node():
            return []
        a = int(node["action"])
        text = state.action_to_string(a)
        state.apply_action(a)
        return [PVStep(a, text, PLAYER_CHANCE, True, int(node["n_visits"]))]
    while state.is_chance_node():
        outcome = max(state.chance_outcomes(), key=lambda o: o[1])[0]
        steps.append(PVStep(None, "(chance: " + state.action_to_string(outcome) + ", say)",
                            PLAYER_CHANCE, True))
        state.apply_action(outcome)
    a = int(node["action"])
    if not state.is_legal(a):
        return []
    player = state.current_player()
    text = state.action_to_string(a)
    state.apply_action(a)
    steps.append(PVStep(a, text, player, False, int(node["n_visits"])))
    return steps


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
        self.seed = _new_seed() if seed is None else seed
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
                              seed=_mix(game_seed(self.seed, self._games), len(history)),
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
        rng = random.Random(_mix(game_seed(self.seed, self._games) ^ TEMPERATURE_SALT, steps))
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
