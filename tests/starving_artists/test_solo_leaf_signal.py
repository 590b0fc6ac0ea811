"""tools/solo_leaf_signal.py: what strong players' games say of a solo
position beyond the search's playouts (docs/starving-artists-solo.md, "What
strong games say of a position")."""
from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path

import numpy as np
import pytest

from easel import engine
from easel.search.clairvoyant import chance_outcome

_TOOLS = Path(__file__).resolve().parents[2] / "tools"
sys.path.insert(0, str(_TOOLS))      # the tool imports its neighbours, as run from tools/
_spec = importlib.util.spec_from_file_location("solo_leaf_signal", _TOOLS / "solo_leaf_signal.py")
tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tool)


def _record(seed: int, player="mcts(iterations=10)") -> dict:
    """A whole solo game of the rollout policy as a bound journal keeps it."""
    game = engine.load_game(tool.GAME)
    rng = random.Random(seed)
    state, steps = game.new_initial_state(), []
    while not state.is_terminal():
        a = (chance_outcome(state, rng.random()) if state.is_chance_node()
             else state.rollout_action(rng.uniform(0.05, 1.0), rng.random()))
        steps.append(a)
        state.apply_action(a)
    return {"game": tool.GAME, "index": seed, "player": player, "iterations": 0,
            "returns": [float(state.returns()[0])], "steps": steps}


def test_the_utility_is_the_searchs_near_miss_weight():
    # A loss at 19 stars returns -1 + 0.5 * 0.95 (RULINGS.md §36); with the
    # game's default weight 1.9 and power 8 it counts -1 + 1.9 * 0.95^8.
    assert tool.utility(1.0, 0.5, 1.9, 8) == 1.0
    assert tool.utility(-0.525, 0.5, 1.9, 8) == pytest.approx(-1 + 1.9 * 0.95 ** 8)
    assert tool.utility(-0.525, 0.5, 0.0, 8) == -0.525          # no weight: the returns
    assert tool.utility(-0.5, 0.5, 2.0, 1) == 1.0               # never above a win


def test_positions_are_labelled_with_their_games_result():
    records = [_record(s) for s in range(3)]
    rows = tool.positions(records, every=10, n=2, seed=0)
    assert len(rows) > 0
    for g, rec in enumerate(records):
        mine = rows[rows[:, 0] == g]
        assert len(mine) > 0
        assert set(mine[:, 1]) == {float(rec["returns"][0] >= 0.0)}
    # Each row: game, won, the three readings, the features less the constant.
    assert rows.shape[1] == 2 + len(tool.READINGS) + len(tool.FEATURES) - 1
    assert np.all((rows[:, 3] >= 0) & (rows[:, 3] <= 1))        # a win share
    # The same seed replays the same playouts.
    assert np.array_equal(rows, tool.positions(records, every=10, n=2, seed=0))


def test_the_report_finds_a_planted_signal_where_it_is():
    rng = np.random.default_rng(5)
    n = 3000
    g = np.arange(n) // 3
    reading = rng.normal(size=n)
    won = (reading + 0.3 * rng.normal(size=n) > 0).astype(float)
    feats = rng.normal(size=(n, len(tool.FEATURES) - 1))
    feats[:, tool.FEATURES.index("canvases left") - 1] = 3       # every position late
    rows = np.column_stack([g, won, reading, rng.normal(size=(n, 2)), feats])
    text = tool.report(rows)
    late = text.split("fewer than 6 left")[1].splitlines()
    auc = {line.split()[0] + line.split()[1]: float(line.split()[-1]) for line in late[1:]
           if "AUC" in line}
    assert auc["theplayouts"] > 0.9 > 0.6 > auc["thefeatures"]
    assert "12 or more canvases left: too few positions" in text


def test_bad_input_is_refused_by_name(tmp_path):
    path = tmp_path / "j.jsonl"
    path.write_text(json.dumps({"game": "vangogh(players=1)", "player": "x", "steps": []}) + "\n")
    with pytest.raises(SystemExit, match=r"j.jsonl:1: a game of 'vangogh\(players=1\)'"):
        tool.read([path])
    path.write_text("{not json\n")
    with pytest.raises(SystemExit, match="j.jsonl:1: not a JSON line"):
        tool.read([path])
    path.write_text(json.dumps(_record(0, player="clairvoyant")) + "\n")
    assert tool.read([path]) == []                               # the clairvoyant knows the draws
    with pytest.raises(SystemExit):
        tool.main([str(path), "--every", "0"])
    with pytest.raises(SystemExit):
        tool.main([str(path)])                                   # too few games
