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
from google.protobuf import struct_pb2
from google.protobuf.descriptor import FieldDescriptor as FD
from grpc_health.v1 import health_pb2, health_pb2_grpc
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st

from easel.v1 import engine_pb2 as pb
from easel.server.limits import Limits
from easel.server.service import build_server

EXAMPLES = int(os.environ.get("EASEL_FUZZ_EXAMPLES", "60"))
DEADLINE = 10.0
BAD = {grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN}
METHODS = {m.name: m for m in pb.DESCRIPTOR.services_by_name["Engine"].methods}
SEEN: dict[str, int] = {}            # requests sent, by RPC (reported at the end)
CODES: dict[str, int] = {}           # answers, by status

GAMES = ["pig", "connect_four", "vangogh", "pig(players=3)", "pig(winscore=10)",
         "vangogh(players=3)", "vangogh(players=1)", "vangogh(deck=/dev/zero)",
         "vangogh(deck=paintings-placeholder.json)", "pig(players=99)", "chess", ""]
TEXTS = ["roll", "stop", "Roll 4", "x3", "o3", "x9", "mcts", "random", "greedy",
         "mcts(uct_c=1.5)", "mcts(iterations=50)", "heuristic", "mcts(form=pimc,worlds=2)",
         "{}", '{"a": [1, 2]}', "NaN"]
strings = st.one_of(st.sampled_from(GAMES + TEXTS), st.text(max_size=40),
                    st.text(alphabet=st.characters(codec="utf-8"), min_size=200, max_size=3000))
numbers = st.one_of(st.integers(-3, 50), st.floats(allow_nan=True, allow_infinity=True),
                    st.just(1e300))
json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), numbers, st.text(max_size=10)),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=20)


def _struct_bytes(data: dict) -> bytes:
    """A Struct's bytes; NaN is written through a sentinel (Python's
    protobuf refuses to write it, other languages do not)."""
    import struct as _s
    sentinel = 98765.4321

    def swap(v):
        if isinstance(v, float) and v != v:
            return sentinel
        if isinstance(v, dict):
            return {k: swap(x) for k, x in v.items()}
        if isinstance(v, list):
            return [swap(x) for x in v]
        return v
    s = struct_pb2.Struct()
    s.update(swap(data))
    return s.SerializeToString().replace(_s.pack("<d", sentinel), _s.pack("<d", float("nan")))


def _scalar(field):
    t = field.type
    if t in (FD.TYPE_INT32, FD.TYPE_SINT32, FD.TYPE_SFIXED32):
        return st.one_of(st.integers(-5, 60), st.integers(-2**31, 2**31 - 1))
    if t in (FD.TYPE_INT64, FD.TYPE_SINT64, FD.TYPE_SFIXED64):
        return st.one_of(st.integers(-5, 3000), st.integers(-2**63, 2**63 - 1))
    if t in (FD.TYPE_UINT32, FD.TYPE_FIXED32):
        return st.integers(0, 2**32 - 1)
    if t in (FD.TYPE_UINT64, FD.TYPE_FIXED64):
        return st.integers(0, 2**64 - 1)
    if t in (FD.TYPE_DOUBLE, FD.TYPE_FLOAT):
        return st.one_of(st.floats(0.0001, 0.3), st.floats(allow_nan=True, allow_infinity=True),
                         st.just(1e-9))
    if t == FD.TYPE_BOOL:
        return st.booleans()
    if t == FD.TYPE_STRING:
        return strings
    if t == FD.TYPE_BYTES:
        return st.binary(max_size=20)
    if t == FD.TYPE_ENUM:
        return st.one_of(st.sampled_from([v.number for v in field.enum_type.values]),
                         st.integers(-3, 1000))
    raise AssertionError(field.type)


@st.composite
def message_bytes(draw, descriptor, depth=0):
    """A message of `descriptor`, as bytes (Structs may hold NaN). Half of
    the game records and search settings are plausible (a real game played
    at random, a small budget), so that calls get past the first check."""
    if descriptor.full_name == "easel.v1.GameRecord" and draw(st.booleans()):
        return draw(_played_record())
    if descriptor.full_name == "easel.v1.SearchSettings" and draw(st.booleans()):
        return draw(_small_settings())
    cls = _class(descriptor)
    msg = cls()
    extra = b""
    for field in descriptor.fields:
        if not draw(st.booleans()):
            continue
        repeated = (field.is_repeated if hasattr(field, "is_repeated")
                    else field.label == FD.LABEL_REPEATED)
        count = draw(st.integers(0, 4)) if repeated else 1
        for _ in range(count):
            if field.type == FD.TYPE_MESSAGE:
                if field.message_type.full_name == "google.protobuf.Struct":
                    data = draw(st.dictionaries(st.sampled_from(
                        ["current_player", "scores", "round", "players", "deck", "x"]),
                        json_values, max_size=6))
                    body = _struct_bytes(data)
                    extra += _tag(field.number, 2) + _varint(len(body)) + body
                    continue
                if depth >= 4:
                    continue
                body = draw(message_bytes(field.message_type, depth + 1))
                extra += _tag(field.number, 2) + _varint(len(body)) + body
                continue
            value = draw(_scalar(field))
            try:
                if repeated:
                    getattr(msg, field.name).append(value)
                else:
                    setattr(msg, field.name, value)
            except (ValueError, TypeError):
                pass
    return msg.SerializeToString() + extra


@st.composite
def _played_record(draw):
    import random

    from easel import engine
    game = draw(st.sampled_from(["pig", "connect_four", "vangogh", "pig(players=3)",
                                 "vangogh(players=1)"]))
    rng = random.Random(draw(st.integers(0, 2**32)))
    state = engine.load_game(game).new_initial_state()
    steps = []
    for _ in range(draw(st.integers(0, 80))):
        if state.is_terminal():
            break
        a = (engine.draw_outcome(state, rng) if state.is_chance_node()
             else rng.choice(state.legal_actions()))
        by_text = draw(st.booleans())
        steps.append(pb.Step(text=state.action_to_string(a)) if by_text else pb.Step(id=a))
        state.apply_action(a)
    rec = pb.GameRecord(game=game, steps=steps)
    if steps and draw(st.integers(0, 4)) == 0:        # spoil one step
        i = draw(st.integers(0, len(steps) - 1))
        rec.steps[i].id = draw(st.integers(-2, 300))
    if draw(st.integers(0, 3)) == 0:
        rec.expected_player = draw(st.integers(-5, 5))
    return rec.SerializeToString()


@st.composite
def _small_settings(draw):
    s = pb.SearchSettings(bot=draw(st.sampled_from(["", "mcts", "random", "greedy", "heuristic",
                                                    "mcts(uct_c=2)", "mcts(form=pimc)"])),
                          num_candidates=draw(st.integers(0, 5)),
                          threads=draw(st.integers(0, 2)))
    if draw(st.booleans()):
        s.budget.iterations = draw(st.integers(1, 300))
    else:
        s.budget.seconds = draw(st.sampled_from([1e-9, 0.001, 0.02, 0.1]))
    if draw(st.booleans()):
        s.seed = draw(st.integers(0, 2**64 - 1))
    return s.SerializeToString()


def _class(descriptor):
    from google.protobuf import message_factory
    return message_factory.GetMessageClass(descriptor)


def _tag(number, wire):
    return _varint(number << 3 | wire)


def _varint(n):
    out = b""
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


def _valid_requests():
    """Valid requests to mutate, one or more per RPC."""
    from server_helpers import record, settings
    return [
        ("ListGames", pb.ListGamesRequest()),
        ("NewGame", pb.NewGameRequest(game="pig(players=3)")),
        ("NewGame", pb.NewGameRequest(game="vangogh")),
        ("LegalActions", pb.LegalActionsRequest(position=record("pig", "roll", "Roll 4"))),
        ("ApplyAction", pb.ApplyActionRequest(position=record("connect_four", "x3"),
                                              action=pb.Step(text="o3"),
                                              actions=[pb.Step(id=2)])),
        ("Suggest", pb.SuggestRequest(position=record("connect_four", "x3"),
                                      settings=settings(iterations=30, seed=1,
                                                        num_candidates=3))),
        ("Analyze", pb.AnalyzeRequest(position=record("pig", "roll", "Roll 2"),
                                      report_interval_ms=10,
                                      settings=settings(iterations=40))),
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
        default_iterations=50, max_waiting_searches=4, max_message_bytes=1 << 20)).start()
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
    @given(pick=st.integers(0, len(corpus) - 1),
           edits=st.lists(st.tuples(st.sampled_from(["flip", "insert", "delete", "cut"]),
                                    st.integers(0, 10_000), st.integers(0, 255)),
                          min_size=1, max_size=4))
    def run(pick, edits):
        method, data = corpus[pick]
        buf = bytearray(data)
        for op, pos, byte in edits:
            if not buf:
                break
            i = pos % len(buf)
            if op == "flip":
                buf[i] ^= 1 << (byte % 8)
            elif op == "insert":
                buf[i:i] = bytes([byte])
            elif op == "delete":
                del buf[i]
            else:
                del buf[i:]
        _send(ch, method, bytes(buf))

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
