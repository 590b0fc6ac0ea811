"""Starving Artists (2-4 players, and solo): work for paint cubes, buy
canvases from the market, paint them cube by cube, sell the finished
paintings at the end of the day for food, paint from the payday pile and
stars. The reference (`reference.py`) is the executable spec; ENCODING.md
fixes the action space, RULINGS.md the readings of the rulebook."""
from easel.engine.kit import (Capabilities, GameEntry, GameFacts, GameHooks, Option, built_by,
                              in_range)
from easel.engine.registry import register


def facts(params) -> GameFacts:
    from .rules import NUM_ACTIONS, make_rules, max_game_length
    r = make_rules(params)
    # score_scale: stars; a typical spread of final stars between players.
    # loss_span: a solo loss returns -1 + half the progress (RULINGS.md §36).
    return GameFacts(num_players=r.n, num_distinct_actions=NUM_ACTIONS,
                     max_chance_outcomes=max(8, r.n_cards),
                     max_game_length=max_game_length(r), min_utility=-1.0, max_utility=1.0,
                     score_scale=10.0, loss_span=0.5 if r.n == 1 else 0.0)




def _check(params):
    from .rules import make_rules
    return built_by("starving_artists", make_rules, "deck")(params)


ENTRY = register(GameEntry(
    name="starving_artists", long_name="Starving Artists",
    description="Starving Artists (2-4 players, or solo with players=1): work for paint "
                "cubes, buy canvases from the market at 3/2/1, paint them, sell finished "
                "paintings at the end of the day for food, paint and stars; starve and the "
                "game ends a day later, become famous and it ends. Optional rules Colour "
                "Study and Last Supper are options; player-to-player trades are not "
                "supported (an open offer to the table needs a negotiation model no bot "
                "has). Canvas values are transcribed from a public fan implementation and "
                "approximate (see the deck option).",
    min_players=1, max_players=4,
    options={
        "players": Option(int, 2, "number of players; 1 plays the solo variant", in_range(1, 4)),
        "start": Option(int, 0, "seat of the first player (the carrot)", in_range(0, 3)),
        "deck": Option(str, "38", "the canvas deck: 38 (the rule's 38 canvases of the shipped "
                                  "file, RULINGS.md §3), all (its 148 canvases), or the path "
                                  "of a canvas JSON file", data_file=True),
        "famestars": Option(int, 0, "stars that end the game (0: by player count, 20/18/15; "
                                    "solo 20)", in_range(0, 200)),
        "famepaintings": Option(int, 0, "paintings that end the game (0: by player count, "
                                        "10/9/7; solo 10)", in_range(0, 150)),
        "colourstudy": Option(bool, False, "optional rule Colour Study: the free action may "
                                           "turn 4 cubes of one colour into 1 from the bag"),
        "lastsupper": Option(bool, False, "optional rule Last Supper: at nutrition 1, "
                                          "discard a sold painting to eat its stars"),
        "setaside": Option(int, 15, "solo: canvases set aside unseen", in_range(0, 150)),
    },
    facts=facts,
    capabilities=Capabilities(structured_states=True, notation=True, scores=True,
                              rollout_policy=True, heuristic_bot=True),
    placeholder_data=("canvas values (data/canvases.json: transcribed from a fan "
                      "implementation; some differ from card scans)",
                      "the 38-canvas deck (chosen from the 148 by a documented rule, not "
                      "the printed deck list)"),
    left_out=("player-to-player trades (optional rule): an open offer to the table needs a "
              "negotiation model no bot has (RULINGS.md §31)",),
    check=_check,
    # search_defaults: the arena runs that chose them are in docs/strength.md ("Starving Artists");
    # loss_weight and loss_power (read only by solo games: a near miss counts nearly as a win)
    # in docs/starving-artists-solo.md ("Near misses").
    hooks=GameHooks(reference="easel.engine.starving_artists.reference:StarvingArtistsState",
                    codec="easel.engine.starving_artists.codec",
                    core="easel.engine.starving_artists.core",
                    notation="easel.engine.starving_artists.notation",
                    policies="easel.engine.starving_artists.policies",
                    search_defaults={"form": "is", "margin_weight": 0.0, "rollout_depth": 100,
                                     "rollout": "policy", "uct_c": 0.35, "policy_bias": 1.0,
                                     "loss_weight": 1.9, "loss_power": 8.0})))
