"""The HTTP face (server/gateway.py): every Engine and Matches method answers
over HTTP as over gRPC (a test per method of the service descriptors, so a
new method fails here until it is given a sample call); errors in the
Connect shape; streams read as they come; the same token, queue, stream
slots and client identity as gRPC; deadlines; a disconnect cancels the
search; the web page's files and the paths that must not reach a file."""
from __future__ import annotations

import json
import os
import socket
import time

import grpc
import httpx
import pytest

from easel.server.analysis import Limits
from easel.server.matches import MatchLimits, MatchManager, Store
from easel.v1 import engine_pb2 as epb
from easel.v1 import engine_pb2_grpc
from easel.v1 import matches_pb2 as mpb
from easel.v1 import matches_pb2_grpc
from google.protobuf import json_format
from http_helpers import JSON, STREAM, body_of, envelope, frames, read_frames, start, stream, unary
from server_helpers import record, settings

LIMITS = Limits(max_iterations=200_000, max_seconds=30.0, max_concurrent_searches=4,
                max_threads=2, default_iterations=300)


def wait_for(predicate, timeout=20.0, what="the condition"):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.02)
    raise AssertionError(f"{what} did not happen within {timeout} s")


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    """One server with Engine and Matches: (srv, gRPC channel, HTTP client)."""
    db = str(tmp_path_factory.mktemp("http") / "m.sqlite3")
    manager = MatchManager(Store(db), MatchLimits(bot_threads=1), LIMITS).start()
    srv, base = start(limits=LIMITS, matches=manager)
    channel = grpc.insecure_channel(f"127.0.0.1:{srv.port}")
    grpc.channel_ready_future(channel).result(timeout=10)
    client = httpx.Client(base_url=base, timeout=60)
    yield srv, channel, client
    client.close()
    channel.close()
    srv.stop(grace=0)
    manager.store.close()


# -- the same answers ---------------------------------------------------------------------------
class CallError(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code, self.message = code, message


class OverGrpc:
    def __init__(self, channel):
        self.stubs = {"easel.v1.Engine": engine_pb2_grpc.EngineStub(channel),
                      "easel.v1.Matches": matches_pb2_grpc.MatchesStub(channel)}

    def __call__(self, service, method, request):
        try:
            answer = getattr(self.stubs[service], method)(request, timeout=60)
            return list(answer) if not hasattr(answer, "DESCRIPTOR") else answer
        except grpc.RpcError as e:
            from easel.server.connect import CODES
            raise CallError(CODES[e.code()][0], e.details()) from None


class OverHttp:
    def __init__(self, client, descriptors):
        self.client = client
        self.descriptors = descriptors

    def __call__(self, service, method, request):
        m = self.descriptors[service].methods_by_name[method]
        out_cls = {"easel.v1.Engine": epb, "easel.v1.Matches": mpb}[service]
        out_cls = getattr(out_cls, m.output_type.name)
        path = f"/{service}/{method}"
        if m.server_streaming:
            status, messages, end = stream(self.client, path, request)
            if "error" in end:
                raise CallError(end["error"]["code"], end["error"]["message"])
            return [json_format.ParseDict(x, out_cls()) for x in messages]
        r = unary(self.client, path, request)
        if r.status_code != 200:
            raise CallError(r.json()["code"], r.json()["message"])
        return json_format.Parse(r.content, out_cls())


# Fields whose values differ between two equal calls (ids, secrets, times).
VOLATILE = {"match_id", "token", "creator_token", "table_token", "created_at", "updated_at",
            "at", "clock_left_seconds", "clocks", "elapsed_seconds", "next_page_token"}


def normal(message):
    """A copy without the volatile fields, as a dict (messages and lists)."""
    if isinstance(message, list):
        return [normal(m) for m in message]
    m = message.__class__()
    m.CopyFrom(message)
    _clear(m)
    return json_format.MessageToDict(m)


def _clear(m):
    for field, value in m.ListFields():
        if field.name in VOLATILE:
            m.ClearField(field.name)
        elif field.message_type is not None and not field.message_type.GetOptions().map_entry:
            if field.message_type.file.package == "google.protobuf":
                continue
            for v in (value if (field.is_repeated if hasattr(field, "is_repeated")
                                else field.label == field.LABEL_REPEATED) else [value]):
                _clear(v)


def _two_seats(call, **kw):
    return call("easel.v1.Matches", "CreateMatch", mpb.CreateMatchRequest(
        game="connect_four", seats=[mpb.SeatConfig(client=True), mpb.SeatConfig(client=True)],
        **kw))


def _played(call):
    """A match of two client seats after its first step: (created, {seat: token}, submitted)."""
    made = _two_seats(call, allow_hints=True)
    tok = {t.seat: t.token for t in made.seat_tokens}
    submitted = call("easel.v1.Matches", "SubmitAction", mpb.SubmitActionRequest(
        match_id=made.match_id, token=tok[0], step=0, action=epb.Step(text="x in column 4")))
    return made, tok, submitted


def _watch(call):
    made, tok, _ = _played(call)
    call("easel.v1.Matches", "Resign", mpb.ResignRequest(match_id=made.match_id, token=tok[1]))
    return call("easel.v1.Matches", "WatchMatch", mpb.WatchMatchRequest(
        match_id=made.match_id, from_step=0, positions=True))


def _analyze(call):
    answers = call("easel.v1.Engine", "Analyze", epb.AnalyzeRequest(
        position=record("connect_four", "x in column 4"), report_interval_ms=600_000,
        settings=settings(iterations=400, seed=5, threads=1)))
    return answers[-1:]          # the final report (reports before it fall due by time)


def _read_position(call):
    """A notation that loads and one refused (a refusal is an answer too)."""
    text = call("easel.v1.Engine", "NewGame", epb.NewGameRequest(
        game="starving_artists(players=2)")).position.notation
    return [call("easel.v1.Engine", "ReadPosition", epb.ReadPositionRequest(
        notation=epb.TableNotation(game="starving_artists(players=2)", text=t)))
        for t in (text, text.replace("day 1", "day zz"))]


SEARCH = settings(iterations=300, seed=7, threads=1, num_candidates=3)
SAMPLES = {
    "easel.v1.Engine/ListGames": lambda call: call(
        "easel.v1.Engine", "ListGames", epb.ListGamesRequest()),
    "easel.v1.Engine/NewGame": lambda call: call(
        "easel.v1.Engine", "NewGame", epb.NewGameRequest(game="pig(players=3)")),
    "easel.v1.Engine/LegalActions": lambda call: call(
        "easel.v1.Engine", "LegalActions", epb.LegalActionsRequest(
            position=record("pig", "roll", "Roll 4"))),
    "easel.v1.Engine/ApplyAction": lambda call: call(
        "easel.v1.Engine", "ApplyAction", epb.ApplyActionRequest(
            position=record("connect_four", "x in column 4"), action=epb.Step(text="o in column 4"))),
    "easel.v1.Engine/Suggest": lambda call: call(
        "easel.v1.Engine", "Suggest", epb.SuggestRequest(
            position=record("connect_four", "x in column 4", "o in column 4"), settings=SEARCH)),
    "easel.v1.Engine/Analyze": _analyze,
    "easel.v1.Engine/Review": lambda call: call(
        "easel.v1.Engine", "Review", epb.ReviewRequest(
            record=record("connect_four", "x in column 4", "o in column 4", "x in column 5", "o in column 5").record,
            settings=settings(iterations=200, seed=3, threads=1))),
    "easel.v1.Engine/ReadPosition": _read_position,
    "easel.v1.Matches/CreateMatch": _two_seats,
    "easel.v1.Matches/SubmitAction": lambda call: _played(call)[2],
    "easel.v1.Matches/WatchMatch": _watch,
    "easel.v1.Matches/GetMatch": lambda call: call(
        "easel.v1.Matches", "GetMatch", mpb.GetMatchRequest(
            match_id=_played(call)[0].match_id, with_record=True)),
    "easel.v1.Matches/ListMatches": lambda call: call(
        "easel.v1.Matches", "ListMatches", mpb.ListMatchesRequest(page_size=3)),
    "easel.v1.Matches/Resign": lambda call: (lambda made_tok: call(
        "easel.v1.Matches", "Resign", mpb.ResignRequest(
            match_id=made_tok[0].match_id, token=made_tok[1][1])))(_played(call)),
    "easel.v1.Matches/Abort": lambda call: (lambda made: call(
        "easel.v1.Matches", "Abort", mpb.AbortRequest(
            match_id=made.match_id, token=made.creator_token)))(_two_seats(call)),
    "easel.v1.Matches/RequestHint": lambda call: (lambda made: call(
        "easel.v1.Matches", "RequestHint", mpb.RequestHintRequest(
            match_id=made.match_id,
            token={t.seat: t.token for t in made.seat_tokens}[0], settings=SEARCH)))(
        _two_seats(call, allow_hints=True)),
}
DESCRIPTORS = {s.full_name: s for s in (epb.DESCRIPTOR.services_by_name["Engine"],
                                         mpb.DESCRIPTOR.services_by_name["Matches"])}
METHODS = [f"{s}/{m.name}" for s, d in DESCRIPTORS.items() for m in d.methods]


@pytest.mark.parametrize("method", METHODS)
def test_every_method_answers_over_http_as_over_grpc(both, method):
    assert method in SAMPLES, f"give {method} a sample call in SAMPLES"
    srv, channel, client = both
    over_grpc = normal(SAMPLES[method](OverGrpc(channel)))
    over_http = normal(SAMPLES[method](OverHttp(client, DESCRIPTORS)))
    assert over_http == over_grpc


def test_the_same_refusal_over_both(both):
    srv, channel, client = both
    bad = epb.SuggestRequest(position=record("connect_four", "x in column 4", "x in column 10"))
    with pytest.raises(CallError) as g:
        OverGrpc(channel)("easel.v1.Engine", "Suggest", bad)
    r = unary(client, "/easel.v1.Engine/Suggest", bad)
    assert r.status_code == 400 and r.json()["code"] == "invalid_argument"
    assert r.json()["message"] == g.value.message
    assert r.json()["message"].startswith("position.record.steps[1]")


# -- errors in the Connect shape ------------------------------------------------------------------
@pytest.mark.parametrize("body, field", [
    (b'{"position": {"record": {"game": "pig", "steps": [{"text": "roll"}, {"id": "x"}]}}}',
     "position.record.steps[1].id: "),
    (b'{"position": {"record": {"gmae": "pig"}}}', "position.record.gmae: "),
    (b'{"settings": {"threads": 1.5}}', "settings.threads: "),
    (b'{"settings": {"budget": {"iterations": "1e400"}}}', "settings.budget.iterations: "),
    (b'{"settings": {"seed": 123456789012345678901234567890}}', "settings.seed: "),
    (b'{"reportIntervalMs": "x"}', "report_interval_ms: "),
    (b'{"position": 5}', "position: "),
    (b'{"position": {"record": {"game": "\\ud800"}}}', "position.record.game: "),
    (b'{"position": {"record": {"steps": [null]}}}', "position.record.steps[0]"),
    (b'{"position": {"record": {"game": "pig"}, "notation": {"game": "pig"}}}', "position: "),
    (b'[1, 2]', "must be a JSON object"),
    (b'{"a": ', "not JSON"),
    (b'\xff\xfe{}', "not valid UTF-8"),
    (b'[' * 100_000 + b']' * 100_000, "nested more than"),
    (b'{"settings": {"seed": ' + b'9' * 5000 + b'}}', "not JSON"),
])
def test_bad_json_is_invalid_argument_naming_the_field(both, body, field):
    srv, channel, client = both
    path = "/easel.v1.Engine/Analyze" if b"reportIntervalMs" in body else "/easel.v1.Engine/Suggest"
    if path.endswith("Analyze"):
        r = client.post(path, content=envelope(body), headers=STREAM)
        flags, end = frames(r.content)[-1]
        assert r.status_code == 200 and flags == 2
        error = end["error"]
    else:
        r = client.post(path, content=body, headers=JSON)
        assert r.status_code == 400, r.text
        error = r.json()
    assert error["code"] == "invalid_argument"
    assert field in error["message"], error["message"]
    assert len(error["message"]) <= 1000


def test_protocol_errors(both):
    srv, channel, client = both
    path = "/easel.v1.Engine/ListGames"
    r = client.post("/easel.v1.Engine/Nope", content=b"{}", headers=JSON)
    assert r.status_code == 404 and r.json()["code"] == "unimplemented"
    r = client.get(path)
    assert r.status_code == 405 and r.headers["allow"] == "POST"
    r = client.post(path, content=b"{}", headers={"Content-Type": "text/plain"})
    assert r.status_code == 415 and "application/json" in r.json()["message"]
    r = client.post(path, content=b"{}", headers={**JSON, "Connect-Timeout-Ms": "soon"})
    assert r.status_code == 400 and r.json()["message"].startswith("Connect-Timeout-Ms")
    r = client.post(path, content=b"{}", headers={**JSON, "Content-Encoding": "gzip"})
    assert r.status_code == 400 and "compressed" in r.json()["message"]
    # a stream's body is one enveloped message
    r = client.post("/easel.v1.Engine/Analyze", content=b"{}", headers=STREAM)
    assert r.status_code == 400 and "enveloped" in r.json()["message"]
    r = client.post("/easel.v1.Engine/Analyze", content=envelope(b"{}", flags=1), headers=STREAM)
    assert r.status_code == 400 and "compressed" in r.json()["message"]
    # binary protobuf, and bytes that are not one
    r = client.post("/easel.v1.Engine/NewGame", headers={"Content-Type": "application/proto"},
                    content=epb.NewGameRequest(game="pig").SerializeToString())
    assert r.status_code == 200 and epb.NewGameResponse.FromString(r.content).position.game == "pig"
    r = client.post("/easel.v1.Engine/NewGame", headers={"Content-Type": "application/proto"},
                    content=b"\x0a\x02\xff\xfe")
    assert r.status_code == 400 and r.json()["message"].startswith("game: ")


def test_a_body_over_the_message_limit_is_refused_naming_it(make_http):
    srv, base = make_http(max_message_bytes=1000)
    with httpx.Client(base_url=base) as c:
        big = b'{"game": "' + b"x" * 2000 + b'"}'
        r = c.post("/easel.v1.Engine/NewGame", content=big, headers=JSON)
        assert r.status_code == 429 and "max_message_bytes" in r.json()["message"]

        def chunks():                   # no Content-Length: counted as it comes
            for _ in range(20):
                yield b" " * 100
        r = c.post("/easel.v1.Engine/NewGame", content=chunks(), headers=JSON)
        assert r.status_code == 429 and "max_message_bytes" in r.json()["message"]
        assert c.post("/easel.v1.Engine/NewGame", json={"game": "pig"}).status_code == 200


@pytest.fixture
def make_http():
    started = []

    def make(http_limits=None, ssl_context=None, web_dir=None, auth_token=None, **limits):
        srv, base = start(http_limits, ssl_context, web_dir, auth_token=auth_token,
                          limits=Limits(**{**LIMITS.__dict__, **limits}))
        started.append(srv)
        return srv, base

    yield make
    for srv in started:
        srv.stop(grace=0)


# -- streams ----------------------------------------------------------------------------------------
def test_analyze_streams_reports_as_they_come(both):
    srv, channel, client = both
    req = epb.AnalyzeRequest(position=record("connect_four"), report_interval_ms=50,
                             settings=settings(seconds=1.5, threads=1))
    seen = []
    with client.stream("POST", "/easel.v1.Engine/Analyze", content=envelope(body_of(req)),
                       headers=STREAM) as r:
        assert r.headers["content-type"] == "application/connect+json"
        for flags, message in read_frames(r):
            seen.append((time.monotonic(), flags, message))
    reports = [m for _, f, m in seen if f == 0]
    assert len(reports) >= 3 and reports[-1]["final"] and reports[-1]["analysis"]["candidates"]
    assert seen[-1][1] == 2 and "error" not in seen[-1][2]
    # the first report came before the search ended: read incrementally
    assert seen[-1][0] - seen[0][0] > 0.5


def test_a_stream_error_is_the_last_frame(both):
    srv, channel, client = both
    status, messages, end = stream(client, "/easel.v1.Engine/Analyze", epb.AnalyzeRequest(
        position=record("connect_four", "x in column 10")))
    assert status == 200 and messages == []
    assert end["error"]["code"] == "invalid_argument"
    assert end["error"]["message"].startswith("position.record.steps[0]")


# -- auth, identity, TLS ------------------------------------------------------------------------------
def test_the_bearer_token_is_required_but_for_health_and_the_page(make_http):
    srv, base = make_http(auth_token="s3cret")
    with httpx.Client(base_url=base) as c:
        for headers in [{}, {"Authorization": "Bearer wrong"}, {"Authorization": "s3cret"}]:
            r = c.post("/easel.v1.Engine/ListGames", content=b"{}", headers={**JSON, **headers})
            assert r.status_code == 401 and r.json()["code"] == "unauthenticated"
        status, _, end = stream(c, "/easel.v1.Engine/Analyze", epb.AnalyzeRequest())
        assert status == 401 and end["code"] == "unauthenticated"
        r = c.post("/easel.v1.Engine/ListGames", content=b"{}",
                   headers={**JSON, "Authorization": "Bearer s3cret"})
        assert r.status_code == 200 and r.json()["games"]
        assert c.get("/healthz").json() == {"status": "SERVING"}
        assert c.get("/").status_code == 200


def _suggest_blocking(c, headers=None, seconds=0.3):
    return unary(c, "/easel.v1.Engine/Suggest", epb.SuggestRequest(
        position=record("connect_four"), settings=settings(seconds=seconds, threads=1)),
        headers=headers)


def test_the_client_is_the_tokens_name_or_the_address_never_a_header(make_http):
    srv, base = make_http(auth_token={"alice": "a-token", "bob": "b-token"})
    with httpx.Client(base_url=base, timeout=30) as c:
        for token in ("a-token", "b-token"):
            assert _suggest_blocking(c, {"Authorization": f"Bearer {token}"}).status_code == 200
    assert list(srv.queue.granted_order)[-2:] == ["token:alice", "token:bob"]
    srv2, base2 = make_http()
    with httpx.Client(base_url=base2, timeout=30) as c:
        r = _suggest_blocking(c, {"X-Forwarded-For": "203.0.113.9", "Forwarded": "for=1.2.3.4",
                                  "X-Real-IP": "198.51.100.1"})
        assert r.status_code == 200
    with grpc.insecure_channel(f"127.0.0.1:{srv2.port}") as ch:
        engine_pb2_grpc.EngineStub(ch).Suggest(epb.SuggestRequest(
            position=record("connect_four"), settings=settings(iterations=50)), timeout=30)
    assert list(srv2.queue.granted_order) == ["ipv4:127.0.0.1", "ipv4:127.0.0.1"]


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    pytest.importorskip("cryptography.x509")
    from pki import make_pki
    return make_pki(tmp_path_factory.mktemp("pki"))


def test_tls_and_mutual_tls_on_the_http_port(make_http, pki):
    from easel.server.http_server import ssl_context
    srv, base = make_http(ssl_context=ssl_context(pki["cert"], pki["key"]))
    assert base.startswith("https://")
    with httpx.Client(base_url=base, verify=_verify(pki["ca"])) as c:
        assert c.post("/easel.v1.Engine/NewGame", json={"game": "pig"}).status_code == 200
    with httpx.Client(base_url=base, verify=_verify(pki["other_ca"])) as c:
        with pytest.raises(httpx.ConnectError):
            c.post("/easel.v1.Engine/NewGame", json={"game": "pig"})
    with httpx.Client(base_url=base.replace("https", "http")) as c:     # plaintext: no answer
        with pytest.raises(httpx.HTTPError):
            c.post("/easel.v1.Engine/NewGame", json={"game": "pig"})
    srv2, base2 = make_http(ssl_context=ssl_context(pki["cert"], pki["key"], pki["ca"]))
    with httpx.Client(base_url=base2, verify=_verify(pki["ca"], pki)) as c:
        assert c.post("/easel.v1.Engine/NewGame", json={"game": "pig"}).status_code == 200
    with httpx.Client(base_url=base2, verify=_verify(pki["ca"])) as c:
        with pytest.raises(httpx.HTTPError):
            c.post("/easel.v1.Engine/NewGame", json={"game": "pig"})


def _verify(ca, client=None):
    import ssl
    ctx = ssl.create_default_context(cafile=ca)
    if client is not None:
        ctx.load_cert_chain(client["client_cert"], client["client_key"])
    return ctx


# -- limits, deadlines, cancellation ----------------------------------------------------------------
def test_a_full_queue_answers_resource_exhausted_with_a_retry_delay(make_http):
    srv, base = make_http(max_concurrent_searches=1, max_waiting_searches=0)
    with grpc.insecure_channel(f"127.0.0.1:{srv.port}") as ch:
        long = engine_pb2_grpc.EngineStub(ch).Suggest.future(epb.SuggestRequest(
            position=record("connect_four"), settings=settings(seconds=20, threads=1)),
            timeout=60)
        wait_for(lambda: srv.running_searches() == 1, what="a search to run")
        with httpx.Client(base_url=base, timeout=30) as c:
            r = _suggest_blocking(c)
            assert r.status_code == 429 and r.json()["code"] == "resource_exhausted"
            assert int(r.headers["trailer-grpc-retry-pushback-ms"]) > 0
            assert int(r.headers["retry-after"]) >= 1
        long.cancel()


def test_stream_slots_are_shared_with_grpc(make_http):
    srv, base = make_http(max_analyze_streams=1)
    with grpc.insecure_channel(f"127.0.0.1:{srv.port}") as ch:
        call = engine_pb2_grpc.EngineStub(ch).Analyze(epb.AnalyzeRequest(
            position=record("connect_four"), report_interval_ms=50,
            settings=settings(seconds=20, threads=1)), timeout=60)
        next(call)
        with httpx.Client(base_url=base, timeout=30) as c:
            status, _, end = stream(c, "/easel.v1.Engine/Analyze", epb.AnalyzeRequest(
                position=record("pig")))
        assert status == 200 and end["error"]["code"] == "resource_exhausted"
        assert "max_analyze_streams" in end["error"]["message"]
        call.cancel()


def test_the_deadline_header_stops_the_search(make_http):
    srv, base = make_http()
    with httpx.Client(base_url=base, timeout=30) as c:
        r = _suggest_blocking(c, {"Connect-Timeout-Ms": "300"}, seconds=20)
        assert r.status_code == 504 and r.json()["code"] == "deadline_exceeded"
        wait_for(lambda: srv.running_searches() == 0, what="the search to stop")
        status, messages, end = stream(c, "/easel.v1.Engine/Analyze", epb.AnalyzeRequest(
            position=record("connect_four"), report_interval_ms=50,
            settings=settings(seconds=20, threads=1)), headers={"Connect-Timeout-Ms": "400"})
        assert status == 200 and end["error"]["code"] == "deadline_exceeded"
        assert messages and not any(m.get("final") for m in messages)
        wait_for(lambda: srv.running_searches() == 0, what="the search to stop")


def _raw_request(port, path, body, content_type="application/json", rcvbuf=None):
    s = socket.socket()
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.connect(("127.0.0.1", port))
    s.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: {content_type}\r\n"
              f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
    return s


def test_a_client_that_disconnects_cancels_its_search(make_http):
    srv, base = make_http()
    port = srv.http.port
    body = body_of(epb.SuggestRequest(position=record("connect_four"),
                                      settings=settings(seconds=25, threads=1)))
    s = _raw_request(port, "/easel.v1.Engine/Suggest", body)
    wait_for(lambda: srv.running_searches() == 1, what="the search to start")
    s.close()
    wait_for(lambda: srv.running_searches() == 0, timeout=10, what="the search to stop")
    # a stream too: its search stops and its slot comes back
    body = envelope(body_of(epb.AnalyzeRequest(position=record("connect_four"),
                                               report_interval_ms=50,
                                               settings=settings(seconds=25, threads=1))))
    s = _raw_request(port, "/easel.v1.Engine/Analyze", body, "application/connect+json")
    wait_for(lambda: srv.running_searches() == 1, what="the stream's search to start")
    assert srv.streams.held("max_analyze_streams") == 1
    s.close()
    wait_for(lambda: srv.running_searches() == 0, timeout=10, what="the stream's search to stop")
    wait_for(lambda: srv.streams.held("max_analyze_streams") == 0, what="the slot to come back")


def test_a_stream_whose_client_reads_nothing_is_cut(make_http):
    srv, base = make_http(stream_stall_seconds=0.5)
    body = envelope(body_of(epb.AnalyzeRequest(position=record("connect_four"),
                                               report_interval_ms=10, report_candidates=7,
                                               settings=settings(seconds=25, threads=1))))
    s = _raw_request(srv.http.port, "/easel.v1.Engine/Analyze", body, "application/connect+json",
                     rcvbuf=4096)
    wait_for(lambda: srv.running_searches() == 1, what="the stream's search to start")
    # the client never reads: the server's sends fill the socket, then the watchdog cuts it
    wait_for(lambda: srv.streams.held("max_analyze_streams") == 0, timeout=30,
             what="the stalled stream's slot to come back")
    wait_for(lambda: srv.running_searches() == 0, what="its search to stop")
    s.close()


# -- connections --------------------------------------------------------------------------------------
def _held_then_closed(port: int, n: int) -> list:
    """`n` connections from 127.0.0.1 held open, and one more that the
    server closes on accept: [the n held, and that one]."""
    held = [socket.create_connection(("127.0.0.1", port)) for _ in range(n)]
    extra = socket.create_connection(("127.0.0.1", port))
    extra.settimeout(20)
    try:
        assert extra.recv(100) == b""
    except ConnectionResetError:
        pass
    return held + [extra]


def test_slow_and_idle_connections_are_closed(make_http):
    from easel.server.http_server import HttpLimits
    srv, base = make_http(http_limits=HttpLimits(request_seconds=0.5, max_connections=3))
    port = srv.http.port
    idle = socket.create_connection(("127.0.0.1", port))
    slow = socket.create_connection(("127.0.0.1", port))
    slow.sendall(b"POST /easel.v1.Engine/ListGames HTTP/1.1\r\nHost: x\r\n")   # no end of head
    half = _raw_request(port, "/easel.v1.Engine/ListGames", b"")
    half.sendall(b"")
    for s in (idle, slow):
        s.settimeout(20)
        assert s.recv(100) == b"", "the server closes a connection that sends too slowly"
    # at most 3 connections: a fourth is closed on accept
    held = _held_then_closed(port, 3)
    for s in held + [idle, slow, half]:
        s.close()
    # a head that grows past the size limit before it ends is refused
    big = socket.create_connection(("127.0.0.1", port))
    big.sendall(b"POST /easel.v1.Engine/ListGames HTTP/1.1\r\nHost: x\r\nX-Big: ")
    time.sleep(0.05)
    try:
        big.sendall(b"y" * 40_000)
    except OSError:
        pass
    big.settimeout(20)
    assert big.recv(100).startswith(b"HTTP/1.1 400")
    big.close()
    with httpx.Client(base_url=base) as c:
        assert c.post("/easel.v1.Engine/ListGames", content=b"{}", headers=JSON).status_code == 200


def test_one_address_cannot_hold_every_connection(make_http):
    """Connections are bounded per IP address too: a third from 127.0.0.1
    is closed on accept, while another address still connects and is
    answered (before, one address could hold all of max_connections)."""
    from easel.server.http_server import HttpLimits
    srv, base = make_http(http_limits=HttpLimits(max_connections=10,
                                                 max_connections_per_client=2))
    port = srv.http.port
    held = _held_then_closed(port, 2)
    other = socket.create_connection(("127.0.0.1", port), source_address=("127.0.0.2", 0))
    other.settimeout(20)
    other.sendall(b"POST /easel.v1.Engine/ListGames HTTP/1.1\r\nHost: x\r\n"
                  b"Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
    assert other.recv(100).startswith(b"HTTP/1.1 200")
    for s in held + [other]:
        s.close()


# -- the web page ---------------------------------------------------------------------------------------
def test_the_page_is_served_with_types_and_a_strict_policy(both):
    srv, channel, client = both
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    csp = r.headers["content-security-policy"]
    assert "default-src 'none'" in csp and "script-src 'self'" in csp and "http" not in csp
    assert r.headers["x-content-type-options"] == "nosniff"
    assert 'src="app.js"' in r.text and "//" not in r.text.split("<body>")[0].replace(
        "<!doctype html>", "")
    assert client.get("/app.js").headers["content-type"].split(";")[0] in (
        "text/javascript", "application/javascript")
    assert client.get("/style.css").headers["content-type"].startswith("text/css")
    assert "ListGames" in client.get("/app.js").text
    assert client.post("/").status_code == 404
    assert client.get("/healthz").json() == {"status": "SERVING"}


@pytest.fixture
def web_dir(tmp_path):
    root = tmp_path / "web"
    (root / "sub").mkdir(parents=True)
    (root / "index.html").write_text("<p>home</p>")
    (root / "sub" / "a.txt").write_text("a")
    (root / ".secret").write_text("hidden")
    (tmp_path / "outside.txt").write_text("outside")
    os.symlink(tmp_path / "outside.txt", root / "link.txt")
    os.symlink(tmp_path, root / "linkdir")
    return str(root)


TRAVERSALS = ["/../outside.txt", "/%2e%2e/outside.txt", "/sub/../../outside.txt",
              "/sub/%2e%2e/%2e%2e/outside.txt", "/..%2foutside.txt", "/%2e%2e%2foutside.txt",
              "/sub%2f..%2f..%2foutside.txt", "/..\\outside.txt", "/%5c..%5coutside.txt",
              "/link.txt", "/linkdir/outside.txt", "/.secret", "/sub/", "/sub",
              "/index.html%00.txt", "//etc/passwd", "/%2fetc%2fpasswd", "/etc/passwd"]


@pytest.mark.parametrize("path", TRAVERSALS)
def test_no_path_reaches_a_file_outside_the_folder_or_a_listing(make_http, web_dir, path):
    srv, base = make_http(web_dir=web_dir)
    s = socket.create_connection(("127.0.0.1", srv.http.port))    # the path sent as written
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
    s.settimeout(20)
    data = b""
    while chunk := s.recv(65536):
        data += chunk
    s.close()
    status = int(data.split(b" ", 2)[1])
    assert status in (400, 404), data[:300]
    assert b"outside" not in data.split(b"\r\n\r\n", 1)[-1] and b"hidden" not in data
    assert b"a.txt" not in data.split(b"\r\n\r\n", 1)[-1]       # no listing of sub/
    with httpx.Client(base_url=base) as c:
        assert c.get("/sub/a.txt").text == "a" and c.get("/").text == "<p>home</p>"


def test_health_says_not_serving_while_shutting_down(make_http):
    srv, base = make_http()
    with httpx.Client(base_url=base) as c:
        assert c.get("/healthz").status_code == 200
        srv.health.enter_graceful_shutdown()
        r = c.get("/healthz")
        assert r.status_code == 503 and r.json() == {"status": "NOT_SERVING"}


def test_routes_come_from_the_descriptors(both):
    srv, channel, client = both
    paths = set(srv.http.server.config.app.routes)
    assert paths == {f"/{m}" for m in METHODS}
    r = client.post("/grpc.reflection.v1.ServerReflection/ServerReflectionInfo", content=b"{}",
                    headers=JSON)
    assert r.status_code == 404 and json.loads(r.content)["code"] == "unimplemented"
