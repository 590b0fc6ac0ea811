"""Differential: the Cython core against the plain-Python reference.

Random games are played through both implementations with the same choices:
one generator picks an index into the (identical) legal list, and at a chance
node an outcome is drawn by the reference's probabilities and applied to
both. At every step the two must agree on the player to move, the legal
actions, the chance outcomes (ids, probabilities to 1e-12) and their source
of chance, the JSON view and the move text; at the end, on the returns.

Every registered game with both implementations is covered; a game with only
a reference shows as skipped. Counts: conftest.diff_games (EASEL_DIFF_GAMES,
EASEL_FULL=1 for at least 2,000 games per variant)."""
from __future__ import annotations

import random

import pytest

from easel import engine

from game_variants import diff_games, differential_params, seed_for

TOL = 1e-12


def _step_cap(game):
    return 50 * (game.max_game_length() + 1)


def _compare(core, ref, where):
    player = ref.current_player()
    assert core.current_player() == player, \
        f"{where}: current_player core {core.current_player()} != reference {player}"
    assert core.is_terminal() == ref.is_terminal(), where
    assert core.is_chance_node() == ref.is_chance_node(), where
    legal = ref.legal_actions()
    assert core.legal_actions() == legal, \
        f"{where}: legal actions core {core.legal_actions()} != reference {legal}"
    c_out, r_out = sorted(core.chance_outcomes()), sorted(ref.chance_outcomes())
    assert [a for a, _ in c_out] == [a for a, _ in r_out], \
        f"{where}: chance outcome ids core {c_out} != reference {r_out}"
    for (a, pc), (_, pr) in zip(c_out, r_out):
        assert abs(pc - pr) <= TOL, f"{where}: P(outcome {a}) core {pc!r} != reference {pr!r}"
    if r_out:
        assert core.chance_source() == ref.chance_source(), \
            f"{where}: chance source core {core.chance_source()} != reference {ref.chance_source()}"
    c_json, r_json = core.to_json(), ref.to_json()
    if c_json != r_json:
        diff = {k: (c_json.get(k), r_json.get(k)) for k in set(c_json) | set(r_json)
                if c_json.get(k) != r_json.get(k)}
        pytest.fail(f"{where}: to_json differs (key: (core, reference)): {diff}")
    assert core.decisions_taken() == ref.decisions_taken(), where
    return legal, r_out


def play_twin_games(spec, n_games, seed):
    """Play n_games through both implementations; returns (games, steps)."""
    core_game = engine.load_game(spec, implementation="core")
    ref_game = engine.load_game(spec, implementation="reference")
    assert core_game.facts() == ref_game.facts(), "the two implementations state different facts"
    rng = random.Random(seed)
    steps = 0
    for g in range(n_games):
        core, ref = core_game.new_initial_state(), ref_game.new_initial_state()
        for step in range(_step_cap(ref_game)):
            where = f"{spec} seed {seed} game {g} step {step}"
            legal, outcomes = _compare(core, ref, where)
            if ref.is_terminal():
                break
            if outcomes:
                ids = [a for a, _ in outcomes]
                action = rng.choices(ids, weights=[p for _, p in outcomes])[0]
            else:
                action = legal[rng.randrange(len(legal))]
            text = ref.action_to_string(action)
            assert core.action_to_string(action) == text, \
                f"{where}: action {action} reads {core.action_to_string(action)!r} in the core, {text!r} in the reference"
            core.apply_action(action)
            ref.apply_action(action)
            steps += 1
        else:
            pytest.fail(f"{spec} seed {seed} game {g}: no end after {_step_cap(ref_game)} steps")
        c_ret, r_ret = core.returns(), ref.returns()
        assert len(c_ret) == len(r_ret) == ref_game.num_players()
        assert all(abs(a - b) <= TOL for a, b in zip(c_ret, r_ret)), \
            f"{spec} seed {seed} game {g}: returns core {c_ret} != reference {r_ret}"
        assert core.history() == ref.history()
        assert core.serialize() == ref.serialize()
    return n_games, steps


@pytest.mark.parametrize("spec", differential_params(slow=True))
def test_core_matches_reference(spec):
    n_games = diff_games(spec)
    games, steps = play_twin_games(spec, n_games, seed_for("differential", spec))
    assert games == n_games
    print(f"{spec}: {games} games, {steps} steps identical")


@pytest.mark.parametrize("spec", differential_params())
def test_cross_implementation_records(spec):
    """A record written by one implementation replays in the other to the same view."""
    core_game = engine.load_game(spec, implementation="core")
    ref_game = engine.load_game(spec, implementation="reference")
    rng = random.Random(seed_for("records", spec))
    for _ in range(10):
        state = core_game.new_initial_state()
        while not state.is_terminal() and rng.random() > 0.01:
            if state.is_chance_node():
                state.apply_action(engine.draw_outcome(state, rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        other = ref_game.deserialize_state(state.serialize())
        assert other.to_json() == state.to_json()
        back = core_game.deserialize_state(other.serialize())
        assert back == state


def test_play_twin_games_catches_a_difference(monkeypatch):
    """The comparison is live: a reference that misreports one field is caught."""
    from easel.engine.pig.reference import PigState
    real = PigState.to_json

    def off_by_one(self):
        view = real(self)
        if view["total_moves"] == 7:
            view["turn_total"] += 1
        return view

    monkeypatch.setattr(PigState, "to_json", off_by_one)
    with pytest.raises(pytest.fail.Exception, match="to_json differs"):
        play_twin_games("pig", 20, seed=1)


def _python_playouts(game, n_games, rng):
    lengths, returns = [], []
    for _ in range(n_games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(engine.draw_outcome(state, rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        lengths.append(state.decisions_taken())
        returns.append(state.returns())
    return lengths, returns


@pytest.mark.parametrize("spec", differential_params())
def test_playouts_in_c_match_reference_statistics(spec):
    """engine.playout's sampling (its own generator, in C) plays the same game
    as the reference played by Python's generator: the mean game length and
    mean returns agree within 5 standard errors."""
    from easel.engine.playout import random_playouts
    import statistics
    core_game = engine.load_game(spec, implementation="core")
    ref_game = engine.load_game(spec, implementation="reference")
    n_ref = 60 if spec.split("(")[0] not in ("connect_four", "pig") else 400
    lengths, returns = _python_playouts(ref_game, n_ref, random.Random(seed_for("stats", spec)))
    fast = random_playouts(core_game, 20 * n_ref, seed=seed_for("stats-c", spec))

    spread = core_game.max_utility() - core_game.min_utility()

    def close(mean_c, sample, what, span=None):
        mean_r = statistics.fmean(sample)
        se = statistics.pstdev(sample) / len(sample) ** 0.5
        # Where the reference sample is nearly constant (a rare outcome never or
        # seldom seen: long games where random players all starve), its standard
        # error says nothing; the rule of three bounds the rate of an outcome
        # unseen in n games by 3/n, so allow that share of the value's span.
        rare = 3.0 / len(sample) * span if span else 0.0
        assert abs(mean_c - mean_r) <= max(5 * se, rare) + 1e-9, \
            f"{spec}: mean {what}: C playouts {mean_c:.4f}, reference {mean_r:.4f} (se {se:.4f})"

    close(fast["mean_length"], lengths, "decisions per game")
    for p in range(ref_game.num_players()):
        close(fast["mean_returns"][p], [r[p] for r in returns], f"return of player {p}", spread)
