"""`Search`: a resumable, cancellable search over one position, its trees
grown by `run` and read (search/analysis.py) by `root_ranking` and
`analysis`.

Threads: root parallelism. Each thread grows its own tree with its own seed
(search/_mcts.pyx releases the GIL), and the trees' statistics are summed
when read. Trees share nothing, so N threads do N times the iterations per
second on N free cores; summing root statistics of independent trees is the
root-parallel MCTS of Chaslot, Winands and van den Herik (2008).

PIMC (`form="pimc"`): `worlds` fixed determinizations, each searched by its
own closed-loop tree with an equal share of the iterations; each world votes
for its most visited action and the votes decide (Long et al. 2010).
"""
from __future__ import annotations

import math
import threading

from . import params
from ._mcts import Tree
from .analysis import Analysis, RootMove, candidates, first_visits, root_ranking
from .errors import SearchError
from .seeds import mix, new_seed


class Search:
    """A search over one position, grown by `run` and read by `analysis`."""

    def __init__(self, game, state, **options):
        """options: any of search/params.py's search options (scope
        "search", by keyword); those not given take the game's measured
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
        self.seed = new_seed() if seed is None else int(seed) & 0xFFFFFFFFFFFFFFFF
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
            self._trees.append(Tree(self._root, seed=mix(self.seed, i),
                                    world_seed=mix(self.seed ^ 0x5EED, i),
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
        max_utility], widened by `margin_weight` times `margin_cap` each way
        when the tree adds the score-margin term (search/_mcts.pyx: the
        margin over the best other player divided by the game's score scale,
        clamped to [-margin_cap, margin_cap], times margin_weight; only in
        games with scores and several players)."""
        facts = self.game.facts()
        low, high = float(facts.min_utility), float(facts.max_utility)
        if self.weighs_margin():
            w = float(self.options["margin_weight"]) * float(self.options["margin_cap"])
            low, high = low - w, high + w
        return low, high

    def weighs_margin(self) -> bool:
        """Whether the tree adds the score-margin term to the utilities: a
        game with scores, a score scale, several players and margin_weight
        above 0 (search/_mcts.pyx)."""
        game = self.game
        return (float(self.options["margin_weight"]) > 0 and game.entry.capabilities.scores
                and game.facts().score_scale > 0 and game.num_players() > 1)

    def root_visit_leaders(self) -> tuple[int, int]:
        """Visits of the two most visited first actions, over all trees."""
        visits = first_visits(self._trees, set(self._root.legal_actions()))
        top = sorted(visits.values(), reverse=True) + [0, 0]
        return top[0], top[1]

    def root_ranking(self) -> list[RootMove]:
        """The first actions legal here, best first (search/analysis.py,
        `root_ranking`): all a bot needs to decide."""
        return root_ranking(self._trees, set(self._root.legal_actions()), self.form == "pimc")

    def best_action(self) -> int:
        """The move to play: the first of `root_ranking`."""
        ranked = self.root_ranking()
        return ranked[0].action if ranked else self.analysis(top_k=1).best.action

    def analysis(self, top_k: int | None = None) -> Analysis:
        """The `top_k` best candidates (all for None), best first, merged
        over the trees (search/analysis.py, `candidates`): their cost grows
        with what is asked for, not with the trees."""
        cands = candidates(self._trees, self._root, self.game, self.root_ranking(), top_k)
        return Analysis(player=self._root.current_player(), iterations=self.iterations,
                        elapsed=self.elapsed, nodes=sum(t.n_nodes for t in self._trees),
                        form=self.form, threads=self.threads, candidates=cands)
