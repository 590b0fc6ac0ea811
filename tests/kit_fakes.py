"""A small fake game made for the tests: paths that depend on what a game
offers are tested here on a game whose capabilities the test chooses, so a
test does not turn into a skip once a real game gains (or loses) a feature.

`chance_nim`: a chance node deals a pile of 5, 6 or 7 stones (equally
likely); then two players alternately take 1 or 2 stones; whoever takes the
last stone wins. Reference implementation only. Register it with
`fake_game(...)` (a context manager) under a name of the test's choosing.
"""
from __future__ import annotations

import contextlib

from easel.engine.contract_ids import PLAYER_CHANCE, PLAYER_TERMINAL
from easel.engine.errors import StateFormatError
from easel.engine.kit import Capabilities, GameEntry, GameFacts, GameHooks
from easel.engine.reference import ReferenceState
from easel.engine.registry import register, unregister

PILES = (5, 6, 7)


class NimState(ReferenceState):
    def __init__(self, game):
        super().__init__(game)
        self.pile = None            # None until the chance node deals it
        self.player = 0
        self.winner = None

    def _current_player(self):
        if self.pile is None:
            return PLAYER_CHANCE
        if self.winner is not None:
            return PLAYER_TERMINAL
        return self.player

    def _legal_actions(self):
        return [a for a in (0, 1) if a + 1 <= self.pile]       # action a takes a+1 stones

    def _chance_outcomes(self):
        return [(i, 1.0 / len(PILES)) for i in range(len(PILES))]

    def _apply(self, action):
        if self.pile is None:
            self.pile = PILES[action]
            return
        self.pile -= action + 1
        if self.pile == 0:
            self.winner = self.player
        self.player = 1 - self.player

    def _returns(self):
        if self.winner is None:
            return [0.0, 0.0]
        return [1.0 if p == self.winner else -1.0 for p in (0, 1)]

    def to_json(self):
        return {"pile": self.pile, "player": self.player, "winner": self.winner,
                "current_player": self._current_player()}

    @classmethod
    def from_json(cls, game, view):
        if not isinstance(view, dict) or set(view) - {"pile", "player", "winner",
                                                      "current_player"}:
            raise StateFormatError("chance_nim: expected keys pile, player, winner")
        pile = view.get("pile")
        if pile is not None and (not isinstance(pile, int) or not 0 <= pile <= max(PILES)):
            raise StateFormatError(f"field 'pile': must be 0..{max(PILES)} or null")
        s = cls(game)
        s.pile, s.player, s.winner = pile, view.get("player", 0), view.get("winner")
        return s


# -- the hooks, as module-level functions ---------------------------------------

def action_to_string(view, action):
    if view["current_player"] == PLAYER_CHANCE:
        return f"deal {PILES[action]}"
    return f"take {action + 1}"


def state_to_string(view):
    return f"pile {view['pile']}, player {view['player']} to move\n"


def write(game, view):
    return f"{view['pile']}/{view['player']}"


def read(game, text):
    try:
        pile, player = (int(x) for x in text.split("/"))
    except ValueError:
        raise StateFormatError(f"chance_nim notation: expected PILE/PLAYER, got {text!r}") from None
    return {"pile": pile, "player": player, "winner": None}


def heuristic(state, rng):
    pile = state.to_json()["pile"]
    return 1 if pile % 3 == 2 else 0


def evaluate(state):
    """The mover loses a pile that is a multiple of 3 (the other player answers
    every take of k with 3 - k); a position-value hook for the greedy bot."""
    view = state.to_json()
    mover = view["player"]
    sure = 0.5 if view["pile"] % 3 == 0 else -0.5
    return [-sure if p == mover else sure for p in (0, 1)]


def facts(params):
    return GameFacts(num_players=2, num_distinct_actions=2, max_chance_outcomes=len(PILES),
                     max_game_length=max(PILES), min_utility=-1.0, max_utility=1.0)


@contextlib.contextmanager
def fake_game(name="chance_nim", capabilities=None, **hooks):
    """Register the fake game as `name` for the duration of the block."""
    entry = GameEntry(
        name=name, long_name="Chance Nim (a test game)",
        description="A fake game for the tests.", min_players=2, max_players=2,
        options={}, players_option=None, facts=facts,
        capabilities=capabilities or Capabilities(),
        hooks=GameHooks(**{"reference": "kit_fakes:NimState", "codec": "kit_fakes", **hooks}))
    register(entry)
    try:
        yield entry
    finally:
        unregister(name)
