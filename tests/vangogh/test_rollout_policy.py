"""The core's rollout policy (GameC.rollout_action): always a legal action,
whatever the uniforms, over random games of every player count and colour
ability; never stops a STEP while a paint that cannot lose EP is open; and a
search that rolls out with it is deterministic for a seed."""
from __future__ import annotations

import random

import pytest

from easel import engine
from easel.engine.vangogh import core as vg_core
from easel.engine.vangogh.rules import DONE, MAX_SPACES, N_PAINTINGS, PAINT, REORIENT
from easel.search import MCTSBot, Search, SearchError
from policy_games import play_mixed

SPECS = ["vangogh(players=1)", "vangogh(players=2)",
         "vangogh(players=2,colors=purple-green,roll=5-2-2-1)",
         "vangogh(players=3,colors=pink-blue-purple)",
         "vangogh(players=4,colors=yellow-green-blue-pink)", "vangogh(players=5,start=3)"]
EPS = vg_core.ROLLOUT_EPSILON
UNIFORMS = [(0.0, 0.0), (0.0, 1.0 - 2 ** -53), (EPS / 2, 0.5), (EPS, 0.0), (0.99, 0.0),
            (0.99, 0.5), (1.0 - 2 ** -53, 1.0 - 2 ** -53)]


@pytest.mark.parametrize("spec", SPECS)
def test_policy_always_returns_a_legal_action(spec):
    game = engine.load_game(spec)
    assert game.core.has_rollout_policy and game.entry.capabilities.rollout_policy
    seen = set()

    def visit(state, rng):
        legal = set(state.legal_actions())
        for u1, u2 in UNIFORMS + [(rng.random(), rng.random()) for _ in range(4)]:
            a = state.rollout_action(u1, u2)
            assert a in legal, (spec, state.history(), u1, u2, a)
            seen.add(a)

    for seed in range(6):
        play_mixed(game, seed, visit)
    # the games reached characters, paints, takes and DONE
    assert {a for a in seen if a < 6} and DONE in seen and any(PAINT <= a < REORIENT for a in seen)


def _safe_paint(view, a) -> bool:
    """A paint that does not finish its painting (so it scores at least 1 EP
    and no majority is decided by it)."""
    slot = ((a - PAINT) // MAX_SPACES) % N_PAINTINGS
    return sum(o is None for o in view["paintings"][slot]["occupants"]) >= 2


@pytest.mark.parametrize("spec", ["vangogh(players=2)", "vangogh(players=4)"])
def test_greedy_choice_paints_rather_than_stopping(spec):
    game = engine.load_game(spec)
    checked = 0

    def visit(state, rng):
        nonlocal checked
        legal = state.legal_actions()
        if DONE not in legal:
            return
        view = state.to_json()
        if any(PAINT <= a < REORIENT and _safe_paint(view, a) for a in legal):
            for u2 in (0.0, 0.5, 0.999):
                assert state.rollout_action(0.999, u2) != DONE, state.history()
            checked += 1

    for seed in range(4):
        play_mixed(game, seed, visit)
    assert checked > 10


def test_search_with_the_policy_is_deterministic_for_a_seed():
    game = engine.load_game("vangogh(players=2)")
    state = engine.play_chance(game.new_initial_state(), random.Random(5))

    def run(seed, rollout):
        s = Search(game, state, seed=seed, rollout=rollout)
        s.run(1500)
        return [(c.action, c.visits, round(c.value, 12)) for c in s.analysis().candidates]

    first = run(77, "policy")
    assert run(77, "policy") == first
    assert run(77, "random") != first      # the option changes the playouts


def test_rollout_option_errors_name_it():
    vg = engine.load_game("vangogh(players=2)")
    state = vg.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    with pytest.raises(SearchError, match="rollout must be one of random, policy, got 'sometimes'"):
        Search(vg, state, rollout="sometimes")
    with pytest.raises(SearchError, match="rollout"):
        MCTSBot(vg, rollout="heavy")
    c4 = engine.load_game("connect_four")
    assert not c4.core.has_rollout_policy and not c4.entry.capabilities.rollout_policy
    assert c4.new_initial_state().rollout_action(0.5, 0.5) is None
    with pytest.raises(SearchError, match="no rollout policy"):
        MCTSBot(c4, rollout="policy")
    with pytest.raises(SearchError, match="no rollout policy"):
        Search(c4, c4.new_initial_state(), rollout="policy")
    Search(c4, c4.new_initial_state(), rollout="random").run(50)
