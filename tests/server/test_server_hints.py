"""What a hint carries over gRPC for every client: each candidate's whole
turn (Candidate.turn, turn_text), the scale of its values, whether the two
leading candidates are told apart, and the default budget that searches
until they are (STOP_REASON_TOLD_APART) within the server's cap; Analyze's
until_cancelled."""
from __future__ import annotations

import grpc
import pytest

from easel.v1 import engine_pb2 as pb
from easel.v1 import engine_pb2_grpc as pb_grpc
from server_helpers import assert_status, opening, record, settings


def _stub(srv):
    ch = grpc.insecure_channel(f"127.0.0.1:{srv.port}")
    grpc.channel_ready_future(ch).result(timeout=10)
    return pb_grpc.EngineStub(ch)


def test_candidates_carry_their_whole_turn(stub):
    r = stub.Suggest(pb.SuggestRequest(position=record("vangogh", *opening("vangogh")),
                                       settings=settings(iterations=800, seed=1,
                                                         num_candidates=5)), timeout=60)
    cands = r.analysis.candidates
    assert len(cands) == 5
    for c in cands:
        assert list(c.turn) == list(c.pv[:c.turn_length]) and len(c.turn) >= 2
        assert c.turn_text == "; ".join(s.text for s in c.turn)
        assert c.turn[0].id == c.id and c.turn[0].text == c.text
    assert len({c.turn_text for c in cands}) == len(cands)
    # a bot that does not search names its one move as a turn too
    r = stub.Suggest(pb.SuggestRequest(position=record("connect_four"),
                                       settings=settings(bot="random", seed=1)), timeout=10)
    (c,) = r.analysis.candidates
    assert c.turn_text == c.text and [s.text for s in c.turn] == [c.text]
    assert not r.analysis.HasField("leaders_apart")


def test_an_explicit_budget_says_whether_the_leaders_are_apart(stub):
    a = stub.Suggest(pb.SuggestRequest(position=record("connect_four"),
                                       settings=settings(iterations=6000, seed=1)),
                     timeout=30).analysis
    assert a.HasField("leaders_apart") and a.leaders_apart
    a = stub.Suggest(pb.SuggestRequest(position=record("connect_four"),
                                       settings=settings(iterations=30, seed=1)),
                     timeout=30).analysis
    assert a.HasField("leaders_apart") and not a.leaders_apart


def _no_budget(stub, steps, seed=2, **kw):
    return stub.Suggest(pb.SuggestRequest(position=record("connect_four", *steps),
                                          settings=settings(seed=seed, **kw)), timeout=120)


def test_no_budget_searches_until_the_leaders_are_told_apart(make_server):
    stub = _stub(make_server(default_iterations=50_000, default_seconds=600.0))
    r = _no_budget(stub, [])
    a = r.analysis
    assert r.stop_reason == pb.STOP_REASON_TOLD_APART and a.leaders_apart
    assert 256 <= a.iterations < 50_000
    assert "iterations=" not in a.bot and "time=" not in a.bot
    again = _no_budget(stub, []).analysis          # the same seed stops at the same point
    assert again.iterations == a.iterations
    assert [(c.id, c.visits) for c in again.candidates] == [(c.id, c.visits)
                                                            for c in a.candidates]
    # the stream's reports cut the work differently, and stop at the same point
    final = list(stub.Analyze(pb.AnalyzeRequest(position=record("connect_four"),
                                                settings=settings(seed=2),
                                                report_interval_ms=10), timeout=120))[-1]
    assert final.final and final.stop_reason == pb.STOP_REASON_TOLD_APART
    assert final.analysis.iterations == a.iterations


def test_no_budget_stops_at_the_cap_and_says_the_leaders_are_not_apart(make_server):
    stub = _stub(make_server(default_iterations=3000, default_seconds=600.0))
    r = _no_budget(stub, ["x in column 4", "o in column 4"])
    assert r.stop_reason == pb.STOP_REASON_BUDGET
    assert r.analysis.iterations == 3000 and not r.analysis.leaders_apart


def test_a_bot_spec_budget_is_a_budget(make_server):
    stub = _stub(make_server(default_iterations=50_000, default_seconds=600.0))
    r = _no_budget(stub, [], bot="mcts(iterations=700)")
    assert r.stop_reason == pb.STOP_REASON_BUDGET and r.analysis.iterations == 700


def test_until_cancelled_refuses_a_budget(stub):
    for s in (settings(iterations=100), settings(seconds=1.0), settings(bot="mcts(time=2)")):
        with pytest.raises(grpc.RpcError) as e:
            list(stub.Analyze(pb.AnalyzeRequest(position=record("pig"), settings=s,
                                                until_cancelled=True), timeout=30))
        assert_status(e, grpc.StatusCode.INVALID_ARGUMENT, "until_cancelled:", "no budget")


def test_until_cancelled_searches_past_the_default_budget(make_server):
    stub = _stub(make_server(default_iterations=300))
    call = stub.Analyze(pb.AnalyzeRequest(position=record("pig"), settings=settings(seed=1),
                                          report_interval_ms=10, until_cancelled=True),
                        timeout=120)
    seen = []
    for msg in call:
        assert not msg.final
        seen.append(msg.analysis.iterations)
        if msg.analysis.iterations > 5 * 300:
            break
    call.cancel()
    assert seen[-1] > 1500 and seen == sorted(seen)
