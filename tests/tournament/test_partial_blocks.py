"""A block's games are journaled as they end (`game` events), so a run stopped
mid-block keeps them and the block's next run plays only the rest
(search/tournament/runner.py, journal.py; docs/tournament.md, "Journal and
resume")."""
from __future__ import annotations

import copy
import json
import os
import signal
import subprocess
import sys
import time

import pytest
from tournament_helpers import to_toml, without_timing

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


def _marked_processes(mark: str) -> list[int]:
    """Live processes whose environment carries `mark` (Linux /proc)."""
    out = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                if mark.encode() in f.read():
                    out.append(int(pid))
        except OSError:
            continue
    return out


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
def test_a_killed_run_stops_its_workers_and_keeps_its_games(tmp_path):
    """SIGTERM stops `easel tournament` as Ctrl-C does: exit 130, the journal
    keeps the games that ended, and no worker is left playing its block."""
    data = dict(CONFIG, games_per_field=600, run={"jobs": 2})
    cfg_path = tmp_path / "kill.toml"
    cfg_path.write_text(to_toml(data))
    out = tmp_path / "killed"
    mark = f"EASEL_TEST_RUN={os.getpid()}-{time.monotonic_ns()}"
    import easel
    home = os.path.dirname(os.path.dirname(os.path.abspath(easel.__file__)))
    env = {**os.environ, "PYTHONPATH": home, mark.split("=")[0]: mark.split("=")[1]}
    proc = subprocess.Popen([sys.executable, "-m", "easel.server.cli", "tournament",
                             str(cfg_path), "--out", str(out), "--no-progress"],
                            cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    journal = out / JOURNAL_NAME
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if journal.exists() and journal.read_bytes().count(b'"type":"game"') >= 2:
            break
        time.sleep(0.05)
    assert proc.poll() is None, proc.stderr.read()
    assert len(_marked_processes(mark)) >= 3          # the driver and its two workers
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert f"keeps every finished block and game: easel tournament --resume {out}" in err
    deadline = time.monotonic() + 10
    while _marked_processes(mark) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _marked_processes(mark) == []
    assert journal.read_bytes().count(b'"type":"game"') >= 2
