"""Van Gogh core: scores(), evaluate() (against the reference's), the JSON
loader (round trips, identical errors) and the state struct's shape."""
from __future__ import annotations

import copy
import random

import pytest

from easel import engine
from easel.engine import StateFormatError
from easel.engine.vangogh import core as vg_core

from vg_helpers import twins

SPECS = ["vangogh(players=1)", "vangogh", "vangogh(players=3)", "vangogh(players=4)",
         "vangogh(players=5)", "vangogh(players=2,colors=purple-green)",
         "vangogh(players=1,colors=pink)"]


@pytest.mark.parametrize("spec", SPECS)
def test_scores_match_json(spec):
    game = engine.load_game(spec)
    assert game.score_scale() > 0 and game.core.facts().score_scale == game.score_scale()
    ended = 0
    for c, _ in twins(spec, 3, seed=1):
        view = c.to_json()
        assert c.scores() == [float(x) for x in view["scores"]]
        ended += c.is_terminal()
    assert ended == 3


@pytest.mark.parametrize("spec", SPECS)
def test_evaluate_agrees_and_is_bounded(spec):
    game = engine.load_game(spec)
    lo, hi = game.min_utility(), game.max_utility()
    seen = set()
    for c, r in twins(spec, 3, seed=2):
        ec, er = c.evaluate(), r.evaluate()
        assert ec is not None and len(ec) == game.num_players()
        assert ec == pytest.approx(er, rel=0, abs=1e-12), (c.to_json()["phase"], ec, er)
        assert all(lo <= x <= hi for x in ec), ec
        if c.is_terminal():
            assert ec == c.returns()
        seen.update(round(x, 6) for x in ec)
    assert len(seen) > 10            # it moves with the position


def test_evaluate_follows_the_score():
    """More EP, all else equal, gives a better estimate (and a worse one to the rest)."""
    for spec in ("vangogh(players=3)", "vangogh(players=1)"):
        for impl in ("core", "reference"):
            s = engine.load_game(spec, implementation=impl).new_initial_state()
            rng = random.Random(4)
            while s.is_chance_node() or s.to_json()["round"] < 2:
                if s.is_chance_node():
                    s.apply_action(engine.draw_outcome(s, rng))
                else:
                    s.apply_action(rng.choice(s.legal_actions()))
                if s.is_terminal():
                    pytest.fail("game ended before round 2")
            view = s.to_json()
            before = s.evaluate()
            view["scores"][0] += 15
            after = s.get_game().state_from_json(view).evaluate()
            assert after[0] > before[0], (spec, impl)
            for q in range(1, len(after)):
                assert after[q] < before[q], (spec, impl)


@pytest.mark.parametrize("spec", SPECS)
def test_from_json_round_trip(spec):
    rng = random.Random(3)
    checked = 0
    for c, r in twins(spec, 2, seed=3):
        if rng.random() > 0.2 and not c.is_terminal():
            continue
        core_game, ref_game = c.get_game(), r.get_game()
        view = c.to_json()
        back = core_game.state_from_json(view)
        assert back == c                                   # the same bytes, derived counts too
        assert back.raw() == c.raw()
        assert back.to_json() == view
        assert core_game.state_from_json(view) == c        # the Game-object entry point
        ref_back = ref_game.state_from_json(view)
        assert ref_back.to_json() == view == r.to_json()
        assert back.legal_actions() == ref_back.legal_actions() == c.legal_actions()
        assert back.chance_outcomes() == ref_back.chance_outcomes()
        assert back.evaluate() == pytest.approx(ref_back.evaluate(), rel=0, abs=1e-12)
        checked += 1
    assert checked > 20


def _mutations():
    """Bad views: (name, change)."""
    def drop(key):
        return lambda v: v.pop(key)

    def setter(path, value):
        def f(v):
            d = v
            for k in path[:-1]:
                d = d[k]
            d[path[-1]] = value
        return f
    return [
        ("missing phase", drop("phase")),
        ("unknown field", setter(["extra"], 1)),
        ("bad phase", setter(["phase"], "lunch")),
        ("players", setter(["players"], 6)),
        ("round type", setter(["round"], "1")),
        ("bag count", lambda v: v["bag"].__setitem__("blue", v["bag"]["blue"] + 1)),
        ("piece name", lambda v: v["palettes"][0]["active"].append("red-upright")),
        ("white on table", lambda v: v["table"].__setitem__(0, "white-upright")),
        ("deck twice", lambda v: v["deck"].append(v["deck"][0])),
        ("pending key", lambda v: v["pending"].pop("steps_left")),
        ("act_char", setter(["pending", "act_char"], "Theo")),
        ("scores", setter(["scores"], [])),
        ("not a dict", lambda v: v.clear()),
    ]


@pytest.mark.parametrize("spec", ["vangogh", "vangogh(players=4)", "vangogh(players=1)"])
def test_bad_json_same_error(spec):
    core_game = engine.load_game(spec, implementation="core")
    ref_game = engine.load_game(spec, implementation="reference")
    c = engine.play_chance(core_game.new_initial_state(), random.Random(5))
    base = c.to_json()
    for name, change in _mutations():
        view = copy.deepcopy(base)
        change(view)
        with pytest.raises(StateFormatError, match="vangogh state") as ref_err:
            ref_game.state_from_json(copy.deepcopy(view))
        with pytest.raises(StateFormatError) as core_err:
            core_game.state_from_json(copy.deepcopy(view))
        assert str(core_err.value) == str(ref_err.value), name


def test_state_struct_shape():
    game = engine.load_game("vangogh(players=5)")
    s = game.new_initial_state()
    assert len(s.raw()) == vg_core.state_size() <= 320
    # one struct size for every player count: arrays are sized for 5
    assert len(engine.load_game("vangogh(players=1)").new_initial_state().raw()) == len(s.raw())
    assert game.implementation == "core"
    assert engine.load_game("vangogh").implementation == "core"      # the default
