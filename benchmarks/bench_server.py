"""gRPC service speed. Run: python -m pytest benchmarks/bench_server.py -s
(or python benchmarks/bench_server.py, which prints the same figures).

1. Suggest latency overhead: the median wall time of a Suggest call over
   loopback (client to answer) minus the median of the same work done
   in-process (load the game, replay the record, search, read the
   analysis), in alternating rounds so machine load affects both alike.
   Target: under 5 ms.
2. Two-call throughput: total search iterations per second with 2
   concurrent Suggest calls (one thread each) over one call alone. The
   search releases the GIL, so on 2 free cores this should be near 2
   (target at least 1.8). Medians of alternating rounds. The same ratio for
   two threads searching in one process without gRPC is printed beside it:
   on a machine busy with other work both fall, and the gap between them is
   what the service costs.
Timing decides no test: the figures are printed and stored in the
benchmark's extra_info.
"""
from __future__ import annotations

import statistics
import sys
import threading
import time

import grpc

from easel import engine
from easel.v1 import engine_pb2 as pb
from easel.v1 import engine_pb2_grpc as pb_grpc
from easel.search import Search
from easel.server.analysis import Limits
from easel.server.service import build_server

LATENCY_ITERATIONS = 300
LATENCY_ROUNDS = 40
THROUGHPUT_ITERATIONS = 300_000   # ~0.5 s a call: fixed per-call costs stay small
THROUGHPUT_ROUNDS = 3
MOVES = ["x3", "o3", "x2"]


def _request(iterations, seed=0):
    req = pb.SuggestRequest(position=pb.Position(record=pb.GameRecord(
        game="connect_four", steps=[pb.Step(text=m) for m in MOVES])))
    req.settings.budget.iterations = iterations
    req.settings.seed = seed
    req.settings.threads = 1
    return req


def _in_process(iterations, seed=0):
    game = engine.load_game("connect_four")
    state = game.new_initial_state()
    for m in MOVES:
        state.apply_action(state.string_to_action(m))
    s = Search(game, state, seed=seed, threads=1)
    s.run(iterations=iterations)
    return s.analysis()


def _server():
    srv = build_server(port=0, limits=Limits(max_concurrent_searches=4, max_threads=2)).start()
    ch = grpc.insecure_channel(f"127.0.0.1:{srv.port}")
    grpc.channel_ready_future(ch).result(timeout=10)
    return srv, ch, pb_grpc.EngineStub(ch)


def latency_overhead():
    srv, ch, stub = _server()
    try:
        req = _request(LATENCY_ITERATIONS)
        for _ in range(5):                         # warm up both paths
            stub.Suggest(req, timeout=30)
            _in_process(LATENCY_ITERATIONS)
        rpc, local = [], []
        for _ in range(LATENCY_ROUNDS):
            t0 = time.perf_counter()
            stub.Suggest(req, timeout=30)
            rpc.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            _in_process(LATENCY_ITERATIONS)
            local.append(time.perf_counter() - t0)
        med_rpc, med_local = statistics.median(rpc), statistics.median(local)
        return {"rpc_ms": med_rpc * 1e3, "in_process_ms": med_local * 1e3,
                "overhead_ms": (med_rpc - med_local) * 1e3}
    finally:
        ch.close()
        srv.stop(grace=0)


def throughput_ratio():
    srv, ch, stub = _server()
    try:
        def one(seed):
            return stub.Suggest(_request(THROUGHPUT_ITERATIONS, seed), timeout=120
                                ).analysis.iterations

        def timed(n):
            out = [0] * n
            threads = [threading.Thread(target=lambda i=i: out.__setitem__(i, one(i)))
                       for i in range(n)]
            t0 = time.perf_counter()
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            return sum(out) / (time.perf_counter() - t0)

        def local(n):
            out = [0] * n

            def work(i):
                out[i] = _in_process(THROUGHPUT_ITERATIONS, seed=i).iterations

            threads = [threading.Thread(target=work, args=(i,)) for i in range(n)]
            t0 = time.perf_counter()
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            return sum(out) / (time.perf_counter() - t0)

        timed(1)
        single, double, local1, local2 = [], [], [], []
        for _ in range(THROUGHPUT_ROUNDS):
            single.append(timed(1))
            double.append(timed(2))
            local1.append(local(1))
            local2.append(local(2))
        s, d = statistics.median(single), statistics.median(double)
        # The same two searches in two threads of one process, without gRPC:
        # what the machine gives right now (other load shows here too).
        ls, ld = statistics.median(local1), statistics.median(local2)
        return {"one_call_it_per_s": s, "two_calls_it_per_s": d, "ratio": d / s,
                "in_process_ratio": ld / ls}
    finally:
        ch.close()
        srv.stop(grace=0)


def _report(name, figures):
    print(f"{name}: " + ", ".join(f"{k}={v:,.2f}" for k, v in figures.items()))


def test_suggest_latency_overhead(benchmark):
    figures = benchmark.pedantic(latency_overhead, rounds=1, iterations=1)
    benchmark.extra_info.update(figures)
    _report("suggest latency (median)", figures)


def test_two_call_throughput(benchmark):
    figures = benchmark.pedantic(throughput_ratio, rounds=1, iterations=1)
    benchmark.extra_info.update(figures)
    _report("suggest throughput", figures)


if __name__ == "__main__":
    _report("suggest latency (median)", latency_overhead())
    _report("suggest throughput", throughput_ratio())
    sys.exit(0)
