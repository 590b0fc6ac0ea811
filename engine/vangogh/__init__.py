"""Van Gogh (2-5 players, and solo): roll Minigoghs, talk to characters, paint
them onto paintings in the orientation each space requires, win majorities.
The reference (`reference.py`) is the executable spec; ENCODING.md fixes the
action space, RULINGS.md the readings of the rulebook."""
from easel.engine.kit import (Capabilities, GameEntry, GameFacts, GameHooks, Option, built_by,
                              in_range)
from easel.engine.registry import register


def facts(params) -> GameFacts:
    from .rules import NUM_ACTIONS, make_rules, max_game_length
    r = make_rules(params)
    # score_scale: a typical spread of final scores, which divides score
    # margins in the search's utility. loss_span: a solo loss returns the
    # score / 100 - 1 (R13; play.pyx, solo_utility).
    return GameFacts(num_players=r.n, num_distinct_actions=NUM_ACTIONS,
                     max_chance_outcomes=max(20, len(r.deck.cards)),
                     max_game_length=max_game_length(r), min_utility=-1.0, max_utility=1.0,
                     score_scale=30.0, loss_span=1.0 if r.n == 1 else 0.0)




def _check(params):
    from .rules import make_rules
    return built_by("vangogh", make_rules, "deck")(params)


ENTRY = register(GameEntry(
    name="vangogh", long_name="Van Gogh",
    description="Van Gogh (2-5 players, or solo with players=1): choose characters, roll "
                "Minigoghs and paint them onto paintings in the required orientations; "
                "majorities score when a painting is finished. The painting deck is "
                "PLACEHOLDER data (the real cards are unknown); replace it with the deck "
                "option.",
    min_players=1, max_players=5,
    options={
        "players": Option(int, 2, "number of players; 1 plays the solo game", in_range(1, 5)),
        "colors": Option(str, "", "player colours in seat order, separated by '-' "
                                  "(yellow, blue, pink, green, purple); default: the first n "
                                  "in that order (solo: yellow)"),
        "start": Option(int, 0, "seat of the starting player", in_range(0, 4)),
        "roll": Option(str, "1-1-1-1", "roll weights lying down-sideway-upright-upside down"),
        "purpleactive": Option(bool, True, "purple's inactive Minigoghs score as active at the "
                                           "end (RULINGS.md R5)"),
        "maxrounds": Option(int, 30, "the game also ends after this many rounds (bounds the "
                                     "game length)", in_range(1, 200)),
        "deck": Option(str, "", "path of a painting-deck JSON file (default: the shipped "
                                "placeholder deck)", data_file=True),
    },
    facts=facts,
    capabilities=Capabilities(structured_states=True, notation=True, scores=True,
                              rollout_policy=True, heuristic_bot=True),
    placeholder_data=("painting deck (data/paintings-placeholder.json)",
                      "orientations printed on the palettes' inactive spaces"),
    check=_check,
    # search_defaults: the arena runs that chose them are in docs/strength.md ("Van Gogh").
    hooks=GameHooks(reference="easel.engine.vangogh.reference:VanGoghState",
                    codec="easel.engine.vangogh.codec", core="easel.engine.vangogh.core",
                    policies="easel.engine.vangogh.policies",
                    notation="easel.engine.vangogh.notation",
                    search_defaults={"form": "is", "margin_weight": 0.5, "rollout_depth": -1,
                                     "rollout": "policy"})))

