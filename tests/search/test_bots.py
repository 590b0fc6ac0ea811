"""Baseline bots and bot spec strings."""
from __future__ import annotations

import random

import pytest

from easel import engine
from easel.engine.errors import EaselError
from easel.search import bots as bots_module
from easel.search.bots import GreedyBot, HeuristicBot, RandomBot, player_scores
from easel.search.specs import BotSpecError, make_bot, parse_spec
from game_variants import CONFORMANCE_GAMES_LONG


def _game(name, implementation="core"):
    entry = engine.game_entry(name)
    if implementation == "core" and not entry.has_core:
        implementation = "reference"
    return engine.load_game(name, implementation)


def _cases():
    out = []
    for entry in engine.registered_games():
        impls = entry.implementations
        for impl in impls:
            for spec in ("random", "greedy", "heuristic"):
                if spec == "heuristic" and entry.name not in bots_module.heuristic_games():
                    continue
                if (spec == "greedy" and impl == "reference"
                        and entry.name in CONFORMANCE_GAMES_LONG):
                    continue        # minutes per game; the core plays the same rules
                out.append(pytest.param(entry.name, impl, spec, id=f"{entry.name}-{impl}-{spec}"))
    return out


def _play(game, seat_bots, rng, max_steps=5000):
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        p = state.current_player()
        if p == engine.PLAYER_CHANCE:
            outcomes = state.chance_outcomes()
            action = rng.choices([o for o, _ in outcomes], [w for _, w in outcomes])[0]
        else:
            before = state.serialize()
            action = seat_bots[p].step(state)
            assert state.serialize() == before, "a bot changed the state it was given"
            assert action in state.legal_actions(), (p, action, state.legal_actions())
        state.apply_action(action)
        steps += 1
        assert steps < max_steps
    return state


@pytest.mark.parametrize("name,impl,spec", _cases())
def test_bots_play_legal_actions(name, impl, spec):
    game = engine.load_game(name if name != "pig" else "pig(winscore=30)", impl)
    rng = random.Random(7)
    n_games = 2 if impl == "reference" else 4
    if spec == "greedy" and (name == "vangogh" or name in CONFORMANCE_GAMES_LONG):
        spec = "greedy(budget=20)"      # legality, not strength: a small look-ahead will do
    for g in range(n_games):
        seat_bots = [make_bot(spec, game, seed=100 * g + s) for s in range(game.num_players())]
        state = _play(game, seat_bots, rng)
        assert state.is_terminal()


def test_random_bot_is_seeded():
    game = _game("connect_four")
    a, b = RandomBot(game, seed=3), RandomBot(game, seed=3)
    state = game.new_initial_state()
    assert [a.step(state) for _ in range(20)] == [b.step(state) for _ in range(20)]
    c = RandomBot(game, seed=4)
    assert [a.step(state) for _ in range(30)] != [c.step(state) for _ in range(30)]


def _c4(moves, impl="core"):
    game = _game("connect_four", impl)
    state = game.new_initial_state()
    for m in moves:
        state.apply_action(m)
    return game, state


@pytest.mark.parametrize("impl", ["core", "reference"])
def test_greedy_takes_an_immediate_win(impl):
    # x on columns 0,1,2 of the bottom row; o stacked on column 6. x wins with 3.
    game, state = _c4([0, 6, 1, 6, 2, 6], impl)
    for seed in range(5):
        assert GreedyBot(game, seed=seed).step(state) == 3


def test_greedy_breaks_ties_at_random_and_reproducibly():
    game, state = _c4([])
    picks = {GreedyBot(game, seed=s).step(state) for s in range(30)}
    assert len(picks) > 1                      # all seven columns are worth the same
    assert GreedyBot(game, seed=5).step(state) == GreedyBot(game, seed=5).step(state)


def _pig_turn_total(outcomes, impl="core"):
    """A pig state with player 0 to move, having rolled the given die outcomes."""
    game = engine.load_game("pig", impl)
    state = game.new_initial_state()
    for o in outcomes:
        state.apply_action(0)          # roll
        state.apply_action(o)          # face o + 1
    return game, state


@pytest.mark.parametrize("impl", ["core", "reference"])
def test_greedy_pig_expectation_finds_hold_at_twenty(impl):
    # With depth 1 the bot compares stopping (bank t) with one more roll and a
    # stop: 5/6 (t + 4) in expectation. That favours rolling below 20 and
    # stopping above it.
    game, state = _pig_turn_total([5, 5, 4, 1], impl)          # 6+6+5+2 = 19
    assert state.to_json()["turn_total"] == 19
    bot = GreedyBot(game, seed=0, depth=1)
    values = {a: (u, m) for a, u, m in bot.action_values(state)}
    assert values[0][1] == pytest.approx(5 / 6 * (19 + 4))
    assert values[1][1] == pytest.approx(19)
    assert bot.step(state) == 0
    game, state = _pig_turn_total([5, 5, 5, 3], impl)          # 22
    assert GreedyBot(game, seed=0, depth=1).step(state) == 1
    game, state = _pig_turn_total([], impl)
    assert GreedyBot(game, seed=0, depth=1).step(state) == 0   # nothing to bank: roll


def test_greedy_samples_large_chance_nodes():
    game = engine.load_game("pig(diceoutcomes=20)")
    state = game.new_initial_state()
    bot = GreedyBot(game, seed=1, max_outcomes=4, samples=3)
    assert bot.step(state) in state.legal_actions()


def test_greedy_bad_settings():
    game = _game("pig")
    with pytest.raises(ValueError, match="depth"):
        GreedyBot(game, depth=-1)
    with pytest.raises(BotSpecError, match="samples"):
        make_bot("greedy(samples=0)", game)


def test_player_scores():
    _, state = _pig_turn_total([5])
    state.apply_action(1)              # stop: bank 6
    assert player_scores(state) == [6.0, 0.0]
    _, c4 = _c4([3])
    assert player_scores(c4) is None


@pytest.mark.parametrize("impl", ["core", "reference"])
def test_heuristic_connect_four_wins_then_blocks(impl):
    game, state = _c4([0, 6, 1, 6, 2, 6], impl)        # x to move, can win at 3
    assert HeuristicBot(game, seed=0).step(state) == 3
    game, state = _c4([0, 6, 1, 6, 2], impl)           # o to move: must block 3, cannot win
    assert HeuristicBot(game, seed=0).step(state) == 3
    game, state = _c4([], impl)
    assert HeuristicBot(game, seed=0).step(state) == 3  # the centre


def test_heuristic_connect_four_avoids_giving_a_win_on_top():
    # o holds the second row's columns 0-2; (row 1, col 3) would win for o as
    # soon as (row 0, col 3) is filled. The centre is column 3, so a player
    # without the rule would drop its stone there.
    game, state = _c4([0, 0, 2, 2, 6, 1, 6, 1])
    view = state.to_json()
    assert view["current_player"] == 0 and view["board"][-2] == "ooo...x"
    for seed in range(10):
        assert HeuristicBot(game, seed=seed).step(state) in (2, 4), view["board"]


@pytest.mark.parametrize("impl", ["core", "reference"])
def test_heuristic_pig_holds_at_twenty(impl):
    game, state = _pig_turn_total([5, 5, 4, 1], impl)     # 19: roll on
    assert HeuristicBot(game, seed=0).step(state) == 0
    game, state = _pig_turn_total([5, 5, 5, 1], impl)     # 20: hold
    assert HeuristicBot(game, seed=0).step(state) == 1


def test_heuristic_pig_keeps_pace_when_an_opponent_is_close():
    game = engine.load_game("pig(winscore=30)")
    state = game.new_initial_state()
    for o in (5, 5, 5, 5):            # player 0 rolls 24 and banks it
        state.apply_action(0)
        state.apply_action(o)
    state.apply_action(1)
    for o in (5, 5, 5, 5):            # player 1 has 24 this turn: would hold at 20 ...
        state.apply_action(0)
        state.apply_action(o)
    assert state.current_player() == 1
    assert HeuristicBot(game, seed=0).step(state) == 0     # ... but player 0 is 6 from the end


# -- spec strings ----------------------------------------------------------------

def test_parse_spec_types_and_canonical_text():
    assert parse_spec("random").text == "random"
    s = parse_spec(" random( seed = 3 ) ")
    assert s.name == "random" and s.args == {"seed": 3} and s.text == "random(seed=3)"
    g = parse_spec("greedy(depth=1,samples=2)")
    assert g.args == {"depth": 1, "samples": 2}
    m = parse_spec("mcts(iterations=4000,threads=2,time=0.5,uct_c=2,form=is,reuse=no)")
    assert m.args == {"iterations": 4000, "threads": 2, "time": 0.5, "uct_c": 2.0,
                      "form": "is", "reuse": False}
    assert isinstance(m.args["uct_c"], float)
    assert parse_spec(m.text) == m


@pytest.mark.parametrize("spec,words", [
    ("", "malformed"),
    ("random(seed=3", "malformed"),
    ("3random", "malformed"),
    ("alphazero", "unknown bot 'alphazero'"),
    ("random(sed=3)", "no option 'sed' (did you mean 'seed'?); options: seed"),
    ("random(seed=abc)", "seed='abc' must be an int"),
    ("random(seed)", "expected key=value"),
    ("random(seed=1,seed=2)", "given twice"),
    ("random(seed=)", "no value"),
    ("greedy(depth=1.5)", "depth='1.5'"),
    ("mcts(iterations=lots)", "iterations='lots'"),
    ("mcts(time=soon)", "time='soon' must be a float"),
    ("mcts(1x=2)", "malformed key"),
])
def test_bad_specs_name_the_bad_part(spec, words):
    with pytest.raises(BotSpecError) as info:
        parse_spec(spec)
    assert words in str(info.value)
    assert isinstance(info.value, EaselError) and isinstance(info.value, ValueError)


def test_spec_seed_wins_over_the_default_seed():
    game = _game("connect_four")
    state = game.new_initial_state()
    a = make_bot("random(seed=3)", game, seed=5)
    b = make_bot("random(seed=3)", game, seed=9)
    assert [a.step(state) for _ in range(30)] == [b.step(state) for _ in range(30)]
    c = make_bot("random", game, seed=5)
    d = make_bot("random", game, seed=9)
    assert [c.step(state) for _ in range(30)] != [d.step(state) for _ in range(30)]
    assert c.spec == "random(seed=5)"


def test_heuristic_refused_for_a_game_without_one():
    from kit_fakes import fake_game
    with fake_game("plain_nim"):
        game = engine.load_game("plain_nim", "reference")
        with pytest.raises(BotSpecError, match="no rule-of-thumb player for 'plain_nim'"):
            make_bot("heuristic", game)
        assert "plain_nim" not in bots_module.heuristic_games()


def test_heuristic_comes_from_the_games_policies_hook():
    from kit_fakes import fake_game
    from easel.engine.kit import Capabilities
    with fake_game("wise_nim", Capabilities(heuristic_bot=True), policies="kit_fakes"):
        game = engine.load_game("wise_nim", "reference")
        bot = make_bot("heuristic", game, seed=1)
        state = game.new_initial_state()
        state.apply_action(0)                         # a pile of 5: taking 2 leaves 3
        assert bot.step(state) == 1
        assert "wise_nim" in bots_module.heuristic_games()


def _mcts_available():
    try:
        import easel.search.mcts  # noqa: F401
    except ImportError:
        return False
    return True


def test_mcts_spec():
    game = _game("connect_four")
    if not _mcts_available():
        with pytest.raises(BotSpecError, match="not available"):
            make_bot("mcts(iterations=10)", game)
        return
    bot = make_bot("mcts(iterations=50,seed=1)", game)
    state = game.new_initial_state()
    assert bot.step(state) in state.legal_actions()
    with pytest.raises(BotSpecError, match="no_such_knob"):
        make_bot("mcts(iterations=50,no_such_knob=3)", game)
