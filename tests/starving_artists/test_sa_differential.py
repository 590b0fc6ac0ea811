"""Starving Artists: core against reference along games that sell.

The shared differential suite (tests/test_differential.py) plays uniformly
random games, in which players mostly starve before completing a canvas.
Here the moves come from the invariant test's progress-leaning player, so
sales, feeding, collection turns, Last Supper, colour study, the solo
market advance and fame are compared step by step too: the player to move,
the legal actions, the chance outcomes and probabilities, the JSON view and
the move texts, and the returns at the end. EASEL_SA_DIFF_GAMES per variant
(default 60; 2,000 with EASEL_FULL=1)."""
from __future__ import annotations

import os
import random

import pytest

from easel import engine

from sa_helpers import IMPLS
from test_sa_random import SPECS, progress_choice

GAMES = int(os.environ.get("EASEL_SA_DIFF_GAMES",
                           "2000" if os.environ.get("EASEL_FULL") == "1" else "60"))

pytestmark = pytest.mark.skipif("core" not in IMPLS, reason="the core is not built")


@pytest.mark.parametrize("spec", SPECS + ["starving_artists(players=4,deck=all,start=3)"])
def test_core_matches_reference_in_selling_games(spec):
    cg = engine.load_game(spec, implementation="core")
    rg = engine.load_game(spec, implementation="reference")
    rng = random.Random(len(spec))
    sales = 0
    for g in range(GAMES):
        c, r = cg.new_initial_state(), rg.new_initial_state()
        step = 0
        while True:
            where = f"{spec} game {g} step {step}"
            assert c.current_player() == r.current_player(), where
            assert c.legal_actions() == r.legal_actions(), where
            co, ro = c.chance_outcomes(), r.chance_outcomes()
            assert [a for a, _ in co] == [a for a, _ in ro], where
            assert all(abs(x - y) <= 1e-12 for (_, x), (_, y) in zip(co, ro)), where
            assert c.to_json() == r.to_json(), where
            if r.is_terminal():
                break
            if ro:
                a = engine.draw_outcome(r, rng)
            else:
                a = progress_choice(r, rng)
                assert c.action_to_string(a) == r.action_to_string(a), where
                sales += r.action_to_string(a).startswith("sell ") and "nothing" not in \
                    r.action_to_string(a)
            c.apply_action(a)
            r.apply_action(a)
            step += 1
        assert c.returns() == r.returns(), where
        assert c.scores() == r.scores(), where
    assert sales > 0
