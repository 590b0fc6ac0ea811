"""Strength levels (search/levels.py): every level of every game and player
count loads, plays legal moves and whole games, and is the documented spec."""
from __future__ import annotations

import os
import random
import re

import pytest
from search_helpers import position

from easel import engine
from easel.search import MCTSBot, levels
from easel.search.errors import BotSpecError
from easel.search.specs import make_bot, parse_spec

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _game_strings():
    """Every game at every player count it takes (pig: 2 to 5 of its 10)."""
    out = []
    for entry in engine.registered_games():
        if "players" not in entry.options:
            out.append(entry.name)
            continue
        for n in range(entry.min_players, min(entry.max_players, 5) + 1):
            out.append(f"{entry.name}(players={n})")
    return out


GAMES = _game_strings()


# -- levels ------------------------------------------------------------------------------

def test_level_specs_parse_and_print():
    assert parse_spec("level(4)").args == {"n": 4}
    assert parse_spec("level(n=4)").text == "level(4)"
    assert parse_spec("level( 7 , seed=3)").text == "level(7,seed=3)"
    for bad, says in [("level(0)", "n must be an integer from 1 to 10, got 0"),
                      ("level(11)", "n must be an integer from 1 to 10, got 11"),
                      ("level(x)", "n='x' must be an int"),
                      ("level(4,5)", "expected key=value, got '5'"),
                      ("level(4,n=5)", "key 'n' given twice"),
                      ("level(4,iterations=5)", "level has no option 'iterations'")]:
        with pytest.raises(BotSpecError, match=re.escape(says)):
            parse_spec(bad)
    with pytest.raises(BotSpecError, match=re.escape("give the level, 1 to 10: level(4)")):
        make_bot("level", engine.load_game("connect_four"))


@pytest.mark.parametrize("name", GAMES)
def test_every_level_loads_for_every_game_and_player_count(name):
    game = engine.load_game(name)
    specs = levels.describe(game)
    assert len(specs) == 10
    budgets = []
    for n in range(1, 11):
        bot = make_bot(f"level({n})", game, seed=n)
        assert isinstance(bot, MCTSBot) and bot.spec == f"level({n},seed={n})"
        args = levels.level_args(game, n)
        assert specs[n - 1] == levels.mcts_text(args)
        assert bot.iterations == args["iterations"] and bot.time_limit is None
        assert bot.temperature == args.get("temperature", 0.0)
        assert bot.options == make_bot(specs[n - 1], game).options   # the game's own search
        budgets.append((bot.iterations, -bot.temperature))
    # Each level gives more of something: reads more or misjudges less (a
    # level that read no more and misjudged no less could not be stronger;
    # Starving Artists trades budget for temperature between levels 5 and 6).
    for n, ((it0, t0), (it1, t1)) in enumerate(zip(budgets, budgets[1:]), start=1):
        assert it1 > it0 or t1 > t0, f"level {n + 1} gives nothing level {n} lacks"
    assert len(set(budgets)) == 10


def test_a_player_count_with_its_own_table_gets_it_and_the_others_the_games():
    # Solo Starving Artists keeps 10,000 iterations as level 9, where budget
    # keeps paying; with 2-4 players level 9 is 1,000 (docs/strength.md).
    solo, two, four = (engine.load_game(f"starving_artists(players={n})") for n in (1, 2, 4))
    assert levels.level_args(solo, 9) == {"iterations": 10_000}
    assert levels.level_args(two, 9) == levels.level_args(four, 9) == {"iterations": 1000}
    assert levels.table(two) is levels.TABLES["starving_artists"]
    assert levels.table(solo) is levels.TABLES[("starving_artists", 1)]
    # Solo's level 10 fills its 2 s (77,000 iterations), where budget pays;
    # with 2-4 players 45,000, as larger budgets stopped paying there.
    assert levels.level_args(solo, 10) == {"iterations": 77_000}
    assert levels.level_args(two, 10) == levels.level_args(four, 10) == {"iterations": 45_000}


def _play(game, specs, seed):
    """A whole game between the specs (seat i plays specs[i]): every move
    checked legal. Returns the final state."""
    rng = random.Random(seed)
    bots = [make_bot(s, game, seed=seed + i) for i, s in enumerate(specs)]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(engine.draw_outcome(state, rng))
            continue
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    return state


@pytest.mark.parametrize("name", GAMES)
def test_the_low_levels_play_legal_games_of_every_game(name):
    game = engine.load_game(name)
    n = game.num_players()
    assert _play(game, [f"level({1 + i % 3})" for i in range(n)], seed=11).is_terminal()


@pytest.mark.parametrize("name", ["vangogh(players=2)", "couleurs_de_paris(players=2)",
                                  "starving_artists(players=2)", "starving_artists(players=1)",
                                  "vangogh(players=1)", "connect_four", "pig"])
def test_every_level_makes_a_legal_move(name):
    # Each level's spec searches and moves; the whole games the high levels
    # play are the calibration's (docs/strength.md), too long for a test.
    game = engine.load_game(name)
    state = position(game, 5, 3)
    for n in range(1, 11):
        assert make_bot(f"level({n})", game, seed=n).step(state) in state.legal_actions()


def test_a_game_without_a_table_is_refused_by_name():
    game = engine.load_game("connect_four")
    saved = levels.TABLES.pop("connect_four")
    try:
        with pytest.raises(BotSpecError, match="'connect_four' has no level table yet"):
            make_bot("level(3)", game)
    finally:
        levels.TABLES["connect_four"] = saved


def test_docs_strength_md_holds_the_level_specs():
    with open(os.path.join(ROOT, "docs", "strength.md"), encoding="utf-8") as f:
        page = f.read()
    m = re.search(r"<!-- generated: level specs -->\n(.*)<!-- end generated -->", page, re.S)
    assert m, "docs/strength.md lost its generated block"
    assert m.group(1) == levels.markdown(), "docs/strength.md is stale: rerun levels.markdown()"
