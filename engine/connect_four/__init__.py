"""Connect Four, 6x7, as OpenSpiel plays it: a reference game for the search.

The smallest complete game in Easel, and the worked example of
docs/adding-a-game.md."""
from easel.engine.kit import Capabilities, GameEntry, GameFacts, GameHooks
from easel.engine.registry import register


def facts(params) -> GameFacts:
    return GameFacts(num_players=2, num_distinct_actions=7, max_chance_outcomes=0,
                     max_game_length=42, min_utility=-1.0, max_utility=1.0)


ENTRY = register(GameEntry(
    name="connect_four", long_name="Connect Four",
    description="Two players drop stones into a 6x7 grid; four in a row wins. "
                "A reference game for validating and comparing the search.",
    min_players=2, max_players=2, options={}, players_option=None,
    facts=facts,
    capabilities=Capabilities(heuristic_bot=True),
    hooks=GameHooks(reference="easel.engine.connect_four.reference:ConnectFourState",
                    codec="easel.engine.connect_four.codec",
                    core="easel.engine.connect_four.core",
                    policies="easel.engine.connect_four.policies")))
