"""The Game object: immutable facts about one game instance (OpenSpiel's
`Game` role), shared by the Cython core and the plain-Python reference."""
from __future__ import annotations

from . import textio
from .errors import StateFormatError
from .kit import check_core, load_hook
from .registry import GameEntry, canonical_string


class Game:
    """A loaded game. Made by `engine.load_game`, never directly."""

    implementation = "?"

    def __init__(self, entry: GameEntry, params: dict, codec, facts: dict):
        self.entry = entry
        self.name = entry.name
        self.params = dict(params)
        self.spec = canonical_string(entry, params)
        self.codec = codec
        self._facts = dict(facts)

    # facts (OpenSpiel names)
    def num_players(self) -> int:
        return self._facts["num_players"]

    def num_distinct_actions(self) -> int:
        return self._facts["num_distinct_actions"]

    def max_chance_outcomes(self) -> int:
        return self._facts["max_chance_outcomes"]

    def max_game_length(self) -> int:
        return self._facts["max_game_length"]

    def min_utility(self) -> float:
        return self._facts["min_utility"]

    def max_utility(self) -> float:
        return self._facts["max_utility"]

    def score_scale(self) -> float:
        """Typical spread of final scores (0: the game keeps no score)."""
        return self._facts.get("score_scale", 0.0)

    def facts(self) -> dict:
        return dict(self._facts)

    def deserialize_state(self, text: str):
        return textio.deserialize(self, text)

    @property
    def capabilities(self):
        return self.entry.capabilities

    def state_from_json(self, view):
        """A state from its JSON view (games with capabilities.structured_states);
        the game's loader refuses a position play cannot reach, naming the field."""
        if not self.entry.capabilities.structured_states:
            raise StateFormatError(f"{self.name}: positions cannot be loaded from a structured "
                                   f"state; send the game record instead")
        # The view may carry "move_number"; the state remembers the position
        # as its origin (textio.mark_loaded), so serialize() round-trips it.
        view, move = textio.split_move_number(view)
        state = self._load_json(view)
        textio.mark_loaded(state, view, move)
        return state

    def state_from_notation(self, text: str):
        """A state from the game's table notation (games with capabilities.notation)."""
        if not self.entry.capabilities.notation:
            raise StateFormatError(f"{self.name} has no table notation; send a game record"
                                   + (" or a structured state"
                                      if self.entry.capabilities.structured_states else ""))
        if not isinstance(text, str):
            raise StateFormatError(f"{self.name}: a notation must be text, got "
                                   f"{type(text).__name__}")
        view = load_hook(self.entry, "notation").read(self, text)
        return self.state_from_json(view)

    def notation_of(self, state) -> str:
        """`state` in the game's table notation."""
        if not self.entry.capabilities.notation:
            raise StateFormatError(f"{self.name} has no table notation")
        return load_hook(self.entry, "notation").write(self, state.to_json())

    def _load_json(self, view):
        raise NotImplementedError

    def new_initial_state(self):
        raise NotImplementedError

    def __str__(self):
        return self.spec

    def __repr__(self):
        return f"<Game {self.spec} ({self.implementation})>"


class CoreGameWrapper(Game):
    """A game played by its Cython core (`engine._core.CoreGame`)."""

    implementation = "core"

    def __init__(self, entry, params, codec, core):
        super().__init__(entry, params, codec, core.facts())
        self.core = core

    def new_initial_state(self):
        return self.core.new_state()

    def _load_json(self, view):
        return self.core.hooks.state_from_json(self, view)


class ReferenceGame(Game):
    """A game played by its plain-Python reference implementation."""

    implementation = "reference"

    def __init__(self, entry, params, codec, facts, state_class):
        super().__init__(entry, params, codec, facts)
        self.state_class = state_class

    def new_initial_state(self):
        return self.state_class(self)

    def _load_json(self, view):
        return self.state_class.from_json(self, view)


def build_reference_game(entry, params) -> ReferenceGame:
    facts = entry.facts(params).as_dict()
    return ReferenceGame(entry, params, load_hook(entry, "codec"), facts,
                         load_hook(entry, "reference"))


def build_core_game(entry, params) -> CoreGameWrapper:
    """A core-backed Game: the core module's `make_core(params, facts)` fills a
    CoreGame made from the game's facts (`CoreGame.from_facts`)."""
    core_module = load_hook(entry, "core")
    core = core_module.make_core(params, entry.facts(params))
    check_core(entry, core_module, core)
    game = CoreGameWrapper(entry, params, load_hook(entry, "codec"), core)
    core.finish_setup(game, core_module)
    return game
