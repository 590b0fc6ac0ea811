"""Running tournaments: the report, SPRT stops, resume after a real kill,
progress, and the CLI."""
from __future__ import annotations

import base64
import csv
import io
import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest
from tournament_helpers import read_results, to_toml, without_timing

from easel.search import levels
from easel.search.tournament import runner
from easel.search.tournament.report import CSV_COLUMNS, PLOTS
from easel.search.tournament.results import RESULTS_FORMAT
from easel.search.tournament.runner import TournamentError
from easel.server.cli import main


def _env():
    import easel
    home = os.path.dirname(os.path.dirname(os.path.abspath(easel.__file__)))
    return {**os.environ, "PYTHONPATH": home}


REPORT_CONFIG = {
    "name": "report check", "seed": 4, "games": ["connect_four", "pig(winscore=30)"],
    "bots": {"h": "heuristic", "r": "random", "g": "greedy(budget=20)",
             "f": "faulty(mode=raise,after=4)"},
    "games_per_field": 8, "sprt": {"elo0": 0, "elo1": 100},
    "report": {"bootstrap": 20},
}


def test_the_report_renders_with_every_plot(run_tournament):
    res, out = run_tournament(REPORT_CONFIG, jobs=2)
    html = open(os.path.join(out, "report.html"), encoding="utf-8").read()
    for pid in set(PLOTS) - {"head_to_head"}:     # each chart drawn for a phone and a desktop
        m = re.search(rf"<figure id='plot-{pid}'><picture><source media='[^']*' "
                      r"srcset='data:image/png;base64,([A-Za-z0-9+/=]+)'><img alt='[^']*' "
                      r"src='data:image/png;base64,([A-Za-z0-9+/=]+)'>", html)
        assert m, f"plot {pid} missing"
        for png in map(base64.b64decode, m.groups()):
            assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 2000
    assert "<figure id='plot-head_to_head'><div class='scroll'><table class='heatmap'>" in html
    # self-contained: no script, no outside file
    assert "<script" not in html and "http://" not in html and "https://" not in html
    assert "report check" in html and "h vs r" in html
    # results.json: the documented top-level keys, and a games CSV row per seat
    res_file = read_results(out)
    assert res_file["format"] == RESULTS_FORMAT
    assert set(res_file) == {"format", "name", "fingerprint", "config", "progress", "ratings",
                             "seats", "pairs", "head_to_head", "bots", "points", "end_reasons",
                             "faults", "timing"}
    rows = list(csv.DictReader(io.StringIO(open(os.path.join(out, "games.csv")).read())))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert len(rows) == 2 * res["progress"]["games"]
    assert {r["end"] for r in rows} == {"normal", "forfeit"}
    sprt_pairs = [p for p in res["pairs"] if p["sprt"]]
    assert len(sprt_pairs) == 12 and all(len(p["sprt"]["trace"]) == p["blocks"]
                                         for p in sprt_pairs)
    assert all(p["pentanomial"] and sum(p["pentanomial"].values()) == p["blocks"]
               for p in sprt_pairs)


def test_a_report_without_sprt_says_so(run_tournament):
    data = {"seed": 1, "games": ["vangogh(players=3)"], "games_per_field": 6,
            "bots": {"a": "heuristic", "b": "random", "c": "greedy(budget=10)"},
            "report": {"bootstrap": 5}}
    res, out = run_tournament(data)
    html = open(os.path.join(out, "report.html"), encoding="utf-8").read()
    assert "id='plot-sprt-absent'" in html and "No SPRT ran" in html
    assert "id='plot-faults-absent'" in html and "no forfeits" in html    # nothing to draw
    for pid in set(PLOTS) - {"sprt", "faults"}:
        assert f"id='plot-{pid}'" in html
    assert res["seats"]["vangogh(players=3)"][0]["elo"] == 0.0
    assert len(res["points"]["vangogh(players=3)|a"]) == 6


def test_sprt_stops_a_decided_pairing(run_tournament):
    data = {"seed": 5, "games": ["connect_four"], "format": "head-to-head",
            "bots": {"h": "heuristic", "r": "random"}, "games_per_field": 400,
            "sprt": {"elo0": 0, "elo1": 50}, "report": {"bootstrap": 0}}
    res, out = run_tournament(data, jobs=2, report=False)
    (pair,) = res["pairs"]
    assert pair["sprt"]["decision"] == "H1"
    decided = pair["sprt"]["decided_at_block"]
    assert pair["blocks"] == decided + 1 < 200
    assert res["progress"]["complete"]
    # blocks finished after the decision are journaled but not counted
    assert res["progress"]["blocks_journaled"] >= res["progress"]["blocks_counted"]


RESUME_CONFIG = {
    "name": "resume", "seed": 9, "games": ["vangogh(players=3)", "pig(winscore=40)"],
    "bots": {"h1": "heuristic", "h2": "heuristic", "r": "random", "g": "greedy(budget=10)"},
    "games_per_field": 24, "report": {"bootstrap": 30}, "run": {"jobs": 2},
}


def _blocks_in(path):
    try:
        with open(path, "rb") as f:
            return f.read().count(b'"type":"block"')
    except FileNotFoundError:
        return 0


def test_resume_after_a_real_kill_equals_an_uninterrupted_run(run_tournament, tmp_path):
    full, _ = run_tournament(RESUME_CONFIG, report=False)
    cfg_path = tmp_path / "resume.toml"
    cfg_path.write_text(to_toml(RESUME_CONFIG))
    out = tmp_path / "killed"
    proc = subprocess.Popen([sys.executable, "-m", "easel.server.cli", "tournament",
                             str(cfg_path), "--out", str(out), "--no-progress"],
                            cwd=tmp_path, env=_env(), start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    journal = out / "journal.jsonl"
    deadline = time.monotonic() + 300
    while _blocks_in(journal) < 6 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, "the run ended before it could be killed: " + \
        proc.stderr.read().decode()
    os.killpg(proc.pid, signal.SIGKILL)            # the driver and its workers, at once
    proc.wait(30)
    done = _blocks_in(journal)
    total = full["progress"]["blocks_planned"]
    assert 6 <= done < total
    assert not (out / "results.json").exists()
    resumed = subprocess.run([sys.executable, "-m", "easel.server.cli", "tournament",
                              "--resume", str(out), "--no-progress"], cwd=tmp_path, env=_env(),
                             capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    again = read_results(out)
    assert without_timing(again) == json.loads(json.dumps(without_timing(full)))
    events = [json.loads(x) for x in journal.read_text().splitlines()[1:]]
    ids = [e["id"] for e in events if e["type"] == "block"]
    assert len(ids) == len(set(ids)) == total


def test_resume_refuses_another_configuration(run_tournament, tmp_path, capsys):
    data = {"seed": 1, "games": ["connect_four"], "bots": {"a": "random", "b": "random"},
            "games_per_field": 2, "report": {"bootstrap": 0}}
    _, out = run_tournament(data, report=False)
    other = tmp_path / "other.toml"
    other.write_text(to_toml({**data, "seed": 2}))
    assert main(["tournament", str(other), "--resume", out]) == 2
    assert "another configuration" in capsys.readouterr().err
    same = tmp_path / "same.toml"
    same.write_text(to_toml(data))
    assert main(["tournament", str(same), "--out", out]) == 2
    assert "exists already" in capsys.readouterr().err


def test_cli_progress_line_and_summary(tmp_path):
    data = {"name": "cli", "seed": 1, "games": ["connect_four"],
            "bots": {"h": "heuristic", "r": "random"}, "games_per_field": 6,
            "report": {"bootstrap": 10}}
    cfg = tmp_path / "cli.json"
    cfg.write_text(json.dumps(data))
    proc = subprocess.run([sys.executable, "-m", "easel.server.cli", "tournament", str(cfg),
                           "--jobs", "2"], cwd=tmp_path, env=_env(), capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"6/6 games, 3/3 blocks, \d+ games/h, ETA .*, leader: h", proc.stderr)
    assert "cli: 6 games in 3 blocks; results in cli/" in proc.stdout
    assert re.search(r"h +\+\d+\.\d", proc.stdout)
    assert (tmp_path / "cli" / "report.html").exists()
    again = subprocess.run([sys.executable, "-m", "easel.server.cli", "tournament",
                            "--report", "cli"], cwd=tmp_path, env=_env(), capture_output=True,
                           text=True, timeout=600)
    assert again.returncode == 0, again.stderr


def test_resume_refuses_a_level_table_that_changed(run_tournament, monkeypatch):
    """`level(N)` names a row of search/levels.py: the journal keeps the rows
    its games played, and a resume under a changed table is refused by name."""
    data = {"seed": 3, "games": ["pig(winscore=20)"],
            "bots": {"low": "level(1)", "r": "random"},
            "games_per_field": 2, "report": {"bootstrap": 0}}
    _, out = run_tournament(data, report=False)
    with open(os.path.join(out, "journal.jsonl")) as f:
        header = json.loads(f.readline())
    assert header["levels"] == {"pig(winscore=20)": {"low": "mcts(iterations=30,temperature=0.1)"}}
    cfg, journal = runner.open_run(None, out, resume=True)      # the same table: resumes
    journal.close()
    monkeypatch.setitem(levels.TABLES, "pig", (levels.Level(40, 0.1),) + levels.TABLES["pig"][1:])
    with pytest.raises(TournamentError) as e:
        runner.open_run(None, out, resume=True)
    assert ("'low' in pig(winscore=20) played mcts(iterations=30,temperature=0.1) in this "
            "journal but is mcts(iterations=40,temperature=0.1)") in str(e.value)


def test_level_check_skips_old_journals_and_refuses_a_bad_header():
    runner._check_levels("d", None, {"pig": {"a": "mcts(iterations=30)"}})
    with pytest.raises(TournamentError, match='"levels" is not a table'):
        runner._check_levels("d", {"pig": ["x"]}, {})


def test_resume_refuses_search_bots_whose_game_default_changed(run_tournament, monkeypatch):
    """The journal keeps the options each search bot played with, the
    game's defaults filled in; a resume after a default changed is refused,
    naming the option."""
    from easel.search import params
    data = {"seed": 3, "games": ["pig(winscore=20)"],
            "bots": {"m": "mcts(iterations=20)", "low": "level(1)", "r": "random"},
            "games_per_field": 2, "report": {"bootstrap": 0}}
    _, out = run_tournament(data, report=False)
    with open(os.path.join(out, "journal.jsonl")) as f:
        header = json.loads(f.readline())
    searches = header["searches"]["pig(winscore=20)"]
    assert set(searches) == {"m", "low"}
    assert searches["m"]["iterations"] == 20 and searches["low"]["temperature"] == 0.1
    assert searches["m"]["margin_weight"] == 0.0 and "seed" not in searches["m"]
    cfg, journal = runner.open_run(None, out, resume=True)      # the same defaults: resumes
    journal.close()
    real = params.search_defaults
    monkeypatch.setattr(params, "search_defaults",
                        lambda game: {**real(game), "margin_weight": 0.5})
    with pytest.raises(TournamentError) as e:
        runner.open_run(None, out, resume=True)
    assert "played with other search options in this journal than in this build " \
           "(margin_weight: 0.0 -> 0.5" in str(e.value)
    runner._check_searches("d", None, searches)              # a journal from before: unchecked
    with pytest.raises(TournamentError, match='"searches" is not a table'):
        runner._check_searches("d", {"pig": {"m": 3}}, {})


def test_a_ladder_tournament_rates_every_bot_from_neighbour_games(run_tournament):
    data = {"seed": 8, "games": ["connect_four"], "format": "ladder", "reach": 1,
            "bots": {"r": "random", "g": "greedy(budget=20)", "h": "heuristic",
                     "m": "mcts(iterations=60)"},
            "games_per_field": 4, "report": {"bootstrap": 20}}
    res, out = run_tournament(data)
    assert res["progress"]["blocks_planned"] == 3 * 2 and res["progress"]["complete"]
    assert {r["bot"] for r in res["ratings"]["overall"]} == {"r", "g", "h", "m"}
    h2h = res["head_to_head"]
    games = dict(zip(h2h["bots"], h2h["games"]))
    assert games["r"] == [0, 4, 0, 0] and games["g"] == [4, 0, 4, 0]
    html = open(os.path.join(out, "report.html"), encoding="utf-8").read()
    assert "format ladder (reach 1)" in html
