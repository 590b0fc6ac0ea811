"""Van Gogh core: the fast chance sampler agrees with chance_outcomes, and the
outcomes are the reference's, bit for bit, at every kind of chance node."""
from __future__ import annotations

import random

import pytest

from easel import engine

from vg_helpers import twins

SPECS = ["vangogh(players=1)", "vangogh", "vangogh(players=3)", "vangogh(players=5)",
         "vangogh(players=3,roll=4-2-1-0)", "vangogh(players=1,colors=blue,roll=0-1-0-3)"]


def _walk(spec, n_games, seed):
    """(core state, reference state) pairs at every chance node of random games."""
    for c, r in twins(spec, n_games, seed):
        if c.is_chance_node():
            yield c, r


@pytest.mark.parametrize("spec", SPECS)
def test_sample_chance_matches_intervals(spec):
    phases = set()
    for c, r in _walk(spec, 4, seed=11):
        outcomes = c.chance_outcomes()
        assert outcomes == r.chance_outcomes()        # ids and probabilities bit-identical
        phases.add(c.to_json()["phase"])
        lo = 0.0
        for outcome, p in outcomes:
            for frac in (0.0, 0.001, 0.5, 0.999):
                u = lo + frac * p
                if u < 1.0:
                    assert c.sample_chance(u) == outcome, (spec, c.to_json()["phase"], u, outcome)
            lo += p
        assert c.sample_chance(1.0 - 1e-16) == outcomes[-1][0]
    # every kind of chance node was visited
    assert {"setup_cards", "setup_table", "setup_palette", "eor"} <= phases, phases


def test_sample_chance_draws_by_probability():
    """Sampling with uniform u reproduces the listed probabilities."""
    game = engine.load_game("vangogh(players=2,roll=3-1-0-0)")
    for c, _ in _walk("vangogh(players=2,roll=3-1-0-0)", 1, seed=3):
        if c.to_json()["phase"] == "setup_table":
            break
    outcomes = dict(c.chance_outcomes())
    rng = random.Random(0)
    counts = {}
    n = 20000
    for _ in range(n):
        a = c.sample_chance(rng.random())
        counts[a] = counts.get(a, 0) + 1
    assert set(counts) <= set(outcomes)
    for a, p in outcomes.items():
        assert abs(counts.get(a, 0) / n - p) < 0.02, (a, p, counts.get(a, 0) / n)
    assert game.implementation == "core"
