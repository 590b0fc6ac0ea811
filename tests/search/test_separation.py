"""The default budget's stopping rule (search/separation.py): two leading
candidates told apart by their intervals (with two pseudo playouts at the
ends of the scale) or by a starved runner-up; `UntilApart` stopping at fixed
iteration counts however its calls are cut; the scale of a search's values."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from easel import engine
from easel.search import Search
from easel.search.separation import (FIRST_CHECK, MIN_RATIO_VISITS, RATIO, Z95, checkpoint_after,
                                     interval, told_apart)


def cand(value, visits, sd=0.5):
    """A candidate of `visits` playouts of mean `value`, standard deviation `sd`."""
    ci = Z95 * sd / visits ** 0.5 if visits else 0.0
    return SimpleNamespace(value=value, visits=visits, ci=ci)


def test_a_few_agreeing_playouts_do_not_make_a_narrow_interval():
    # Three wins and three losses: the plain intervals have width 0.
    a, b = cand(1.0, 3, sd=0.0), cand(-1.0, 3, sd=0.0)
    assert a.ci == 0 and b.ci == 0
    low, high = interval(a.value, a.ci, a.visits, -1.0, 1.0)
    assert low < 0.2 and high == 1.0
    assert not told_apart([a, b], (-1.0, 1.0)).apart
    # the same means over many playouts are told apart
    assert told_apart([cand(1.0, 200, 0.0), cand(-1.0, 200, 0.0)], (-1, 1)).apart


def test_the_pseudo_playouts_fade_as_playouts_come():
    plain = Z95 * 0.5 / 100
    low, high = interval(0.3, plain, 10_000, -1.0, 1.0)
    assert (high - low) / 2 == pytest.approx(plain, rel=0.01)
    assert (low + high) / 2 == pytest.approx(0.3, abs=1e-3)


def test_overlapping_intervals_are_not_apart_and_separate_ones_are():
    scale = (-1.0, 1.0)
    assert not told_apart([cand(0.30, 2000), cand(0.28, 1500)], scale).apart
    sep = told_apart([cand(0.30, 2000), cand(0.10, 1500)], scale)
    assert sep.apart and sep.by == "intervals" and sep.leader[0] > sep.runner_up[1]


def test_a_starved_runner_up_is_told_apart_by_visits():
    scale = (-1.0, 1.0)
    leader = cand(-0.125, 199_974, 0.3)
    starved = cand(-0.563, 6, 0.25)           # a Starving Artists position after 200,000
    sep = told_apart([leader, starved], scale)
    assert sep.apart and sep.by == "visits"
    # ... but not while the leader is young, nor when the runner-up's value is higher
    assert not told_apart([cand(-0.1, MIN_RATIO_VISITS - 1), cand(-0.5, 1)], scale).apart
    assert not told_apart([cand(-0.1, 5000), cand(0.2, 5000 // RATIO)], scale).apart


def test_one_candidate_is_apart_and_none_is_not():
    assert told_apart([cand(0.0, 10)], (-1, 1)).apart
    assert not told_apart([], (-1, 1)).apart


def test_checkpoints_grow_by_an_eighth():
    points = [FIRST_CHECK]
    while points[-1] < 1_000_000:
        points.append(checkpoint_after(points[-1]))
    assert points[:3] == [256, 512, 768]
    assert all(b - a == max(256, a // 8) for a, b in zip(points, points[1:]))
    assert len(points) < 80


def _search(spec, steps=(), seed=2, **options):
    game = engine.load_game(spec)
    state = game.new_initial_state()
    for s in steps:
        state.apply_action(state.string_to_action(s) if isinstance(s, str) else s)
    return Search(game, state, seed=seed, **options)


def test_until_apart_stops_at_a_checkpoint_once_apart():
    search = _search("connect_four")
    rule = search.until_apart(50_000)
    assert rule.run()
    n = search.iterations
    assert rule.apart and n < 50_000 and rule.separation.iterations == n
    point = FIRST_CHECK
    while point < n:
        point = checkpoint_after(point)
    assert point == n
    # the same seed stops at the same iteration, whatever the calls' slices
    sliced = _search("connect_four")
    rule2 = sliced.until_apart(50_000)
    calls = 0
    while not rule2.run(time_limit=0.002):
        calls += 1
    assert sliced.iterations == n
    assert ([(c.action, c.visits) for c in sliced.analysis(top_k=3).candidates]
            == [(c.action, c.visits) for c in search.analysis(top_k=3).candidates])


def test_until_apart_stops_at_the_cap_when_the_leaders_stay_close():
    search = _search("connect_four", ["x in column 4", "o in column 4"])
    rule = search.until_apart(3000)
    assert rule.run() and not rule.apart
    assert search.iterations == 3000 and rule.separation.iterations == 3000


def test_until_apart_with_threads_stays_within_its_cap():
    search = _search("pig", threads=2)
    rule = search.until_apart(2000)
    assert rule.run()
    assert search.iterations <= 2000 and rule.separation is not None


@pytest.mark.parametrize("spec,low,high", [
    ("vangogh", -1.5, 1.5),                     # margin_weight 0.5 by the game's defaults
    ("couleurs_de_paris", -1.5, 1.5),
    ("starving_artists", -1.0, 1.0),            # margin_weight 0
    ("vangogh(players=1)", -1.0, 1.0),          # solo: no margin over anyone
    ("connect_four", -1.0, 1.0),                # no scores
])
def test_value_range_follows_the_margin_term(spec, low, high):
    game = engine.load_game(spec)
    state = engine.play_chance(game.new_initial_state(), __import__("random").Random(1))
    assert Search(game, state, seed=1).value_range() == (low, high)
    if high > 1:
        assert Search(game, state, seed=1, margin_weight=0.2).value_range() == (-1.2, 1.2)
        assert Search(game, state, seed=1, margin_weight=0.0).value_range() == (-1.0, 1.0)
