"""The worked positions of docs/at-the-table.md are tests: each loads on both
implementations as the position its description gives, and `easel suggest`
answers it with whole turns (issue #25)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from easel import engine

DOC = Path(__file__).resolve().parents[1] / "docs" / "at-the-table.md"
BLOCK = re.compile(r"<!-- position: (\S+) -->\n```text\n(.*?)```", re.S)
POSITIONS = BLOCK.findall(DOC.read_text())


def test_the_doc_has_a_position_for_each_game():
    assert {engine.parse_game_string(g)[0].name for g, _ in POSITIONS} == {
        "vangogh", "couleurs_de_paris", "starving_artists"}


@pytest.mark.parametrize("impl", ["core", "reference"])
@pytest.mark.parametrize("game_string,text", POSITIONS, ids=[g for g, _ in POSITIONS])
def test_the_worked_position_loads(game_string, text, impl):
    game = engine.load_game(game_string, impl)
    state = game.state_from_notation(text)
    assert not state.is_terminal() and not state.is_chance_node()
    # the same position written back reads back the same
    assert game.state_from_notation(state.to_notation()).to_json() == state.to_json()


def test_the_described_facts_hold():
    """What the doc says follows from the notation (the derived parts)."""
    vg, cdp, sa = (engine.load_game(g).state_from_notation(t) for g, t in POSITIONS)
    assert vg.current_player() == 2                 # "player 3 to move": token and round
    assert cdp.current_player() == 0
    view = sa.to_json()
    assert sa.current_player() == 0
    # "player 2 is down to nutrition 1 with no food earned (derived from the day)"
    assert (view["studios"][1]["nutrition"], view["studios"][1]["food_earned"]) == (1, 0)


@pytest.mark.parametrize("game_string,text", POSITIONS, ids=[g for g, _ in POSITIONS])
def test_suggest_answers_the_worked_position(game_string, text, tmp_path, capsys):
    from easel.server.cli import main
    path = tmp_path / "table.txt"
    path.write_text(text)
    code = main(["suggest", game_string, "--position-file", str(path), "--iterations", "300",
                 "--seed", "1"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert re.search(r"player \d to move", out)
    assert re.search(r"^\s+1\s+\d+\.\d%\s+\d+", out, re.M), out     # rank 1 with its win %
