"""benchmarks/peer_match.py: games played in several processes are the games
one process plays (needs OpenSpiel, the `peers` extra; skipped without it)."""
from __future__ import annotations

import os
import sys

import pytest

pytest.importorskip("pyspiel")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
import peer_match  # noqa: E402

TIMES = {"think", "cpu", "commit"}


def _games(path):
    return sorted(({k: v for k, v in r.items() if k not in TIMES} for r in peer_match.read(path)),
                  key=lambda r: (r["pair"], r["easel_seat"]))


def test_two_processes_play_the_games_of_one(tmp_path):
    args = ("connect_four", "mcts(iterations=30)", "sims=30", 7, 2)
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    row1 = peer_match.run(*args, str(one), progress=False)
    row2 = peer_match.run(*args, str(two), progress=False, jobs=2)
    assert len(_games(one)) == 4
    assert _games(one) == _games(two)
    assert (row1["score"], row1["low"], row1["high"]) == (row2["score"], row2["low"], row2["high"])


def test_a_stopped_run_goes_on_in_several_processes(tmp_path):
    out = tmp_path / "run.jsonl"
    peer_match.run("connect_four", "mcts(iterations=30)", "sims=30", 7, 1, str(out),
                   progress=False)
    peer_match.run("connect_four", "mcts(iterations=30)", "sims=30", 7, 3, str(out),
                   progress=False, jobs=2)
    games = _games(out)
    assert [(g["pair"], g["easel_seat"]) for g in games] == [(p, s) for p in range(3)
                                                             for s in (0, 1)]


def test_jobs_below_one_is_refused(capsys):
    with pytest.raises(SystemExit):
        peer_match.main(["connect_four", "--out", "x.jsonl", "--jobs", "0"])
    assert "--jobs must be at least 1, got 0" in capsys.readouterr().err
