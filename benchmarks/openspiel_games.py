"""Any Easel game as an OpenSpiel (pyspiel) Python game, so that OpenSpiel's
C++ algorithms (its `MCTSBot`) play Easel's rules through Easel's Python face.

What OpenSpiel's bot sees: the Easel state as it stands, through the calls
an OpenSpiel state answers (current player, legal actions, chance outcomes
with their probabilities, apply, returns). Easel's games hide nothing but
future draws (no game here sets `capabilities.hidden_information`), and an
Easel state holds its bags and decks as multisets, never as a shuffled
order (docs/design.md, "The C-level contract"): a chance node offers every
tile or card still in the bag with its probability, and nothing in the
state says which comes next. OpenSpiel's MCTSBot is a perfect-information
search that samples each chance node's outcome from those probabilities as
it meets it, so it sees exactly what Easel's own search sees, and no more.

`openspiel_game(spec)` returns the game for an Easel game string. Every state call crosses from C++ into Python and then
into Easel's Cython core, so OpenSpiel's search over these games is much
slower than over its own C++ games; only the equal-time rows feel it."""
from __future__ import annotations

import re

import pyspiel

from easel import engine

_GAMES: dict[str, "EaselOpenSpielGame"] = {}


def _short_name(spec: str) -> str:
    return "easel_" + re.sub(r"[^A-Za-z0-9]+", "_", spec).strip("_")


class _Inner:
    """Holds the Easel state. OpenSpiel clones a Python state by making a
    new initial state and deep-copying each attribute into it; this makes
    that copy Easel's own clone (a memcpy of the state struct)."""

    __slots__ = ("state",)

    def __init__(self, state):
        self.state = state

    def __deepcopy__(self, memo):
        return _Inner(self.state.clone())


class EaselOpenSpielState(pyspiel.State):
    """An Easel core state behind OpenSpiel's State interface. The player to
    move is kept after each action: OpenSpiel asks for it several times a
    step (terminal? chance? whose history entry?), each a call into Python."""

    def __init__(self, game, inner=None):
        super().__init__(game)
        state = game.easel.new_initial_state() if inner is None else inner
        self.inner = _Inner(state)
        self.player = state.current_player()    # Easel uses OpenSpiel's -1 and -4

    def current_player(self):
        return self.player

    def is_terminal(self):
        return self.player == pyspiel.PlayerId.TERMINAL

    def _legal_actions(self, player):
        return self.inner.state.legal_actions()

    def chance_outcomes(self):
        return self.inner.state.chance_outcomes()

    def _apply_action(self, action):
        state = self.inner.state
        state.apply_action(action)
        self.player = state.current_player()

    def returns(self):
        return self.inner.state.returns()

    def _action_to_string(self, player, action):
        return self.inner.state.action_to_string(action)

    def __str__(self):
        return str(self.inner.state)


class EaselOpenSpielGame(pyspiel.Game):
    """An Easel game (its Cython core) as a pyspiel game."""

    def __init__(self, params=None, *, spec: str):
        self.easel = engine.load_game(spec)
        g = self.easel
        game_type = pyspiel.GameType(
            short_name=_short_name(g.spec), long_name=f"Easel {g.spec}",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
            # Nothing is hidden but the future draws, which the state does
            # not hold (see the module docstring).
            information=pyspiel.GameType.Information.PERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.GENERAL_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=g.num_players(), min_num_players=g.num_players(),
            provides_information_state_string=False, provides_information_state_tensor=False,
            provides_observation_string=False, provides_observation_tensor=False,
            parameter_specification={})
        info = pyspiel.GameInfo(
            num_distinct_actions=g.num_distinct_actions(),
            max_chance_outcomes=g.max_chance_outcomes(), num_players=g.num_players(),
            min_utility=g.min_utility(), max_utility=g.max_utility(),
            utility_sum=None, max_game_length=g.max_game_length())
        super().__init__(game_type, info, params or {})

    def new_initial_state(self):
        return EaselOpenSpielState(self)

    def state_of(self, easel_state) -> EaselOpenSpielState:
        """An OpenSpiel state at the same position as `easel_state` (a clone:
        OpenSpiel's search never changes the caller's state)."""
        if easel_state.get_game().spec != self.easel.spec:
            raise ValueError(f"the state is not one of {self.easel.spec}'s")
        return EaselOpenSpielState(self, easel_state.clone())


def openspiel_game(spec: str) -> EaselOpenSpielGame:
    """The pyspiel game for an Easel game string, one per spec and process.
    It is not registered with pyspiel (`pyspiel.register_game`): OpenSpiel's
    registry is a C++ static that would hold Python objects past the
    interpreter's end and crash the exit. OpenSpiel's bots take the game
    object itself."""
    canonical = engine.load_game(spec).spec
    if canonical not in _GAMES:
        _GAMES[canonical] = EaselOpenSpielGame(spec=canonical)
    return _GAMES[canonical]
