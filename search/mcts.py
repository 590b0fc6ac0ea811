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

import math
import os
import threading
from dataclasses import dataclass, field

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

    def best_action(self) -> int:
        """The move to play: most visits over all trees (robust child); in
        PIMC, most world votes, then most visits."""
        return self.analysis(top_k=1).best.action

    def analysis(self, top_k: int | None = None) -> Analysis:
        player = self._root.current_player()
        exports = [_export(t, player) for t in self._trees]
        # After tree reuse across chance events (IS form) the root may hold
        # children for actions legal only in other worlds: only the actions
        # legal in the real position are candidates.
        legal = set(self._root.legal_actions())
        merged: dict[tuple, dict] = {}
        votes: dict[int, int] = {}
        for nodes, ext in exports:
            best_first, best_visits = None, -1
            for path in _turn_paths(nodes, player):
                if int(nodes[path[0]]["action"]) not in legal:
                    continue
                key = tuple((int(nodes[i]["kind"]), int(nodes[i]["action"])) for i in path)
                leaf = nodes[path[-1]]
                rec = merged.setdefault(key, {"visits": 0, "n": 0.0, "sum_u": None,
                                              "sum_u2": 0.0, "sum_win": None, "sum_score": None,
                                              "paths": []})
                rec["visits"] += int(leaf["n_visits"])
                rec["paths"].append((nodes, path))
                if leaf["ext"] >= 0:
                    st = ext[leaf["ext"]]
                    rec["n"] += float(st["n"])
                    for name in ("sum_u", "sum_win", "sum_score"):
                        rec[name] = st[name].copy() if rec[name] is None else rec[name] + st[name]
                    rec["sum_u2"] += float(st["sum_u2"])
            # the world's (tree's) vote: its most visited first action
            c = int(nodes[0]["first_child"])
            while c >= 0:
                if (nodes[c]["n_visits"] > best_visits and nodes[c]["kind"] != KIND_CHANCE
                        and int(nodes[c]["action"]) in legal):
                    best_first, best_visits = int(nodes[c]["action"]), int(nodes[c]["n_visits"])
                c = int(nodes[c]["next_sibling"])
            if best_first is not None:
                votes[best_first] = votes.get(best_first, 0) + 1
        n_players = self.game.num_players()
        has_scores = self.game.entry.capabilities.scores
        rows = []
        for key, rec in merged.items():
            if rec["visits"] > 0:
                rows.append((key[0][1], rec))
        if self.form == "pimc":
            rows.sort(key=lambda r: (-votes.get(r[0], 0), -r[1]["visits"], r[0]))
        else:
            # The most visited first action leads (the root child's own
            # visits: the ends of its turn paths miss the visits that stopped
            # inside the turn); within it, its turns by visits.
            first_visits = self._first_visits(legal)
            rows.sort(key=lambda r: (-first_visits.get(r[0], 0), -r[1]["visits"], r[0]))
        # Texts and principal variations cost far more than the statistics
        # (each step replays the position), so only the candidates returned
        # are described: a bot asking for the best move describes one.
        cands = []
        for action, rec in rows:
            if top_k is not None and len(cands) >= top_k:
                break
            nodes, path = max(rec["paths"], key=lambda np_: int(np_[0][np_[1][-1]]["n_visits"]))
            turn, pv = self._describe(nodes, path)
            if not turn or turn[0].is_chance:
                continue
            n = rec["n"] or 1.0
            values = ([float(x) / n for x in rec["sum_u"][:n_players]] if rec["sum_u"] is not None
                      else [0.0] * n_players)
            mean = values[player]
            var = max(rec["sum_u2"] / n - mean * mean, 0.0)
            cands.append(Candidate(
                action=action, text=turn[0].text, turn=turn, visits=rec["visits"],
                value=mean, values=values,
                win_prob=(float(rec["sum_win"][player]) / n if rec["sum_win"] is not None else 0.0),
                scores=([float(x) / n for x in rec["sum_score"][:n_players]]
                        if has_scores and rec["sum_score"] is not None else None),
                ci=Z95 * math.sqrt(var / n), pv=pv, votes=votes.get(action, 0)))
        return Analysis(player=player, iterations=self.iterations, elapsed=self.elapsed,
                        nodes=sum(t.n_nodes for t in self._trees), form=self.form,
                        threads=self.threads, candidates=cands)

    def _describe(self, nodes, path, pv_length: int = PV_LENGTH):
        """Texts for a turn path and the principal variation after it."""
        state = self._root.clone()
        turn = []
        for i in path:
            step = _step(state, nodes, i)
            turn.extend(step)
            if not step or step[-1].action is None:
                break
        pv = []
        node = path[-1]
        while len(pv) < pv_length and state.current_player() != -4:
            node = _most_visited_child(nodes, node)
            if node < 0:
                break
            step = _step(state, nodes, node)
            if not step:
                break
            pv.extend(step)
        return turn, pv


def _export(tree, player: int):
    """The part of a tree an analysis reads (the root player's turn and the
    principal variations after it), copied: a few thousand nodes however
    large the tree has grown."""
    return tree.export_turn(player, PV_LENGTH)


def _most_visited_child(nodes, node: int) -> int:
    best, best_v = -1, -1
    c = int(nodes[node]["first_child"])
    while c >= 0:
        if nodes[c]["n_visits"] > best_v:
            best, best_v = c, int(nodes[c]["n_visits"])
        c = int(nodes[c]["next_sibling"])
    return best


def _step(state, nodes, i) -> list[PVStep]:
    """Apply node i's action to `state` (a Python-face clone), first resolving
    any chance event the IS form left out of the tree with its most likely
    outcome; return the steps taken (empty if the action is not legal here)."""
    steps = []
    node = nodes[i]
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


def _turn_paths(nodes, player: int):
    """Paths (lists of node indices) from the root through the root player's
    consecutive decisions, stopping at the turn's end or at a chance event."""
    out = []
    stack = [[int(c)] for c in _children(nodes, 0) if nodes[c]["kind"] != KIND_CHANCE]
    while stack:
        path = stack.pop()
        last = path[-1]
        nxt = [c for c in _children(nodes, last)
               if nodes[c]["kind"] != KIND_CHANCE and nodes[c]["mover"] == player
               and not (nodes[c]["flags"] & FLAG_AFTER_CHANCE)]
        if not nxt:
            out.append(path)
        else:
            for c in nxt:
                stack.append(path + [c])
    return out


def _children(nodes, node: int):
    c = int(nodes[node]["first_child"])
    while c >= 0:
        yield c
        c = int(nodes[c]["next_sibling"])


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
        search = self._search_for(state)
        if not (self.early_stop and self.iterations is not None and self.time_limit is None
                and self.options["form"] != "pimc"):
            search.run(self.iterations, self.time_limit)
            return search.analysis(top_k)
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
        return search.analysis(top_k)

    def step(self, state) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:                 # a forced move needs no search
            return legal[0]
        return self.analyze(state, top_k=1).best.action

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
