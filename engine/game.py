"""The Game object: immutable facts about one game instance (OpenSpiel's
`Game` role), shared by the Cython core and the plain-Python reference."""
from __future__ import annotations

import importlib

from . import textio
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

    def facts(self) -> dict:
        return dict(self._facts)

    def deserialize_state(self, text: str):
        return textio.deserialize(self, text)

    def new_initial_state(self):
        raise NotImplementedError

    def _load_json(self, view):
        raise NotImplementedError(f"{self.name}: no JSON loader")

    def state_from_json(self, view):
        """A state from its JSON view (games with structured states), checked
        by the game's validating loader (StateFormatError names the field).
        The view may carry "move_number"; the state remembers the position as
        its origin (textio.mark_loaded), so serialize() round-trips it."""
        view, move = textio.split_move_number(view)
        state = self._load_json(view)
        textio.mark_loaded(state, view, move)
        return state

    def notation_module(self):
        """The game's table-notation module (write/read), or NotImplementedError
        naming the game when it has none."""
        path = self.entry.extra.get("notation")
        if not path:
            raise NotImplementedError(
                f"{self.name} has no table notation; describe its positions as a game record "
                f"(serialize) or, if it has one, its JSON form")
        return importlib.import_module(path)

    def state_from_notation(self, text: str):
        """A state from the game's table notation: read into the JSON view,
        then loaded by the one validating JSON loader (StateFormatError names
        what is wrong)."""
        view = self.notation_module().read(self, text)
        return self.state_from_json(view)

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
        loader = getattr(self.core.hooks, "state_from_json", None)
        if loader is None:
            raise NotImplementedError(f"{self.name}: no JSON loader")
        return loader(self, view)


class ReferenceGame(Game):
    """A game played by its plain-Python reference implementation."""

    implementation = "reference"

    def __init__(self, entry, params, codec, facts, state_class):
        super().__init__(entry, params, codec, facts)
        self.state_class = state_class

    def new_initial_state(self):
        return self.state_class(self)

    def _load_json(self, view):
        loader = getattr(self.state_class, "from_json", None)
        if loader is None:
            raise NotImplementedError(f"{self.name}: no JSON loader")
        return loader(self, view)


def build_core_game(entry, params, codec, core_module):
    """Make a core-backed Game: the module's `make_core(params)` fills a CoreGame."""
    core = core_module.make_core(params)
    game = CoreGameWrapper(entry, params, codec, core)
    core.finish_setup(game, core_module)
    return game
