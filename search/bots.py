"""Bots: the players of the arena and the baselines the search is measured against.

A bot is asked for an action at a decision node of its own player
(`step(state)`); it never changes the state it is given. `restart()` makes it
ready for a new game, and `inform(action)` tells it every action applied to
the game, in order (its own moves, the other players' moves and the chance
outcomes), so that a searching bot can keep its tree between moves.

Baselines (docs/design.md, Search):

- `RandomBot`: a uniformly random legal action.
- `GreedyBot`: the best immediate gain. Each legal action is applied to a
  clone, then the rest of the mover's turn is looked at: chance nodes are
  resolved by expectation over their outcomes (or by sampling when there are
  many), further decisions of the same player by the best of them, up to a
  small depth and node budget. The position where the turn ends is scored by
  the pair (utility, score margin) for the mover, compared in that order:
  utility is the final return at the end of the game, else the game's own
  evaluation (the state's `evaluate()`, else the `evaluate(state)` of the
  game's policies hook), else neutral; the score margin is the mover's score
  minus the best other score, when the game keeps scores. With expectations
  taken over chance, Pig's greedy player finds "hold at 20" by itself.
- `HeuristicBot`: the game's rule-of-thumb player, which lives with the game
  (`engine/<game>/policies.py`, declared by `capabilities.heuristic_bot`);
  games without one refuse it.

Game knowledge stays in the game's package (docs/adding-a-game.md); this
module is generic.
"""
from __future__ import annotations

import random

from easel.engine.contract_ids import PLAYER_CHANCE
from easel.engine.kit import load_hook
from easel.engine.registry import registered_games

from . import params
from .errors import BotSpecError

_TOLERANCE = 1e-9


class Bot:
    """The bot interface. Subclasses write `step`; the rest is optional."""

    spec = "bot"        # the spec string that made the bot (set by search.specs.make_bot)

    def step(self, state) -> int:
        """The action to play; `state` is at a decision node of this bot's player."""
        raise NotImplementedError

    def restart(self) -> None:
        """Forget everything about the game in progress."""

    def inform(self, action: int) -> None:
        """An action was applied to the game (any player's, or a chance outcome)."""

    def __repr__(self):
        return f"<{type(self).__name__} {self.spec}>"


def player_scores(state) -> list[float] | None:
    """Each player's score (points), when the game keeps scores, else None.

    Read from the state's `scores()` if it has one that answers, else from the
    "scores" list of its JSON view."""
    getter = getattr(state, "scores", None)
    if callable(getter):
        try:
            values = getter()
        except (NotImplementedError, AttributeError):
            values = None
        if values is not None:
            return [float(v) for v in values]
    view = state.to_json()
    values = view.get("scores") if isinstance(view, dict) else None
    n = state.get_game().num_players()
    if (isinstance(values, (list, tuple)) and len(values) == n
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)):
        return [float(v) for v in values]
    return None


def margin_of(values, player: int) -> float:
    """values[player] minus the best of the others' values."""
    others = [v for q, v in enumerate(values) if q != player]
    return float(values[player] - max(others)) if others else float(values[player])


class RandomBot(Bot):
    """A uniformly random legal action."""

    def __init__(self, game=None, seed=None):
        self.rng = random.Random(seed)

    def step(self, state) -> int:
        return self.rng.choice(state.legal_actions())


class GreedyBot(Bot):
    """The action with the best value at the end of the mover's turn (see the module text).

    depth: further decisions of the same player looked at after the first
        (for games whose turns have several steps).
    max_outcomes: chance nodes with at most this many outcomes are averaged
        exactly; larger ones are sampled `samples` times.
    budget: about the most positions looked at per move, split evenly among
        the candidates and down the tree; where it runs out, positions are
        scored as they stand.
    """

    def __init__(self, game, seed=None, depth=2, samples=4, max_outcomes=8, budget=300):
        try:
            params.check_options(params.GREEDY, dict(seed=seed, depth=depth, samples=samples,
                                                     max_outcomes=max_outcomes, budget=budget),
                                 "greedy", BotSpecError)
        except BotSpecError as e:
            raise BotSpecError(f"greedy: {e}") from None
        self.game = game
        self.rng = random.Random(seed)
        self.depth = depth
        self.samples = samples
        self.max_outcomes = max_outcomes
        self.budget = budget
        lo, hi = game.min_utility(), game.max_utility()
        self._neutral = (lo + hi) / 2.0
        entry = getattr(game, "entry", None)
        policies = load_hook(entry, "policies") if entry is not None else None
        self._evaluate = getattr(policies, "evaluate", None)

    def action_values(self, state) -> list[tuple[int, float, float]]:
        """(action, utility, margin) for every legal action, as the bot sees them."""
        me = state.current_player()
        actions = state.legal_actions()
        share = max(1, self.budget // max(1, len(actions)))
        out = []
        for a in actions:
            child = state.clone()
            child.apply_action(a)
            u, m = self._value(child, me, self.depth, share)
            out.append((a, u, m))
        return out

    def step(self, state) -> int:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        best, best_key = [], None
        for a, u, m in self.action_values(state):
            key = (u, m)
            if best_key is None or _better(key, best_key):
                best, best_key = [a], key
            elif not _better(best_key, key):
                best.append(a)
        return self.rng.choice(best)

    def _static(self, state, me) -> tuple[float, float]:
        if state.is_terminal():
            u = float(state.returns()[me])
        else:
            ev = state.evaluate()
            if ev is None and self._evaluate is not None:
                ev = self._evaluate(state)
            u = float(ev[me]) if ev is not None else self._neutral
        scores = player_scores(state)
        return u, (margin_of(scores, me) if scores is not None else 0.0)

    def _value(self, state, me, depth, budget) -> tuple[float, float]:
        """Value of `state` for `me`, looking at about `budget` positions: the
        budget is split evenly among children, so a wide first branch cannot
        starve the later ones."""
        p = state.current_player()
        if state.is_terminal() or budget <= 1 or (p >= 0 and (p != me or depth == 0)):
            return self._static(state, me)
        if p == PLAYER_CHANCE:
            outcomes = state.chance_outcomes()
            if len(outcomes) > self.max_outcomes:
                ids = [o for o, _ in outcomes]
                weights = [w for _, w in outcomes]
                picks = self.rng.choices(ids, weights=weights, k=self.samples)
                outcomes = [(o, 1.0 / self.samples) for o in picks]
            total = sum(w for _, w in outcomes) or 1.0
            share = max(1, (budget - 1) // len(outcomes))
            su = sm = 0.0
            for o, w in outcomes:
                child = state.clone()
                child.apply_action(o)
                u, m = self._value(child, me, depth, share)
                su += w * u
                sm += w * m
            return su / total, sm / total
        actions = state.legal_actions()
        share = max(1, (budget - 1) // len(actions))
        best = None
        for a in actions:
            child = state.clone()
            child.apply_action(a)
            key = self._value(child, me, depth - 1, share)
            if best is None or _better(key, best):
                best = key
        return best


def _better(a, b) -> bool:
    """Lexicographic (utility, margin) comparison with a tolerance."""
    if a[0] > b[0] + _TOLERANCE:
        return True
    if a[0] < b[0] - _TOLERANCE:
        return False
    return a[1] > b[1] + _TOLERANCE


class HeuristicBot(Bot):
    """The game's rule-of-thumb player (its policies hook's `heuristic`)."""

    def __init__(self, game, seed=None):
        entry = game.entry
        if not entry.capabilities.heuristic_bot:
            known = ", ".join(heuristic_games()) or "none"
            raise BotSpecError(f"heuristic: there is no rule-of-thumb player for {game.name!r}; "
                               f"games with one: {known}")
        self.policy = load_hook(entry, "policies").heuristic
        self.rng = random.Random(seed)

    def step(self, state) -> int:
        return self.policy(state, self.rng)


def heuristic_games() -> list[str]:
    """The registered games that declare a rule-of-thumb player."""
    return [e.name for e in registered_games() if e.capabilities.heuristic_bot]
