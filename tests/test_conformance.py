"""Conformance: the game contract checked by random simulation, on every
registered game (with option variants) and on both implementations.

As OpenSpiel's basic tests do for every game: play random games and, at every
step, check the player id, the legal actions, the chance outcomes, the
returns, the length, the JSON view and the action text; check that clones are
equal and independent, that serialized states read back equal, and that
illegal actions are refused with IllegalActionError and a message."""
from __future__ import annotations

import json
import math
import random

import pytest

from easel import engine
from easel.engine import PLAYER_CHANCE, PLAYER_TERMINAL, IllegalActionError, StateFormatError

from game_variants import conformance_games, implementation_params, seed_for

CASES = implementation_params()
EPS = 1e-9


def _load(spec, implementation):
    return engine.load_game(spec, implementation=implementation)


def _choose(state, rng):
    """A random legal action, or at a chance node an outcome drawn by its probability."""
    if state.is_chance_node():
        return engine.draw_outcome(state, rng)
    return rng.choice(state.legal_actions())


def _step_cap(game):
    # Chance outcomes do not count towards max_game_length; a game whose
    # chance nodes alone run this long is taken to be stuck.
    return 50 * (game.max_game_length() + 1)


def _random_walk(game, rng, where):
    """Yield (step, state) along one random game, the terminal state last."""
    state = game.new_initial_state()
    for step in range(_step_cap(game)):
        yield step, state
        if state.is_terminal():
            return
        state.apply_action(_choose(state, rng))
    pytest.fail(f"{where}: no end after {_step_cap(game)} steps")


def _snapshot(state):
    return (state.current_player(), state.legal_actions(), state.chance_outcomes(),
            state.to_json(), state.history(), state.decisions_taken(), state.returns())


def _check_state(game, state, where):
    n_players = game.num_players()
    player = state.current_player()
    assert isinstance(player, int), f"{where}: current_player {player!r} is not an int"
    assert 0 <= player < n_players or player in (PLAYER_CHANCE, PLAYER_TERMINAL), \
        f"{where}: current_player {player} is not a player, chance or terminal"
    assert state.is_chance_node() == (player == PLAYER_CHANCE), where
    assert state.is_terminal() == (player == PLAYER_TERMINAL), where

    legal = state.legal_actions()
    assert all(type(a) is int for a in legal), f"{where}: non-int legal actions {legal}"
    assert legal == sorted(set(legal)), f"{where}: legal actions not sorted and unique: {legal}"
    assert all(0 <= a < game.num_distinct_actions() for a in legal), \
        f"{where}: legal action out of [0, {game.num_distinct_actions()}): {legal}"
    if player >= 0:
        assert legal, f"{where}: player {player} to move but no legal action"
    else:
        assert legal == [], f"{where}: legal actions {legal} at a non-decision node"

    outcomes = state.chance_outcomes()
    if player == PLAYER_CHANCE:
        assert outcomes, f"{where}: chance node without outcomes"
        ids = [a for a, _ in outcomes]
        assert all(type(a) is int for a in ids), f"{where}: non-int outcome ids {ids}"
        assert len(set(ids)) == len(ids), f"{where}: repeated chance outcome ids {ids}"
        assert all(0 <= a < game.max_chance_outcomes() for a in ids), \
            f"{where}: outcome id out of [0, {game.max_chance_outcomes()}): {ids}"
        assert all(p > 0 for _, p in outcomes), f"{where}: non-positive probability {outcomes}"
        total = math.fsum(p for _, p in outcomes)
        assert abs(total - 1.0) < EPS, f"{where}: chance probabilities sum to {total!r}"
        source = state.chance_source()
        assert type(source) is int and 0 <= source < 4, \
            f"{where}: chance source {source!r} not in [0, 4) (contract.pxd MAX_CHANCE_SOURCES)"
    else:
        assert outcomes == [], f"{where}: chance outcomes {outcomes} at a non-chance node"

    returns = state.returns()
    assert len(returns) == n_players, f"{where}: {len(returns)} returns for {n_players} players"
    assert all(isinstance(r, float) and math.isfinite(r) for r in returns), \
        f"{where}: returns {returns}"
    if player == PLAYER_TERMINAL:
        assert all(game.min_utility() - EPS <= r <= game.max_utility() + EPS for r in returns), \
            f"{where}: returns {returns} outside [{game.min_utility()}, {game.max_utility()}]"
    else:
        assert all(r == 0.0 for r in returns), f"{where}: non-zero returns {returns} before the end"

    assert 0 <= state.decisions_taken() <= game.max_game_length(), \
        f"{where}: {state.decisions_taken()} decisions > max_game_length {game.max_game_length()}"
    assert state.move_number() == len(state.history()), where

    view = state.to_json()
    assert isinstance(view, dict), f"{where}: to_json gave {type(view).__name__}"
    json.dumps(view, allow_nan=False)     # raises on anything JSON cannot carry
    assert isinstance(str(state), str) and str(state), f"{where}: empty str(state)"

    # Every move a player (or the dealer) could make reads and writes as text.
    texts = {}
    for a in legal or [a for a, _ in outcomes]:
        text = state.action_to_string(a)
        assert isinstance(text, str) and text.strip(), f"{where}: action {a} has no text"
        assert text not in texts, f"{where}: actions {texts.get(text)} and {a} both read {text!r}"
        texts[text] = a
        back = state.string_to_action(text)
        assert back == a, f"{where}: {text!r} parses to {back}, not {a}"

    clone = state.clone()
    assert clone == state, f"{where}: clone differs from the original"
    assert _snapshot(clone) == _snapshot(state), f"{where}: clone reads differently"


@pytest.mark.parametrize("spec, implementation", CASES)
def test_facts(spec, implementation):
    game = _load(spec, implementation)
    assert game.spec == spec
    assert game.implementation == implementation
    assert 1 <= game.num_players() <= 10            # contract.pxd MAX_PLAYERS
    assert game.num_distinct_actions() >= 1
    assert game.max_chance_outcomes() >= 0
    assert game.max_game_length() >= 1
    assert game.min_utility() < game.max_utility()
    entry = engine.game_entry(game.name)
    assert entry.min_players <= game.num_players() <= entry.max_players
    a, b = game.new_initial_state(), game.new_initial_state()
    assert a == b and a.history() == [] and a.decisions_taken() == 0


@pytest.mark.parametrize("spec, implementation", CASES)
def test_random_simulation(spec, implementation):
    game = _load(spec, implementation)
    seed = seed_for("simulation", spec, implementation)
    rng = random.Random(seed)
    n_games = conformance_games(spec, implementation)
    for g in range(n_games):
        where = f"{spec} [{implementation}] seed {seed} game {g}"
        state = None
        for step, state in _random_walk(game, rng, where):
            _check_state(game, state, f"{where} step {step}")
        assert state.is_terminal()


@pytest.mark.parametrize("spec, implementation", CASES)
def test_clone_independence(spec, implementation):
    """Acting on a clone leaves the original alone, and the same action on
    both gives equal states; a clone taken earlier survives the original moving on."""
    game = _load(spec, implementation)
    seed = seed_for("clone", spec, implementation)
    rng = random.Random(seed)
    for g in range(max(2, conformance_games(spec, implementation) // 2)):
        where = f"{spec} [{implementation}] seed {seed} game {g}"
        state = game.new_initial_state()
        earlier = state.clone()
        earlier_view = _snapshot(earlier)
        for step in range(_step_cap(game)):
            if state.is_terminal():
                break
            action = _choose(state, rng)
            before = _snapshot(state)
            clone = state.clone()
            clone.apply_action(action)
            assert _snapshot(state) == before, f"{where} step {step}: original moved with its clone"
            assert clone.history() == before[4] + [action], where
            state.apply_action(action)
            assert state == clone, f"{where} step {step}: same action, different states"
            assert _snapshot(state) == _snapshot(clone), where
            assert _snapshot(earlier) == earlier_view, \
                f"{where} step {step}: a clone changed when the original moved"
            if rng.random() < 0.1:
                earlier, earlier_view = state.clone(), _snapshot(state)
        assert state.is_terminal(), f"{where}: no end"


def _checkpoints(rng, count=12):
    """Steps at which to check a round trip: spread out roughly geometrically,
    so that replaying the record at each costs about as much as one game."""
    points, step = {0, 1}, 1.0
    while len(points) < count:
        step *= 1.3 + rng.random()
        points.add(int(step))
    return points


@pytest.mark.parametrize("spec, implementation", CASES)
def test_serialize_round_trip(spec, implementation):
    game = _load(spec, implementation)
    seed = seed_for("serialize", spec, implementation)
    rng = random.Random(seed)
    for g in range(max(2, conformance_games(spec, implementation) // 2)):
        where = f"{spec} [{implementation}] seed {seed} game {g}"
        checkpoints = _checkpoints(rng)
        for step, state in _random_walk(game, rng, where):
            if not (step in checkpoints or state.is_terminal()):
                continue
            text = state.serialize()
            assert isinstance(text, str)
            back = game.deserialize_state(text)
            assert back == state, f"{where} step {step}: round trip differs"
            assert _snapshot(back) == _snapshot(state), f"{where} step {step}: round trip reads differently"
            assert back.serialize() == text, where


@pytest.mark.parametrize("spec, implementation", CASES)
def test_deserialize_rejects_bad_text(spec, implementation):
    game = _load(spec, implementation)
    state = game.new_initial_state()
    rng = random.Random(seed_for("bad-text", spec, implementation))
    for _ in range(3):
        if not state.is_terminal():
            state.apply_action(_choose(state, rng))
    good = state.serialize()
    lines = good.splitlines()
    bad = {
        "not a state": "hello",
        "wrong header": "\n".join(["easel-state-v0"] + lines[1:]),
        "other game": "\n".join([lines[0], "some_other_game"] + lines[2:]),
        "not an integer": "\n".join(lines + ["x"]),
        "illegal action": "\n".join(lines + ["-1"]),
    }
    for what, text in bad.items():
        with pytest.raises(StateFormatError) as info:
            game.deserialize_state(text)
        assert str(info.value), f"{spec}: {what}: empty message"
    with pytest.raises(StateFormatError):
        game.deserialize_state(None)


def _expect_illegal(state, action, where):
    before = _snapshot(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply_action(action)
    message = str(info.value)
    assert message.strip(), f"{where}: empty message for {action!r}"
    assert repr(action) in message or str(action) in message, \
        f"{where}: message does not name {action!r}: {message}"
    assert _snapshot(state) == before, f"{where}: refused action {action!r} changed the state"
    game = state.get_game()
    size = game.max_chance_outcomes() if state.is_chance_node() else game.num_distinct_actions()
    if isinstance(action, int) and not isinstance(action, bool) and 0 <= action < size:
        # Any id of the game has a text, legal here or not (OpenSpiel's ActionToString).
        text = state.action_to_string(action)
        assert isinstance(text, str) and text.strip(), f"{where}: no text for {action}"
    else:
        with pytest.raises(IllegalActionError):
            state.action_to_string(action)


@pytest.mark.parametrize("spec, implementation", CASES)
def test_illegal_actions_rejected(spec, implementation):
    game = _load(spec, implementation)
    seed = seed_for("illegal", spec, implementation)
    rng = random.Random(seed)
    seen_terminal = seen_non_legal = 0
    for g in range(max(2, conformance_games(spec, implementation) // 4)):
        where = f"{spec} [{implementation}] seed {seed} game {g}"
        for step, state in _random_walk(game, rng, where):
            at = f"{where} step {step}"
            if state.is_terminal():
                seen_terminal += 1
                for action in (0, 1, game.num_distinct_actions() - 1):
                    _expect_illegal(state, action, at)
                    with pytest.raises(IllegalActionError, match="over"):
                        state.apply_action(action)
                continue
            if step % 3 and rng.random() < 0.7:
                continue
            size = (game.max_chance_outcomes() if state.is_chance_node()
                    else game.num_distinct_actions())
            possible = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                        else state.legal_actions())
            for action in (-1, size, 2**31, 10**20):
                _expect_illegal(state, action, at)
            others = sorted(set(range(size)) - set(possible))
            if others:
                seen_non_legal += 1
                _expect_illegal(state, rng.choice(others), at)
            for action in (str(possible[0]), float(possible[0]), None, True, [possible[0]]):
                _expect_illegal(state, action, at)
            with pytest.raises(IllegalActionError):
                state.string_to_action("no such move, surely")
            with pytest.raises(IllegalActionError):
                state.string_to_action(possible[0])          # an int is not text
    assert seen_terminal >= 1


def test_conformance_covers_every_registered_game():
    covered = {spec.split("(")[0] for spec, _ in (c.values for c in CASES)}
    assert covered == {e.name for e in engine.registered_games()}
    for entry in engine.registered_games():
        impls = {c.values[1] for c in CASES
                 if c.values[0].split("(")[0] == entry.name and not c.marks}
        assert "reference" in impls
        assert ("core" in impls) == (entry.has_core)


@pytest.mark.parametrize("spec, implementation",
                         [c for c in CASES if c.values[1] == "core"])
def test_playouts_in_c(spec, implementation):
    """engine.playout runs the contract without the GIL: same seed, same games;
    every game ends within max_game_length with bounded returns."""
    from easel.engine.playout import random_playouts
    game = _load(spec, implementation)
    n = 4 * conformance_games(spec, implementation)
    first = random_playouts(game, n, seed=7)
    again = random_playouts(game.core, n, seed=7)
    other = random_playouts(game, n, seed=8)
    drop = lambda r: {k: v for k, v in r.items() if k not in ("seconds", "games_per_second",
                                                              "steps_per_second")}
    assert drop(first) == drop(again)
    assert first["games"] == n and first["game"] == spec
    assert first["steps"] == first["decisions"] + first["chance_steps"]
    assert 1 <= first["mean_length"] <= game.max_game_length()
    assert first["steps"] != other["steps"] or first["mean_returns"] != other["mean_returns"]
    assert len(first["mean_returns"]) == game.num_players()
    assert all(game.min_utility() <= r <= game.max_utility() for r in first["mean_returns"])
    assert 0 <= sum(first["win_rate"]) <= 1 + EPS
    if game.max_chance_outcomes() == 0:
        assert first["chance_steps"] == 0

    # From a given start: a terminal start plays no step at all.
    state = game.new_initial_state()
    rng = random.Random(seed_for("playout", spec))
    while not state.is_terminal():
        state.apply_action(_choose(state, rng))
    done = random_playouts(game, 5, seed=1, state=state)
    assert done["games"] == 5 and done["steps"] == 0
    assert done["mean_returns"] == pytest.approx(state.returns())

    with pytest.raises(TypeError, match="core game"):
        random_playouts(engine.load_game(spec, implementation="reference"), 1)
    with pytest.raises(TypeError, match="same game"):
        random_playouts(game, 1, state=engine.load_game(spec).new_initial_state())
    with pytest.raises(ValueError):
        random_playouts(game, -1)
    assert random_playouts(game, 0)["games"] == 0
