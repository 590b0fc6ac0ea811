"""The core's rollout policy (GameC.rollout_action) and evaluation
(GameC.evaluate) for Starving Artists: the policy always picks a legal
action, plays its plan (pay with surplus, a wild only where no cube at hand
goes), and feeds its painters; the evaluation is policies.evaluate to the
last bit, and solo has none."""
from __future__ import annotations

import random

import pytest

from easel import engine
from easel.engine.starving_artists import policies
from easel.search import MCTSBot
from policy_games import play_mixed

from sa_helpers import BAHAMIAN, KLEINE_FEE, cubes, give, load, position, set_market, spec

SPECS = [spec(1), spec(2), spec(3), spec(4), spec(2, colourstudy=True, lastsupper=True),
         spec(4, deck="all")]
UNIFORMS = [(0.0, 0.0), (0.0, 1.0 - 2 ** -53), (0.5, 0.5), (0.99, 0.0),
            (1.0 - 2 ** -53, 1.0 - 2 ** -53)]


@pytest.mark.parametrize("game_spec", SPECS)
def test_policy_always_returns_a_legal_action(game_spec):
    game = engine.load_game(game_spec)
    seen = set()

    def visit(state, rng):
        legal = set(state.legal_actions())
        for u1, u2 in UNIFORMS + [(rng.random(), rng.random())]:
            a = state.rollout_action(u1, u2)
            assert a in legal, (game_spec, state.history(), u1, u2, a)
            seen.add(state.action_to_string(a).split(" ")[0])

    for seed in range(4):
        play_mixed(game, seed, visit, policy_share=0.8)
    assert {"work", "paint", "buy", "pay", "take", "sell"} <= seen


@pytest.mark.parametrize("n", [2, 3, 4])
def test_core_evaluate_is_policies_evaluate_to_the_bit(n):
    """The search's cut rollouts and the greedy bot read the same values on
    either implementation (the reference has no evaluate of its own)."""
    game = engine.load_game(spec(n))
    checked = 0

    def visit(state, rng):
        nonlocal checked
        assert state.evaluate() == policies.evaluate(state), state.history()
        checked += 1

    for seed in range(8):
        end = play_mixed(game, 100 + seed, visit, policy_share=0.9)
        assert end.evaluate() == policies.evaluate(end)
    assert checked > 1000


def test_solo_has_no_evaluation():
    game = engine.load_game(spec(1))
    assert game.new_initial_state().evaluate() is None
    assert policies.evaluate(game.new_initial_state()) is None


def _policy_move(state):
    """The policy's greedy choice (u1 above every epsilon)."""
    return state.action_to_string(state.rollout_action(0.999, 0.0))


def test_policy_pays_with_surplus_and_spares_the_canvas_bought():
    """Bahamian View (red orange green blue blue blue) in the studio needs the
    blues; buying Kleine Fee (yellow green green) at 1 cube is paid with the
    black, which neither canvas takes."""
    g = load(2, "core")

    def edit(v):
        v["studios"][0]["cubes"] = cubes(blue=3, black=1, green=1)
        give(v, 0, BAHAMIAN)
        set_market(v, [KLEINE_FEE])

    s = position(g, edit)
    assert s.current_player() == 0
    s.apply_action(s.string_to_action("buy canvas 1 (Kleine Fee)"))
    assert _policy_move(s) == "pay black"


def test_policy_keeps_the_wild_for_a_square_no_cube_covers():
    """With an orange and a wild, Bahamian View's orange square takes the
    orange; the wild goes only on a square whose colour is not at hand."""
    g = load(2, "core")

    def edit(v):
        v["studios"][0]["cubes"] = cubes(orange=1, wild=1)
        give(v, 0, BAHAMIAN, [None, None, "green", "blue", "blue", "blue"])

    s = position(g, edit)
    s.apply_action(s.string_to_action("paint"))
    first = _policy_move(s)
    assert first.startswith("paint orange on Bahamian View"), first
    s.apply_action(s.string_to_action(first))
    second = _policy_move(s)
    assert second.startswith("paint wild on Bahamian View"), second


def test_policy_playouts_feed_their_painters():
    """Played by the policy alone, two painters sell paintings and most live
    to the fame or the other's starvation: a playout that starves by day six
    tells the search nothing about which plan feeds (measured: about five
    paintings a player and two starved in five; the policy before the plan
    sold 0.4 and starved four in five)."""
    game = engine.load_game(spec(2))
    sold = starved = players = 0
    for seed in range(100):
        end = play_mixed(game, 1000 + seed, lambda s, r: None, policy_share=1.0)
        for st in end.to_json()["studios"]:
            players += 1
            sold += len(st["paintings"])
            starved += not st["alive"]
    assert sold / players >= 3.5, sold / players
    assert starved / players <= 0.55, starved / players


def test_search_with_cut_rollouts_is_deterministic_for_a_seed():
    game = engine.load_game(spec(2))
    s = engine.play_chance(game.new_initial_state(), random.Random(3))
    picks = {MCTSBot(game, iterations=300, seed=9, rollout_depth=40).step(s.clone())
             for _ in range(2)}
    assert len(picks) == 1


def _policy_moves(game, seeds, u1):
    """(greedy move, the move at u1) at every decision of policy games."""
    pairs = []

    def visit(state, rng):
        if state.to_json()["phase"] == "turn":
            pairs.append((state.rollout_action(0.999, 0.0), state.rollout_action(u1, 0.0)))

    for seed in seeds:
        play_mixed(game, seed, visit, policy_share=1.0)
    return pairs


def test_solo_policy_plays_no_random_turns_and_two_players_keep_theirs():
    """Solo, a random turn (an early "end the day", a purchase) costs the
    race against the market more than the variety is worth: the policy's
    move does not depend on u1 there. Two players keep their epsilon."""
    solo = _policy_moves(engine.load_game(spec(1)), range(3), 0.0)
    assert len(solo) > 50 and all(greedy == low for greedy, low in solo)
    duo = _policy_moves(engine.load_game(spec(2)), range(3), 0.0)
    assert any(greedy != low for greedy, low in duo)


def test_solo_policy_paints_four_cubes_or_completes():
    """Solo, three cubes on Bahamian View (six squares, none painted) waste
    part of the action: the policy works instead; with four cubes that fit it
    paints. Two players paint the three cubes at once."""
    def edit_with(n_cubes):
        def edit(v):
            v["studios"][0]["cubes"] = cubes(red=1, orange=1, green=1, blue=n_cubes - 3)
            give(v, 0, BAHAMIAN)
        return edit

    solo = load(1, "core")
    assert _policy_move(position(solo, edit_with(3))) == "work"
    assert _policy_move(position(solo, edit_with(4))) == "paint"
    assert _policy_move(position(load(2, "core"), edit_with(3))) == "paint"


def test_solo_policy_playouts_race_the_market():
    """Played by the policy alone, a solo painter finishes with about 15
    stars and starves in few games (measured over 400 games: 15.0 stars,
    7.3 paintings, 6.5% starved; the two-player rules in solo gave 9.0,
    4.3 and 49%)."""
    game = engine.load_game(spec(1))
    stars = starved = 0
    n = 60
    for seed in range(n):
        end = play_mixed(game, 2000 + seed, lambda s, r: None, policy_share=1.0)
        st = end.to_json()["studios"][0]
        stars += st["stars"]
        starved += st["nutrition"] < 1 or not st["alive"]
    assert stars / n >= 13.0, stars / n
    assert starved / n <= 0.2, starved / n
