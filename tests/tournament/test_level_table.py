"""tools/level_table.py: the rating table of a level tournament, read from a
real run's files (docs/strength.md prints these tables)."""
from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[2] / "tools" / "level_table.py"
_spec = importlib.util.spec_from_file_location("level_table", _PATH)
level_table = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(level_table)


def test_level_numbers_come_from_the_spec_or_the_name():
    assert level_table.level_number("l4", "level(4)") == 4
    assert level_table.level_number("level7", "mcts(iterations=5)") == 7
    assert level_table.level_number("level 10", "level ( 10 )") == 10
    assert level_table.level_number("greedy", "greedy") is None


def test_the_table_of_a_real_ladder_run(run_tournament, capsys):
    data = {"seed": 5, "games": ["pig(winscore=20)"], "format": "ladder", "reach": 1,
            "bots": {"random": "random", "level1": "level(1)", "level2": "level(2)",
                     "level3": "level(3)"},
            "games_per_field": 4, "report": {"bootstrap": 20}}
    res, out = run_tournament(data)
    assert level_table.main([out]) == 0
    text = capsys.readouterr().out
    lines = text.splitlines()
    assert lines[0].endswith("12 games in 6 of 6 blocks")
    table = [ln for ln in lines if ln.startswith("| ") and not ln.startswith(("| bot", "| ---"))]
    assert len(table) == 4
    elos = [float(ln.split("|")[3].split("[")[0]) for ln in table]
    assert elos == sorted(elos, reverse=True)            # strongest first
    row = next(ln for ln in table if ln.startswith("| level 1 |"))
    assert "`mcts(iterations=30,temperature=0.1)`" in row    # the spec the journal kept
    assert next(ln for ln in table if "`random`" in ln).split("|")[2].strip() == ""
    steps = [ln for ln in lines if ln.startswith("level ") and " over level " in ln]
    assert [s.split(":")[0] for s in steps] == ["level 2 over level 1", "level 3 over level 2"]
    for s in steps:
        assert "head-to-head" in s and "over 4 games" in s   # reach 1: each met the next
    ratings = {r["bot"]: r["elo"] for r in res["ratings"]["overall"]}
    step = ratings["level3"] - ratings["level2"]
    assert f"level 3 over level 2: {step:+.0f} Elo" in text
    assert ("not monotone" in steps[1]) == (step <= 0)
    width = ratings["level3"] - ratings["level1"]
    assert f"level 1 to level 3: {width:+.0f} Elo, {width / 2:+.0f} a step" in lines
    assert f"random to level 3: {ratings['level3'] - ratings['random']:+.0f} Elo" in lines


def test_a_step_is_marked_where_the_pair_did_not_meet():
    res = {"config": {"bots": {"a": "level(1)", "b": "level(2)"}, "games": ["g"]},
           "ratings": {"overall": [{"bot": "a", "elo": 10.0, "low": 0.0, "high": 20.0,
                                    "games": 2},
                                   {"bot": "b", "elo": -5.0, "low": -9.0, "high": 1.0,
                                    "games": 2}]},
           "pairs": []}
    assert level_table.steps(res, "g") == [
        "level 2 over level 1: -15 Elo  (not monotone, did not meet)"]


def test_a_run_without_results_is_refused_by_name(tmp_path):
    with pytest.raises(SystemExit) as e:
        level_table.main([str(tmp_path)])
    assert "results.json not found" in str(e.value)
    assert os.fspath(tmp_path) in str(e.value)


def test_a_pair_of_one_block_has_no_interval_and_says_so():
    # A run read part way: the report gives a pair of one duplicate block
    # a mean and no interval (its interval is over blocks).
    res = {"config": {"bots": {"a": "level(1)", "b": "level(2)"}, "games": ["g"]},
           "ratings": {"overall": [{"bot": "a", "elo": -5.0, "games": 2},
                                   {"bot": "b", "elo": 10.0, "games": 2}]},
           "pairs": [{"game": "g", "bots": ["a", "b"], "games": 2, "los": None,
                      "score": {"mean": 0.25, "low": None, "high": None}}]}
    assert level_table.steps(res, "g") == [
        "level 2 over level 1: +15 Elo; head-to-head 0.750 over 2 games"
        "  (one block, no interval)"]


def test_the_span_reads_the_levels_and_random_by_their_specs():
    res = {"config": {"bots": {"floor": "random", "x": "level(2)", "y": "level(9)",
                               "g": "greedy"}, "games": ["g"]},
           "ratings": {"overall": [{"bot": "floor", "elo": -700.0}, {"bot": "x", "elo": -300.0},
                                   {"bot": "y", "elo": 400.0}, {"bot": "g", "elo": 900.0}]}}
    assert level_table.span(res, "g") == ["level 2 to level 9: +700 Elo, +100 a step",
                                          "random to level 9: +1100 Elo"]
    res["config"]["bots"]["floor"] = "heuristic"          # no random: no floor line
    assert level_table.span(res, "g") == ["level 2 to level 9: +700 Elo, +100 a step"]
    res["config"]["bots"]["y"] = "mcts(iterations=5)"     # one level: no span
    assert level_table.span(res, "g") == []
