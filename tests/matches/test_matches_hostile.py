"""Hostile clients of easel.v1.Matches (and of the long-lived calls every
service of the server has): undecodable bytes and out-of-range numbers are
INVALID_ARGUMENT naming the field, client text reaches the log short and
escaped, nobody can lock a seat out of watching its own match, a stream
that stops reading gives its slot back, and no kind of long-lived call can
take the worker threads that unary calls need. Each test here failed before
the service was hardened (issue #27)."""
from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from easel.server.analysis import Limits
from easel.server.matches import MatchLimits, MatchManager, Store
from easel.server.service import build_server
from easel.v1 import engine_pb2 as epb
from easel.v1 import engine_pb2_grpc
from easel.v1 import matches_pb2 as pb
from easel.v1 import matches_pb2_grpc
from match_helpers import assert_status, bot, client

INVALID = grpc.StatusCode.INVALID_ARGUMENT
EXHAUSTED = grpc.StatusCode.RESOURCE_EXHAUSTED
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
METHODS = {m.name: m for m in pb.DESCRIPTOR.services_by_name["Matches"].methods}


def _raw(channel, method, data: bytes, timeout=10):
    m = METHODS[method]
    path = f"/easel.v1.Matches/{method}"
    if m.server_streaming:
        call = channel.unary_stream(path, request_serializer=lambda b: b,
                                    response_deserializer=lambda b: b)
        return list(call(data, timeout=timeout))
    return channel.unary_unary(path, request_serializer=lambda b: b,
                               response_deserializer=lambda b: b)(data, timeout=timeout)


def _len(n: int) -> bytes:
    out = b""
    while True:
        b, n = n & 0x7F, n >> 7
        if n:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


def _create(served, game="connect_four", seats=None, **kw):
    return served.matches.CreateMatch(pb.CreateMatchRequest(
        game=game, seats=seats or [client(), client()], **kw), timeout=20)


# -- undecodable requests and numbers out of range ------------------------------------------

@pytest.mark.parametrize("method", sorted(METHODS))
def test_undecodable_requests_are_invalid_argument_naming_the_field(served, method):
    first = next(f for f in METHODS[method].input_type.fields if f.type == f.TYPE_STRING)
    bad_utf8 = bytes([first.number << 3 | 2]) + b"\x03\xff\xfe\xfd"
    with pytest.raises(grpc.RpcError) as e:
        _raw(served.channel, method, bad_utf8)
    assert_status(e, INVALID, f"{first.name}: ", "not valid UTF-8")
    with pytest.raises(grpc.RpcError) as e:
        _raw(served.channel, method, b"\xff\xff\xff")
    assert_status(e, INVALID, "could not be decoded")


def test_a_bad_string_deep_in_a_request_is_named_by_its_path(served):
    seat = b"\x0a\x03\xff\xfe\xfd"                                   # SeatConfig.bot
    req = b"\x0a\x0cconnect_four" + b"\x12" + _len(len(seat)) + seat  # CreateMatchRequest.seats
    with pytest.raises(grpc.RpcError) as e:
        _raw(served.channel, "CreateMatch", req)
    assert_status(e, INVALID, "seats[0].bot: ", "not valid UTF-8")


@pytest.mark.parametrize("token", [str(2 ** 80), str(2 ** 63), str(-2 ** 80), "-1", "0",
                                   "1" * 5000, "abc", " "])
def test_page_tokens_out_of_range_are_invalid_argument(served, token):
    _create(served)
    with pytest.raises(grpc.RpcError) as e:
        served.matches.ListMatches(pb.ListMatchesRequest(page_token=token), timeout=10)
    assert_status(e, INVALID, "page_token: ")


# -- the log --------------------------------------------------------------------------------

def _log_of(caplog, since: int) -> str:
    return "\n".join(r.getMessage() for r in caplog.records[since:])


def test_a_huge_match_id_is_logged_short(served, caplog):
    caplog.set_level(logging.INFO, logger="easel.server")
    since = len(caplog.records)
    for method, req in [("GetMatch", pb.GetMatchRequest), ("Resign", pb.ResignRequest),
                        ("Abort", pb.AbortRequest), ("SubmitAction", pb.SubmitActionRequest),
                        ("RequestHint", pb.RequestHintRequest)]:
        with pytest.raises(grpc.RpcError) as e:
            getattr(served.matches, method)(req(match_id="x" * 3_000_000), timeout=20)
        assert e.value.code() == INVALID and len(e.value.details()) < 1000
    with pytest.raises(grpc.RpcError):
        list(served.matches.WatchMatch(pb.WatchMatchRequest(match_id="x" * 3_000_000),
                                       timeout=20))
    time.sleep(0.2)                 # the access log is written as the call ends
    log = _log_of(caplog, since)
    assert "(3000000 chars)" in log
    assert len(log) < 3000, len(log)


@pytest.mark.parametrize("method", ["GetMatch", "WatchMatch", "Abort", "CreateMatch"])
def test_a_newline_in_client_text_cannot_forge_a_log_line(served, caplog, method):
    caplog.set_level(logging.INFO, logger="easel.server")
    since = len(caplog.records)
    forged = "abc\n2026-01-01 INFO easel.server.matches: GetMatch match=x status=OK"
    field = "game" if method == "CreateMatch" else "match_id"
    req = getattr(pb, METHODS[method].input_type.name)(**{field: forged})
    with pytest.raises(grpc.RpcError):
        call = getattr(served.matches, method)(req, timeout=10)
        if METHODS[method].server_streaming:
            list(call)
    deadline = time.time() + 5
    while method not in _log_of(caplog, since) and time.time() < deadline:
        time.sleep(0.01)
    lines = [r.getMessage() for r in caplog.records[since:] if method in r.getMessage()]
    assert lines and all("\n" not in line for line in lines)
    assert any("\\n" in line for line in lines)


def _serve(tmp_path, *args):
    """`easel serve` in a subprocess on a free port: (process, address)."""
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from easel.server.cli import main; sys.exit(main())",
         "serve", "--port", "0", "--no-http", "--db", str(tmp_path / "m.sqlite3"),
         "--bot-threads", "1",
         *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    line = proc.stdout.readline()
    assert line.startswith("listening on "), (line, proc.stderr.read() if proc.poll() else "")
    return proc, line.split()[-1]


def test_serve_logs_stay_one_line_a_record_and_short(tmp_path):
    token = tmp_path / "token"
    token.write_text("s3cret")
    proc, address = _serve(tmp_path, "--auth-token-file", str(token))
    try:
        with grpc.insecure_channel(address) as ch:
            stub = matches_pb2_grpc.MatchesStub(ch)
            auth = [("authorization", "Bearer s3cret")]
            for _ in range(5):
                with pytest.raises(grpc.RpcError):
                    stub.GetMatch(pb.GetMatchRequest(match_id="y" * 3_000_000), timeout=20,
                                  metadata=auth)
            forged = "a\n2026-01-01 00:00:00,000 INFO easel.server: FORGED"
            with pytest.raises(grpc.RpcError):
                stub.GetMatch(pb.GetMatchRequest(match_id=forged), timeout=10, metadata=auth)
            with pytest.raises(grpc.RpcError) as e:
                stub.GetMatch(pb.GetMatchRequest(match_id="z" * 1000), timeout=10)
            assert e.value.code() == grpc.StatusCode.UNAUTHENTICATED
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    assert len(err) < 20_000, len(err)
    assert not any("FORGED" in line and not line.startswith("20") for line in err.splitlines())
    assert not any(line.startswith("2026-01-01") for line in err.splitlines())
    assert "status=UNAUTHENTICATED" in err


# -- watching: seats are never locked out, stalled streams give their slot back ------------

def test_spectators_cannot_lock_a_seat_out_of_its_own_match(serve):
    served = serve(max_streams_per_match=4, max_streams=6)
    made = _create(served)
    spectators = [served.matches.WatchMatch(pb.WatchMatchRequest(match_id=made.match_id),
                                            timeout=60) for _ in range(4)]
    for s in spectators:
        next(s)
    with pytest.raises(grpc.RpcError) as e:
        next(served.matches.WatchMatch(pb.WatchMatchRequest(match_id=made.match_id),
                                       timeout=10))
    assert_status(e, EXHAUSTED, "limit max_streams_per_match")
    # every seat still watches its own match
    for seat in made.seat_tokens:
        own = served.matches.WatchMatch(pb.WatchMatchRequest(
            match_id=made.match_id, token=seat.token), timeout=10)
        assert next(own).WhichOneof("event") == "snapshot"
        own.cancel()
    for s in spectators:
        s.cancel()


def test_spectators_filling_the_server_leave_seats_their_streams(serve):
    served = serve(max_streams_per_match=2, max_streams=2)
    a, b = _create(served), _create(served)
    spectators = [served.matches.WatchMatch(pb.WatchMatchRequest(match_id=a.match_id),
                                            timeout=60) for _ in range(2)]
    for s in spectators:
        next(s)
    with pytest.raises(grpc.RpcError) as e:
        next(served.matches.WatchMatch(pb.WatchMatchRequest(match_id=b.match_id), timeout=10))
    assert_status(e, EXHAUSTED, "limit max_streams")
    own = served.matches.WatchMatch(pb.WatchMatchRequest(
        match_id=b.match_id, token=b.seat_tokens[0].token), timeout=10)
    assert next(own).WhichOneof("event") == "snapshot"
    for s in spectators + [own]:
        s.cancel()


def test_a_seats_newest_stream_takes_the_place_of_its_oldest(served):
    made = _create(served)
    token = made.seat_tokens[0].token
    streams = []
    for _ in range(3):      # one at a time, so the server sees them in this order
        streams.append(served.matches.WatchMatch(
            pb.WatchMatchRequest(match_id=made.match_id, token=token), timeout=30))
        assert next(streams[-1]).WhichOneof("event") == "snapshot"
    with pytest.raises(grpc.RpcError) as e:
        next(streams[0])
    assert_status(e, grpc.StatusCode.ABORTED, "a newer WatchMatch stream of seat 0")
    served.matches.SubmitAction(pb.SubmitActionRequest(
        match_id=made.match_id, token=token, step=0, action=epb.Step(text="x in column 4")), timeout=10)
    for s in streams[1:]:
        assert next(s).step.step == 0
        s.cancel()


def _wait(condition, seconds=20.0):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_a_stream_that_stops_reading_gives_its_slot_back(tmp_path):
    """Spectators that never read a long bot match with positions: their
    slots come back (once the flow-control window is full, the send waits
    for `stream_stall_seconds`), the match's own end included."""
    limits = Limits(max_iterations=2000, max_seconds=5, stream_stall_seconds=0.5)
    manager = MatchManager(Store(str(tmp_path / "m.sqlite3")),
                           MatchLimits(bot_threads=1, max_streams_per_match=2), limits).start()
    srv = build_server(port=0, limits=limits, matches=manager).start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{srv.port}") as ch:
            stub = matches_pb2_grpc.MatchesStub(ch)
            made = stub.CreateMatch(pb.CreateMatchRequest(
                game="pig(winscore=100000,horizon=100000)", seats=[bot("random"),
                                                                   bot("random")]),
                timeout=20)
            idle = [stub.WatchMatch(pb.WatchMatchRequest(match_id=made.match_id, positions=True),
                                    timeout=120) for _ in range(2)]
            _wait(lambda: srv.streams.held("max_streams_per_match", made.match_id) == 2)
            # never read: the window fills, the sends stall, the slots come back
            _wait(lambda: srv.streams.held("max_streams_per_match", made.match_id) == 0, 60)
            fresh = stub.WatchMatch(pb.WatchMatchRequest(match_id=made.match_id), timeout=30)
            assert next(fresh).WhichOneof("event") == "snapshot"
            fresh.cancel()
            for s in idle:
                with pytest.raises(grpc.RpcError) as e:
                    list(s)
                assert e.value.code() == grpc.StatusCode.CANCELLED
    finally:
        srv.stop(grace=0)
        manager.store.close()


# -- every long-lived call has its own slots; unary calls keep their workers ----------------

def _idle_reflection(channel, n):
    """n reflection streams that send nothing: (calls, release)."""
    done = threading.Event()

    def nothing():
        done.wait()
        return
        yield                                       # pragma: no cover

    stub = reflection_pb2_grpc.ServerReflectionStub(channel)
    calls = [stub.ServerReflectionInfo(nothing(), timeout=60) for _ in range(n)]
    return calls, done


def test_idle_reflection_streams_leave_unary_calls_their_workers(tmp_path):
    limits = Limits(max_reflection_streams=3, max_reflection_streams_per_client=3)
    manager = MatchManager(Store(str(tmp_path / "m.sqlite3")), MatchLimits(bot_threads=1),
                           limits).start()
    srv = build_server(port=0, limits=limits, matches=manager).start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{srv.port}") as ch:
            calls, release = _idle_reflection(ch, 120)
            _wait(lambda: srv.streams.held("max_reflection_streams") == 3)
            _wait(lambda: sum(1 for c in calls if c.done()) == 117)
            for c in calls:
                if c.done():            # refused at once, naming the limit
                    assert c.code() == EXHAUSTED and "limit max_reflection_streams" in \
                        c.details()
            health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=5)
            engine_pb2_grpc.EngineStub(ch).ListGames(epb.ListGamesRequest(), timeout=5)
            matches_pb2_grpc.MatchesStub(ch).CreateMatch(pb.CreateMatchRequest(
                game="connect_four", seats=[client(), client()]), timeout=5)
            release.set()
            for c in calls:
                c.cancel()
    finally:
        srv.stop(grace=0)
        manager.store.close()


def test_an_idle_reflection_stream_is_ended(make_engine):
    srv, ch = make_engine(max_reflection_streams=1, reflection_idle_seconds=0.3)
    calls, release = _idle_reflection(ch, 1)
    _wait(lambda: calls[0].done(), 10)
    assert calls[0].code() == grpc.StatusCode.CANCELLED
    stub = reflection_pb2_grpc.ServerReflectionStub(ch)
    answers = list(stub.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(
        list_services="")]), timeout=10))
    assert "easel.v1.Engine" in str(answers[0])
    release.set()


def test_undecodable_health_and_reflection_requests_are_invalid_argument(make_engine):
    srv, ch = make_engine()
    for path in ["/grpc.health.v1.Health/Check", "/grpc.health.v1.Health/Watch"]:
        call = (ch.unary_stream if path.endswith("Watch") else ch.unary_unary)(
            path, request_serializer=lambda b: b, response_deserializer=lambda b: b)
        with pytest.raises(grpc.RpcError) as e:
            out = call(b"\x0a\x03\xff\xfe\xfd", timeout=5)
            if path.endswith("Watch"):
                list(out)
        assert_status(e, INVALID, "service: ", "not valid UTF-8")
    call = ch.stream_stream("/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
                            request_serializer=lambda b: b, response_deserializer=lambda b: b)
    with pytest.raises(grpc.RpcError) as e:
        list(call(iter([b"\x1a\x03\xff\xfe\xfd"]), timeout=5))
    assert_status(e, INVALID, "file_by_filename: ", "not valid UTF-8")


def test_health_watches_are_bounded(make_engine):
    srv, ch = make_engine(max_health_watches=2)
    stub = health_pb2_grpc.HealthStub(ch)
    watches = [stub.Watch(health_pb2.HealthCheckRequest(service="easel.v1.Engine"), timeout=30)
               for _ in range(2)]
    for w in watches:
        assert next(w).status == health_pb2.HealthCheckResponse.SERVING
    with pytest.raises(grpc.RpcError) as e:
        next(stub.Watch(health_pb2.HealthCheckRequest(), timeout=10))
    assert_status(e, EXHAUSTED, "limit max_health_watches")
    with pytest.raises(grpc.RpcError) as e:
        next(stub.Watch(health_pb2.HealthCheckRequest(service="s" * 100_000), timeout=10))
    assert e.value.code() in (EXHAUSTED, INVALID)
    for w in watches:
        w.cancel()
    _wait(lambda: srv.streams.held("max_health_watches") == 0)
    with pytest.raises(grpc.RpcError) as e:
        next(stub.Watch(health_pb2.HealthCheckRequest(service="s" * 100_000), timeout=10))
    assert_status(e, INVALID, "service: at most 200 characters")
    assert stub.Check(health_pb2.HealthCheckRequest(), timeout=5).status == \
        health_pb2.HealthCheckResponse.SERVING


def test_analyze_streams_have_their_own_slots(make_engine):
    srv, ch = make_engine(max_analyze_streams=1, stream_stall_seconds=0.5)
    stub = engine_pb2_grpc.EngineStub(ch)
    first = stub.Analyze(analyze_request(iterations=50_000_000), timeout=60)
    next(first)
    with pytest.raises(grpc.RpcError) as e:
        next(stub.Analyze(analyze_request(iterations=100), timeout=10))
    assert_status(e, EXHAUSTED, "limit max_analyze_streams")
    first.cancel()              # its search slot and stream slot come back
    _wait(lambda: srv.running_searches() == 0 and srv.streams.held("max_analyze_streams") == 0)
    assert list(stub.Analyze(analyze_request(iterations=100), timeout=30))[-1].final


def test_one_client_cannot_hold_every_analyze_slot():
    """Analyze streams are bounded per client too (its token's name here):
    alice's third stream is refused naming her own limit, bob still
    analyzes (before, alice could hold all of max_analyze_streams)."""
    srv = build_server(port=0, limits=Limits(
        max_iterations=100_000_000, max_seconds=60, max_concurrent_searches=4,
        max_analyze_streams=3, max_analyze_streams_per_client=2),
        auth_token={"alice": "tok-alice-1234", "bob": "tok-bob-5678"}).start()
    alice = (("authorization", "Bearer tok-alice-1234"),)
    bob = (("authorization", "Bearer tok-bob-5678"),)
    streams = []
    try:
        with grpc.insecure_channel(f"127.0.0.1:{srv.port}") as ch:
            stub = engine_pb2_grpc.EngineStub(ch)

            def analyze(md):
                streams.append(stub.Analyze(analyze_request(iterations=50_000_000), timeout=60,
                                            metadata=md))
                return next(streams[-1])

            analyze(alice)
            analyze(alice)
            with pytest.raises(grpc.RpcError) as e:
                analyze(alice)
            assert_status(e, EXHAUSTED, "limit max_analyze_streams_per_client",
                          "from your client")
            # told when to retry, as the search queue's refusals are
            assert ("grpc-retry-pushback-ms", "1000") in tuple(e.value.trailing_metadata())
            assert not analyze(bob).final           # bob is not locked out
            assert srv.streams.held("max_analyze_streams") == 3
            for s in streams:
                s.cancel()
    finally:
        srv.stop(grace=0)


def test_one_client_cannot_hold_every_health_watch_or_reflection_stream():
    """Health watches and reflection streams are bounded per client too:
    alice's third of each is refused naming her own limit, bob still gets
    his (before, alice could hold all of each kind)."""
    srv = build_server(port=0, limits=Limits(
        max_health_watches=3, max_health_watches_per_client=2,
        max_reflection_streams=3, max_reflection_streams_per_client=2,
        # idle streams on purpose: no watchdog may end them on a slow machine
        reflection_idle_seconds=600, stream_stall_seconds=600),
        auth_token={"alice": "tok-alice-1234", "bob": "tok-bob-5678"}).start()
    alice = (("authorization", "Bearer tok-alice-1234"),)
    bob = (("authorization", "Bearer tok-bob-5678"),)
    release = threading.Event()

    def nothing():
        release.wait()
        return
        yield                                       # pragma: no cover

    calls = []
    try:
        with grpc.insecure_channel(f"127.0.0.1:{srv.port}") as ch:
            health = health_pb2_grpc.HealthStub(ch)
            reflect = reflection_pb2_grpc.ServerReflectionStub(ch)

            def watch(md):
                calls.append(health.Watch(health_pb2.HealthCheckRequest(), timeout=120,
                                          metadata=md))
                return next(calls[-1])

            def idle(md):
                calls.append(reflect.ServerReflectionInfo(nothing(), timeout=120, metadata=md))
                return calls[-1]

            for _ in range(2):
                watch(alice)
                idle(alice)
            _wait(lambda: srv.streams.held("max_reflection_streams") == 2, 60)
            with pytest.raises(grpc.RpcError) as e:
                watch(alice)
            assert_status(e, EXHAUSTED, "limit max_health_watches_per_client",
                          "from your client")
            with pytest.raises(grpc.RpcError) as e:
                next(idle(alice))
            assert_status(e, EXHAUSTED, "limit max_reflection_streams_per_client",
                          "from your client")
            assert watch(bob).status == health_pb2.HealthCheckResponse.SERVING
            idle(bob)
            _wait(lambda: srv.streams.held("max_reflection_streams") == 3, 60)
            assert srv.streams.held("max_health_watches") == 3
            for c in calls:
                c.cancel()
            release.set()
            # every watch gone before the stop: grpc-health's shutdown sends
            # NOT_SERVING to each registered watch and waits for the send
            _wait(lambda: srv.streams.held("max_health_watches") == 0
                  and srv.streams.held("max_reflection_streams") == 0, 60)
    finally:
        release.set()
        srv.stop(grace=0)


class _Context:
    def __init__(self):
        self.cancelled = False

    def cancel(self):
        self.cancelled = True


def test_the_watchdog_ends_streams_whose_clients_stopped_reading():
    """The decisions of server/streams.py's watchdog, at given times."""
    from easel.server.errors import LimitReached
    from easel.server.streams import StreamGuard
    guard = StreamGuard(stall_seconds=5.0)
    reading, stalled, idle = _Context(), _Context(), _Context()
    a = guard.open(reading, [("max_x", None, 3, "x streams")])
    b = guard.open(stalled, [("max_x", None, 3, "x streams")])
    c = guard.open(idle, [("max_x", None, 3, "x streams")], idle_seconds=2.0)
    with pytest.raises(LimitReached, match="limit max_x: 3 x streams open"):
        guard.open(_Context(), [("max_x", None, 3, "x streams")])
    sent = iter(guard.sending(b, iter([1, 2])))
    assert next(sent) == 1 and b.sending_since is not None       # handed over, not taken
    c.reading_since = b.sending_since
    now = b.sending_since
    assert guard.check(now + 1.0) == 0
    assert guard.check(now + 3.0) == 1 and idle.cancelled and c.cancelled
    assert guard.check(now + 6.0) == 2 and stalled.cancelled and not reading.cancelled
    assert next(sent, None) is None                                # ends once resumed
    for t in (a, b, c):
        guard.close(t)
    assert guard.held("max_x") == 0
    guard.stop()


def analyze_request(iterations: int) -> epb.AnalyzeRequest:
    req = epb.AnalyzeRequest(position=epb.Position(record=epb.GameRecord(game="connect_four")),
                             report_interval_ms=10)
    req.settings.budget.iterations = iterations
    return req


@pytest.fixture
def make_engine():
    """make_engine(**limits) -> (server, channel): an Engine-only server."""
    made = []

    def make(**limits):
        srv = build_server(port=0, limits=Limits(max_iterations=100_000_000, max_seconds=60,
                                                 **limits)).start()
        ch = grpc.insecure_channel(f"127.0.0.1:{srv.port}")
        made.append((srv, ch))
        return srv, ch

    yield make
    for srv, ch in made:
        ch.close()
        srv.stop(grace=0)
