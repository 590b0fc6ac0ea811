"""Starving Artists: the table notation round trip (and its refusals), and
the bot policies (heuristic, greedy) always answer a legal move."""
from __future__ import annotations

import random
import re

import pytest

from easel import engine
from easel.engine.errors import StateFormatError
from easel.engine.starving_artists import notation, policies

from sa_helpers import IMPLS, load
from test_sa_random import progress_choice


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("n", [1, 2, 4])
def test_notation_round_trip_along_games(impl, n):
    g = load(n, impl, lastsupper=True)
    rng = random.Random(n)
    for _ in range(3):
        s = g.new_initial_state()
        while not s.is_terminal():
            v = s.to_json()
            text = notation.write(g, v)
            back = notation.read(g, text)
            assert back == v, text
            assert g.state_from_json(back).to_json() == v
            if s.is_chance_node():
                s.apply_action(engine.draw_outcome(s, rng))
            else:
                s.apply_action(progress_choice(s, rng))


def test_notation_refusals_name_the_line_or_field():
    g = load(2)
    s = engine.play_chance(g.new_initial_state(), random.Random(1))
    text = notation.write(g, s.to_json())
    with pytest.raises(StateFormatError, match=r"line 5 \(pile\): unknown colour 'mauve'"):
        notation.read(g, text.replace("pile ", "pile mauve 1 ", 1))
    with pytest.raises(StateFormatError, match=r"line \d+ \(player 1 nutrition\).*write 5"):
        notation.read(g, re.sub(r"^player 1$", "player 1\n  nutrition 4", text, flags=re.M))
    with pytest.raises(StateFormatError, match="the notation is for 'vangogh'"):
        notation.read(g, "vangogh\n" + text)


@pytest.mark.parametrize("player", ["heuristic", "greedy"])
@pytest.mark.parametrize("n", [1, 2, 3])
def test_policies_play_legal_moves_to_the_end(player, n):
    """The heuristic, and the greedy bot scoring its turn ends by the policies'
    evaluate (which stays within the returns and sums to zero: rank returns)."""
    from easel.search.bots import GreedyBot
    g = load(n, IMPLS[-1])
    rng = random.Random(3)
    greedy = GreedyBot(g, seed=3, budget=60)
    for _ in range(2 if player == "greedy" else 5):
        s = g.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(engine.draw_outcome(s, rng))
                continue
            ev = policies.evaluate(s)
            if n == 1:
                assert ev is None
            else:
                assert len(ev) == n and abs(sum(ev)) < 1e-9 and max(map(abs, ev)) < 0.9 + 1e-12
            a = policies.heuristic(s, rng) if player == "heuristic" else greedy.step(s.clone())
            assert a in s.legal_actions()
            s.apply_action(a)


def test_heuristic_sells_and_paints():
    from sa_helpers import BAHAMIAN, at_announce, cubes, give, give_complete, position, texts
    g = load(2)

    def edit(v):
        give_complete(v, 0, BAHAMIAN)
        at_announce(v, 0)
    s = position(g, edit)
    assert s.action_to_string(policies.heuristic(s, random.Random(0))) == "sell Bahamian View"

    def edit2(v):
        v["studios"][0]["cubes"] = cubes(blue=1, wild=1)
        give(v, 0, BAHAMIAN)
    s = position(g, edit2)
    assert s.action_to_string(policies.heuristic(s, random.Random(0))) == "paint"
    s.apply_action(s.string_to_action("paint"))
    assert s.action_to_string(policies.heuristic(s, random.Random(0))) == \
        "paint blue on Bahamian View"
