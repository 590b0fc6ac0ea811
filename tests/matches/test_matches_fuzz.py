"""Fuzzing and abusing easel.v1.Matches, as tests/server/test_server_fuzz.py
does the Engine: requests generated from the message classes for every
method (biased towards real games, bot specs, match ids and tokens so that
calls get deep), mutated bytes of valid requests, bot specs at and beyond
every range, and the abuse of tests/matches/abuse.py (many clients,
never-read streams of every kind, megabyte ids). Every answer is a status a
client can act on -- never INTERNAL or UNKNOWN --, every refusal names its
limit, the long-lived calls never hold more slots than configured, and the
server answers unary calls throughout and gives every slot back afterwards.

Short in CI (about 300 requests and 40 abusive streams of each kind). Long
on demand:
    EASEL_FUZZ_EXAMPLES=2000 EASEL_ABUSE_STREAMS=400 EASEL_ABUSE_CLIENTS=64 \\
        python -m pytest -q tests/matches/test_matches_fuzz.py
"""
from __future__ import annotations

import os
import time

import grpc
import pytest
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st

import abuse
from easel.server.analysis import Limits
from easel.server.matches import MatchLimits, MatchManager, Store
from easel.server.service import build_server
from easel.v1 import engine_pb2 as epb
from easel.v1 import matches_pb2 as pb
from easel.v1 import matches_pb2_grpc
from fuzz_requests import (EDITS, GAMES, TEXTS, _small_settings, message_bytes, mutate,
                           strings)

EXAMPLES = int(os.environ.get("EASEL_FUZZ_EXAMPLES", "30"))
STREAMS = int(os.environ.get("EASEL_ABUSE_STREAMS", "40"))
CLIENTS = int(os.environ.get("EASEL_ABUSE_CLIENTS", "8"))
DEADLINE = 10.0
BAD = {grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN}
METHODS = {m.name: m for m in pb.DESCRIPTOR.services_by_name["Matches"].methods}
CODES: dict[str, int] = {}

ENGINE_LIMITS = Limits(max_iterations=2000, max_seconds=0.5, max_concurrent_searches=2,
                       max_threads=1, default_iterations=50, max_waiting_searches=4,
                       max_message_bytes=8 << 20, max_analyze_streams=2,
                       max_health_watches=6, max_reflection_streams=3,
                       # the abuse comes from one address, one client: its own bounds
                       # are above the totals here, so that the totals are what it fills
                       max_health_watches_per_client=100,
                       max_reflection_streams_per_client=100,
                       reflection_idle_seconds=30.0, stream_stall_seconds=1.0)
MATCH_LIMITS = MatchLimits(max_open_matches=12, max_open_per_client=8, bot_threads=1,
                           max_streams=6, max_streams_per_match=3, max_seat_streams=8)
# the slot counters the server keeps, and their limits
SLOTS = {"max_streams": MATCH_LIMITS.max_streams, "max_seat_streams": MATCH_LIMITS.max_seat_streams,
         "max_reflection_streams": ENGINE_LIMITS.max_reflection_streams,
         "max_health_watches": ENGINE_LIMITS.max_health_watches,
         "max_analyze_streams": ENGINE_LIMITS.max_analyze_streams}


class Fuzzed:
    def __init__(self, tmp):
        self.manager = MatchManager(Store(str(tmp / "fuzz.sqlite3")), MATCH_LIMITS,
                                    ENGINE_LIMITS).start()
        self.server = build_server(port=0, limits=ENGINE_LIMITS, matches=self.manager).start()
        self.address = f"127.0.0.1:{self.server.port}"
        self.channel = grpc.insecure_channel(self.address, options=[
            ("grpc.max_send_message_length", 8 << 20)])
        grpc.channel_ready_future(self.channel).result(timeout=10)
        self.stub = matches_pb2_grpc.MatchesStub(self.channel)
        self.made = [self.stub.CreateMatch(pb.CreateMatchRequest(
            game=g, seats=[pb.SeatConfig(client=True), pb.SeatConfig(client=True)],
            allow_hints=True), timeout=20) for g in ("connect_four", "pig")]

    def secrets(self) -> list[str]:
        out = []
        for m in self.made:
            out += [m.match_id, m.creator_token] + [s.token for s in m.seat_tokens]
        return out

    def stop(self):
        self.channel.close()
        self.server.stop(grace=0)
        self.manager.store.close()


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory):
    f = Fuzzed(tmp_path_factory.mktemp("fuzz"))
    yield f
    f.stop()
    print(f"\nmatches fuzz: answers {CODES}")


@pytest.fixture(scope="module")
def quiet(tmp_path_factory):
    """A server of its own for the bot-spec checks: on the fuzzed one, the
    matches the fuzz created (client seats, never played) may already fill
    max_open_per_client, and an accepted spec would then be refused with
    RESOURCE_EXHAUSTED for a reason that is not its own."""
    f = Fuzzed(tmp_path_factory.mktemp("quiet"))
    yield f
    f.stop()


def _check_slots(f: Fuzzed) -> None:
    for name, limit in SLOTS.items():
        assert f.server.streams.held(name) <= limit, name
    assert f.manager.open_count() <= MATCH_LIMITS.max_open_matches


def _send(f: Fuzzed, method: str, data: bytes):
    m = METHODS[method]
    path = f"/easel.v1.Matches/{method}"
    resp = getattr(pb, m.output_type.name)
    t0 = time.monotonic()
    details = ""
    try:
        if m.server_streaming:      # the first event comes at once; then let it go
            call = f.channel.unary_stream(path, request_serializer=lambda b: b,
                                          response_deserializer=resp.FromString)(
                data, timeout=DEADLINE)
            try:
                next(call, None)
            finally:
                call.cancel()
        else:
            f.channel.unary_unary(path, request_serializer=lambda b: b,
                                  response_deserializer=resp.FromString)(data, timeout=DEADLINE)
        code = grpc.StatusCode.OK
    except grpc.RpcError as e:
        code, details = e.code(), e.details() or ""
    CODES[code.name] = CODES.get(code.name, 0) + 1
    assert code not in BAD, f"{method}: {code} {details}"
    assert time.monotonic() - t0 < DEADLINE + 1.0
    assert len(details) <= 1000
    if code == grpc.StatusCode.RESOURCE_EXHAUSTED:
        assert details.startswith("limit "), details
    return code


def _specs():
    return st.sampled_from(list(abuse.BOT_SPECS))


@st.composite
def _seat(draw):
    s = pb.SeatConfig(name=draw(st.sampled_from(["", "ann", "x" * 65, "a\nb"])))
    if draw(st.booleans()):
        s.client = True
    else:
        s.bot = draw(_specs())
    if draw(st.integers(0, 3)) == 0:
        s.time_control.move_seconds = draw(st.sampled_from([0.0, 0.5, -1.0, float("nan"),
                                                            1e300, 30.0]))
    return s.SerializeToString()


@st.composite
def _create(draw):
    game = draw(st.sampled_from(["connect_four", "pig", "pig(players=3)", "vangogh"]))
    seats = draw(st.lists(_seat(), min_size=1, max_size=4))
    body = b"".join(b"\x12" + bytes([len(s)]) + s for s in seats if len(s) < 128)
    req = pb.CreateMatchRequest(game=game, chance=draw(st.integers(0, 3)),
                                allow_hints=draw(st.booleans()))
    return req.SerializeToString() + body


def _text(f: Fuzzed):
    return st.one_of(strings, st.sampled_from(f.secrets() + GAMES + TEXTS + list(
        abuse.BOT_SPECS)[:20] + [str(2 ** 80), "-1", "0"]))


def _hooks():
    return {"easel.v1.CreateMatchRequest": _create(), "easel.v1.SeatConfig": _seat(),
            "easel.v1.SearchSettings": _small_settings()}


FUZZ = hsettings(max_examples=EXAMPLES, deadline=None, database=None,
                 suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("method", sorted(METHODS))
def test_fuzz_generated_requests(fuzzed, method):
    @FUZZ
    @given(data=message_bytes(METHODS[method].input_type, hooks=_hooks(), text=_text(fuzzed)))
    def run(data):
        _send(fuzzed, method, data)

    run()
    _check_slots(fuzzed)


def _valid(f: Fuzzed):
    m = f.made[0]
    seat = m.seat_tokens[0].token
    return [
        ("CreateMatch", pb.CreateMatchRequest(game="connect_four", seats=[
            pb.SeatConfig(client=True), pb.SeatConfig(bot="random")])),
        ("GetMatch", pb.GetMatchRequest(match_id=m.match_id, with_record=True)),
        ("ListMatches", pb.ListMatchesRequest(page_size=3)),
        ("WatchMatch", pb.WatchMatchRequest(match_id=m.match_id, token=seat, positions=True)),
        ("SubmitAction", pb.SubmitActionRequest(match_id=m.match_id, token=seat, step=0,
                                                action=epb.Step(text="x in column 4"))),
        ("RequestHint", pb.RequestHintRequest(match_id=m.match_id, token=seat)),
        ("Resign", pb.ResignRequest(match_id=f.made[1].match_id, token="wrong")),
        ("Abort", pb.AbortRequest(match_id=f.made[1].match_id, token="wrong")),
    ]


def test_fuzz_mutated_requests(fuzzed):
    corpus = [(name, r.SerializeToString()) for name, r in _valid(fuzzed)]

    @hsettings(max_examples=EXAMPLES * 4, deadline=None, database=None,
               suppress_health_check=list(HealthCheck))
    @given(pick=st.integers(0, len(corpus) - 1), edits=EDITS)
    def run(pick, edits):
        name, data = corpus[pick]
        _send(fuzzed, name, mutate(data, edits))

    run()
    _check_slots(fuzzed)


@pytest.mark.parametrize("spec", list(abuse.BOT_SPECS))
def test_bot_specs_at_and_beyond_every_range(quiet, spec):
    """A bot seat's spec is refused as INVALID_ARGUMENT naming it, or
    accepted (and the match then aborted before its bot moves)."""
    tally = abuse.Tally()
    abuse.bad_bots(quiet.stub, tally, [spec])
    if abuse.BOT_SPECS[spec] == "ok":
        assert tally.codes == {"OK": 2}, tally.codes
    else:
        assert tally.codes == {"INVALID_ARGUMENT": 1}, tally.codes


def test_abuse_stays_within_the_limits(fuzzed):
    during = []

    def check():
        _check_slots(fuzzed)
        during.append({n: fuzzed.server.streams.held(n) for n in SLOTS})

    tally = abuse.abuse_all(fuzzed.address, clients=CLIENTS, streams=STREAMS, during=check)
    assert not (set(tally.codes) & {c.name for c in BAD}), tally.codes
    assert tally.refusals and all(r.startswith("limit ") for r in tally.refusals), \
        tally.refusals[:5]
    named = {r.split(":")[0] for r in tally.refusals}
    assert {"limit max_reflection_streams", "limit max_health_watches"} <= named, named
    assert during and during[0]["max_reflection_streams"] == SLOTS["max_reflection_streams"]
    # afterwards every slot comes back and the server answers
    deadline = time.monotonic() + 30
    while any(fuzzed.server.streams.held(n) for n in SLOTS):
        assert time.monotonic() < deadline, {n: fuzzed.server.streams.held(n) for n in SLOTS}
        time.sleep(0.05)
    assert fuzzed.stub.ListMatches(pb.ListMatchesRequest(page_size=1), timeout=5).matches
