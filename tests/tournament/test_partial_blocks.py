"""A block's games are journaled as they end (`game` events), so a run stopped
mid-block keeps them and the block's next run plays only the rest
(search/tournament/runner.py, journal.py; docs/tournament.md, "Journal and
resume")."""
from __future__ import annotations

import copy
import json
import os

from tournament_helpers import without_timing

from easel.search.tournament import config as config_mod
from easel.search.tournament import runner
from easel.search.tournament.journal import JOURNAL_NAME
from easel.search.tournament.plan import plan
from easel.search.tournament.play import play_block

# One field of three, one block of its six seatings.
CONFIG = {"name": "partial", "seed": 31, "games": ["vangogh(players=3)"],
          "bots": {"h": "heuristic", "r": "random", "g": "greedy(budget=10)"},
          "games_per_field": 6, "report": {"bootstrap": 0}, "run": {"jobs": 1}}


def _task():
    tasks = plan(config_mod.parse(CONFIG))
    assert len(tasks) == 1 and len(tasks[0].orders) == 6
    return tasks[0]


def _moves(entry):
    return [(g["index"], g["steps"], g["returns"]) for g in entry["games"]]


def test_a_block_keeps_the_games_played_before_and_plays_the_rest():
    task = _task()
    full = play_block(task)
    kept = {i: copy.deepcopy(full["games"][i]) for i in (0, 3)}
    for rec in kept.values():
        rec["date"] = "kept"                 # what a game played again would not carry
    played = []
    again = play_block(task, kept, on_game=played.append)
    assert [g["index"] for g in played] == [1, 2, 4, 5]
    assert [g["date"] == "kept" for g in again["games"]] == [True, False, False, True,
                                                            False, False]
    assert _moves(again) == _moves(full)


def test_a_record_that_is_not_that_game_is_played_again():
    task = _task()
    full = play_block(task)
    wrong_seed = dict(full["games"][0], block_seed=task.seed + 1, date="stale")
    wrong_index = dict(full["games"][1], date="stale")               # game 1 given as game 2
    wrong_bots = copy.deepcopy(full["games"][3])
    wrong_bots["seats"][0]["spec"] = "greedy(budget=11)"
    wrong_bots["date"] = "stale"
    played = []
    again = play_block(task, {0: wrong_seed, 2: wrong_index, 3: wrong_bots, 4: "junk"},
                       on_game=played.append)
    assert [g["index"] for g in played] == [0, 1, 2, 3, 4, 5]
    assert all(g["date"] != "stale" for g in again["games"])
    assert _moves(again) == _moves(full)


def _events(out):
    with open(os.path.join(out, JOURNAL_NAME)) as f:
        return [json.loads(line) for line in f][1:]


def test_a_run_journals_each_game_then_its_block(run_tournament):
    _, out = run_tournament(CONFIG, report=False)
    kinds = [e["type"] for e in _events(out)]
    assert kinds == ["game"] * 6 + ["block"]
    events = _events(out)
    block = events[-1]
    assert [e["record"] for e in events[:6]] == block["games"]
    assert {e["id"] for e in events} == {block["id"]}


def test_a_run_stopped_mid_block_plays_only_the_rest(run_tournament, tmp_path):
    full, out = run_tournament(CONFIG, report=False)
    with open(os.path.join(out, JOURNAL_NAME)) as f:
        header, *lines = f.read().splitlines()
    games = [json.loads(x) for x in lines if json.loads(x)["type"] == "game"]
    # As if stopped after four games: their events, one of them marked, and a
    # second copy of one (the first counts).
    games[1]["record"]["date"] = "kept"
    dup = copy.deepcopy(games[2])
    dup["record"]["date"] = "second copy"
    stopped = tmp_path / "stopped"
    stopped.mkdir()
    (stopped / JOURNAL_NAME).write_text(
        "\n".join([header] + [json.dumps(e) for e in games[:4] + [dup]]) + "\n")
    cfg, journal = runner.open_run(None, str(stopped), resume=True)
    try:
        again = runner.finish(cfg, journal, str(stopped), runner.run(cfg, journal),
                              report=False)
    finally:
        journal.close()
    assert without_timing(again) == json.loads(json.dumps(without_timing(full)))
    events = _events(str(stopped))
    new_games = [e["record"]["index"] for e in events[5:] if e["type"] == "game"]
    assert new_games == [4, 5]                        # only the games not played before
    block = [e for e in events if e["type"] == "block"]
    assert len(block) == 1
    dates = [g["date"] for g in block[0]["games"]]
    assert dates[1] == "kept" and "second copy" not in dates
