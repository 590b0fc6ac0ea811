"""Base class of the plain-Python reference states (the executable spec).

A game's reference subclasses ReferenceState and writes the rules as plainly
as it can: `_current_player`, `_legal_actions`, `_chance_outcomes`, `_apply`,
`_returns`, `to_json` (and optionally `evaluate`). Validation, history,
cloning and text are written once, here."""
from __future__ import annotations

import copy

from . import textio
from .contract_ids import PLAYER_CHANCE, PLAYER_TERMINAL
from .errors import IllegalActionError


class ReferenceState:
    def __init__(self, game):
        self.game = game
        self._history: list[int] = []
        self._decisions = 0
        # The position the history starts from: None for the game's initial
        # state, else the JSON view the state was loaded from (textio.mark_loaded).
        self._origin = None
        self._move_base = 0         # its move number; None when unknown

    # -- to be written by each game ------------------------------------------
    def _current_player(self) -> int:
        raise NotImplementedError

    def _legal_actions(self) -> list[int]:
        raise NotImplementedError

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        raise NotImplementedError

    def _apply(self, action: int) -> None:
        raise NotImplementedError

    def _returns(self) -> list[float]:
        raise NotImplementedError

    def to_json(self) -> dict:
        raise NotImplementedError

    def evaluate(self):
        return None

    def _chance_source(self) -> int:
        """Which of the game's sources of chance the event draws from
        (GameC.chance_source); a game of one source keeps 0."""
        return 0

    # -- the shared face -------------------------------------------------------
    def get_game(self):
        return self.game

    def current_player(self) -> int:
        return self._current_player()

    def is_chance_node(self) -> bool:
        return self._current_player() == PLAYER_CHANCE

    def is_terminal(self) -> bool:
        return self._current_player() == PLAYER_TERMINAL

    def legal_actions(self) -> list[int]:
        if self._current_player() < 0:
            return []
        return sorted(self._legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            return []
        return sorted(self._chance_outcomes())

    def chance_source(self) -> int:
        if not self.is_chance_node():
            raise ValueError("not a chance node")
        return self._chance_source()

    def is_legal(self, action) -> bool:
        if not isinstance(action, int) or isinstance(action, bool):
            return False
        if self.is_chance_node():
            return any(a == action for a, _ in self._chance_outcomes())
        return self._current_player() >= 0 and action in self._legal_actions()

    def apply_action(self, action) -> None:
        if not self.is_legal(action):
            raise IllegalActionError(textio.illegal_message(self, action))
        if self._current_player() >= 0:
            self._decisions += 1
        self._apply(int(action))
        self._history.append(int(action))

    def returns(self) -> list[float]:
        return list(self._returns())

    def history(self) -> list[int]:
        """The actions and chance outcomes applied since the state's origin
        (the initial state, or the position it was loaded from)."""
        return list(self._history)

    def move_number(self):
        """Actions and chance outcomes applied since the game's initial state;
        None when the state was loaded from a position that did not give its
        move number (docs: textio.mark_loaded)."""
        return None if self._move_base is None else self._move_base + len(self._history)

    def loaded_from(self):
        """The JSON view of the position the state was loaded from, or None
        if it was played from the initial state."""
        return self._origin

    def decisions_taken(self) -> int:
        return self._decisions

    def clone(self):
        # The game is shared, and the history (ints) is copied flat: deepcopy
        # would visit each of its entries, making a clone cost O(game length).
        memo = {id(self.game): self.game, id(self._history): list(self._history),
                id(self._origin): self._origin}
        return copy.deepcopy(self, memo)

    def child(self, action):
        s = self.clone()
        s.apply_action(action)
        return s

    def action_to_string(self, action) -> str:
        return textio.action_to_string(self, action)

    def string_to_action(self, text) -> int:
        return textio.string_to_action(self, text)

    def serialize(self) -> str:
        return textio.serialize(self)

    def to_notation(self) -> str:
        """The position in the game's table notation (games that have one)."""
        return self.game.notation_of(self)

    def __str__(self):
        return self.game.codec.state_to_string(self.to_json())

    def __eq__(self, other):
        if not isinstance(other, ReferenceState):
            return NotImplemented
        return other.game.spec == self.game.spec and other.to_json() == self.to_json()

    __hash__ = None
