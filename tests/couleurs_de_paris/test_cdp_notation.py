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
    text = """couleurs_de_paris
round 3
phase act player 2
first player 1
rotation 2
easels #30; #23; #18
player 1
  pigments red 3 white 4
  tools brush 2
  standing improve a tool
  lying paint; acquire red
  painting #1: ....b..r.
  painting #12: .....w...
player 2
  pigments red 1 yellow 1 blue 1 white 6
  standing mix orange; improve a tool
  lying mix violet
  painting #27: .........
"""
    s = from_json(g, notation.read(g, text))
    assert s.current_player() == 1
    assert s.to_json()["lower_board"][4]["action"] == "yellow"
    assert s.to_json()["supply"] == {"red": 31, "orange": 26, "yellow": 35, "green": 26,
                                     "blue": 34, "violet": 26, "white": 9, "black": 5}
    assert notation.write(g, s.to_json()) == text


@pytest.mark.parametrize("line,where,named", [
    (2, "phase dance player 1", "line 3 (phase): unknown phase 'dance'"),
    (3, "easels #1", "line 4 (easels): 1 easels written; the game has 3"),
    (5, "  pigments zinc 2", "line 6 (player 1 pigments): unknown colour 'zinc'"),
])
def test_bad_lines_are_named(line, where, named):
    g = load("couleurs_de_paris", "reference")
    s = engine.play_chance(g.new_initial_state(), random.Random(0))
    lines = notation.write(g, s.to_json()).splitlines()
    lines[line] = where
    with pytest.raises(StateFormatError) as e:
        notation.read(g, "\n".join(lines))
    assert named in str(e.value)
