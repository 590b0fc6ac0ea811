"""A core's fast chance sampler must agree with its chance_outcomes: every u
inside an outcome's cumulative interval (in list order) gives that outcome."""
import random

import pytest

from easel import engine

SPECS = ["pig", "pig(piglet=true)", "pig(diceoutcomes=3,players=3)"]


def _chance_nodes(game, n_games, rng):
    for _ in range(n_games):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                yield s
                s.apply_action(engine.draw_outcome(s, rng))
            else:
                s.apply_action(rng.choice(s.legal_actions()))


def _specs():
    specs = list(SPECS)
    for entry in engine.registered_games():
        if entry.has_core and entry.name not in ("pig", "connect_four"):
            specs.append(entry.name)
    return specs


@pytest.mark.parametrize("spec", _specs())
def test_sampler_matches_outcomes(spec):
    game = engine.load_game(spec)
    rng = random.Random(5)
    checked = 0
    for state in _chance_nodes(game, 6, rng):
        if state.sample_chance(0.0) is None:
            pytest.skip(f"{spec} has no fast sampler")
        lo = 0.0
        for outcome, p in state.chance_outcomes():
            for frac in (0.01, 0.5, 0.99):
                u = lo + frac * p
                if u < 1.0:
                    assert state.sample_chance(u) == outcome, (spec, u, outcome)
            lo += p
        checked += 1
        if checked >= 300:
            break
    assert checked > 0


def test_sampler_refuses_decision_nodes():
    s = engine.load_game("pig").new_initial_state()
    with pytest.raises(ValueError, match="chance"):
        s.sample_chance(0.5)
