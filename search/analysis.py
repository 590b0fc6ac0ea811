"""Reading a search's trees, merged: the roots' children summed over the
trees (`RootMove`, `root_ranking`: all a bot needs to move, read without
walking the trees) and the analysis a person reads (`Candidate`,
`Analysis`).

A hint for a multi-step turn is the whole turn: candidates are the distinct
sequences of the root player's decisions from the root up to the end of the
turn or the first chance event inside it, ranked by visits, each merged over
the trees that hold it and described (its texts and principal variation,
search/pv.py) along its most visited tree's path.
"""
from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field

from ._mcts import FLAGS, KINDS
from .pv import PVStep, describe

KIND_CHANCE = KINDS["chance"]
FLAG_AFTER_CHANCE = FLAGS["after_chance"]
Z95 = 1.959963984540054


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
    # Games with scores: the spread (standard deviation over the playouts)
    # of the root player's final score margin over the best other player,
    # in points: the noise of the expected margin, with `visits`
    margin_sd: float | None = None

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


def first_visits(trees, legal) -> dict[int, int]:
    """Visits of each first action in `legal` (the root's children), over
    all trees."""
    visits: dict[int, int] = {}
    for t in trees:
        for action, n in t.root_visits():
            if action in legal:
                visits[action] = visits.get(action, 0) + n
    return visits


def root_ranking(trees, legal, pimc: bool) -> list[RootMove]:
    """The first actions in `legal` (those legal at the root), as the
    analysis ranks them: most visits over all trees (robust child, the
    choice early stopping settles); in PIMC (`pimc`) most world votes, then
    most visits; then the lower action. Read from the roots' children
    alone, so that its cost does not grow with the trees."""
    moves: dict[int, RootMove] = {}
    for t in trees:
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
    if pimc:
        ranked.sort(key=lambda m: (-m.votes, -m.visits, m.action))
    else:
        ranked.sort(key=lambda m: (-m.visits, m.action))
    return ranked


def candidates(trees, root, game, ranking: list[RootMove], top_k: int | None) -> list[Candidate]:
    """The candidates of `trees` (grown at the state `root` of `game`),
    best first: the distinct turns (the root player's decisions from the
    root to the end of the turn or the first chance event inside it), their
    first actions in `ranking`'s order, the turns of one first action by
    visits (then by their actions).

    Built best first from the roots down: a line's visits bound every turn
    that continues it, so the turns come out in order, and only the lines
    that can still hold one of the `top_k` best are read (with the
    candidates' principal variations). The cost grows with what is asked
    for, not with the trees; `top_k=None` reads every turn."""
    return _TurnReader(trees, root, game, ranking).read(top_k)


class _TurnReader:
    """The merge of `candidates`, over one set of trees."""

    def __init__(self, trees, root, game, ranking):
        self.trees = trees
        self.root = root
        self.player = root.current_player()
        self.order = {m.action: i for i, m in enumerate(ranking)}
        self.votes = {m.action: m.votes for m in ranking}
        self.n_players = game.num_players()
        self.has_scores = game.entry.capabilities.scores

    def read(self, top_k: int | None) -> list[Candidate]:
        # Heap items: (first action's rank, -visits, key, 0 for a line still
        # to read / 1 for a whole turn, its members). A key is the turn's
        # steps as ((kind, action), ...) and a member (tree, path of node
        # indices, rows): the same line in every tree holding it, merged.
        # A line sorts before every turn continuing it (fewer or as many
        # visits, a longer key), so each turn pops only once nothing left
        # can rank above it.
        heap: list = []
        self._push_lines(heap, [(t, (), None) for t in range(len(self.trees))], ())
        cands = []
        while heap and (top_k is None or len(cands) < top_k):
            rank, neg_visits, key, whole, members = heapq.heappop(heap)
            if not whole:
                self._read_line(heap, key, members)
                continue
            cand = self._candidate(key[0][1], -neg_visits, members)
            if cand is not None:
                cands.append(cand)
        return cands

    def _push_lines(self, heap, members, key) -> list:
        """Push the lines one step longer than `key`: the children of the
        members' last nodes that continue the root player's turn (at the
        root, key (): every decision child whose action is legal here),
        merged over the trees by (kind, action). Returns the members with
        none: there the line is a whole turn."""
        grown: dict[tuple, list] = {}
        ends = []
        for m in members:
            t, path, _ = m
            ix, rows = self.trees[t].children(path[-1] if path else 0)
            more = False
            for i, row in zip(ix.tolist(), rows):
                if row["kind"] == KIND_CHANCE:
                    continue
                if not key:
                    if int(row["action"]) not in self.order:
                        continue
                elif row["mover"] != self.player or row["flags"] & FLAG_AFTER_CHANCE:
                    continue
                more = True
                grown.setdefault((int(row["kind"]), int(row["action"])), []).append(
                    (t, path + (i,), row))
            if not more:
                ends.append(m)
        for step, kids in grown.items():
            line = key + (step,)
            heapq.heappush(heap, (self.order[line[0][1]],
                                  -sum(int(r["n_visits"]) for *_, r in kids), line, 0, kids))
        return ends

    def _read_line(self, heap, key, members) -> None:
        """Read a line's next steps; where it ends, it is a whole turn,
        queued with the visits of the members it ends in."""
        whole = self._push_lines(heap, members, key)
        visits = sum(int(r["n_visits"]) for *_, r in whole)
        if visits > 0:
            heapq.heappush(heap, (self.order[key[0][1]], -visits, key, 1, whole))

    def _candidate(self, action, visits, members) -> Candidate | None:
        """The candidate of one whole turn (its members: the trees where it
        ends), described along its most visited member's path."""
        n_players, player = self.n_players, self.player
        n, sum_u2, sum_m, sum_m2 = 0.0, 0.0, 0.0, 0.0
        sums = {"sum_u": None, "sum_win": None, "sum_score": None}
        for t, _, row in members:
            if row["ext"] >= 0:
                st = self.trees[t].turn_stats(int(row["ext"]))
                n += float(st["n"])
                sum_u2 += float(st["sum_u2"])
                sum_m += float(st["sum_margin"])
                sum_m2 += float(st["sum_margin2"])
                for name in sums:
                    sums[name] = st[name].copy() if sums[name] is None else sums[name] + st[name]
        t, path, _ = max(members, key=lambda m: int(m[2]["n_visits"]))
        turn, pv = describe(self.root, self.trees[t], path)
        if not turn or turn[0].is_chance:
            return None
        n = n or 1.0
        values = ([float(x) / n for x in sums["sum_u"][:n_players]] if sums["sum_u"] is not None
                  else [0.0] * n_players)
        mean = values[player]
        var = max(sum_u2 / n - mean * mean, 0.0)
        margin_var = max(sum_m2 / n - (sum_m / n) ** 2, 0.0)
        return Candidate(
            action=action, text=turn[0].text, turn=turn, visits=visits, value=mean,
            values=values,
            win_prob=(float(sums["sum_win"][player]) / n if sums["sum_win"] is not None else 0.0),
            scores=([float(x) / n for x in sums["sum_score"][:n_players]]
                    if self.has_scores and sums["sum_score"] is not None else None),
            ci=Z95 * math.sqrt(var / n), votes=self.votes.get(action, 0), pv=pv,
            margin_sd=math.sqrt(margin_var) if self.has_scores else None)
