"""Fuzzing every RPC of easel.v1.Engine with hypothesis: requests generated
from the message classes themselves (every field, oneof and enum, Structs
with odd JSON, NaN and huge numbers, long and control-character strings,
biased towards real game strings and steps so that calls get deep), and
mutated bytes of valid requests. Each answer must be a status a client can
act on -- never INTERNAL or UNKNOWN --, arrive before the deadline, and an
OK Suggest names a move; afterwards the server still answers health checks
and its memory stayed bounded.

Short in CI (about 500 requests). Long on demand:
    EASEL_FUZZ_EXAMPLES=5000 python -m pytest -q tests/server/test_server_fuzz.py
(the number of generated requests per RPC; mutations are 4 times that).
"""
from __future__ import annotations

import os
import resource
import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st

from fuzz_requests import EDITS, message_bytes, mutate

from easel.v1 import engine_pb2 as pb
from easel.server.limits import Limits
from easel.server.service import build_server

EXAMPLES = int(os.environ.get("EASEL_FUZZ_EXAMPLES", "60"))
DEADLINE = 10.0
BAD = {grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN}
METHODS = {m.name: m for m in pb.DESCRIPTOR.services_by_name["Engine"].methods}
SEEN: dict[str, int] = {}            # requests sent, by RPC (reported at the end)
CODES: dict[str, int] = {}           # answers, by status

def _valid_requests():
    """Valid requests to mutate, one or more per RPC."""
    from server_helpers import record, settings
    return [
        ("ListGames", pb.ListGamesRequest()),
        ("NewGame", pb.NewGameRequest(game="pig(players=3)")),
        ("NewGame", pb.NewGameRequest(game="vangogh")),
        ("LegalActions", pb.LegalActionsRequest(position=record("pig", "roll", "Roll 4"))),
        ("ApplyAction", pb.ApplyActionRequest(position=record("connect_four", "x in column 4"),
                                              action=pb.Step(text="o in column 4"),
                                              actions=[pb.Step(id=2)])),
        ("Suggest", pb.SuggestRequest(position=record("connect_four", "x in column 4"),
                                      settings=settings(iterations=30, seed=1,
                                                        num_candidates=3))),
        ("Analyze", pb.AnalyzeRequest(position=record("pig", "roll", "Roll 2"),
                                      report_interval_ms=10,
                                      settings=settings(iterations=40))),
        ("ReadPosition", pb.ReadPositionRequest(notation=pb.TableNotation(
            game="starving_artists(players=2)",
            text="day 1\nphase setup\nmarket -; -; -\nplayer 1\nplayer 2\n"))),
        ("Review", pb.ReviewRequest(record=record("connect_four", "x in column 4", "o in column 5", "x in column 4").record,
                                    settings=settings(iterations=30, seed=1))),
    ]


def _rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@pytest.fixture(scope="module")
def fuzz_server():
    srv = build_server(port=0, limits=Limits(
        max_iterations=2000, max_seconds=0.3, max_concurrent_searches=2, max_threads=2,
        default_iterations=50, max_waiting_searches=4, max_message_bytes=1 << 20,
        max_review_decisions=6)).start()
    ch = grpc.insecure_channel(f"127.0.0.1:{srv.port}",
                               options=[("grpc.max_receive_message_length", 1 << 22)])
    grpc.channel_ready_future(ch).result(timeout=10)
    yield srv, ch
    ch.close()
    srv.stop(grace=0)
    print(f"\nfuzz: {sum(SEEN.values())} requests sent ({SEEN}); answers {CODES}")


def _send(ch, method: str, data: bytes):
    """Send raw request bytes; returns (code, response messages)."""
    m = METHODS[method]
    resp_cls = getattr(pb, m.output_type.name)
    path = f"/easel.v1.Engine/{method}"
    SEEN[method] = SEEN.get(method, 0) + 1
    t0 = time.monotonic()
    try:
        if m.server_streaming:
            call = ch.unary_stream(path, request_serializer=lambda b: b,
                                   response_deserializer=resp_cls.FromString)
            out = list(call(data, timeout=DEADLINE))
        else:
            call = ch.unary_unary(path, request_serializer=lambda b: b,
                                  response_deserializer=resp_cls.FromString)
            out = [call(data, timeout=DEADLINE)]
        code = grpc.StatusCode.OK
        details = ""
    except grpc.RpcError as e:
        code, out, details = e.code(), [], e.details()
    took = time.monotonic() - t0
    CODES[code.name] = CODES.get(code.name, 0) + 1
    assert code not in BAD, f"{method}: {code} {details}"
    assert took < DEADLINE + 1.0, f"{method} took {took:.1f} s"
    assert len(details or "") <= 1000
    if code == grpc.StatusCode.OK and method == "Suggest":
        r = out[0]
        if r.position.kind == pb.NODE_KIND_DECISION:
            assert r.analysis.candidates, "an OK Suggest without a candidate"
    if code == grpc.StatusCode.OK and method == "Analyze" and out:
        assert out[-1].final and out[-1].analysis.candidates
    if code == grpc.StatusCode.OK and method == "ReadPosition":   # a position or refusals
        assert out[0].HasField("position") != bool(out[0].refusals), out[0]
    if code == grpc.StatusCode.OK and method == "Review":
        assert out and out[-1].WhichOneof("item") == "summary"
    return code, out


FUZZ = hsettings(max_examples=EXAMPLES, deadline=None, derandomize=False,
                 suppress_health_check=list(HealthCheck), database=None)


@pytest.mark.parametrize("method", sorted(METHODS))
def test_fuzz_generated_requests(fuzz_server, method):
    srv, ch = fuzz_server
    descriptor = METHODS[method].input_type

    @FUZZ
    @given(data=message_bytes(descriptor))
    def run(data):
        _send(ch, method, data)

    run()


def test_fuzz_mutated_requests(fuzz_server):
    srv, ch = fuzz_server
    corpus = [(m, r.SerializeToString()) for m, r in _valid_requests()]
    for method, data in corpus:          # the corpus itself is answered OK
        code, _ = _send(ch, method, data)
        assert code == grpc.StatusCode.OK, method

    @hsettings(max_examples=EXAMPLES * 4, deadline=None, database=None,
               suppress_health_check=list(HealthCheck))
    @given(pick=st.integers(0, len(corpus) - 1), edits=EDITS)
    def run(pick, edits):
        method, data = corpus[pick]
        _send(ch, method, mutate(data, edits))

    run()


def test_after_fuzzing_the_server_is_healthy_and_bounded(fuzz_server):
    srv, ch = fuzz_server
    health = health_pb2_grpc.HealthStub(ch)
    r = health.Check(health_pb2.HealthCheckRequest(service="easel.v1.Engine"), timeout=5)
    assert r.status == health_pb2.HealthCheckResponse.SERVING
    assert srv.running_searches() == 0 and srv.queue.waiting() == 0
    # Memory: another burst of the same requests must not grow the process
    # much (the replay cache and the games' caches are bounded).
    corpus = [(m, r.SerializeToString()) for m, r in _valid_requests()]
    before = _rss_mb()
    for _ in range(30):
        for method, data in corpus:
            _send(ch, method, data)
    assert _rss_mb() - before < 100, (before, _rss_mb())
