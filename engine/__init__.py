"""Easel's rules engine: game cores (Cython) and references (Python).

    >>> from easel import engine
    >>> game = engine.load_game("connect_four")
    >>> state = game.new_initial_state()
    >>> state.apply_action(3)
"""
import easel as _easel

_easel.refuse_other_name(__name__)       # first: `import engine` would load a second copy

from .chance import draw_outcome, play_chance
from .contract_ids import PLAYER_CHANCE, PLAYER_TERMINAL
from .errors import (DataFileError, EaselError, GameSpecError, IllegalActionError,
                     StateFormatError, UnreachablePositionError, UserFileError)
from .kit import GameEntry, Option
from .registry import game_entry, load_game, parse_game_string, registered_games

# Registering the games (their cores load lazily, on first use).
from . import connect_four, couleurs_de_paris, pig, starving_artists, vangogh  # noqa: E402,F401

__all__ = [
    "load_game", "registered_games", "game_entry", "parse_game_string", "GameEntry", "Option",
    "EaselError", "GameSpecError", "IllegalActionError", "StateFormatError", "DataFileError",
    "UserFileError", "UnreachablePositionError",
    "PLAYER_CHANCE", "PLAYER_TERMINAL", "draw_outcome", "play_chance",
]
