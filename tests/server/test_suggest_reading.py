"""`easel suggest` and `easel analyze` as a person reads them (README, "Reading
a hint"): a row per whole turn, the line of play cut into players' turns with
chance outcomes marked, win probability in %, every value on its documented
scale, the default budget that tells the two leading turns apart or says it
did not, --json, --position-file, and the errors of bad inputs.

The positions are those the complaints came from: Van Gogh after the opening
draws (the five rows all read "choose Postman"), a Starving Artists position
whose two leading turns had 19 and 15 visits after 500 iterations, and a Van
Gogh position where a candidate's value was -1.33 on a scale documented as
[-1, 1]."""
from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys

import pytest

from easel import engine
from easel.server.cli import main
from server_helpers import opening

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ROW = re.compile(r"^\s+(\d+)\s+(\d+\.\d)%\s+(\d+)  (?:(\d+\.\d(?: / \d+\.\d)*)\s\s+)?(.*)$")


def played(spec: str, seed, decisions: int) -> list[int]:
    """The steps of `decisions` random decisions (and the chance between and
    after them), drawn with `seed` (or a random.Random): a position in the
    middle of a game."""
    state = engine.load_game(spec).new_initial_state()
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    steps, made = [], 0
    while not state.is_terminal():
        if state.is_chance_node():
            steps.append(engine.draw_outcome(state, rng))
        elif made < decisions:
            steps.append(rng.choice(state.legal_actions()))
            made += 1
        else:
            break
        state.apply_action(steps[-1])
    return steps


def starving_artists_close() -> list[int]:
    """The Starving Artists position of the complaint: after 500 iterations
    (seed 1) its two leading turns have 19 and 15 visits."""
    rng = random.Random(14)
    return played("starving_artists", rng, rng.randrange(5, 40))


def record_file(tmp_path, steps, name="rec.txt"):
    path = tmp_path / name
    path.write_text("".join(f"{s}\n" for s in steps))
    return str(path)


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def parse_rows(out: str) -> list[dict]:
    """The printed table's rows: rank, win (%), visits, scores (text, or
    None), turn, line (the text after "then", or "")."""
    rows = []
    lines = out.splitlines() + [""]
    for i, ln in enumerate(lines[:-1]):
        m = ROW.match(ln)
        if m:
            after = lines[i + 1].strip()
            rows.append({"rank": int(m.group(1)), "win": float(m.group(2)),
                         "visits": int(m.group(3)), "scores": m.group(4), "turn": m.group(5),
                         "line": after[len("then "):] if after.startswith("then ") else ""})
    return rows


def suggest_json(capsys, *argv) -> dict:
    code, out, err = run_cli(capsys, "suggest", *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def turn_texts(candidate: dict) -> list[str]:
    return [s["text"] for s in candidate["pv"][:candidate["turnLength"]]]


# -- a row per whole turn ------------------------------------------------------

GAMES = {
    # game: (steps, iterations): positions whose turns are several decisions
    "vangogh": (opening("vangogh"), 2000),
    "starving_artists": (opening("starving_artists"), 2000),
    "couleurs_de_paris": (opening("couleurs_de_paris"), 1500),
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_row_is_a_whole_turn_with_its_line_of_play(game, tmp_path, capsys):
    steps, iterations = GAMES[game]
    path = record_file(tmp_path, steps)
    argv = [game, "--record", path, "--iterations", str(iterations), "--seed", "1", "--top", "5"]
    code, out, err = run_cli(capsys, "suggest", *argv)
    assert code == 0, err
    answer = suggest_json(capsys, *argv)["analysis"]
    rows = parse_rows(out)
    assert [r["rank"] for r in rows] == list(range(1, len(answer["candidates"]) + 1)), out
    for row, c in zip(rows, answer["candidates"]):
        turn = "; ".join(turn_texts(c))
        assert row["turn"] == turn                          # the whole turn, every step
        assert c["turnText"] == "; ".join(s["text"] for s in c["turn"]) == turn
        assert row["win"] == pytest.approx(100 * c["winProbability"], abs=0.051)   # in %
        assert row["visits"] == int(c["visits"])
        assert row["scores"] == " / ".join(f"{s:.1f}" for s in c["expectedScores"])
        assert row["line"]
    # two rows never read alike: each is a different turn
    assert len({r["turn"] for r in rows}) == len(rows), out


def test_van_gogh_rows_no_longer_read_alike(tmp_path, capsys):
    # The complaint: five rows that all read "choose Postman" (the first step
    # of five different turns).
    path = record_file(tmp_path, opening("vangogh"))
    code, out, err = run_cli(capsys, "suggest", "vangogh", "--record", path,
                             "--iterations", "2000", "--seed", "1", "--top", "5")
    assert code == 0, err
    rows = parse_rows(out)
    assert len(rows) == 5
    assert {r["turn"].split("; ")[0] for r in rows} == {"choose Postman"}   # one first step
    assert len({r["turn"] for r in rows}) == 5          # ... of five different turns
    assert all(r["turn"].count("; ") >= 2 for r in rows)    # each with all its steps


def test_the_line_of_play_separates_turns_and_marks_chance(tmp_path, capsys):
    path = record_file(tmp_path, opening("starving_artists"))
    code, out, err = run_cli(capsys, "suggest", "starving_artists", "--record", path,
                             "--iterations", "2000", "--seed", "1", "--top", "3")
    assert code == 0, err
    lines = [r["line"] for r in parse_rows(out)]
    assert lines and all(ln for ln in lines)
    # every segment names its player; the players alternate between segments
    for ln in lines:
        segments = ln.split(" | ")
        players = [re.match(r"player (\d): ", s).group(1) for s in segments]
        assert all(a != b for a, b in zip(players, players[1:])), ln
    assert any(" | player 2: " in ln for ln in lines)
    # chance outcomes in brackets, assumed ones with "?"; a key says so
    assert any(re.search(r"\[[^]]+\?\]", ln) for ln in lines)
    assert "[...]: a chance outcome" in out
    assert "(chance:" not in out and "*(" not in out


def test_pig_line_gives_the_roll_to_the_turn_it_ends(capsys):
    # A chance outcome right after the suggested turn belongs to that turn:
    # "roll" then its die, before the other player moves.
    code, out, err = run_cli(capsys, "suggest", "pig", "--iterations", "2000", "--seed", "1",
                             "--top", "1")
    assert code == 0, err
    (row,) = parse_rows(out)
    assert row["turn"] == "roll"
    assert row["line"].startswith("player 1: [Roll ")


def test_players_are_counted_from_one(tmp_path, capsys):
    path = record_file(tmp_path, ["x in column 1", "o in column 1", "x in column 2", "o in column 2", "x in column 3", "o in column 3"])
    code, out, err = run_cli(capsys, "suggest", "connect_four", "--record", path,
                             "--iterations", "800", "--seed", "1", "--top", "3")
    assert code == 0, err
    assert out.startswith("connect_four: player 1 to move; 800 iterations")
    rows = parse_rows(out)
    assert rows[0]["turn"] == "x in column 4" and rows[0]["scores"] is None
    assert "scores" not in out                         # connect_four keeps no score


# -- values on their documented scale --------------------------------------------

def test_a_van_gogh_value_below_minus_one_is_on_the_documented_scale(tmp_path, capsys):
    # The complaint: a value of -1.33 printed on a scale documented as [-1, 1].
    # The value is the search's reward, whose scale the answer now states.
    path = record_file(tmp_path, played("vangogh", 1, 60))
    a = suggest_json(capsys, "vangogh", "--record", path, "--iterations", "500", "--seed", "1",
                     "--top", "0")["analysis"]
    low = min(c["value"] for c in a["candidates"])
    assert low < -1.0                                     # the reward below -1 ...
    assert (a["valueMin"], a["valueMax"]) == (-1.5, 1.5)  # ... on its scale (weight 0.5)
    assert all(a["valueMin"] <= c["value"] <= a["valueMax"] for c in a["candidates"])


@pytest.mark.parametrize("spec", ["vangogh(players=3)", "couleurs_de_paris", "starving_artists",
                                  "pig(players=3)", "connect_four", "vangogh(players=1)",
                                  "starving_artists(players=1)"])
def test_every_value_lies_on_its_documented_scale(spec, stub):
    from easel.v1 import engine_pb2 as pb
    from server_helpers import record, settings
    game = engine.load_game(spec)
    margin = game.entry.search_defaults.get("margin_weight", 0.0)
    widen = margin if (game.entry.capabilities.scores and game.num_players() > 1) else 0.0
    for seed in range(3):
        steps = played(spec, seed, 8 * seed)
        r = stub.Suggest(pb.SuggestRequest(position=record(spec, *steps),
                                           settings=settings(iterations=400, seed=seed)),
                         timeout=60)
        a = r.analysis
        assert (a.value_min, a.value_max) == (-1.0 - widen, 1.0 + widen)
        assert a.HasField("leaders_apart")
        for c in a.candidates:
            assert a.value_min <= c.value <= a.value_max
            assert all(a.value_min <= v <= a.value_max for v in c.values)
            assert 0.0 <= c.win_probability <= 1.0 and c.confidence_half_width >= 0.0


# -- the default budget --------------------------------------------------------

def test_a_short_search_says_its_leaders_are_within_noise(tmp_path, capsys):
    # The complaint: at 500 iterations the two leading turns had 19 and 15
    # visits, and nothing said that their order meant nothing.
    path = record_file(tmp_path, starving_artists_close())
    code, out, err = run_cli(capsys, "suggest", "starving_artists", "--record", path,
                             "--iterations", "500", "--seed", "1", "--top", "2")
    assert code == 0, err
    assert [r["visits"] for r in parse_rows(out)] == [19, 15]
    assert "The top two are within noise after 500 iterations" in out


def test_one_row_still_says_the_leaders_are_within_noise(tmp_path, capsys):
    path = record_file(tmp_path, starving_artists_close())
    code, out, err = run_cli(capsys, "suggest", "starving_artists", "--record", path,
                             "--iterations", "500", "--seed", "1", "--top", "1")
    assert code == 0, err
    assert len(parse_rows(out)) == 1
    assert "The top two are within noise after 500 iterations" in out


def test_with_no_budget_the_search_tells_its_leaders_apart(tmp_path, capsys, make_server):
    srv = make_server(default_iterations=100_000, default_seconds=600.0)
    path = record_file(tmp_path, starving_artists_close())
    argv = ["starving_artists", "--record", path, "--seed", "1", "--top", "2",
            "--server", f"127.0.0.1:{srv.port}"]
    r = suggest_json(capsys, *argv)
    a = r["analysis"]
    assert r["stopReason"] == "STOP_REASON_TOLD_APART" and a["leadersApart"] is True
    iterations = int(a["iterations"])
    assert 500 < iterations < 100_000
    assert [int(c["visits"]) for c in a["candidates"]] == [4790, 1104]
    assert "iterations=" not in a["bot"]               # the stopping rule's budget, no cap
    code, out, err = run_cli(capsys, "suggest", *argv)
    assert code == 0, err
    assert (f"The two leading turns were told apart after {iterations:,} iterations, and the "
            f"search stopped there.") in out


def test_with_no_budget_a_search_that_cannot_tell_says_so(tmp_path, capsys, make_server):
    # After x in column 4, o in column 4, x to move has three moves of nearly one value (column 4, and column 5
    # and its mirror image, column 3): the cap (here 3,000 iterations) ends the
    # search before the two leaders are told apart.
    srv = make_server(default_iterations=3000, default_seconds=600.0)
    argv = ["connect_four", "--record", record_file(tmp_path, ["x in column 4", "o in column 4"]), "--seed", "2",
            "--top", "2", "--server", f"127.0.0.1:{srv.port}"]
    code, out, err = run_cli(capsys, "suggest", *argv)
    assert code == 0, err
    r = suggest_json(capsys, *argv)
    assert r["stopReason"] == "STOP_REASON_BUDGET" and r["analysis"]["leadersApart"] is False
    assert int(r["analysis"]["iterations"]) == 3000
    assert "The top two are within noise after 3,000 iterations" in out


# -- --json, --position-file ------------------------------------------------------

def test_json_is_the_whole_response(tmp_path, capsys):
    path = record_file(tmp_path, opening("vangogh"))
    r = suggest_json(capsys, "vangogh", "--record", path, "--iterations", "300", "--seed", "3")
    assert set(r) >= {"analysis", "position", "stopReason"}
    assert r["stopReason"] == "STOP_REASON_BUDGET"
    assert r["position"]["game"] == "vangogh" and r["analysis"]["player"] == 0
    c = r["analysis"]["candidates"][0]
    assert c["turn"] == c["pv"][:c["turnLength"]] and c["turnText"]


def _notation(spec, steps) -> str:
    state = engine.load_game(spec).new_initial_state()
    for s in steps:
        state.apply_action(s)
    return state.to_notation()


def test_position_file_reads_a_table_notation(tmp_path, capsys):
    steps = opening("vangogh")
    path = tmp_path / "position.txt"
    path.write_text(_notation("vangogh", steps))
    by_file = suggest_json(capsys, "vangogh", "--position-file", str(path), "--iterations", "300",
                           "--seed", "3")["analysis"]["candidates"]
    by_text = suggest_json(capsys, "vangogh", "--position", path.read_text(), "--iterations",
                           "300", "--seed", "3")["analysis"]["candidates"]
    assert [c["turnText"] for c in by_file] == [c["turnText"] for c in by_text]


def _fifo(tmp_path):
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return str(path)


@pytest.mark.parametrize("case", ["missing", "fifo", "directory", "too big", "not utf-8"])
@pytest.mark.timeout(60, method="signal")          # a FIFO read would block: fail, do not hang
def test_a_bad_position_file_is_refused_by_name(case, tmp_path, capsys):
    if case == "missing":
        path, why = str(tmp_path / "nope.txt"), "No such file"
    elif case == "fifo":
        path, why = _fifo(tmp_path), "not a regular file"
    elif case == "directory":
        path, why = str(tmp_path), "not a regular file"
    elif case == "too big":
        path, why = str(tmp_path / "big.txt"), "over 1048576 bytes"
        with open(path, "w") as f:
            f.write("#" * ((1 << 20) + 1))
    else:
        path, why = str(tmp_path / "latin1.txt"), "not UTF-8 text"
        with open(path, "wb") as f:
            f.write("phase choose\n# caf\xe9\n".encode("latin-1"))
    code, out, err = run_cli(capsys, "suggest", "vangogh", "--position-file", path)
    assert code == 2 and out == ""
    assert err.startswith("easel suggest: error: --position-file: ") and why in err, err
    assert path in err


def test_a_directory_named_as_a_client_file_is_refused_by_its_flag(tmp_path, capsys):
    # The reader --position-file shares with the TLS and token files: a
    # directory was an IsADirectoryError traceback.
    code, out, err = run_cli(capsys, "suggest", "pig", "--server", "127.0.0.1:9",
                             "--tls-ca", str(tmp_path))
    assert code == 2
    assert f"--tls-ca: cannot read the CA {str(tmp_path)!r}: it is a directory" in err


def test_one_position_at_a_time(tmp_path, capsys):
    path = tmp_path / "p.txt"
    path.write_text("x")
    code, _, err = run_cli(capsys, "suggest", "vangogh", "--position", "x",
                           "--position-file", str(path))
    assert code == 2 and "give one of --record, --position and --position-file" in err


@pytest.mark.parametrize("flag,value,why", [
    ("--iterations", "0", "must be at least 1, got 0"),
    ("--iterations", "-5", "must be at least 1, got -5"),
    ("--iterations", "many", "must be an integer, got 'many'"),
    ("--time", "0", "must be a positive number of seconds, got '0'"),
    ("--time", "-1", "must be a positive number of seconds"),
    ("--time", "nan", "must be a positive number of seconds, got 'nan'"),
    ("--time", "inf", "must be a positive number of seconds, got 'inf'"),
    ("--top", "-1", "must be at least 0, got -1"),
    ("--threads", "-2", "must be at least 0, got -2"),
])
@pytest.mark.parametrize("command", ["suggest", "analyze"])
def test_bad_budgets_are_refused(command, flag, value, why, capsys):
    with pytest.raises(SystemExit) as e:
        main([command, "pig", flag, value])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {flag}: {why}" in err


def test_a_budget_over_the_server_limit_names_it(capsys):
    code, _, err = run_cli(capsys, "suggest", "pig", "--iterations", "2000000")
    assert code == 2
    assert "INVALID_ARGUMENT" in err and "over this server's limit of 1000000" in err


# -- easel analyze ----------------------------------------------------------------

def test_analyze_streams_reports_then_the_final_one(tmp_path, capsys):
    path = record_file(tmp_path, opening("vangogh"))
    code, out, err = run_cli(capsys, "analyze", "vangogh", "--record", path, "--iterations",
                             "6000", "--seed", "1", "--top", "3", "--interval", "10", "--json")
    assert code == 0, err
    reports = [json.loads(ln) for ln in out.splitlines()]
    assert len(reports) >= 2
    assert [r.get("final", False) for r in reports] == [False] * (len(reports) - 1) + [True]
    counts = [int(r["analysis"]["iterations"]) for r in reports]
    assert counts == sorted(counts) and counts[-1] == 6000
    assert all(1 <= len(r["analysis"]["candidates"]) <= 3 for r in reports)
    assert reports[-1]["stopReason"] == "STOP_REASON_BUDGET"


def test_analyze_draws_the_final_table(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    path = record_file(tmp_path, opening("vangogh"))
    code, out, err = run_cli(capsys, "analyze", "vangogh", "--record", path, "--iterations",
                             "2000", "--seed", "1", "--top", "3", "--interval", "10")
    assert code == 0, err
    # piped, the live display prints its last frame: the bar, the header, the table
    assert "2,000 iterations" in out and "vangogh: player 1 to move" in out
    assert "choose Postman" in out and "then player 2:" in out
    assert "The top two are within noise after 2,000 iterations" in out


def _analyze_process(*argv):
    # The build under test (the installed one in CI, where the source tree at
    # ROOT is not compiled), as test_cli_games.py runs it.
    import easel
    home = os.path.dirname(os.path.dirname(os.path.abspath(easel.__file__)))
    # A shell that starts a job in the background (`nohup ... &`) hands it
    # SIGINT ignored, and a child inherits that: Ctrl-C is what this test
    # sends, so the child puts Python's own handler back first. Not with a
    # preexec_fn: that runs Python between fork and exec, in a copy of a
    # test process whose gRPC threads (other tests' servers) are then gone,
    # and gRPC's fork handler aborted the child there (exit -6, "epoll_wait
    # error: Bad file descriptor"), seen under load.
    code = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
            "from easel.server.cli import main; sys.exit(main())")
    return subprocess.Popen(
        [sys.executable, "-c", code, "analyze", *argv], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, cwd=home, env={**os.environ, "PYTHONPATH": home})


def _report_line(proc) -> dict:
    """The child's next report; if it closed its output first, fail with its
    exit code and what it wrote to stderr (an early exit was seen once under
    load and its cause is read from here)."""
    line = proc.stdout.readline()
    if not line:
        _, err = proc.communicate(timeout=60)
        pytest.fail(f"easel analyze ended before its report (exit {proc.returncode}): "
                    f"{err[-4000:]}")
    return json.loads(line)


@pytest.mark.timeout(120)
def test_analyze_with_no_budget_runs_until_ctrl_c():
    proc = _analyze_process("connect_four", "--interval", "20", "--top", "2", "--json")
    try:
        first = [_report_line(proc) for _ in range(3)]
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    reports = first + [json.loads(ln) for ln in out.splitlines()]
    assert not any(r.get("final") for r in reports)         # stopped, not finished
    counts = [int(r["analysis"]["iterations"]) for r in reports]
    assert counts == sorted(counts) and len(set(counts)) == len(counts)


def test_ctrl_c_keeps_the_last_table(capsys, monkeypatch):
    # Ctrl-C while the stream runs: the call is cancelled, the last report's
    # table stays, and says it was stopped.
    from easel.client import EngineClient
    monkeypatch.setenv("COLUMNS", "200")
    real = EngineClient.analyze
    seen = {}

    class Interrupted:
        def __init__(self, call):
            self.call, self.n = call, 0

        def __iter__(self):
            return self

        def __next__(self):
            self.n += 1
            if self.n > 3:
                raise KeyboardInterrupt
            msg = next(self.call)
            seen["iterations"] = msg.analysis.iterations
            return msg

        def cancel(self):
            seen["cancelled"] = True
            self.call.cancel()

    def analyze(self, *args, **kw):
        seen["until_cancelled"] = kw["until_cancelled"]
        return Interrupted(real(self, *args, **kw))

    monkeypatch.setattr(EngineClient, "analyze", analyze)
    code, out, err = run_cli(capsys, "analyze", "connect_four", "--interval", "20", "--top", "2")
    assert code == 0, err
    assert seen["until_cancelled"] and seen["cancelled"]
    assert f"Stopped (Ctrl-C) after {seen['iterations']:,} iterations." in out
    assert "connect_four: player 1 to move" in out and "Ctrl-C stops it" not in out


def test_analyze_asks_a_running_server(stub, server, capsys):
    code, out, err = run_cli(capsys, "analyze", "pig", "--iterations", "3000", "--seed", "1",
                             "--interval", "10", "--json", "--server",
                             f"127.0.0.1:{server.port}")
    assert code == 0, err
    last = json.loads(out.splitlines()[-1])
    assert last["final"] and int(last["analysis"]["iterations"]) == 3000
