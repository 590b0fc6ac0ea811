"""Plackett-Luce with ties and a seat term."""
from __future__ import annotations

import numpy as np
import pytest

from easel.search.tournament.ratings import ELO_PER_THETA, fit, game_data, rate, stages


def simulate(k, n, games, strength, seat, seed=1, tie_rate=0.0):
    """Games drawn from the model itself: (block, names, places)."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(games):
        field = rng.choice(k, n, replace=False)
        rem = list(range(n))
        order = []
        while rem:
            w = np.exp([strength[field[s]] + seat[s] for s in rem])
            j = rng.choice(len(rem), p=w / w.sum())
            order.append(rem.pop(j))
        places = [0] * n
        for pos, s in enumerate(order):
            places[s] = pos + 1
        if tie_rate and rng.random() < tie_rate:        # the top two share first place
            places = [1 if p == 2 else p for p in places]
        out.append((i // n, [str(b) for b in field], places))
    return out


def data_of(games, k):
    names = [str(i) for i in range(k)]
    blocks = sorted({b for b, _, _ in games})
    return game_data("g", games, {n: i for i, n in enumerate(names)},
                     {b: i for i, b in enumerate(blocks)}), names, len(blocks)


def test_agrees_with_choix_without_seat_term_or_ties():
    choix = pytest.importorskip("choix")
    k = 6
    games = simulate(k, 3, 600, np.linspace(-1, 1, k), np.zeros(3))
    d, names, _ = data_of(games, k)
    theta, _, _ = fit([d], k, seat_term=False, prior_sd=None)
    rankings = [[int(b) for b in sorted(ns, key=lambda b: pl[ns.index(b)])]
                for _, ns, pl in games]
    ref = choix.opt_rankings(k, rankings, alpha=0)
    assert np.allclose(theta - theta.mean(), ref - ref.mean(), atol=1e-4)


def test_the_seat_term_takes_the_seat_advantage_and_not_the_ratings():
    k = 5
    strength = np.array([0.6, 0.3, 0.0, -0.3, -0.6])
    seat = np.array([0.0, -0.4, -0.8])                   # seat 0 is a big advantage
    games = simulate(k, 3, 3000, strength, seat, seed=2)
    d, names, blocks = data_of(games, k)
    theta, gammas, _ = fit([d], k)
    assert np.allclose(gammas[0], seat, atol=0.12), gammas[0]
    assert np.allclose(theta - theta.mean(), strength - strength.mean(), atol=0.12)
    res = rate([d], names, blocks, bootstrap=30, seed=3)
    by_bot = {r["bot"]: r for r in res["bots"]}
    for b in range(k):
        r = by_bot[str(b)]
        assert r["low"] <= r["elo"] <= r["high"]
        assert r["low"] - 30 <= (strength[b] - strength.mean()) * ELO_PER_THETA <= r["high"] + 30
    s = res["seats"]["g"]
    assert s[0]["elo"] == 0.0 and s[2]["high"] < s[1]["elo"] < 0


def test_ties_follow_efron():
    # places 1, 2, 2: after the winner, the tied pair; the second of it weighs half.
    c = stages([1, 2, 2])
    assert c.tolist() == [[1, 1, 1], [0, 1, 1], [0, 0.5, 0.5]]
    c = stages([2, 1, 1])
    assert c.tolist() == [[1, 1, 1], [1, 0.5, 0.5], [1, 0, 0]]


def test_ties_are_fitted_and_all_tied_means_all_equal():
    k = 4
    games = [(i, [str(a) for a in (0, 1, 2, 3)], [1, 1, 1, 1]) for i in range(20)]
    d, names, blocks = data_of(games, k)
    res = rate([d], names, blocks, bootstrap=10)
    assert all(abs(r["elo"]) < 1e-6 for r in res["bots"])
    games = simulate(k, 4, 1500, np.array([0.5, 0.0, 0.0, -0.5]), np.zeros(4), tie_rate=0.3)
    d, names, blocks = data_of(games, k)
    theta, _, _ = fit([d], k)
    assert theta[0] > theta[1] > theta[3] and theta[0] > theta[2] > theta[3]


def test_a_bot_that_won_everything_has_a_finite_rating():
    games = [(i, ["0", "1"], [1, 2]) for i in range(10)]
    d, names, blocks = data_of(games, 2)
    res = rate([d], names, blocks, bootstrap=10)
    top = res["bots"][0]
    assert top["bot"] == "0" and 0 < top["elo"] < 1000


def test_a_bot_missing_from_a_resample_does_not_drag_its_interval_to_the_mean():
    # Bots 0-2 meet in eight blocks; bot 3, much the strongest, plays bot 2
    # in one block of nine, so about a third of the resamples hold none of
    # its games. Such a resample says nothing of it (its rating there is the
    # prior's, the mean), and an interval that counted it would reach down to
    # the mean (search/tournament/ratings.py, the module's note on intervals).
    rng = np.random.default_rng(5)
    strength = {"0": -0.5, "1": 0.0, "2": 0.5, "3": 2.0}
    games = []

    def play(block, a, b):
        p_a = 1.0 / (1.0 + np.exp(strength[b] - strength[a]))
        a_wins = rng.random() < p_a
        seats = [a, b] if len(games) % 2 == 0 else [b, a]
        places = [1, 2] if (a_wins == (seats[0] == a)) else [2, 1]
        games.append((block, seats, places))
    for block in range(8):
        for _ in range(8):
            play(block, "0", "1"), play(block, "1", "2"), play(block, "0", "2")
    for _ in range(20):
        play(8, "2", "3")
    d, names, blocks = data_of(games, 4)
    res = rate([d], names, blocks, bootstrap=200, seed=4)
    by_bot = {r["bot"]: r for r in res["bots"]}
    top = by_bot["3"]
    assert top["elo"] > 150, top
    for r in res["bots"]:
        assert r["low"] <= r["elo"] <= r["high"], r
    assert top["low"] > 100, top
    diff = res["difference"]("3", "2")
    assert diff["low"] <= diff["elo"] <= diff["high"] and diff["low"] > 50, diff


def test_intervals_are_unchanged_when_every_bot_is_in_every_resample():
    # The re-centring on the bots a resample holds is the plain one when it
    # holds them all: a round-robin's intervals come out as before.
    k = 4
    games = simulate(k, 4, 400, np.array([0.6, 0.2, -0.2, -0.6]), np.zeros(4), seed=6)
    d, names, blocks = data_of(games, k)
    res = rate([d], names, blocks, bootstrap=20, seed=2)
    theta, _, x = fit([d], k)
    rng = np.random.default_rng(2)
    draws = []
    for _ in range(20):
        counts = np.bincount(rng.integers(0, blocks, blocks), minlength=blocks)
        t, _, _ = fit([d], k, weights=[counts[d.block].astype(float)], start=x)
        draws.append(t - t.mean())
    lo, hi = np.percentile(np.array(draws), [2.5, 97.5], axis=0)
    for r in res["bots"]:
        b = int(r["bot"])
        assert r["low"] == pytest.approx(lo[b] * ELO_PER_THETA, abs=0.02)
        assert r["high"] == pytest.approx(hi[b] * ELO_PER_THETA, abs=0.02)
