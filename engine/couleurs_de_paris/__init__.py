"""Couleurs de Paris (2-4 players): place assistants on the two boards, act
with them to gather and mix pigments, improve the paint tube, palette and
brush, take paintings and paint them; the upper board turns each round.
The reference (`reference.py`) is the executable spec; ENCODING.md fixes the
action space, RULINGS.md the readings of the rulebook."""
from easel.engine.kit import (Capabilities, GameEntry, GameFacts, GameHooks, Option, built_by,
                              in_range)
from easel.engine.registry import register


def facts(params) -> GameFacts:
    from .rules import NUM_ACTIONS, make_rules, max_game_length
    r = make_rules(params)
    # score_scale: a typical spread of final scores (the search divides score
    # margins by it); games between the rollout policy's players end 20-45.
    return GameFacts(num_players=r.n, num_distinct_actions=NUM_ACTIONS,
                     max_chance_outcomes=len(r.data.paintings),
                     max_game_length=max_game_length(r), min_utility=-1.0, max_utility=1.0,
                     score_scale=20.0)


def _check(params):
    from .rules import make_rules
    return built_by("couleurs_de_paris", make_rules, "data")(params)


ENTRY = register(GameEntry(
    name="couleurs_de_paris", long_name="Couleurs de Paris",
    description="Couleurs de Paris (2-4 players), the base game: place assistants on the "
                "rotating action board, gather and mix pigments, improve tools, take and "
                "paint paintings. The advanced rules (bonus cards) and the painter tiles are "
                "LEFT OUT (their contents are unknown). The board, tool tracks, supply and "
                "32 paintings are PLACEHOLDER data; replace them with the data option.",
    min_players=2, max_players=4,
    options={
        "players": Option(int, 2, "number of players", in_range(2, 4)),
        "first": Option(int, 0, "seat of the first player (holder of the 1st Player token)",
                        in_range(0, 3)),
        "maxrounds": Option(int, 40, "the game also ends after this many rounds (bounds the "
                                     "game length; RULINGS.md §28)", in_range(1, 200)),
        "data": Option(str, "", "path of a board and paintings JSON file (default: the "
                                "shipped placeholder data)", data_file=True),
    },
    facts=facts,
    capabilities=Capabilities(structured_states=True, notation=True, scores=True,
                              rollout_policy=True, heuristic_bot=True),
    placeholder_data=("wheel order, lower-board spaces and Forbidden Action tiles",
                      "tool tracks", "pigment supply",
                      "32 paintings (data/placeholder.json)"),
    left_out=("advanced rules (bonus cards): their contents are unknown (RULINGS.md §26)",
              "painter tiles: their powers are unknown (RULINGS.md §26)"),
    check=_check,
    # search_defaults: the runs that chose them are in docs/strength.md
    # ("How the search defaults were measured").
    hooks=GameHooks(reference="easel.engine.couleurs_de_paris.reference:CouleursState",
                    codec="easel.engine.couleurs_de_paris.codec",
                    core="easel.engine.couleurs_de_paris.core",
                    notation="easel.engine.couleurs_de_paris.notation",
                    policies="easel.engine.couleurs_de_paris.policies",
                    search_defaults={"form": "is", "margin_weight": 0.5, "rollout_depth": -1,
                                     "rollout": "policy"})))


def from_json(game, view):
    """A state of `game` built from its JSON view (see view.py)."""
    return game.state_from_json(view)
