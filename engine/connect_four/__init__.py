"""Connect Four, 6x7, as OpenSpiel plays it: a reference game for the search."""
from easel.engine.game import ReferenceGame, build_core_game
from easel.engine.registry import GameEntry, register

from . import codec

FACTS = dict(num_players=2, num_distinct_actions=7, max_chance_outcomes=0,
             max_game_length=42, min_utility=-1.0, max_utility=1.0)


def _core(params):
    from . import core
    return build_core_game(ENTRY, params, codec, core)


def _reference(params):
    from .reference import ConnectFourState
    return ReferenceGame(ENTRY, params, codec, FACTS, ConnectFourState)


ENTRY = GameEntry(
    name="connect_four", long_name="Connect Four",
    description="Two players drop stones into a 6x7 grid; four in a row wins. "
                "A reference game for validating and comparing the search.",
    min_players=2, max_players=2, options={}, players_option=None,
    core=_core, reference=_reference)
register(ENTRY)
