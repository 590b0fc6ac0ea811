"""Pig, as OpenSpiel plays it (2 players, six-sided die, first to 100):
a small game with chance nodes, for validating and comparing the search."""
from easel.engine.kit import Capabilities, GameEntry, GameFacts, GameHooks, Option, in_range
from easel.engine.registry import register


def facts(params) -> GameFacts:
    return GameFacts(num_players=params["players"], num_distinct_actions=2,
                     max_chance_outcomes=2 if params["piglet"] else params["diceoutcomes"],
                     max_game_length=params["horizon"], min_utility=-1.0, max_utility=1.0,
                     score_scale=params["winscore"] / 2.0)



ENTRY = register(GameEntry(
    name="pig", long_name="Pig",
    description="Dice game: roll to build a turn total or stop to bank it; a 1 loses the "
                "turn. First to the win score wins. A reference game with chance nodes.",
    min_players=2, max_players=10,
    options={
        "players": Option(int, 2, "number of players", in_range(2, 10)),
        "horizon": Option(int, 1000, "decisions after which the game ends undecided",
                          in_range(1, 100000)),
        "winscore": Option(int, 100, "score that wins", in_range(1, 100000)),
        "diceoutcomes": Option(int, 6, "faces of the die", in_range(2, 64)),
        "piglet": Option(bool, False, "piglet variant: a roll is 1 or not 1, worth 1"),
    },
    facts=facts,
    capabilities=Capabilities(scores=True, heuristic_bot=True),
    hooks=GameHooks(reference="easel.engine.pig.reference:PigState",
                    codec="easel.engine.pig.codec", core="easel.engine.pig.core",
                    policies="easel.engine.pig.policies")))
