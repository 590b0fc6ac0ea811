"""Suggest and Analyze over a real channel: ranked candidates with their
statistics, streaming reports, cancellation, deadlines, capacity, concurrent
calls and shutdown. Small budgets; nothing here is decided by timing except
how fast a stopped search lets go of its slot (a generous bound)."""
from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest

from easel.v1 import engine_pb2 as pb
from easel.v1 import engine_pb2_grpc as pb_grpc
from server_helpers import assert_status, record, settings

# A stopped search must free its slot this fast (the brief's bar is 50 ms;
# the margin absorbs a loaded CI machine).
STOP_BOUND = 0.1


def wait_idle(srv, bound):
    """Seconds until the server runs no search (fails past `bound`)."""
    t0 = time.perf_counter()
    while srv.running_searches():
        if time.perf_counter() - t0 > bound:
            pytest.fail(f"search still running {bound:.3f} s after the call ended")
        time.sleep(0.001)
    return time.perf_counter() - t0


def suggest(stub, pos, timeout=30, **kw):
    return stub.Suggest(pb.SuggestRequest(position=pos, settings=settings(**kw)),
                        timeout=timeout)


def test_suggest_ranked_candidates(stub):
    r = suggest(stub, record("connect_four", "x in column 4", "o in column 4"), iterations=600, seed=1, num_candidates=4)
    a = r.analysis
    assert a.player == 0 and a.iterations == 600 and a.elapsed_seconds > 0
    assert a.bot.startswith("mcts(") and "iterations=600" in a.bot
    assert [c.rank for c in a.candidates] == [1, 2, 3, 4]
    assert len({c.id for c in a.candidates}) == 4
    assert all(c.text == f"x in column {c.id + 1}" for c in a.candidates)
    visits = [c.visits for c in a.candidates]
    assert visits == sorted(visits, reverse=True) and sum(visits) <= 600
    for c in a.candidates:
        assert len(c.values) == 2 and c.value == pytest.approx(c.values[0])
        assert 0.0 <= c.win_probability <= 1.0 and c.confidence_half_width > 0
        assert c.turn_length == 1 and c.pv[0].id == c.id and c.pv[0].player == 0
        assert not any(s.is_chance for s in c.pv)
    assert r.position.move_number == 2


def test_suggest_finds_the_winning_move(stub):
    # x has columns 1, 2, 3 on the bottom row; x in column 4 wins at once.
    a = suggest(stub, record("connect_four", "x in column 1", "o in column 1", "x in column 2", "o in column 2", "x in column 3", "o in column 3"),
                iterations=1500, seed=0).analysis
    assert a.candidates[0].text == "x in column 4"
    assert a.candidates[0].win_probability > 0.9 and a.candidates[0].value > 0.8


def test_suggest_with_chance_marks_chance_in_the_pv(stub):
    a = suggest(stub, record("pig", "roll", "Roll 6", "stop"), iterations=1500, seed=3).analysis
    assert a.player == 1
    assert {c.text for c in a.candidates} == {"roll", "stop"}
    roll = next(c for c in a.candidates if c.text == "roll")
    assert roll.pv[1].is_chance and roll.pv[1].player == -1
    assert len(roll.expected_scores) == 2          # pig keeps scores


def test_suggest_is_reproducible_with_a_seed(stub):
    pos = record("pig", "roll", "Roll 3")
    one = suggest(stub, pos, iterations=400, seed=7)
    two = suggest(stub, pos, iterations=400, seed=7)
    strip = lambda r: [(c.id, c.visits, c.value) for c in r.analysis.candidates]
    assert strip(one) == strip(two)


def test_suggest_threads(stub):
    a = suggest(stub, record("connect_four"), iterations=400, threads=2, seed=5).analysis
    assert a.iterations == 400 and "threads=2" in a.bot


def test_suggest_time_budget(stub):
    a = suggest(stub, record("connect_four"), seconds=0.15).analysis
    assert a.iterations > 0 and 0.1 <= a.elapsed_seconds < 1.0


def test_default_budget(stub):
    a = suggest(stub, record("connect_four")).analysis
    assert a.iterations == 300                      # the test server's default_iterations


@pytest.mark.parametrize("bot", ["random", "greedy", "heuristic(seed=3)"])
def test_non_searching_bots_give_their_move(stub, bot):
    legal = {a.id for a in stub.LegalActions(pb.LegalActionsRequest(
        position=record("connect_four", "x in column 4"))).actions}
    a = suggest(stub, record("connect_four", "x in column 4"), bot=bot, seed=2).analysis
    assert len(a.candidates) == 1 and a.candidates[0].id in legal
    assert a.candidates[0].visits == 0 and a.bot.split("(")[0] == bot.split("(")[0]
    msgs = list(stub.Analyze(pb.AnalyzeRequest(position=record("connect_four", "x in column 4"),
                                               settings=settings(bot=bot, seed=2)), timeout=30))
    assert len(msgs) == 1 and msgs[0].final and msgs[0].stop_reason == pb.STOP_REASON_NO_SEARCH
    assert msgs[0].analysis.candidates[0].id == a.candidates[0].id     # same seed, same move


def test_analyze_streams_reports_then_one_final(stub):
    msgs = list(stub.Analyze(pb.AnalyzeRequest(
        position=record("connect_four", "x in column 4"), report_interval_ms=40,
        settings=settings(seconds=0.35, num_candidates=2)), timeout=30))
    assert len(msgs) >= 3
    assert [m.final for m in msgs] == [False] * (len(msgs) - 1) + [True]
    assert msgs[-1].stop_reason == pb.STOP_REASON_BUDGET
    assert all(m.stop_reason == pb.STOP_REASON_UNSPECIFIED for m in msgs[:-1])
    its = [m.analysis.iterations for m in msgs]
    assert its == sorted(its) and its[0] > 0
    assert msgs[0].HasField("position") and not msgs[1].HasField("position")
    assert all(len(m.analysis.candidates) <= 2 for m in msgs)


def test_analyze_iteration_budget_is_exact(stub):
    msgs = list(stub.Analyze(pb.AnalyzeRequest(
        position=record("pig"), report_interval_ms=10, settings=settings(iterations=3000)),
        timeout=30))
    assert msgs[-1].final and msgs[-1].analysis.iterations == 3000
    assert sum(m.final for m in msgs) == 1


def test_cancelling_analyze_stops_the_search(stub, server):
    call = stub.Analyze(pb.AnalyzeRequest(position=record("connect_four"), report_interval_ms=20,
                                          settings=settings(seconds=15)), timeout=30)
    seen = [next(call).analysis.iterations for _ in range(3)]
    assert seen == sorted(seen)
    assert server.running_searches() == 1
    call.cancel()
    wait_idle(server, STOP_BOUND)
    with pytest.raises(grpc.RpcError) as e:
        for _ in call:
            pass
    assert e.value.code() == grpc.StatusCode.CANCELLED


def test_cancelling_suggest_stops_the_search(stub, server):
    future = stub.Suggest.future(pb.SuggestRequest(position=record("pig"),
                                                   settings=settings(seconds=15)), timeout=30)
    t0 = time.perf_counter()
    while not server.running_searches():
        assert time.perf_counter() - t0 < 5, "the search never started"
        time.sleep(0.005)
    time.sleep(0.05)
    future.cancel()
    wait_idle(server, STOP_BOUND)
    assert future.cancelled()


def test_deadline_stops_suggest(stub, server):
    t0 = time.perf_counter()
    with pytest.raises(grpc.RpcError) as e:
        suggest(stub, record("connect_four"), timeout=0.3, seconds=15)
    assert e.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert time.perf_counter() - t0 < 2
    wait_idle(server, STOP_BOUND)


def test_deadline_stops_analyze(stub, server):
    call = stub.Analyze(pb.AnalyzeRequest(position=record("connect_four"), report_interval_ms=50,
                                          settings=settings(seconds=15)), timeout=0.4)
    got = []
    with pytest.raises(grpc.RpcError) as e:
        for m in call:
            got.append(m)
    assert e.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert got and not any(m.final for m in got)
    wait_idle(server, STOP_BOUND)


def test_over_capacity_is_resource_exhausted(make_server):
    srv = make_server(max_concurrent_searches=1, max_waiting_searches=0)   # no queue
    with grpc.insecure_channel(f"127.0.0.1:{srv.port}") as ch:
        stub = pb_grpc.EngineStub(ch)
        long_call = stub.Analyze(pb.AnalyzeRequest(
            position=record("connect_four"), report_interval_ms=20,
            settings=settings(seconds=15)), timeout=30)
        next(long_call)
        with pytest.raises(grpc.RpcError) as e:
            suggest(stub, record("connect_four"), iterations=10)
        assert_status(e, grpc.StatusCode.RESOURCE_EXHAUSTED, "queue is full", "retry")
        # calls that do not search still flow
        assert len(stub.ListGames(pb.ListGamesRequest(), timeout=5).games) >= 2
        long_call.cancel()
        wait_idle(srv, STOP_BOUND)
        assert suggest(stub, record("connect_four"), iterations=10).analysis.iterations == 10


def test_eight_concurrent_suggests_are_all_answered_correctly(stub):
    cases = [(record("connect_four", *moves), seed) for moves, seed in [
        ((), 1), (("x in column 4",), 2), (("x in column 4", "o in column 4"), 3), (("x in column 1", "o in column 7", "x in column 2"), 4)]]
    cases += [(record("pig", *steps), seed) for steps, seed in [
        ((), 5), (("roll", "Roll 4"), 6), (("roll", "Roll 6", "stop"), 7), (("stop",), 8)]]

    def ask(case):
        pos, seed = case
        r = suggest(stub, pos, iterations=500, seed=seed, threads=1)
        return [(c.id, c.visits, round(c.value, 12)) for c in r.analysis.candidates], r

    alone = [ask(c)[0] for c in cases]
    barrier = threading.Barrier(len(cases))

    def together(case):
        barrier.wait(timeout=10)
        return ask(case)

    with ThreadPoolExecutor(len(cases)) as pool:
        results = list(pool.map(together, cases))
    assert [r[0] for r in results] == alone
    for (pos, _), (_, r) in zip(cases, results):
        assert r.analysis.iterations == 500
        assert r.position.move_number == len(pos.record.steps)


def test_shutdown_cuts_searches_short_and_they_answer(make_server):
    srv = make_server()
    ch = grpc.insecure_channel(f"127.0.0.1:{srv.port}")
    stub = pb_grpc.EngineStub(ch)
    call = stub.Analyze(pb.AnalyzeRequest(position=record("connect_four"), report_interval_ms=30,
                                          settings=settings(seconds=15)), timeout=30)
    first = next(call)
    stopper = threading.Thread(target=srv.stop, kwargs={"grace": 5.0})
    t0 = time.perf_counter()
    stopper.start()
    rest = list(call)
    stopper.join(10)
    assert not stopper.is_alive() and time.perf_counter() - t0 < 3
    assert rest and rest[-1].final and rest[-1].stop_reason == pb.STOP_REASON_SHUTDOWN
    assert rest[-1].analysis.iterations >= first.analysis.iterations
    ch.close()
