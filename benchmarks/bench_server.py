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
3. The search queue under 16 and 64 concurrent 0.5 s Suggest calls (the
   server's default limits: 2 searches at once, 32 waiting, 16 from one
   client), each client on its own connection, and the 16 also from one
   shared connection: answered, told to retry (with the pushback delay
   sent), latency and wall time; then the 64 again with clients that use
   the published retry policy (easel/client/retry.py).
4. The replay cache on a whole game played call by call: every call sends
   the full record so far (LegalActions, as a client following a game
   does), with the cache and without (the same server code,
   replay_cache_entries=0), in alternating rounds: total time and the
   per-call median over the last tenth of the game. Van Gogh (a full game)
   and a 10,000-step Pig game (winscore=100000, horizon=100000).
Timing decides no test: the figures are printed and stored in the
benchmark's extra_info.

    python benchmarks/bench_server.py [latency|throughput|queue|cache]
"""
from __future__ import annotations

import random
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
from figures import measure_once, show

LATENCY_ITERATIONS = 300
LATENCY_ROUNDS = 40
THROUGHPUT_ITERATIONS = 300_000   # ~0.5 s a call: fixed per-call costs stay small
THROUGHPUT_ROUNDS = 3
MOVES = ["x in column 4", "o in column 4", "x in column 3"]


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


QUEUE_SECONDS = 0.5


def _queue_round(n, shared_channel=False, retrying=False):
    """n concurrent 0.5 s Suggest calls against a server at default limits."""
    from easel.client.retry import SERVICE_CONFIG_JSON
    srv = build_server(port=0, limits=Limits(max_threads=1)).start()
    options = [("grpc.use_local_subchannel_pool", 1)]
    options += ([("grpc.service_config", SERVICE_CONFIG_JSON), ("grpc.enable_retries", 1)]
                if retrying else [("grpc.enable_retries", 0)])
    target = f"127.0.0.1:{srv.port}"
    shared = grpc.insecure_channel(target, options=options) if shared_channel else None
    req = pb.SuggestRequest(position=pb.Position(record=pb.GameRecord(game="connect_four")))
    req.settings.budget.seconds = QUEUE_SECONDS
    req.settings.threads = 1
    results = [None] * n
    barrier = threading.Barrier(n)

    def one(i):
        ch = shared or grpc.insecure_channel(target, options=options)
        stub = pb_grpc.EngineStub(ch)
        barrier.wait()
        t0 = time.perf_counter()
        try:
            stub.Suggest(req, timeout=300)
            results[i] = ("ok", time.perf_counter() - t0, None)
        except grpc.RpcError as e:
            push = dict(e.trailing_metadata() or ()).get("grpc-retry-pushback-ms")
            results[i] = (e.code().name, time.perf_counter() - t0, push)
        if shared is None:
            ch.close()

    threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    refused = srv.queue.refused
    if shared is not None:
        shared.close()
    srv.stop(grace=0)
    ok = [r[1] for r in results if r[0] == "ok"]
    exhausted = [r for r in results if r[0] == "RESOURCE_EXHAUSTED"]
    pushes = sorted(int(r[2]) for r in exhausted if r[2] is not None)
    return {"calls": n, "ok": len(ok), "resource_exhausted": len(exhausted),
            "other_errors": n - len(ok) - len(exhausted),
            "server_refusals": refused,
            "ok_latency_median_s": statistics.median(ok) if ok else 0.0,
            "ok_latency_max_s": max(ok) if ok else 0.0,
            "refused_within_s": max((r[1] for r in exhausted), default=0.0),
            "pushback_ms_min": pushes[0] if pushes else 0,
            "pushback_ms_max": pushes[-1] if pushes else 0,
            "wall_s": wall}


def queue_behaviour():
    out = {}
    for label, kw in [("16 clients", dict(n=16)),
                      ("16 calls on one connection", dict(n=16, shared_channel=True)),
                      ("64 clients", dict(n=64)),
                      ("64 clients with the retry policy", dict(n=64, retrying=True))]:
        out[label] = _queue_round(**kw)
        show(f"queue, {label}", out[label])
    return out


def _game_calls(spec, steps_wanted, seed):
    """The records of a game played call by call (random legal play)."""
    rng = random.Random(seed)
    state = engine.load_game(spec).new_initial_state()
    steps = []
    while not state.is_terminal() and len(steps) < steps_wanted:
        a = (engine.draw_outcome(state, rng) if state.is_chance_node()
             else rng.choice(state.legal_actions()))
        state.apply_action(a)
        steps.append(a)
    return steps


def _play_call_by_call(stub, spec, steps, every=1):
    """Time each LegalActions call with the whole record so far."""
    times = []
    rec = pb.GameRecord(game=spec)
    for k, a in enumerate(steps):
        rec.steps.append(pb.Step(id=a))
        if k % every:
            continue
        req = pb.LegalActionsRequest(position=pb.Position(record=rec))
        t0 = time.perf_counter()
        stub.LegalActions(req, timeout=60)
        times.append(time.perf_counter() - t0)
    return times


def replay_cache_gain(rounds=2):
    out = {}
    for spec, n, every in [("vangogh", 10_000, 1),
                           ("pig(horizon=100000,winscore=100000)", 10_000, 50)]:
        steps = _game_calls(spec, n, seed=3)
        servers = {"cached": build_server(port=0).start(),
                   "uncached": build_server(port=0, limits=Limits(replay_cache_entries=0)).start()}
        totals = {k: [] for k in servers}
        tails = {k: [] for k in servers}
        try:
            for _ in range(rounds):
                for name, srv in servers.items():
                    with grpc.insecure_channel(f"127.0.0.1:{srv.port}") as ch:
                        times = _play_call_by_call(pb_grpc.EngineStub(ch), spec, steps, every)
                    totals[name].append(sum(times))
                    tails[name].extend(times[-max(1, len(times) // 10):])
        finally:
            for srv in servers.values():
                srv.stop(grace=0)
        c, u = statistics.median(totals["cached"]), statistics.median(totals["uncached"])
        tc, tu = statistics.median(tails["cached"]), statistics.median(tails["uncached"])
        figures = {"steps": len(steps), "calls": len(steps) // every,
                   "total_cached_s": c, "total_uncached_s": u, "total_ratio": u / c,
                   "late_call_cached_ms": tc * 1e3, "late_call_uncached_ms": tu * 1e3,
                   "late_call_ratio": tu / tc}
        out[spec] = figures
        show(f"replay cache, {spec} played call by call", figures)
    return out




def test_suggest_latency_overhead(benchmark):
    measure_once(benchmark, latency_overhead, "suggest latency (median)")


def test_two_call_throughput(benchmark):
    measure_once(benchmark, throughput_ratio, "suggest throughput")


def test_queue_behaviour(benchmark):
    figures = benchmark.pedantic(queue_behaviour, rounds=1, iterations=1)
    for label, f in figures.items():
        benchmark.extra_info.update({f"{label}: {k}": v for k, v in f.items()})


def test_replay_cache_gain(benchmark):
    figures = benchmark.pedantic(replay_cache_gain, rounds=1, iterations=1)
    for label, f in figures.items():
        benchmark.extra_info.update({f"{label}: {k}": v for k, v in f.items()})


if __name__ == "__main__":
    which = sys.argv[1:] or ["latency", "throughput", "queue", "cache"]
    if "latency" in which:
        show("suggest latency (median)", latency_overhead())
    if "throughput" in which:
        show("suggest throughput", throughput_ratio())
    if "queue" in which:
        queue_behaviour()
    if "cache" in which:
        replay_cache_gain()
    sys.exit(0)
