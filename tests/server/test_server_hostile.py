"""Hostile and careless clients: no file access through game options, bounded
echo of client text, undecodable requests and non-finite numbers refused as
INVALID_ARGUMENT, a candidate in every OK answer, a structured state's
current_player checked, no Python internals in messages, one-line startup
errors. Each test here failed before the service was hardened."""
from __future__ import annotations

import copy
import json
import logging
import os
import re
import struct
import shutil
import socket
import subprocess
import sys
import threading
import time

import grpc
import pytest
from google.protobuf import json_format, struct_pb2

from easel import engine
from easel.v1 import engine_pb2 as pb
from easel.v1 import engine_pb2_grpc as pb_grpc
from easel.server.datafiles import DataFiles
from easel.server.limits import Limits
from easel.server.service import build_server
from server_helpers import assert_status, record, settings

INVALID = grpc.StatusCode.INVALID_ARGUMENT
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DECK = os.path.join(ROOT, "engine", "vangogh", "data", "paintings-placeholder.json")


def new_game(stub, game, timeout=5):
    return stub.NewGame(pb.NewGameRequest(game=game), timeout=timeout)


# -- data files ------------------------------------------------------------------

def test_a_deck_path_is_never_opened(stub, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    messages = {}
    for path in ["/dev/zero", str(fifo), DECK, "/etc/passwd", "/no/such/file", "../data/x",
                 "paintings-placeholder.json/../../../../etc/passwd"]:
        t0 = time.perf_counter()
        with pytest.raises(grpc.RpcError) as e:
            new_game(stub, f"vangogh(deck={path})")
        assert time.perf_counter() - t0 < 2             # no /dev/zero read, no FIFO wait
        assert_status(e, INVALID, "game:", "option 'deck'", "offers paintings-placeholder.json")
        messages[path] = re.sub(r"option 'deck': .* is not the name",
                                "option 'deck': X is not the name", e.value.details())
    # The answer is the same whether the path exists or not: nothing is revealed.
    assert len(set(messages.values())) == 1, messages


def test_a_deck_by_name_from_the_data_directory(tmp_path):
    data = tmp_path / "decks"
    data.mkdir()
    shutil.copy(DECK, data / "house.json")
    (data / "big.json").write_bytes(b" " * 20_000)
    os.symlink("/etc/passwd", data / "link.json")
    srv = build_server(port=0, limits=Limits(max_data_bytes=10_000),
                       files=DataFiles(str(data), max_bytes=10_000)).start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{srv.port}") as ch:
            stub = pb_grpc.EngineStub(ch)
            r = new_game(stub, "vangogh(deck=house.json)")
            # the game string that comes back names the file, never the server's path
            assert r.position.game == "vangogh(deck=house.json)"
            assert str(tmp_path) not in str(r)
            follow = stub.LegalActions(pb.LegalActionsRequest(position=pb.Position(
                record=pb.GameRecord(game=r.position.game))), timeout=5)
            assert follow.actions
            with pytest.raises(grpc.RpcError) as e:
                new_game(stub, "vangogh(deck=big.json)")
            assert_status(e, INVALID, "'big.json': it is 20,000 bytes, over the 10,000 bytes "
                                      "cap on this server's data files (--max-data-bytes)")
            for name in ["link.json", "nothere.json", "paintings-placeholder.json"]:
                with pytest.raises(grpc.RpcError) as e:
                    new_game(stub, f"vangogh(deck={name})")
                assert_status(e, INVALID, "no data file named", "offers big.json, house.json")
                assert str(tmp_path) not in e.value.details()
            opts = {g.name: {o.name: o for o in g.options}
                    for g in stub.ListGames(pb.ListGamesRequest(), timeout=5).games}
            deck = opts["vangogh"]["deck"]
            assert deck.data_file and list(deck.data_files) == ["big.json", "house.json"]
            assert not opts["vangogh"]["players"].data_file
    finally:
        srv.stop(grace=0)


def test_a_bad_deck_file_is_reported_by_name(tmp_path):
    data = tmp_path / "decks"
    data.mkdir()
    (data / "broken.json").write_text('{"cards": []}')
    srv = build_server(port=0, files=DataFiles(str(data))).start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{srv.port}") as ch:
            with pytest.raises(grpc.RpcError) as e:
                new_game(pb_grpc.EngineStub(ch), "vangogh(deck=broken.json)")
            assert_status(e, INVALID, "broken.json", "non-empty list")
            assert str(tmp_path) not in e.value.details()
    finally:
        srv.stop(grace=0)


def test_local_use_still_takes_paths(tmp_path):
    shutil.copy(DECK, tmp_path / "mine.json")
    game = engine.load_game(f"vangogh(deck={tmp_path / 'mine.json'})")
    assert game.new_initial_state() is not None
    local = DataFiles(allow_paths=True).load_game(f"vangogh(deck={tmp_path / 'mine.json'})")
    assert str(tmp_path) in local.spec


def test_data_file_options_are_declared():
    assert engine.game_entry("vangogh").options["deck"].data_file
    assert not engine.game_entry("vangogh").options["players"].data_file


# -- bounded echo ----------------------------------------------------------------------

def test_long_client_text_is_quoted_short(stub):
    long_game = "pig(" + "x" * 12_000 + ")"
    with pytest.raises(grpc.RpcError) as e:
        new_game(stub, long_game)
    assert_status(e, INVALID, "game:", "at most 256 characters", "(12005 chars)")
    assert len(e.value.details()) < 400
    with pytest.raises(grpc.RpcError) as e:
        stub.ApplyAction(pb.ApplyActionRequest(position=record("connect_four"),
                                               action=pb.Step(text="y" * 70_000)), timeout=5)
    assert_status(e, INVALID, "action.text:", "(70000 chars)")
    assert len(e.value.details()) < 400
    with pytest.raises(grpc.RpcError) as e:       # a long bot spec
        stub.Suggest(pb.SuggestRequest(position=record("pig"),
                                       settings=settings(bot="mcts(" + "k" * 20_000 + "=1)")),
                     timeout=5)
    assert e.value.code() == INVALID and len(e.value.details()) <= 1000
    # the channel is unharmed
    assert new_game(stub, "pig").position.game == "pig"


def test_a_newline_in_a_game_string_cannot_forge_a_log_line(stub, caplog):
    caplog.set_level(logging.INFO, logger="easel.server")
    forged = "pig\n2026-01-01 INFO easel.server: NewGame game=pig status=OK"
    with pytest.raises(grpc.RpcError) as e:
        new_game(stub, forged)
    assert "\n" not in e.value.details()
    deadline = time.time() + 5
    while not any("NewGame" in r.getMessage() for r in caplog.records) and time.time() < deadline:
        time.sleep(0.01)
    lines = [r.getMessage() for r in caplog.records if "NewGame" in r.getMessage()]
    assert lines and all("\n" not in line for line in lines)
    assert any("status=INVALID_ARGUMENT" in line and "\\n" in line for line in lines)


# -- undecodable and non-finite input -------------------------------------------------------

def _raw(channel, method, data: bytes, stream=False):
    call = (channel.unary_stream if stream else channel.unary_unary)(
        f"/easel.v1.Engine/{method}", request_serializer=lambda b: b,
        response_deserializer=lambda b: b)
    out = call(data, timeout=10)
    return list(out) if stream else out


def _nested_struct(depth: int) -> bytes:
    """A Value nested `depth` lists deep, as a Struct field's bytes."""
    inner = b""
    for _ in range(depth):
        lv = b"\x0a" + _len(inner) + inner if inner else b""          # ListValue.values
        inner = b"\x32" + _len(lv) + lv                                # Value.list_value
    entry = b"\x0a\x01k" + b"\x12" + _len(inner) + inner               # Struct.FieldsEntry
    return b"\x0a" + _len(entry) + entry                               # Struct.fields


def _len(b: bytes) -> bytes:
    n, out = len(b), b""
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out += bytes([byte | 0x80])
        else:
            return out + bytes([byte])


@pytest.mark.parametrize("method", ["NewGame", "LegalActions", "ApplyAction", "Suggest",
                                    "Analyze"])
def test_undecodable_requests_are_invalid_argument(channel, method):
    bad_utf8 = b"\x0a\x03\xff\xfe\xfd"                 # field 1 (a string) with bad UTF-8
    if method != "NewGame":                            # position.record.game
        rec = b"\x0a\x03\xff\xfe\xfd"
        pos = b"\x0a" + _len(rec) + rec
        bad_utf8 = b"\x0a" + _len(pos) + pos
    struct = _nested_struct(200)
    st = b"\x0a\x03pig" + b"\x12" + _len(struct) + struct          # StructuredState.value
    pos = b"\x12" + _len(st) + st                                     # Position.state
    deep = b"\x0a" + _len(pos) + pos
    cases = [bad_utf8, b"\xff\xff\xff"] + ([deep] if method != "NewGame" else [])
    for data in cases:
        with pytest.raises(grpc.RpcError) as e:
            _raw(channel, method, data, stream=method == "Analyze")
        assert_status(e, INVALID, "could not be decoded")


NON_FINITE = [float("nan"), float("inf"), -float("inf")]
SENTINEL = 12345.6789


@pytest.mark.parametrize("value", NON_FINITE + [1e300])
def test_non_finite_numbers_in_a_structured_state_are_invalid(channel, stub, value):
    # Python's protobuf refuses to write NaN into a Struct (other languages
    # do not): write a sentinel and patch its 8 bytes on the wire.
    game = engine.load_game("vangogh")
    view = game.new_initial_state().to_json()
    for key in ("round", "turn", "finished", "current_player"):
        bad = copy.deepcopy(view)
        bad[key] = SENTINEL
        s = struct_pb2.Struct()
        s.update(bad)
        data = pb.LegalActionsRequest(position=pb.Position(
            state=pb.StructuredState(game="vangogh", value=s))).SerializeToString()
        sentinel = struct.pack("<d", SENTINEL)
        assert data.count(sentinel) == 1
        data = data.replace(sentinel, struct.pack("<d", value))
        with pytest.raises(grpc.RpcError) as e:
            _raw(channel, "LegalActions", data)
        assert_status(e, INVALID, "position.state.value")
    text = json.dumps({**view, "round": value})              # NaN / Infinity literals
    with pytest.raises(grpc.RpcError) as e:
        stub.LegalActions(pb.LegalActionsRequest(position=pb.Position(
            state=pb.StructuredState(game="vangogh", text=text))), timeout=5)
    assert_status(e, INVALID, "position.state.text")


def test_deeply_nested_json_text_is_invalid(stub):
    text = '{"a": ' + "[" * 100_000 + "]" * 100_000 + "}"
    with pytest.raises(grpc.RpcError) as e:
        stub.LegalActions(pb.LegalActionsRequest(position=pb.Position(
            state=pb.StructuredState(game="vangogh", text=text))), timeout=10)
    assert_status(e, INVALID, "position.state.text")


@pytest.mark.parametrize("given", [7, 0.5, 1e300, 1, "0", True])
def test_a_structured_states_current_player_must_agree(stub, given):
    game = engine.load_game("vangogh")
    view = game.new_initial_state().to_json()            # a chance node: current_player -1
    view["current_player"] = given
    s = struct_pb2.Struct()
    s.update(view)
    with pytest.raises(grpc.RpcError) as e:
        stub.LegalActions(pb.LegalActionsRequest(position=pb.Position(
            state=pb.StructuredState(game="vangogh", value=s))), timeout=5)
    # Van Gogh's own loader refuses it (naming the field) before the server's check
    assert_status(e, INVALID, "position.state.value", "current_player")


@pytest.mark.parametrize("given", [7, 0.5, 1])
def test_the_server_checks_current_player_where_the_loader_does_not(stub, given):
    """A game whose loader ignores current_player: the server's own check refuses."""
    from kit_fakes import fake_game
    from easel.engine.kit import Capabilities
    with fake_game("lax_nim", Capabilities(structured_states=True)):
        s = struct_pb2.Struct()
        s.update({"pile": 5, "player": 0, "winner": None, "current_player": given})
        with pytest.raises(grpc.RpcError) as e:
            stub.LegalActions(pb.LegalActionsRequest(position=pb.Position(
                state=pb.StructuredState(game="lax_nim", value=s))), timeout=5)
    assert_status(e, INVALID, "position.state.value.current_player:", "current_player 0")


# -- answers --------------------------------------------------------------------------

@pytest.mark.parametrize("seconds", [1e-9, 1e-6])
def test_a_tiny_time_budget_still_names_a_move(stub, seconds):
    r = stub.Suggest(pb.SuggestRequest(position=record("connect_four"),
                                       settings=settings(seconds=seconds)), timeout=10)
    assert len(r.analysis.candidates) >= 1 and r.analysis.iterations >= 1
    assert r.stop_reason == pb.STOP_REASON_BUDGET
    msgs = list(stub.Analyze(pb.AnalyzeRequest(position=record("connect_four"),
                                               settings=settings(seconds=seconds)), timeout=10))
    assert msgs[-1].final and all(m.analysis.candidates for m in msgs)


@pytest.mark.parametrize("bot", ["mcts(colour=3)", "greedy(colour=3)", "mcts(uct_c=x)",
                                 "mcts(form=3)", "heuristic(depth=2)"])
def test_bad_bot_options_do_not_leak_python_internals(stub, bot):
    with pytest.raises(grpc.RpcError) as e:
        stub.Suggest(pb.SuggestRequest(position=record("pig"), settings=settings(bot=bot)),
                     timeout=10)
    assert_status(e, INVALID, "settings.bot:")
    for internal in ("__init__", "Search.", "()", "Traceback", "keyword argument"):
        assert internal not in e.value.details(), e.value.details()


@pytest.mark.parametrize("which", ["grpc", "http"])
def test_a_port_in_use_is_one_line(tmp_path, which):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        ports = (["--port", str(port), "--no-http"] if which == "grpc" else
                 ["--port", "0", "--no-matches", "--http", f"127.0.0.1:{port}"])
        out = subprocess.run(
            [sys.executable, "-c", "import sys; from easel.server.cli import main; "
                                   "sys.exit(main())", "serve", *ports],
            capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.returncode == 2
    what = " (HTTP)" if which == "http" else ""
    assert out.stderr.strip().splitlines() == [
        f"easel serve: error: cannot listen on 127.0.0.1:{port}{what}: address already in use"], \
        out.stderr


@pytest.mark.parametrize("args, fragment", [
    (["--tls-cert", "x.pem"], "--tls-cert and --tls-key go together"),
    (["--auth-token-file", "/no/such/token"], "cannot read the auth token file"),
    (["--data-dir", "/no/such/dir"], "is not a directory"),
    (["--http", "nowhere"], "--http: write HOST:PORT"),
    (["--http", "127.0.0.1:99999"], "--http: write HOST:PORT"),
    (["--web-dir", "/no/such/dir"], "--web-dir: '/no/such/dir' is not a directory"),
    (["--http-max-connections", "0"], "max_connections must be at least 1"),
    (["--http-max-connections-per-client", "0"], "max_connections_per_client must be"),
    (["--max-analyze-streams-per-client", "0"], "max_analyze_streams_per_client must be"),
    (["--max-streams-per-client", "0"], "max_streams_per_client must be at least 1"),
    (["--max-seat-streams-per-client", "0"], "max_seat_streams_per_client must be"),
    (["--max-health-watches-per-client", "0"], "max_health_watches_per_client must be"),
    (["--max-reflection-streams-per-client", "0"], "max_reflection_streams_per_client must"),
])
def test_serve_startup_errors_are_one_line(args, fragment):
    out = subprocess.run(
        [sys.executable, "-c", "import sys; from easel.server.cli import main; sys.exit(main())",
         "serve", "--port", "0", *args], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.returncode == 2 and fragment in out.stderr, out.stderr
    assert "Traceback" not in out.stderr


def test_suggest_cut_short_by_shutdown_says_so(make_server):
    srv = make_server()
    ch = grpc.insecure_channel(f"127.0.0.1:{srv.port}")
    stub = pb_grpc.EngineStub(ch)
    future = stub.Suggest.future(pb.SuggestRequest(position=record("connect_four"),
                                                   settings=settings(seconds=15)), timeout=30)
    t0 = time.perf_counter()
    while not srv.running_searches():
        assert time.perf_counter() - t0 < 5
        time.sleep(0.005)
    time.sleep(0.1)
    stopper = threading.Thread(target=srv.stop, kwargs={"grace": 5.0})
    stopper.start()
    r = future.result(timeout=10)
    stopper.join(10)
    assert r.stop_reason == pb.STOP_REASON_SHUTDOWN
    assert r.analysis.candidates and r.analysis.iterations > 0
    ch.close()


def test_suggest_stop_reasons(stub):
    r = stub.Suggest(pb.SuggestRequest(position=record("pig"), settings=settings(iterations=50)),
                     timeout=10)
    assert r.stop_reason == pb.STOP_REASON_BUDGET
    r = stub.Suggest(pb.SuggestRequest(position=record("pig"), settings=settings(bot="random")),
                     timeout=10)
    assert r.stop_reason == pb.STOP_REASON_NO_SEARCH


def test_analyze_reports_carry_the_top_few(stub):
    msgs = list(stub.Analyze(pb.AnalyzeRequest(
        position=record("connect_four"), report_interval_ms=10,
        settings=settings(iterations=20_000)), timeout=30))
    assert len(msgs) >= 2
    assert all(len(m.analysis.candidates) <= 3 for m in msgs[:-1])
    assert len(msgs[-1].analysis.candidates) == 7                 # the final one: all
    msgs = list(stub.Analyze(pb.AnalyzeRequest(
        position=record("connect_four"), report_interval_ms=10, report_candidates=5,
        settings=settings(iterations=20_000, num_candidates=2)), timeout=30))
    assert all(len(m.analysis.candidates) <= 2 for m in msgs)
    with pytest.raises(grpc.RpcError) as e:
        list(stub.Analyze(pb.AnalyzeRequest(position=record("pig"), report_candidates=-1),
                          timeout=10))
    assert_status(e, INVALID, "report_candidates:")


# -- table notation --------------------------------------------------------------------------

def test_a_game_without_notation_says_so(stub):
    with pytest.raises(grpc.RpcError) as e:
        stub.LegalActions(pb.LegalActionsRequest(position=pb.Position(
            notation=pb.TableNotation(game="pig", text="whatever"))), timeout=5)
    assert_status(e, INVALID, "position.notation.game:", "pig has no table notation")
    games = {g.name: g for g in stub.ListGames(pb.ListGamesRequest(), timeout=5).games}
    for name, g in games.items():
        assert ("notation" in g.capabilities) == engine.game_entry(name).capabilities.notation


def test_notation_is_wired_for_any_game_that_declares_it(stub, monkeypatch, capsys):
    """A stand-in notation (the serialized record) on pig, declared the way
    games declare it, flows through every surface."""
    from types import SimpleNamespace

    from easel.engine.game import Game
    from easel.server import positions
    from easel.server.cli import main

    monkeypatch.setattr(positions, "capabilities",
                        lambda entry: SimpleNamespace(notation=entry.name == "pig"))
    monkeypatch.setattr(Game, "state_from_notation",
                        lambda self, text: self.deserialize_state(text.replace(";", "\n")),
                        raising=False)
    monkeypatch.setattr(positions, "notation_of",
                        lambda state: state.serialize().strip().replace("\n", ";"))
    text = "easel-state-v1;pig;0;3;1"          # roll, Roll 4, stop
    r = stub.LegalActions(pb.LegalActionsRequest(position=pb.Position(
        notation=pb.TableNotation(game="pig", text=text, expected_player=1))), timeout=5)
    assert r.position.current_player == 1 and r.position.notation == text
    assert not r.position.HasField("record")
    with pytest.raises(grpc.RpcError) as e:
        stub.LegalActions(pb.LegalActionsRequest(position=pb.Position(
            notation=pb.TableNotation(game="pig", text="easel-state-v1;pig;9"))), timeout=5)
    assert_status(e, INVALID, "position.notation.text:")
    r = stub.Suggest(pb.SuggestRequest(position=pb.Position(
        notation=pb.TableNotation(game="pig", text=text)), settings=settings(iterations=50)),
        timeout=10)
    assert r.analysis.player == 1
    assert main(["suggest", "pig", "--position", text, "--iterations", "50"]) == 0
    assert capsys.readouterr().out.startswith("pig: player 2 to move; 50 iterations")
    assert main(["suggest", "connect_four", "--position", "x"]) == 2
    assert "connect_four has no table notation" in capsys.readouterr().err
