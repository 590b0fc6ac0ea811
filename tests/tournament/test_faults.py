"""Faults: a bot that raises, answers an illegal move or runs out of time
forfeits the game, recorded with its reason; a worker that dies has its block
run again; a bot that keeps failing is quarantined."""
from __future__ import annotations

import json
import multiprocessing
import os

from easel.search.recordfiles import read_records
from easel.search.tournament.bots import _claim
from easel.search.tournament.report import game_records, games_csv
from easel.server.cli import main

BOTS = {"good": "heuristic", "other": "random"}


def journal_events(out):
    with open(os.path.join(out, "journal.jsonl")) as f:
        return [json.loads(line) for line in f][1:]


def test_raise_illegal_and_timeout_forfeit_with_their_reasons(run_tournament):
    bots = dict(BOTS, raiser="faulty(mode=raise,after=2)", cheat="faulty(mode=illegal)",
                slow="faulty(mode=sleep,seconds=0.3,after=1)")
    res, out = run_tournament({"seed": 1, "games": ["connect_four"], "bots": bots,
                               "games_per_field": 2, "budgets": {"move_seconds": 0.1},
                               "report": {"bootstrap": 0}}, jobs=2)
    f = res["faults"]["forfeits"]
    # each faulty bot meets the 4 others twice; a game ends at the first fault: cheat
    # faults at its 1st decision, slow at its 2nd, raiser at its 3rd
    assert f["raiser"] == {"raise": 4, "illegal": 0, "timeout": 0}
    assert f["cheat"] == {"raise": 0, "illegal": 8, "timeout": 0}
    assert f["slow"] == {"raise": 0, "illegal": 0, "timeout": 6}
    assert f["good"] == f["other"] == {"raise": 0, "illegal": 0, "timeout": 0}
    ends = res["end_reasons"]["connect_four"]
    # raiser meets cheat and slow: those games end at whoever faults first
    assert sum(ends.values()) == 20 and ends["normal"] == 2
    assert ends["forfeit:raise"] + ends["forfeit:illegal"] + ends["forfeit:timeout"] == 18
    records = [r for e in journal_events(out) if e["type"] == "block" for r in e["games"]]
    for rec in records:
        if rec["end"] == "forfeit":
            seat = rec["fault"]["seat"]
            assert rec["places"][seat] == 2 and rec["places"][1 - seat] == 1
            assert rec["seats"][seat]["bot"] == rec["fault"]["bot"]
            assert rec["fault"]["detail"]
    by = {(r["fault"]["bot"], r["fault"]["reason"]) for r in records if r["fault"]}
    assert by == {("raiser", "raise"), ("cheat", "illegal"), ("slow", "timeout")}
    detail = next(r["fault"]["detail"] for r in records
                  if r["fault"] and r["fault"]["reason"] == "raise")
    assert "deliberate failure" in detail
    csv_text = games_csv(journal_events(out))
    assert ",forfeit,illegal," in csv_text and ",forfeit,timeout," in csv_text
    # games.egn: every game as EGN, forfeits with their fault, each replaying
    egn_path = os.path.join(out, "games.egn")
    read = [r for _, r in read_records(egn_path)]
    assert read == list(game_records(journal_events(out), "tournament")) and len(read) == 20
    text = open(egn_path).read()
    assert '[Event "tournament"]' in text and '[Round "connect_four|' in text
    assert '[End "forfeit"]' in text and '[FaultReason "timeout"]' in text
    assert '[Seat0Name "' in text and "\n[Result" in text
    assert main(["replay", egn_path]) == 0
    html = open(os.path.join(out, "report.html")).read()
    assert "id='plot-faults'" in html


def test_a_hung_move_is_cut_off(run_tournament):
    bots = dict(BOTS, hung="faulty(mode=sleep,seconds=30)")
    res, _ = run_tournament({"seed": 1, "games": ["connect_four"], "bots": bots,
                             "format": "gauntlet", "challenger": "hung",
                             "games_per_field": 2, "budgets": {"move_seconds": 0.2},
                             "report": {"bootstrap": 0}}, report=False)
    assert res["faults"]["forfeits"]["hung"]["timeout"] == 4


def test_a_dead_worker_has_its_block_run_again(run_tournament, tmp_path):
    marker = tmp_path / "died-once"
    bots = dict(BOTS, crasher=f"faulty(mode=exit,after=3,once={marker})")
    data = {"seed": 2, "games": ["connect_four"], "bots": bots, "format": "gauntlet",
            "challenger": "crasher", "games_per_field": 4, "report": {"bootstrap": 0}}
    res, out = run_tournament(data, jobs=2, report=False)
    assert marker.exists()
    f = res["faults"]
    assert f["worker_deaths"] == 1 and f["failed_blocks"] == []
    (died,) = [e for e in journal_events(out) if e["type"] == "worker_died"]
    assert "exited with code 3" in died["detail"]
    assert f["worker_deaths_by_block"] == {died["id"]: 1}
    assert res["progress"]["games"] == 8 and res["progress"]["complete"]
    ids = [e["id"] for e in journal_events(out) if e["type"] == "block"]
    assert len(ids) == len(set(ids)) == 4


def test_of_workers_that_reach_a_once_fault_together_only_one_exits(tmp_path):
    # Check-then-create let two Ray workers both see no marker and both exit (CI, stop 47):
    # the claim must be exclusive. Many processes race for one marker; one wins.
    marker = str(tmp_path / "claimed")
    ctx = multiprocessing.get_context("fork")
    start = ctx.Barrier(8)
    procs, results = [], ctx.Queue()
    for _ in range(8):
        p = ctx.Process(target=_race_claim, args=(start, marker, results))
        p.start()
        procs.append(p)
    won = [results.get(timeout=30) for _ in procs]     # drained before the joins
    for p in procs:
        p.join(30)
    assert sorted(won) == [False] * 7 + [True]
    assert _claim(marker) is False


def _race_claim(start, marker, results):
    start.wait()
    results.put(_claim(marker))


def test_a_block_that_always_kills_its_worker_fails_after_its_retries(run_tournament):
    bots = dict(BOTS, crasher="faulty(mode=exit,after=1)")
    res, out = run_tournament({"seed": 2, "games": ["connect_four"], "bots": bots,
                               "format": "gauntlet", "challenger": "crasher",
                               "games_per_field": 2, "faults": {"retries": 1},
                               "report": {"bootstrap": 0}}, report=False)
    f = res["faults"]
    assert f["worker_deaths"] == 4                 # 2 blocks x (first run + 1 retry)
    assert sorted(x["attempts"] for x in f["failed_blocks"]) == [2, 2]
    assert res["progress"]["games"] == 0 and res["progress"]["complete"]


def test_quarantine_skips_a_failing_bot(run_tournament):
    bots = {"a": "heuristic", "b": "random", "c": "greedy(budget=20)",
            "broken": "faulty(mode=raise)"}
    res, out = run_tournament({"seed": 3, "games": ["connect_four"], "bots": bots,
                               "games_per_field": 20, "faults": {"quarantine_after": 4},
                               "report": {"bootstrap": 0}}, jobs=1, report=False)
    q = res["faults"]["quarantined"]
    assert [x["bot"] for x in q] == ["broken"] and q[0]["forfeits"] >= 4
    # broken played far fewer than its 3 x 20 games; the others played all of theirs
    games = {r["bot"]: r["games"] for r in res["bots"]}
    assert games["broken"] < 20
    assert games["a"] >= 40 and res["progress"]["complete"]
    events = journal_events(out)
    assert sum(1 for e in events if e["type"] == "quarantine") == 1


def test_workers_that_cannot_start_stop_the_run_with_a_clear_error(tmp_path):
    """No block is to blame when no worker starts (here: spawned workers cannot
    re-import a main module read from standard input)."""
    import subprocess
    import sys
    import easel
    home = os.path.dirname(os.path.dirname(os.path.abspath(easel.__file__)))
    script = (
        "from easel.search.tournament import config, runner\n"
        "cfg = config.parse({'seed': 1, 'games': ['connect_four'], 'games_per_field': 2,\n"
        "                    'bots': {'a': 'random', 'b': 'random'}})\n"
        f"cfg, j = runner.open_run(cfg, {str(tmp_path / 'o')!r}, False)\n"
        "try:\n"
        "    runner.run(cfg, j, jobs=1)\n"
        "except runner.TournamentError as e:\n"
        "    print('REFUSED:', e)\n")
    proc = subprocess.run([sys.executable, "-"], input=script, capture_output=True, text=True,
                          cwd=tmp_path, env={**os.environ, "PYTHONPATH": home}, timeout=300)
    assert "REFUSED: a worker process could not start" in proc.stdout, proc.stdout + proc.stderr
    events = journal_events(str(tmp_path / "o"))
    assert not [e for e in events if e["type"] == "block_failed"]
