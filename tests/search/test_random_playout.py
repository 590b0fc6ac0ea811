"""A game's own random playout (GameC.random_playout) against the search's
generic loop over the rule table: from the same numbers they must make the
same moves, so a search grows the same tree with either, node for node."""
import random

import pytest

from easel import engine
from easel.search._mcts import Tree
from game_variants import all_variants

# Every registered variant whose core plays its own rollouts.
GAMES = [spec for entry, spec in all_variants()
         if entry.has_core and engine.load_game(spec).core.has_random_playout]


def test_games_with_a_playout():
    names = {engine.parse_game_string(spec)[0].name for spec in GAMES}
    assert {"connect_four", "pig"} <= names
    assert len(GAMES) >= 6                  # pig's player counts and options too


@pytest.mark.parametrize("form", ["is", "closed", "pimc"])
@pytest.mark.parametrize("name", GAMES)
def test_same_tree_with_and_without_the_game_playout(name, form):
    game = engine.load_game(name)
    state = game.new_initial_state()
    trees = []
    for native in (True, False):
        t = Tree(state, form=form, seed=11, world_seed=5, native_playout=native)
        t.run(3000)
        trees.append(t.export())
    (nodes_a, ext_a), (nodes_b, ext_b) = trees
    assert len(nodes_a) > 100
    assert nodes_a.tobytes() == nodes_b.tobytes()
    assert ext_a.tobytes() == ext_b.tobytes()


@pytest.mark.parametrize("name", GAMES)
def test_same_tree_from_positions_inside_a_game(name):
    # pig: points banked, a turn total at stake, near the horizon;
    # connect_four: full columns, threats on the board
    game = engine.load_game(name)
    rng = random.Random(3)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal() and checked < 6:
        if state.is_chance_node():
            state.apply_action(engine.draw_outcome(state, rng))
            continue
        if rng.random() < 0.2:
            runs = [Tree(state, seed=checked, native_playout=native) for native in (True, False)]
            for t in runs:
                t.run(500)
            assert runs[0].export()[0].tobytes() == runs[1].export()[0].tobytes()
            checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 0
