"""Van Gogh invariants over random games, all player counts and solo, on every
available implementation: Minigoghs conserved (bag + table + palettes +
paintings + characters + whites + score tokens = the box), scores never
decrease, chance probabilities sum to 1, legal actions sorted and in range,
every game ends within max_game_length decisions, the JSON view reloads
equal, and every action's text parses back to it."""
from __future__ import annotations

import random

import pytest

from easel.engine.vangogh.rules import BOX_PER_COLOUR, BOX_WHITES, COLOURS

from vg_helpers import IMPLS, load

SPECS = ["vangogh(players=1)", "vangogh(players=1,colors=green)", "vangogh(players=2)",
         "vangogh(players=2,colors=purple-green,roll=5-2-2-1)",
         "vangogh(players=3,colors=pink-blue-purple)", "vangogh(players=4)",
         "vangogh(players=5,start=3)"]
GAMES = 6


def box(view):
    counts = {c: 1 for c in COLOURS}
    counts["white"] = 0
    for c in COLOURS:
        counts[c] += view["bag"][c] + view["pending"]["hand"][c] + view["pending"]["roll_queue"][c]
    if view["pending"]["blue_colour"]:
        counts[view["pending"]["blue_colour"]] += 1
    counts["white"] += view["whites"]
    pieces = list(view["table"])
    for pal in view["palettes"]:
        pieces += pal["active"] + [x for x in pal["inactive"] if x]
    for ch in view["characters"]:
        pieces += ch["waiting"]
    for pv in view["paintings"]:
        pieces += [x for x in pv["occupants"] if x]
    for x in pieces:
        counts[x.split("-")[0]] += 1
    return counts


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("spec", SPECS)
def test_random_games_keep_the_invariants(impl, spec):
    game = load(spec, impl)
    expected = {c: BOX_PER_COLOUR for c in COLOURS}
    expected["white"] = BOX_WHITES
    n = game.num_players()
    for seed in range(GAMES):
        rng = random.Random(f"{spec}/{seed}")
        s = game.new_initial_state()
        last = [0] * n
        steps = 0
        while not s.is_terminal():
            view = s.to_json()
            assert box(view) == expected, f"seed {seed} step {steps}: Minigoghs not conserved"
            assert all(a >= b for a, b in zip(view["scores"], last)), "a score went down"
            last = view["scores"]
            if s.is_chance_node():
                out = s.chance_outcomes()
                assert abs(sum(p for _, p in out) - 1) < 1e-9
                assert all(0 <= a < game.max_chance_outcomes() and p > 0 for a, p in out)
                a = rng.choices([a for a, _ in out], [p for _, p in out])[0]
            else:
                legal = s.legal_actions()
                assert legal and legal == sorted(set(legal))
                assert all(0 <= a < game.num_distinct_actions() for a in legal)
                a = rng.choice(legal)
                if steps % 7 == 0:
                    assert s.string_to_action(s.action_to_string(a)) == a
            if steps % 25 == 0:
                assert game.state_from_json(view).to_json() == view
            s.apply_action(a)
            steps += 1
            assert s.decisions_taken() <= game.max_game_length()
        r = s.returns()
        assert len(r) == n and all(-1 <= x <= 1 for x in r)
        if n > 1:
            assert abs(sum(r)) < 1e-9          # rank utilities are zero-sum
