"""`easel serve` and `easel suggest` as a user runs them, and the Node.js
example client against a real server."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time

import grpc
import pytest

from easel.v1 import engine_pb2 as pb
from easel.v1 import engine_pb2_grpc as pb_grpc
from easel.server.cli import main
from server_helpers import record, settings

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NODE_DIR = os.path.join(ROOT, "examples", "node")


@pytest.fixture
def served(tmp_path):
    """`easel serve --port 0 --http 127.0.0.1:0` in a subprocess; yields
    (process, port); `process.http` is the HTTP port's URL."""
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from easel.server.cli import main; sys.exit(main())",
         "serve", "--port", "0", "--max-searches", "2", "--grace", "3",
         "--db", str(tmp_path / "matches.sqlite3"), "--http", "127.0.0.1:0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    line = proc.stdout.readline()
    assert line.startswith("listening on 127.0.0.1:"), (line, proc.stderr.read())
    port = int(line.rsplit(":", 1)[1])
    http = proc.stdout.readline()
    assert http.startswith("http on http://127.0.0.1:"), (http, proc.stderr.read())
    proc.http = http.split()[-1]
    yield proc, port
    if proc.poll() is None:
        proc.kill()
        proc.wait()


def test_serve_answers_logs_and_drains_on_sigterm(served):
    proc, port = served
    with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
        stub = pb_grpc.EngineStub(ch)
        assert stub.NewGame(pb.NewGameRequest(game="pig"), timeout=10).position.game == "pig"
        with pytest.raises(grpc.RpcError):
            stub.NewGame(pb.NewGameRequest(game="chess"), timeout=10)
        # a long search in flight when SIGTERM arrives still gets its final report
        call = stub.Analyze(pb.AnalyzeRequest(position=record("connect_four"),
                                              report_interval_ms=30,
                                              settings=settings(seconds=15)), timeout=30)
        next(call)
        proc.send_signal(signal.SIGTERM)
        rest = list(call)
        assert rest[-1].final and rest[-1].stop_reason == pb.STOP_REASON_SHUTDOWN
    assert proc.wait(timeout=10) == 0
    log = proc.stderr.read()
    assert "NewGame game='pig' budget=- status=OK duration_ms=" in log
    assert "NewGame game='chess' budget=- status=INVALID_ARGUMENT" in log
    assert "Analyze game='connect_four' budget=15s status=OK" in log
    assert "shutting down" in log


def test_serve_exits_0_on_sigint(served):
    proc, port = served
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=10) == 0


def test_suggest_command_in_process(tmp_path, capsys):
    path = tmp_path / "game.txt"
    path.write_text("# x, o, x, o, x, o on the bottom row\nx in column 1\no in column 1\n1\no in column 2\n"
                    "x in column 3\no in column 3\n")
    assert main(["suggest", "connect_four", "--record", str(path), "--iterations", "800",
                 "--seed", "1", "--top", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("connect_four: player 1 to move; 800 iterations")
    rows = [ln.split() for ln in out.splitlines() if ln[:4].strip().isdigit()]
    assert len(rows) == 3 and rows[0][0] == "1" and rows[0][-4:] == ["x", "in", "column", "4"]


def test_suggest_command_reads_serialized_states(tmp_path, capsys):
    from easel import engine
    state = engine.load_game("pig").new_initial_state()
    for a in (0, 5, 1):
        state.apply_action(a)
    path = tmp_path / "pig.txt"
    path.write_text(state.serialize())
    assert main(["suggest", "pig", "--record", str(path), "--iterations", "200", "--json"]) == 0
    assert '"player": 1' in capsys.readouterr().out
    assert main(["suggest", "pig(players=3)", "--record", str(path), "--iterations", "5"]) == 2
    assert "not 'pig(players=3)'" in capsys.readouterr().err


def test_suggest_command_against_a_server(served, tmp_path, capsys):
    proc, port = served
    path = tmp_path / "bad.txt"
    path.write_text("x in column 4\nx in column 10\n")
    assert main(["suggest", "connect_four", "--record", str(path),
                 "--server", f"127.0.0.1:{port}"]) == 2
    err = capsys.readouterr().err
    assert "INVALID_ARGUMENT" in err and "position.record.steps[1].text" in err
    assert main(["suggest", "connect_four", "--time", "0.1",
                 "--server", f"127.0.0.1:{port}"]) == 0
    assert "player 1 to move" in capsys.readouterr().out


def _node_ready():
    if shutil.which("node") is None or shutil.which("npm") is None:
        return "node/npm are not installed"
    if not os.path.isdir(os.path.join(NODE_DIR, "node_modules", "@grpc", "grpc-js")):
        return "examples/node/node_modules is missing: run `npm ci` in examples/node"
    return None


@pytest.mark.skipif(_node_ready() is not None and os.environ.get("EASEL_REQUIRE_NODE") != "1",
                    reason=str(_node_ready()))
def test_node_example_client(server):
    # CI sets EASEL_REQUIRE_NODE=1: there a missing Node.js fails this test.
    assert _node_ready() is None, _node_ready()
    out = subprocess.run(["node", "client.js", "--server", f"127.0.0.1:{server.port}",
                          "--iterations", "500"], cwd=NODE_DIR, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "connect_four (2-2 players)" in text and "pig (2-10 players)" in text
    assert ("legal actions: 0:x in column 1 1:x in column 2 2:x in column 3 3:x in column 4 "
            "4:x in column 5 5:x in column 6 6:x in column 7") in text
    assert "applied x in column 4; player 1 to move" in text
    assert "illegal move refused: INVALID_ARGUMENT: action.id:" in text
    long_input = [ln for ln in text.splitlines() if ln.startswith("long input refused:")]
    assert len(long_input) == 1 and int(long_input[0].split("(")[1].split()[0]) < 400
    assert "suggest: player 1, 500 iterations" in text
    best = [ln for ln in text.splitlines() if ln.startswith("best: ")]
    assert len(best) == 1 and best[0][len("best: "):] in {f"o in column {i + 1}" for i in range(7)}


def test_suggest_command_in_process_takes_a_deck_path(tmp_path, capsys):
    # Local use may name files by path; the private server accepts them
    # (and only this process can call it: it wants a random bearer token).
    import shutil
    deck = tmp_path / "my deck.json"
    shutil.copy(os.path.join(ROOT, "engine", "vangogh", "data", "paintings-placeholder.json"),
                deck)
    from easel import engine
    state = engine.load_game(f"vangogh(deck={deck})").new_initial_state()
    steps = []
    while state.is_chance_node():
        a = state.chance_outcomes()[0][0]
        state.apply_action(a)
        steps.append(str(a))
    path = tmp_path / "rec.txt"
    path.write_text("\n".join(steps) + "\n")
    assert main(["suggest", f"vangogh(deck={deck})", "--record", str(path),
                 "--iterations", "30"]) == 0
    assert "30 iterations" in capsys.readouterr().out


def test_serve_answers_over_http_too_and_one_signal_stops_both(served):
    """The README's command serves the page and the same services over HTTP;
    SIGTERM drains both: an HTTP Analyze in flight gets its final report."""
    import json
    import struct
    import threading

    import httpx
    proc, port = served
    with httpx.Client(base_url=proc.http, timeout=30) as c:
        assert c.get("/").status_code == 200
        r = c.post("/easel.v1.Engine/NewGame", json={"game": "pig"})
        assert r.status_code == 200 and r.json()["position"]["game"] == "pig"
        body = json.dumps({"position": {"record": {"game": "connect_four"}},
                           "reportIntervalMs": 30, "settings": {"budget": {"seconds": 15}}}).encode()
        frames = []
        with c.stream("POST", "/easel.v1.Engine/Analyze", content=struct.pack(">BI", 0, len(body))
                      + body, headers={"Content-Type": "application/connect+json"}) as r:
            buf = b""
            signalled = False
            for chunk in r.iter_raw():
                buf += chunk
                while len(buf) >= 5 and len(buf) >= 5 + struct.unpack_from(">BI", buf)[1]:
                    flags, size = struct.unpack_from(">BI", buf)
                    frames.append((flags, json.loads(buf[5:5 + size])))
                    buf = buf[5 + size:]
                if frames and not signalled:
                    signalled = True
                    threading.Timer(0.1, proc.send_signal, (signal.SIGTERM,)).start()
    assert frames[-1] == (2, {})
    assert frames[-2][1]["final"] and frames[-2][1]["stopReason"] == "STOP_REASON_SHUTDOWN"
    assert proc.wait(timeout=15) == 0
    log = proc.stderr.read()
    assert f"on 127.0.0.1:{port}" in log and f"over HTTP on {proc.http}" in log
    assert "NewGame game='pig' budget=- status=OK" in log

