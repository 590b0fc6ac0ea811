"""The Couleurs de Paris table notation (engine/couleurs_de_paris/notation.py,
grammar in ENCODING.md): written positions read back to the same JSON view
and load; a bad line is refused, naming it."""
from __future__ import annotations

import random

import pytest

from easel import engine
from easel.engine import StateFormatError
from easel.engine.couleurs_de_paris import from_json, notation

from cdp_helpers import IMPLS, load


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("players", [2, 4])
def test_round_trip_over_a_game(impl, players):
    g = load(f"couleurs_de_paris(players={players})", impl)
    rng = random.Random(players)
    s = g.new_initial_state()
    step = 0
    while True:
        if step % 23 == 0 or s.is_terminal():
            view = s.to_json()
            text = notation.write(g, view)
            back = notation.read(g, text)
            assert back == view, text
            assert from_json(g, back).to_json() == view
        if s.is_terminal():
            break
        if s.is_chance_node():
            s.apply_action(engine.draw_outcome(s, rng))
        else:
            s.apply_action(s.legal_actions()[rng.randrange(len(s.legal_actions()))])
        step += 1


def test_example_from_encoding_md():
    g = load("couleurs_de_paris", "reference")
    text = """couleurs_de_paris 2
round 3 phase act to 1 first 0 rotation 2
claims - -
supply r31 o26 y35 g26 b34 v26 w9 k5
easels 30 23 18
deck 0 2 3 4 5 6 7 8 9 10 11 13 14 15 16 17 19 20 21 22 24 25 26 28 29 31
lower . _0 _0 1 . . . _1 . 01
upper . . . .
player 0 assistants 3 place 0 tools 112 bonus --- pigments r3 w4 paintings 1:....b..r. 12:.....w...
player 1 assistants 3 place 0 tools 111 bonus --- pigments r1 y1 b1 w6 paintings 27:.........
pending tool - pay 0r paint 0/0 seat 0 keep - -
"""
    s = from_json(g, notation.read(g, text))
    assert s.current_player() == 1
    assert s.to_json()["lower_board"][4]["action"] == "yellow"
    assert notation.write(g, s.to_json()) == text


@pytest.mark.parametrize("line,where", [
    (1, "round 3 phase dance to 1 first 0 rotation 2"),
    (6, "lower . ."),
    (8, "player 0 assistants 3 place 0 tools 111 bonus --- pigments z2 paintings -"),
])
def test_bad_lines_are_named(line, where):
    g = load("couleurs_de_paris", "reference")
    s = engine.play_chance(g.new_initial_state(), random.Random(0))
    lines = notation.write(g, s.to_json()).splitlines()
    lines[line] = where
    with pytest.raises(StateFormatError) as e:
        notation.read(g, "\n".join(lines))
    assert where.split()[0] in str(e.value)
