"""The Starving Artists evaluation's features and weights (policies.py) and
the tool that fits the weights to game results
(tools/fit_starving_artists_value.py)."""
from __future__ import annotations

import importlib.util
import json
import pathlib

import numpy as np
import pytest

from easel.engine.starving_artists import policies
from easel.engine.starving_artists.deck import load_deck

# The tool is not part of the package (it sits on top of the layers): load it
# from its file, as `python tools/fit_starving_artists_value.py` runs it.
_TOOL = pathlib.Path(__file__).resolve().parents[2] / "tools" / "fit_starving_artists_value.py"
_spec = importlib.util.spec_from_file_location("fit_starving_artists_value", _TOOL)
fit_value = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fit_value)


def _id(i):
    """The printed id the view names deck 38's canvas i by."""
    return load_deck("38").cards[i].id


def _studio(**kw):
    st = {"alive": True, "nutrition": 3, "stars": 0, "food_earned": 0, "paintings": [],
          "free_action_used": False, "canvases": [],
          "cubes": {c: 0 for c in ("red", "orange", "yellow", "green", "blue", "violet",
                                   "black", "wild")}}
    st.update(kw)
    return st


def test_position_value_worked_by_hand():
    """A studio worked through VALUE_WEIGHTS by hand (deck 38): The Parasol
    (2 stars, 2 food, 6 squares) half painted, The Creation of Adam (2, 2, 7
    squares) bare, The Great Wave off Kanagawa (1 star, 2 food, paint 9)
    announced for sale, and the carrot."""
    cubes = dict(_studio()["cubes"], red=2, blue=1, wild=1)
    me = _studio(stars=4, nutrition=4, food_earned=6, cubes=cubes, canvases=[
        {"canvas": _id(10), "cubes": ["red", "wild", None, "green", None, None]},
        {"canvas": _id(25), "cubes": [None] * 7},
        {"canvas": _id(19), "cubes": [None] * 5}])
    view = {"deck": "38", "first_player": 0, "pending": {"selling": [_id(19)]},
            "studios": [me, _studio()]}
    f = dict(zip(policies.VALUE_FEATURES, policies.value_features(view, 0)))
    assert f == {"stars": 4, "nutrition": 4, "cubes": 4, "wilds": 1, "food_earned": 6,
                 "carrot": 1, "starved": 0, "canvases": 2,
                 "near_stars": 4, "near_food": 4, "near_stars_done": 1.0, "near_food_done": 1.0,
                 "far_stars_done": 0, "far_food_done": 0,
                 "sale_stars": 1, "sale_meals": 1, "sale_food": 2, "sale_paint": 9}
    w = dict(zip(policies.VALUE_FEATURES, policies.VALUE_WEIGHTS))
    by_hand = (4 * w["stars"] + 4 * w["nutrition"] + 4 * w["cubes"] + w["wilds"]
               + 6 * w["food_earned"] + w["carrot"] + 2 * w["canvases"]
               + 4 * w["near_stars"] + 4 * w["near_food"] + w["near_stars_done"]
               + w["near_food_done"] + w["sale_stars"] + w["sale_meals"] + 2 * w["sale_food"]
               + 9 * w["sale_paint"])
    assert policies.position_value(view, 0) == pytest.approx(by_hand)
    # The other player: nothing but nutrition 3.
    assert policies.position_value(view, 1) == pytest.approx(3 * w["nutrition"])


@pytest.mark.parametrize("players, weights", [(2, "VALUE_WEIGHTS"), (3, "VALUE_WEIGHTS"),
                                              (4, "VALUE_WEIGHTS_4P")])
def test_position_value_reads_the_weights_of_its_player_count(players, weights):
    """Four players have weights of their own (docs/starving-artists-value.md,
    "Four players"); two and three read the two-player fit."""
    cubes = dict(_studio()["cubes"], red=2, wild=1)
    me = _studio(stars=2, nutrition=4, food_earned=3, cubes=cubes, canvases=[
        {"canvas": _id(10), "cubes": ["red", None, None, None, None, None]}])
    view = {"deck": "38", "first_player": 0, "pending": {"selling": []},
            "studios": [me] + [_studio() for _ in range(players - 1)]}
    w = getattr(policies, weights)
    assert policies.value_weights(players) is w
    assert policies.position_value(view, 0) == pytest.approx(
        sum(a * b for a, b in zip(w, policies.value_features(view, 0))))


def test_third_canvas_counts_only_its_progress():
    """The two canvases nearest completion are 'near'; a third, less painted,
    adds only its painted share (far_*_done)."""
    me = _studio(canvases=[
        {"canvas": _id(10), "cubes": ["red", None, None, None, None, None]},       # 1/6
        {"canvas": _id(25), "cubes": ["red", "red", None, None, None, None, None]},  # 2/7
        {"canvas": _id(19), "cubes": [None] * 5}])                                 # 0
    view = {"deck": "38", "first_player": 1, "pending": {"selling": []},
            "studios": [me, _studio()]}
    f = dict(zip(policies.VALUE_FEATURES, policies.value_features(view, 0)))
    assert f["canvases"] == 3 and f["carrot"] == 0
    assert f["near_stars"] == 4 and f["near_food"] == 4
    assert f["near_stars_done"] == pytest.approx(2 * 2 / 7 + 2 * 1 / 6)
    assert f["far_stars_done"] == 0 and f["far_food_done"] == 0


def test_fit_logistic_recovers_known_coefficients():
    rng = np.random.default_rng(5)
    x = rng.normal(size=(40000, 3))
    true = np.array([1.5, -0.5, 0.0])
    y = (rng.random(40000) < 1 / (1 + np.exp(-x @ true))).astype(float)
    b = fit_value.fit_logistic(x, y, l2=0.0)
    assert np.allclose(b, true, atol=0.06), b


def test_units_round_trip():
    w = np.array(policies.VALUE_WEIGHTS)
    assert np.allclose(fit_value.to_units(fit_value.from_units(w)), w)


@pytest.fixture(scope="module")
def sa_records(recorded_games):
    return recorded_games("starving_artists(players=2)", ["heuristic", "greedy"], 12, 11)


def test_fit_value_reports_a_fit_against_the_current_weights(sa_records, capsys):
    assert fit_value.main([str(sa_records), "--rate", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "from 12 2-player games (0 other records skipped)" in out
    assert "held-out log loss" in out and "current" in out
    rows = [line.split() for line in out.splitlines() if line.split()[:1] == ["stars"]]
    assert len(rows) == 1 and float(rows[0][2]) == policies.VALUE_WEIGHTS[0]


def test_fit_value_skips_other_games_and_names_a_bad_record(sa_records, recorded_games, tmp_path,
                                                           capsys):
    pig = recorded_games("pig(winscore=30)", ["heuristic", "random"], 2, 7)
    assert fit_value.main([str(sa_records), str(pig)]) == 0
    assert "(2 other records skipped)" in capsys.readouterr().out
    bad = tmp_path / "bad.jsonl"
    rec = json.loads(sa_records.read_text().splitlines()[0])
    rec["steps"][3][1] = 9999
    bad.write_text(json.dumps(rec) + "\n")
    assert fit_value.main([str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.jsonl" in err and "step 4" in err


def test_fit_value_refuses_too_few_games(sa_records, tmp_path, capsys):
    few = tmp_path / "few.jsonl"
    few.write_text("".join(sa_records.read_text().splitlines(keepends=True)[:3]))
    assert fit_value.main([str(few)]) == 2
    assert "too few games" in capsys.readouterr().err


def test_pair_rows_of_a_four_player_position():
    """Every pair of players gets a row, its result whether the first
    finished ahead (rank returns; a tie is half)."""
    assert fit_value.PAIRS[4] == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert [fit_value._ahead(a, b) for a, b in [(1.0, -1 / 3), (-1.0, 1 / 3), (0.0, 0.0)]] \
        == [1.0, 0.0, 0.5]


def test_fit_value_reads_four_player_games_pair_by_pair(sa_records, recorded_games, capsys):
    four = recorded_games("starving_artists(players=4)",
                          ["heuristic", "greedy", "heuristic", "random"], 12, 13)
    assert fit_value.main([str(four), str(sa_records), "--players", "4", "--rate", "0.3"]) == 0
    out = capsys.readouterr().out
    head = out.splitlines()[0].split()
    assert head[0] != "0" and int(head[2].lstrip("(")) == 6 * int(head[0]), out
    games = len(four.read_text().splitlines())
    assert f"from {games} 4-player games (12 other records skipped)" in out
    stars = [line.split() for line in out.splitlines() if line.split()[:1] == ["stars"]]
    assert float(stars[0][2]) == policies.value_weights(4)[0] != policies.VALUE_WEIGHTS[0]
    x, y, g, skipped = fit_value.positions([str(four)], 0.3, 1, players=4)
    assert x.shape == (len(y), len(policies.VALUE_FEATURES)) and skipped == 0
    assert set(np.unique(y).tolist()) <= {0.0, 0.5, 1.0} and len(set(g.tolist())) == games


@pytest.mark.parametrize("args, word", [(["--rate", "0"], "--rate"), (["--l2", "-1"], "--l2"),
                                        (["--players", "1"], "--players"),
                                        (["--players", "5"], "--players")])
def test_fit_value_checks_its_options(sa_records, args, word, capsys):
    with pytest.raises(SystemExit):
        fit_value.main([str(sa_records)] + args)
    assert word in capsys.readouterr().err
