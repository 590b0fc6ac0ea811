"""The Game object: immutable facts about one game instance (OpenSpiel's
`Game` role), shared by the Cython core and the plain-Python reference.
Games are made by `engine.build.build` (through `engine.load_game`)."""
from __future__ import annotations

from dataclasses import fields

from . import textio
from .errors import StateFormatError
from .kit import GameEntry, GameFacts, load_hook


class Game:
    """A loaded game. Made by `engine.load_game`, never directly.

    Each fact of `kit.GameFacts` is a method of the same name (OpenSpiel's
    names: `num_players()`, `max_game_length()`, ...), made from the
    dataclass's fields below the class."""

    implementation = "?"

    def __init__(self, entry: GameEntry, params: dict, codec, facts: GameFacts):
        self.entry = entry
        self.name = entry.name
        self.params = dict(params)
        self.spec = entry.canonical_string(params)
        self.codec = codec
        self._facts = facts

    def facts(self) -> GameFacts:
        return self._facts

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


def _fact(name: str):
    def fact(self):
        return getattr(self._facts, name)
    fact.__name__ = fact.__qualname__ = name
    fact.__doc__ = f"The game's {name} (kit.GameFacts.{name})."
    return fact


for _field in fields(GameFacts):
    if hasattr(Game, _field.name):      # a fact must not hide what a Game has (spec, facts, ...)
        raise TypeError(f"kit.GameFacts.{_field.name} clashes with Game.{_field.name}")
    setattr(Game, _field.name, _fact(_field.name))
del _field


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
