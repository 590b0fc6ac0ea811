"""Bots: the players of the arena and the baselines the search is measured against.

A bot is asked for an action at a decision node of its own player
(`step(state)`); it never changes the state it is given. `restart()` makes it
ready for a new game, and `inform(action)` tells it every action applied to
the game, in order (its own moves, the other players' moves and the chance
outcomes), so that a searching bot can keep its tree between moves.

Baselines (DESIGN.md section 4):

- `RandomBot`: a uniformly random legal action.
- `GreedyBot`: the best immediate gain. Each legal action is applied to a
  clone, then the rest of the mover's turn is looked at: chance nodes are
  resolved by expectation over their outcomes (or by sampling when there are
  many), further decisions of the same player by the best of them, up to a
  small depth and node budget. The position where the turn ends is scored by
  the pair (utility, score margin) for the mover, compared in that order:
  utility is the final return at the end of the game, else the game's own
  `evaluate()` heuristic, else neutral; the score margin is the mover's score
  minus the best other score, when the game keeps scores. With expectations
  taken over chance, Pig's greedy player finds "hold at 20" by itself.
- `HeuristicBot`: a rule-of-thumb player written for one game (see
  `HEURISTICS`); games without one refuse it.
"""
from __future__ import annotations

import random
from typing import Callable

from easel.engine.contract_ids import PLAYER_CHANCE

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
        for name, value, low in (("depth", depth, 0), ("samples", samples, 1),
                                 ("max_outcomes", max_outcomes, 1), ("budget", budget, 1)):
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise ValueError(f"greedy: {name} must be an integer >= {low}, got {value!r}")
        self.game = game
        self.rng = random.Random(seed)
        self.depth = depth
        self.samples = samples
        self.max_outcomes = max_outcomes
        self.budget = budget
        lo, hi = game.min_utility(), game.max_utility()
        self._neutral = (lo + hi) / 2.0

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


# -- rule-of-thumb players, one per game ---------------------------------------

def _pig_policy(state, rng) -> int:
    """Hold at the turn total where one more roll stops paying (20 with a
    six-sided die), at the win score, and never while an opponent is within
    one turn of winning ("keep pace, end race")."""
    view = state.to_json()
    params = state.get_game().params
    legal = state.legal_actions()
    roll, stop = 0, 1
    if legal == [stop]:
        return stop
    faces, win = params["diceoutcomes"], params["winscore"]
    if params["piglet"]:
        threshold = faces - 1
    else:
        # Rolling pays while (1 - 1/f) * (t + mean non-one face) > t.
        threshold = (faces - 1) * (faces + 2) / 2.0
    me = view["turn_player"]
    mine, total = view["scores"][me], view["turn_total"]
    others = [s for q, s in enumerate(view["scores"]) if q != me]
    if mine + total >= win:
        return stop
    if others and max(others) >= win - threshold:
        return roll
    return stop if total >= threshold else roll


def _connect_four_policy(state, rng) -> int:
    """Win if possible; else block the opponent's win; never drop a stone that
    lets the opponent win on top of it; prefer central columns."""
    view = state.to_json()
    board = [list(row) for row in reversed(view["board"])]      # board[row][col], row 0 at the bottom
    rows, cols = len(board), len(board[0])
    me = "xo"[view["current_player"]]
    them = "xo"[1 - view["current_player"]]
    legal = state.legal_actions()

    def drop_row(col):
        for r in range(rows):
            if board[r][col] == ".":
                return r
        return None

    def wins_at(r, c, mark):
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            count = 1
            for sign in (1, -1):
                rr, cc = r + sign * dr, c + sign * dc
                while 0 <= rr < rows and 0 <= cc < cols and board[rr][cc] == mark:
                    count += 1
                    rr, cc = rr + sign * dr, cc + sign * dc
            if count >= 4:
                return True
        return False

    for mark in (me, them):                       # win, then block
        for c in legal:
            r = drop_row(c)
            if r is not None and wins_at(r, c, mark):
                return c
    safe = []
    for c in legal:
        r = drop_row(c)
        if r + 1 < rows:
            board[r][c] = me
            gives = wins_at(r + 1, c, them)
            board[r][c] = "."
            if gives:
                continue
        safe.append(c)
    pool = safe or legal
    centre = (cols - 1) / 2.0
    best = min(abs(c - centre) for c in pool)
    return rng.choice([c for c in pool if abs(c - centre) == best])


class _VanGoghView:
    """What the Van Gogh rule of thumb reads from the JSON view of a state."""

    def __init__(self, view):
        self.view = view
        self.me = view["current_player"]
        self.colours = view["colors"]
        self.mine = self.colours[self.me] if self.me < len(self.colours) else None
        palette = view["palettes"][self.me]
        self.active = list(palette["active"])
        self.inactive = list(palette["inactive"])
        self.free = 7 - len(self.active)
        # (slot, space, required orientation, bonus) of every empty painting space
        self.empty = []
        for slot, p in enumerate(view["paintings"]):
            if p.get("card", -1) < 0:
                continue
            for k, (orient, occ) in enumerate(zip(p["orientations"], p["occupants"])):
                if occ is None:
                    self.empty.append((slot, k, orient, p["bonus"][k]))
        self.wanted = {}                              # orientation -> empty spaces asking for it
        for _, _, orient, _ in self.empty:
            self.wanted[orient] = self.wanted.get(orient, 0) + 1

    @staticmethod
    def split(piece):
        colour, orient = piece.split("-", 1)
        return colour, orient

    def colour_value(self, colour) -> float:
        """How much a Minigogh of this colour is worth to me on a painting."""
        if colour == self.mine:
            return 3.0
        if colour == "white":
            return 1.0
        if colour not in self.colours:
            return 0.5                                # uncontrolled: fills a space, helps nobody
        return -1.5                                   # gives an opponent a majority

    def fits(self, piece) -> bool:
        return self.split(piece)[1] in self.wanted

    def paintable(self) -> int:
        """Empty spaces my active Minigoghs could fill now (each piece once)."""
        left = dict(self.wanted)
        n = 0
        for piece in self.active:
            colour, orient = self.split(piece)
            if left.get(orient, 0) > 0 and self.colour_value(colour) > 0:
                left[orient] -= 1
                n += 1
        return n

    def paint_value(self, piece, slot, space) -> float:
        colour, orient = self.split(piece)
        painting = self.view["paintings"][slot]
        value = 2.0 + 3.0 * self.colour_value(colour) + 2.0 * painting["bonus"][space]
        if painting["orientations"][space] != orient:
            value -= 3.0                              # green's ability: costs an EP
        occupants = [o for o in painting["occupants"] if o is not None]
        if len(occupants) + 1 == len(painting["occupants"]):
            counts = {}
            for o in occupants + [piece]:
                c = self.split(o)[0]
                if c != "white":
                    counts[c] = counts.get(c, 0) + 1
            top = max(counts.values()) if counts else 0
            if self.mine in counts and counts[self.mine] == top:
                value += painting["frame"][0]         # finishing a painting I lead
            elif self.mine in counts:
                value += painting["frame"][1] / 2.0
            else:
                value -= 2.0
        mine_there = sum(1 for o in occupants if self.split(o)[0] == self.mine)
        if colour == self.mine:
            value += 0.5 * mine_there                 # build on a majority already started
        return value

    def keep_value(self, piece) -> float:
        colour, _ = self.split(piece)
        return 2.0 + 2.0 * self.colour_value(colour) + (3.0 if self.fits(piece) else 0.0)


def _vangogh_policy(state, rng) -> int:
    """Van Gogh by rule of thumb: pick the character that paints most now (Van
    Gogh with two matching Minigoghs, Postman or Anna with one), else the one
    that brings matching Minigoghs (Eugene from the table, Madame Ginoux from
    the bag, Dr. Gachet turning what is there); paint own colour first, on the
    paintings where its majority grows, and finish a painting when leading it;
    never paint an opponent's colour unless it finishes a painting it leads;
    take and keep own colour and pieces whose orientation is wanted."""
    from easel.engine.vangogh import rules as R
    v = _VanGoghView(state.to_json())
    scored = []
    for a in state.legal_actions():
        scored.append((_vangogh_action_value(v, a, R), a))
    best = max(x for x, _ in scored)
    return rng.choice([a for x, a in scored if x >= best - 1e-9])


def _vangogh_action_value(v, a, R) -> float:
    view = v.view
    if a < R.N_CHARS:
        return _vangogh_character_value(v, a, R)
    if a == R.DONE:
        return 0.0
    if R.PAINT <= a < R.REORIENT:
        src, space = divmod(a - R.PAINT, R.MAX_SPACES)
        src, slot = divmod(src, R.N_PAINTINGS)
        if src < R.N_CODES:
            piece = R.piece_name(src)
        else:
            piece = next(x for x in v.inactive if x)
        return v.paint_value(piece, slot, space)
    if R.REORIENT <= a < R.RESTART:
        code, new = divmod(a - R.REORIENT, 4)
        piece = R.piece_name(code)
        colour, orient = v.split(piece)
        if orient in v.wanted:
            return -1.0                               # it fits already
        if R.ORIENTS[new] not in v.wanted:
            return -0.5
        return 1.0 + v.colour_value(colour) + 0.5 * v.wanted[R.ORIENTS[new]]
    if R.RESTART <= a < R.EPIPHANY:
        colour, _ = v.split(R.piece_name(a - R.RESTART))
        return 1.0 - v.colour_value(colour) - (2.0 if v.fits(R.piece_name(a - R.RESTART)) else 0.0)
    if a == R.EPIPHANY:
        return 3.0
    if R.TAKE <= a < R.KEEP:
        return v.keep_value(R.piece_name(a - R.TAKE))
    if R.KEEP <= a < R.YELLOW:
        colour = R.COLOURS[a - R.KEEP]
        return 2.0 + 2.0 * v.colour_value(colour)
    if a == R.BRUSH:
        return 4.0 if v.paintable() else -1.0
    if a == R.BLUE:
        return 1.0 if v.free > 0 else -1.0
    if R.BLUE_ORIENT <= a < R.BLUE_DISCARD:
        return float(v.wanted.get(R.ORIENTS[a - R.BLUE_ORIENT], 0))
    if R.BLUE_DISCARD <= a < R.BRUSH:
        return -v.keep_value(R.piece_name(a - R.BLUE_DISCARD))
    if R.YELLOW <= a < R.PINK or R.PINK <= a < R.BLUE:
        return -0.25                                  # abilities: only the ones above pay by rule
    return 0.0


def _vangogh_character_value(v, c, R) -> float:
    view = v.view
    paint_now = v.paintable()
    waiting = view["characters"][c]["waiting"]
    value = sum(v.keep_value(p) for p in waiting[:max(0, v.free)]) * 0.5
    if c == R.VAN_GOGH:
        value += 7.0 * min(2, paint_now)
    elif c == R.POSTMAN:
        value += 7.0 * min(1, paint_now) + (2.0 if any(v.inactive) else 1.0)
    elif c == R.ANNA:
        value += 7.0 * min(1, paint_now) + 2.5
    elif c == R.GACHET:
        turnable = sum(1 for p in v.active
                       if not v.fits(p) and v.colour_value(v.split(p)[0]) > 0)
        value += 3.0 * min(2, turnable) if v.wanted else 0.0
    elif c == R.GINOUX:
        bag = sum(view["bag"].values())
        value += 2.5 * min(2, v.free) if bag else 0.0
    elif c == R.EUGENE:
        gains = sorted((v.keep_value(p) for p in view["table"]), reverse=True)
        value += 0.8 * sum(gains[:min(2, v.free)])
    return value


def _starving_artists_policy(state, rng) -> int:
    """The game's own rule-of-thumb player (engine/starving_artists/policies.py)."""
    from easel.engine.starving_artists.policies import heuristic
    return heuristic(state, rng)


# game name -> policy(state, rng) -> action
HEURISTICS: dict[str, Callable] = {
    "pig": _pig_policy,
    "connect_four": _connect_four_policy,
    "vangogh": _vangogh_policy,
    "starving_artists": _starving_artists_policy,
}


class HeuristicBot(Bot):
    """The game's rule-of-thumb player (see HEURISTICS)."""

    def __init__(self, game, seed=None):
        policy = heuristic_policy(game.name)
        if policy is None:
            from easel.search.specs import BotSpecError
            known = ", ".join(sorted(heuristic_games())) or "none"
            raise BotSpecError(f"heuristic: there is no rule-of-thumb player for {game.name!r}; "
                               f"games with one: {known}")
        self.policy = policy
        self.rng = random.Random(seed)

    def step(self, state) -> int:
        return self.policy(state, self.rng)


def heuristic_policy(game_name: str):
    return HEURISTICS.get(game_name)


def heuristic_games() -> list[str]:
    return sorted(HEURISTICS)
