"""The search queue: concurrent searches wait instead of failing, are served
fairly across clients, cheap bots skip the queue, a full queue answers
RESOURCE_EXHAUSTED with a retry delay that gRPC's own retry honours. The
SearchQueue class alone, then over real channels."""
from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest

from easel.v1 import engine_pb2 as pb
from easel.v1 import engine_pb2_grpc as pb_grpc
from easel.server.analysis import Limits
from easel.server.errors import Cancelled, DeadlineExceeded, ResourceExhausted, Unavailable
from easel.server.queue import SearchQueue
from easel.client.retry import SERVICE_CONFIG, SERVICE_CONFIG_JSON
from server_helpers import record, settings

EXHAUSTED = grpc.StatusCode.RESOURCE_EXHAUSTED


# -- the queue alone ----------------------------------------------------------------------

def _waiter(q, client, out, **kw):
    def run():
        try:
            c = q.acquire(client, **kw)
            out.append(client)
            return c
        except Exception as e:     # noqa: BLE001  (the test reads it)
            out.append(e)
    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


def _wait_for(cond, bound=5.0):
    t0 = time.monotonic()
    while not cond():
        assert time.monotonic() - t0 < bound
        time.sleep(0.002)


def test_queue_serves_a_newcomer_before_a_busy_clients_backlog():
    q = SearchQueue(slots=1, max_waiting=10, max_waiting_per_client=10)
    first = q.acquire("A")
    got = []
    for _ in range(4):
        _waiter(q, "A", got)
    _wait_for(lambda: q.waiting() == 4)
    _waiter(q, "B", got)
    _wait_for(lambda: q.waiting() == 5)
    q.release(first)
    _wait_for(lambda: len(got) == 1)
    assert got == ["B"]                    # not A's backlog first
    assert list(q.granted_order) == ["A", "B"]


def test_queue_round_robin_between_busy_clients():
    q = SearchQueue(slots=1, max_waiting=20, max_waiting_per_client=10)
    running = q.acquire("X")
    got = []
    for client in ["A"] * 3 + ["B"] * 3:
        _waiter(q, client, got)
    _wait_for(lambda: q.waiting() == 6)
    order = []
    current = running
    for _ in range(6):
        q.release(current)
        _wait_for(lambda: len(q._running) == 1)
        current = next(iter(q._running))
        order.append(current.client)
    q.release(current)
    assert order in (["A", "B"] * 3, ["B", "A"] * 3)


def test_queue_full_answers_with_a_retry_delay():
    q = SearchQueue(slots=1, max_waiting=2, max_waiting_per_client=1)
    q.acquire("A")
    got = []
    _waiter(q, "A", got)
    _wait_for(lambda: q.waiting() == 1)
    with pytest.raises(ResourceExhausted, match="this client's search queue is full") as e:
        q.acquire("A")
    assert 0.05 <= e.value.retry_after <= 30
    _waiter(q, "B", got)
    _wait_for(lambda: q.waiting() == 2)
    with pytest.raises(ResourceExhausted, match="the search queue is full") as e:
        q.acquire("C")
    assert e.value.retry_after > 0
    # refused calls are told successive places, not all the same moment
    delays = []
    for client in "DEFGH":
        with pytest.raises(ResourceExhausted) as e:
            q.acquire(client)
        delays.append(e.value.retry_after)
    assert delays == sorted(delays) and delays[-1] > delays[0]


def test_queue_waits_end_with_deadline_cancel_and_shutdown():
    q = SearchQueue(slots=1, max_waiting=5, max_waiting_per_client=5)
    q.acquire("A")
    t0 = time.monotonic()
    with pytest.raises(DeadlineExceeded, match="waited for a slot"):
        q.acquire("B", deadline=time.monotonic() + 0.1)
    assert 0.09 <= time.monotonic() - t0 < 2 and q.waiting() == 0
    control = q.ticket("B")
    got = []
    _waiter(q, "B", got, control=control)
    _wait_for(lambda: q.waiting() == 1)
    control.stop("cancelled")
    _wait_for(lambda: got)
    assert isinstance(got[0], Cancelled) and q.waiting() == 0
    got.clear()
    _waiter(q, "C", got)
    _wait_for(lambda: q.waiting() == 1)
    q.shutdown()
    _wait_for(lambda: got)
    assert isinstance(got[0], Unavailable)
    with pytest.raises(Unavailable):
        q.acquire("D")


# -- over the network -------------------------------------------------------------------------

def suggest(stub, pos, timeout=60, **kw):
    return stub.Suggest(pb.SuggestRequest(position=pos, settings=settings(**kw)),
                        timeout=timeout)


def test_sixteen_concurrent_searches_are_all_answered(make_server):
    srv = make_server(max_concurrent_searches=2, max_waiting_searches=32,
                      max_waiting_per_client=16)
    with grpc.insecure_channel(f"127.0.0.1:{srv.port}") as ch:
        stub = pb_grpc.EngineStub(ch)
        barrier = threading.Barrier(16)

        def one(i):
            barrier.wait(timeout=10)
            return suggest(stub, record("connect_four"), seconds=0.25, seed=i)

        with ThreadPoolExecutor(16) as pool:
            results = list(pool.map(one, range(16)))
    assert all(r.analysis.candidates and r.stop_reason == pb.STOP_REASON_BUDGET
               for r in results)
    assert srv.running_searches() == 0 and srv.queue.waiting() == 0


def _hold_slots(stub, n):
    calls = [stub.Analyze(pb.AnalyzeRequest(position=record("connect_four"),
                                            report_interval_ms=20,
                                            settings=settings(seconds=15)), timeout=30)
             for _ in range(n)]
    for c in calls:
        next(c)
    return calls


def test_cheap_bots_do_not_wait_for_a_search_slot(make_server):
    srv = make_server(max_concurrent_searches=1, max_waiting_searches=0)
    with grpc.insecure_channel(f"127.0.0.1:{srv.port}") as ch:
        stub = pb_grpc.EngineStub(ch)
        calls = _hold_slots(stub, 1)
        try:
            for bot in ["random", "greedy", "heuristic"]:
                r = suggest(stub, record("connect_four", "x in column 4"), timeout=5, bot=bot)
                assert len(r.analysis.candidates) == 1
                msgs = list(stub.Analyze(pb.AnalyzeRequest(position=record("pig"),
                                                           settings=settings(bot=bot)),
                                         timeout=5))
                assert msgs[-1].stop_reason == pb.STOP_REASON_NO_SEARCH
            with pytest.raises(grpc.RpcError) as e:           # an MCTS search does wait
                suggest(stub, record("connect_four"), timeout=5, iterations=10)
            assert e.value.code() == EXHAUSTED
        finally:
            for c in calls:
                c.cancel()


def test_a_full_queue_sends_retry_pushback(make_server):
    srv = make_server(max_concurrent_searches=1, max_waiting_searches=1,
                      max_waiting_per_client=1)
    with grpc.insecure_channel(f"127.0.0.1:{srv.port}") as ch:
        stub = pb_grpc.EngineStub(ch)
        calls = _hold_slots(stub, 1)
        waiting = stub.Suggest.future(pb.SuggestRequest(
            position=record("pig"), settings=settings(iterations=10)), timeout=30)
        _wait_for(lambda: srv.queue.waiting() == 1)
        try:
            with pytest.raises(grpc.RpcError) as e:
                suggest(stub, record("pig"), timeout=5, iterations=10)
            assert e.value.code() == EXHAUSTED and "retry in" in e.value.details()
            trailer = dict(e.value.trailing_metadata())
            assert 50 <= int(trailer["grpc-retry-pushback-ms"]) <= 30_000
        finally:
            for c in calls:
                c.cancel()
        assert waiting.result(timeout=10).analysis.iterations == 10


def test_stock_clients_retry_with_the_published_service_config(make_server):
    assert SERVICE_CONFIG["methodConfig"][0]["name"] == [{"service": "easel.v1.Engine"}]
    srv = make_server(max_concurrent_searches=1, max_waiting_searches=0)
    plain = grpc.insecure_channel(f"127.0.0.1:{srv.port}", options=[("grpc.enable_retries", 0)])
    retrying = grpc.insecure_channel(f"127.0.0.1:{srv.port}", options=[
        ("grpc.service_config", SERVICE_CONFIG_JSON), ("grpc.enable_retries", 1)])
    try:
        holder = pb_grpc.EngineStub(plain).Suggest.future(pb.SuggestRequest(
            position=record("connect_four"), settings=settings(seconds=0.6)), timeout=30)
        _wait_for(lambda: srv.running_searches() == 1)
        with pytest.raises(grpc.RpcError) as e:
            suggest(pb_grpc.EngineStub(plain), record("pig"), timeout=5, iterations=10)
        assert e.value.code() == EXHAUSTED
        t0 = time.monotonic()
        r = suggest(pb_grpc.EngineStub(retrying), record("pig"), timeout=20, iterations=10)
        assert r.analysis.iterations == 10 and time.monotonic() - t0 >= 0.04
        assert holder.result(timeout=10).analysis.candidates
    finally:
        plain.close()
        retrying.close()


def test_a_client_waiting_in_the_queue_can_give_up(make_server):
    srv = make_server(max_concurrent_searches=1)
    with grpc.insecure_channel(f"127.0.0.1:{srv.port}") as ch:
        stub = pb_grpc.EngineStub(ch)
        calls = _hold_slots(stub, 1)
        try:
            with pytest.raises(grpc.RpcError) as e:
                suggest(stub, record("pig"), timeout=0.3, iterations=10)
            assert e.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
            _wait_for(lambda: srv.queue.waiting() == 0)
            f = stub.Suggest.future(pb.SuggestRequest(position=record("pig"),
                                                      settings=settings(iterations=10)),
                                    timeout=30)
            _wait_for(lambda: srv.queue.waiting() == 1)
            f.cancel()
            _wait_for(lambda: srv.queue.waiting() == 0)
        finally:
            for c in calls:
                c.cancel()


@pytest.fixture
def named_server():
    """A server with one search slot whose token list names clients a and b."""
    from easel.server.service import build_server
    srv = build_server(port=0, limits=Limits(max_concurrent_searches=1, max_waiting_searches=16,
                                             max_waiting_per_client=8, max_threads=2),
                       auth_token={"a": "token-of-a", "b": "token-of-b"}).start()
    yield srv
    srv.stop(grace=0)


def _own_channel(port):
    # a connection of its own (channels with equal arguments would share one)
    return grpc.insecure_channel(f"127.0.0.1:{port}",
                                 options=[("grpc.use_local_subchannel_pool", 1)])


def test_fair_across_clients(named_server):
    srv = named_server
    a, b = _own_channel(srv.port), _own_channel(srv.port)
    as_a = (("authorization", "Bearer token-of-a"),)
    as_b = (("authorization", "Bearer token-of-b"),)
    try:
        sa, sb = pb_grpc.EngineStub(a), pb_grpc.EngineStub(b)
        futures = [sa.Suggest.future(pb.SuggestRequest(position=record("connect_four"),
                                                       settings=settings(seconds=0.15)),
                                     timeout=60, metadata=as_a) for _ in range(5)]
        _wait_for(lambda: srv.queue.waiting() == 4)
        fb = sb.Suggest.future(pb.SuggestRequest(position=record("pig"),
                                                 settings=settings(iterations=10)), timeout=60,
                               metadata=as_b)
        fb.result(timeout=30)
        done_a = sum(f.done() for f in futures)
        assert done_a <= 2        # B was served after at most A's running search (and one)
        for f in futures:
            f.result(timeout=30)
        order = list(srv.queue.granted_order)
        assert order[:2] == ["token:a", "token:b"]     # B right after A's first
    finally:
        a.close()
        b.close()


def test_a_new_connection_or_a_made_up_token_is_not_a_new_client(make_server):
    """The per-client waiting limit holds for a client that opens more
    connections and sends invented bearer headers (a server without tokens
    counts clients by address)."""
    srv = make_server(max_concurrent_searches=1, max_waiting_searches=16,
                      max_waiting_per_client=2)
    chans = [_own_channel(srv.port) for _ in range(3)]
    calls = []
    try:
        slow = pb.SuggestRequest(position=record("connect_four"), settings=settings(seconds=20))
        for ch in chans:
            calls.append(pb_grpc.EngineStub(ch).Suggest.future(slow, timeout=60))
            _wait_for(lambda: srv.queue.running() + srv.queue.waiting() == len(calls))
        for ch in chans:
            with pytest.raises(grpc.RpcError) as e:
                pb_grpc.EngineStub(ch).Suggest(slow, timeout=10, metadata=(
                    ("authorization", f"Bearer made-up-{id(ch)}"),))
            assert e.value.code() == EXHAUSTED and "this client's" in e.value.details()
    finally:
        for c in calls:
            c.cancel()
        for ch in chans:
            ch.close()
