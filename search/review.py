"""Game review: every decision of a record searched, the played turn's win
probability set against the best turn's, the losses classified, each player
summarised (docs/review.md gives the thresholds and why).

A **decision point** is the first decision of a player's turn: the turn is
that player's run of decisions up to the next other player's decision, the
next chance outcome or the end of the game (search/analysis.py: a candidate is
such a whole turn). A turn is reviewed once, at its first decision, against
the candidates of one search of that position; the chance outcomes are the
record's, and hidden draws are determinized by the search as always.

Both the played turn and the search's best turn (its most visited
candidate) are valued the same way, so that neither is judged by a
rougher estimate than the other: a turn of one decision by its candidate in
the search of the position (`source="candidate"`, or `"candidate (few
visits)"` below MIN_VISITS; every first action is tried once the search has
run as many iterations as there are legal actions, and a search that has not
is grown); a turn of several decisions by a search, with the same budget, of
the position before its last decision, where that decision is a first
action (`source="searched before its last decision"`). The best turn read
from the root's candidates alone would be judged on the few dozen visits a
whole turn of several decisions gets there, and picked as the most visited
of many such: a rougher and a luckier estimate than the played turn's.

Each turn is valued twice, for the player who decided (in a game of several
players, that player's): its win probability (Candidate.win_prob, the share
of playouts it wins) and its expected result (Candidate.value, the utility
the search maximises, as a share of its scale, Search.value_range: in a
game that weighs the score margin, the rank and the margin; else the rank
alone, and then for two players the same as the win probability); and, in
a game whose search weighs the score margin, its expected final margin over
the best other player, in points. The loss is the largest of the drops from
the best turn to the played one (the margin's over POINTS_UNIT score
scales), each less one standard error of the difference (a drop within the
search's noise is no loss), never below 0 (a played turn the search rates
above its own choice lost nothing): a turn that throws away points in a
game already decided loses no win probability, but loses points, as KaTrain
judges Go (docs/review.md, "Points"). The review's searches weigh the margin
up to MARGIN_CAP score scales, so that their best turn of a decided game is
chosen for its points.
"""
from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass, field

from easel.engine.contract_ids import PLAYER_CHANCE

from .errors import SearchError

# The default budget per decision point: a 2-player Van Gogh game is reviewed
# in under 60 s on one core at it (benchmarks/bench_review.py, docs/review.md).
DEFAULT_ITERATIONS = 1500
Z95 = 1.959963984540054
MIN_VISITS = 16            # below this many visits a candidate's source says "few visits"
READ_FIRST = 8             # candidates read first (the best, and most often the played turn)
READ_MORE = 100            # beyond this many, every candidate is read
GROW_TIMES = 4             # extra runs to reach a played turn the budget did not try

# The review's searches cap the score margin they weigh at this many score
# scales (search option margin_cap; a bot's is 1): past a bot's cap its
# search sees no difference between the turns of a decided game, and the
# points term needs a best turn found for its points (docs/review.md, "Points").
MARGIN_CAP = 4.0
# The points term of a turn's loss (docs/review.md, "Points"): a drop of
# POINTS_UNIT times the game's score_scale points of expected margin counts
# as a drop of 1 (100 points of 100) in win probability.
POINTS_UNIT = 1.0
# Loss thresholds, in win probability (docs/review.md, "Thresholds"): the
# lower bound of each class.
INACCURACY = 0.05
MISTAKE = 0.10
BLUNDER = 0.20
CLASSES = ("good", "inaccuracy", "mistake", "blunder")
# Accuracy of one decision: 100 * ACCURACY_BASE ** (loss / ACCURACY_UNIT);
# a loss of 10 points of win probability halves it (docs/review.md, "Accuracy").
ACCURACY_BASE = 0.5
ACCURACY_UNIT = 0.10
BIGGEST = 3                # biggest losses listed per player


class ReviewError(SearchError):
    """A review that cannot be made (a record with nothing to review, a bad budget)."""


@dataclass(frozen=True)
class DecisionPoint:
    step: int                 # index in the record's steps of the turn's first decision
    player: int
    played: tuple[int, ...]   # the turn's decisions (action ids), in order
    move: int                 # the EGN move number the turn is in (search.egn.layout)


@dataclass
class ReviewedDecision:
    step: int
    move: int
    player: int
    played: list[int]
    played_text: str
    played_win: float         # the deciding player's win probability after the played turn
    played_visits: int
    source: str               # how played_win was found (module docstring)
    best: list[int]
    best_text: str
    best_win: float
    best_visits: int
    loss: float               # max(win probability lost, expected result lost), at least 0
    classification: str
    played_value: float = float("nan")   # the played turn's expected result, 0..1
    best_value: float = float("nan")     # the best turn's
    played_margin: float | None = None   # games with scores: the expected final score margin
    best_margin: float | None = None     # over the best other player, played and best turn
    margin_se: float | None = None       # the standard error of best_margin - played_margin
    cause: str = ""           # the drop that decided the loss: "win probability",
    #                           "expected result" or "points"; "" for no loss
    forced: bool = False      # no other turn was legal: not counted
    iterations: int = 0       # searched for this decision, all searches
    seconds: float = 0.0

    @property
    def accuracy(self) -> float:
        return decision_accuracy(self.loss)

    def to_dict(self) -> dict:
        d = asdict(self)
        d["accuracy"] = self.accuracy
        return d


@dataclass
class PlayerSummary:
    player: int
    decisions: int            # reviewed (forced ones left out)
    accuracy: float           # mean of the decisions' accuracies, 0..100
    mean_loss: float
    counts: dict = field(default_factory=dict)     # class -> number
    biggest: list = field(default_factory=list)    # [(loss, move, step)], largest first


@dataclass
class Settings:
    iterations: int | None = DEFAULT_ITERATIONS
    seconds: float | None = None
    seed: int = 0
    threads: int = 1
    options: dict = field(default_factory=dict)    # other search options (search/params.py)

    def check(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ReviewError("a review needs a budget per decision: iterations, seconds or both")
        if self.iterations is not None and (not isinstance(self.iterations, int)
                                            or self.iterations < 1):
            raise ReviewError(f"iterations per decision must be at least 1, got "
                              f"{self.iterations!r}")
        if self.seconds is not None and not (self.seconds > 0 and math.isfinite(self.seconds)):
            raise ReviewError(f"seconds per decision must be a positive number, got "
                              f"{self.seconds!r}")


def classify(loss: float) -> str:
    """The class of a loss in win probability (docs/review.md)."""
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return "good"


def cause_text(d: ReviewedDecision) -> str:
    """The drop that decided a turn's loss, as a table shows it: for points,
    the expected margins of the played and the best turn."""
    if d.cause == "points" and d.played_margin is not None and d.best_margin is not None:
        return f"points (margin {d.played_margin:+.1f} against {d.best_margin:+.1f})"
    return d.cause


def decision_accuracy(loss: float) -> float:
    return 100.0 * ACCURACY_BASE ** (max(loss, 0.0) / ACCURACY_UNIT)


def decision_points(steps, num_players: int) -> list[DecisionPoint]:
    """The record's turns to review: steps are [player, action] pairs
    (player -1 for chance)."""
    from .egn import layout
    numbered = layout(steps, num_players)
    move_of = {}
    for t in numbered:
        for i in range(t.start, t.end):
            move_of[i] = t.number
    points, i = [], 0
    while i < len(steps):
        p = steps[i][0]
        if p < 0:
            i += 1
            continue
        j = i
        while j < len(steps) and steps[j][0] == p:
            j += 1
        points.append(DecisionPoint(i, p, tuple(a for _, a in steps[i:j]), move_of.get(i, 0)))
        i = j
    return points


def _texts(state, actions) -> str:
    walk, texts = state.clone(), []
    for a in actions:
        texts.append(walk.action_to_string(a))
        walk.apply_action(a)
    return "; ".join(texts)


def _turn_actions(candidate) -> tuple[int, ...]:
    return tuple(s.action for s in candidate.turn if not s.is_chance)


def _share(value_range):
    """A value on the search's scale (Search.value_range) as a share of it, 0..1."""
    low, high = value_range
    return lambda v: min(max((v - low) / (high - low), 0.0), 1.0)


def _win_se(candidate) -> float:
    """The standard error of a candidate's win probability: of a share of
    wins among its visits, with a win and a loss added (so that a few
    agreeing playouts do not read as certain; search/separation.py)."""
    n = max(candidate.visits, 0)
    p = (candidate.win_prob * n + 1.0) / (n + 2.0)
    return math.sqrt(p * (1.0 - p) / (n + 2.0))


def _margin_se(candidate, spread: float) -> float:
    """The standard error of a candidate's expected margin: the margin's
    spread over its visits, with two playouts of the game's typical
    spread (`spread`, its score_scale) added, so that a few agreeing
    playouts do not read as certain (as _win_se adds a win and a loss)."""
    n = max(candidate.visits, 0)
    var = (n * candidate.margin_sd ** 2 + 2.0 * spread ** 2) / (n + 2.0)
    return math.sqrt(var / (n + 2.0))


def _margin(candidate, player: int):
    """The expected final score of `player` less the best other player's
    (the score alone in a one-player game), or None for a game without scores."""
    scores = candidate.scores
    if not scores:
        return None
    others = [s for i, s in enumerate(scores) if i != player]
    return scores[player] - (max(others) if others else 0.0)


def _match(candidates, played):
    """The first candidate whose turn is `played`, or begins with it when
    `played` is one decision (the first, most visited, turn of that first
    action: the whole turn when that decision ends the turn)."""
    if len(played) == 1:
        return next((c for c in candidates if _turn_actions(c)[:1] == played), None)
    return next((c for c in candidates if _turn_actions(c) == played), None)


def _find(search, played):
    """The candidate of `search` whose turn is `played`, or None: read
    READ_FIRST candidates, then four times as many, then all."""
    k = READ_FIRST
    while True:
        cands = search.analysis(top_k=k).candidates
        found = _match(cands, played)
        if found is not None or k is None or len(cands) < k:
            return found
        k = 4 * k if 4 * k < READ_MORE else None


def losses(best, found, player: int, value_range, score_scale: float, points: bool):
    """(loss, cause, margin standard error) of the turn valued by the
    candidate `found` against the best turn's `best`, for `player`: the
    largest of the drops in win probability, in expected result (a share of
    `value_range`) and, with `points` (a game whose search weighs the score
    margin), in expected score margin over POINTS_UNIT * `score_scale`
    points (at most 1), each less one standard error of the difference (a
    drop within the search's noise is no loss), never below 0. The cause
    names the drop that decided ("" when nothing was lost); the margin's
    standard error is None without scores."""
    low, high = value_range
    share = _share(value_range)
    drops = {
        "win probability": best.win_prob - found.win_prob
        - math.hypot(_win_se(best), _win_se(found)),
        "expected result": share(best.value) - share(found.value)
        - math.hypot(best.ci, found.ci) / Z95 / (high - low)}
    margins = (_margin(best, player), _margin(found, player))
    margin_se = None
    if None not in margins and best.margin_sd is not None and found.margin_sd is not None:
        margin_se = math.hypot(_margin_se(best, score_scale), _margin_se(found, score_scale))
        if points and score_scale > 0:
            drops["points"] = min((margins[0] - margins[1] - margin_se)
                                  / (POINTS_UNIT * score_scale), 1.0)
    cause = max(drops, key=drops.get)          # the first of equal drops
    loss = max(drops[cause], 0.0)
    return loss, (cause if loss > 0 else ""), margin_se


def _forced(state, played) -> bool:
    walk = state.clone()
    for a in played:
        if len(walk.legal_actions()) > 1:
            return False
        walk.apply_action(a)
    return True


class Reviewer:
    """Reviews decision points of one game with one budget. `attach(search)`,
    if given, sees every search before it runs (a server wires its cancel)."""

    def __init__(self, game, settings: Settings | None = None, attach=None):
        self.game = game
        self.settings = settings or Settings()
        self.settings.check()
        if getattr(game, "implementation", None) != "core":
            raise ReviewError(f"a review searches, and the search needs a game's Cython core; "
                              f"{game.name} is loaded as {game.implementation!r}")
        self.attach = attach

    def _search(self, state, salt: int):
        from .seeds import mix
        from .tree_search import Search
        s = self.settings
        options = {"margin_cap": MARGIN_CAP, **s.options}
        search = Search(self.game, state, seed=mix(s.seed, salt), threads=s.threads, **options)
        if self.attach is not None:
            self.attach(search)
        search.run(s.iterations, s.seconds)
        return search

    def review_point(self, state, point: DecisionPoint) -> ReviewedDecision:
        """Review one decision point; `state` is the position before it."""
        played = tuple(point.played)
        text = _texts(state, played)
        if _forced(state, played):
            return ReviewedDecision(point.step, point.move, point.player, list(played), text,
                                    float("nan"), 0, "forced", list(played), text, float("nan"),
                                    0, 0.0, "good", forced=True)
        started = time.perf_counter()
        search = self._search(state, 4 * point.step)
        iterations = search.iterations
        # The first few candidates hold the best turn and, most often, the
        # played one; reading every turn of the tree costs far more than
        # the search (each turn's texts), so more are read only when needed.
        a = search.analysis(top_k=READ_FIRST)
        if not a.candidates:
            raise ReviewError(f"step {point.step + 1}: the search found no turn (cancelled?)")
        best_turn = _turn_actions(a.candidates[0])
        # Both turns valued the same way (module docstring): the played one,
        # and the best one, each by a search of the position before its last
        # decision (the root search for a turn of one decision), where that
        # decision is a first action.
        found, source, more = self._value(search, state, played, 4 * point.step + 1)
        iterations += more
        if best_turn == played:
            best = found
        else:
            best, _, more = self._value(search, state, best_turn, 4 * point.step + 2)
            iterations += more
            # the turn as searched to its end from its last decision's position
            best_turn = best_turn[:-1] + _turn_actions(best)
        share = _share(search.value_range())
        loss, cause, margin_se = losses(best, found, point.player, search.value_range(),
                                        self.game.facts().score_scale, search.weighs_margin())
        return ReviewedDecision(point.step, point.move, point.player, list(played), text,
                                found.win_prob, found.visits, source, list(best_turn),
                                _texts(state, best_turn), best.win_prob, best.visits, loss,
                                classify(loss),
                                played_value=share(found.value), best_value=share(best.value),
                                played_margin=_margin(found, point.player),
                                best_margin=_margin(best, point.player), margin_se=margin_se,
                                cause=cause,
                                iterations=iterations, seconds=time.perf_counter() - started)

    def _value(self, search, state, turn, salt):
        """(candidate, source, iterations searched) of a whole turn from
        `state`: its last decision as a first action, of `search` (the
        search at `state`) for a turn of one decision, else of a new search
        of the position before that decision. The candidate is the first
        (most visited) whose turn begins with that decision."""
        if len(turn) == 1:
            before, where, source = state, search, "candidate"
        else:
            before = state.clone()
            for act in turn[:-1]:
                before.apply_action(act)
            where, source = self._search(before, salt), "searched before its last decision"
        done = where.iterations if where is search else 0
        found = self._find_grown(where, before, turn[-1:])
        if found is None:
            raise ReviewError(f"the search never tried {before.action_to_string(turn[-1])!r} "
                              f"(cancelled, or a budget below the legal actions?)")
        if source == "candidate" and found.visits < MIN_VISITS:
            source = "candidate (few visits)"
        return found, source, where.iterations - done

    def _find_grown(self, search, state, played):
        """`_find`, and if the search never tried the played turn (a budget
        below the legal actions' count), the search grown by as many
        iterations as there are legal actions, up to GROW_TIMES times, for
        every first action is tried before any is tried twice."""
        found = _find(search, played)
        extra = max(len(state.legal_actions()), 1)
        for _ in range(GROW_TIMES):
            if found is not None or search.run(extra) == 0:     # found, or cancelled
                break
            found = _find(search, played)
        return found

    def review(self, steps, points=None):
        """Yield a ReviewedDecision for each decision point of the record's
        `steps` ([player, action] pairs), in order."""
        points = decision_points(steps, self.game.num_players()) if points is None else points
        state = self.game.new_initial_state()
        done = 0
        for point in points:
            for player, action in steps[done:point.step]:
                state.apply_action(action)
            done = point.step
            yield self.review_point(state, point)


def summarise(decisions, num_players: int) -> list[PlayerSummary]:
    out = []
    for p in range(num_players):
        mine = [d for d in decisions if d.player == p and not d.forced]
        counts = {c: sum(1 for d in mine if d.classification == c) for c in CLASSES}
        worst = sorted(mine, key=lambda d: (-d.loss, d.step))[:BIGGEST]
        n = len(mine)
        out.append(PlayerSummary(
            p, n, sum(d.accuracy for d in mine) / n if n else 100.0,
            sum(d.loss for d in mine) / n if n else 0.0, counts,
            [(d.loss, d.move, d.step) for d in worst if d.loss > 0]))
    return out


def flagged(decisions) -> list[ReviewedDecision]:
    return [d for d in decisions if d.classification != "good"]


def record_steps(record: dict) -> list[list[int]]:
    steps = record.get("steps")
    if not isinstance(steps, list) or not all(
            isinstance(s, list) and len(s) == 2 and all(type(x) is int for x in s)
            for s in steps):
        raise ReviewError("the record's steps must be a list of [player, action]")
    if any(p < PLAYER_CHANCE for p, _ in steps):
        raise ReviewError("a record's step player is 0 or more, or -1 for chance")
    return steps
