"""The HTTP face's cost: the same call over HTTP (server/gateway.py, Connect
protocol, JSON) and over gRPC, against one server, in alternating rounds so
that machine load falls on both alike.

Run: python -m pytest benchmarks/bench_http.py -s   (or python benchmarks/bench_http.py)

For ListGames (the largest answer of the Engine: every game with its
options, about 10 KB of JSON) and a small Suggest (connect_four, 100
iterations, one thread): the median wall time of each, client to answer,
over loopback, and the HTTP median minus the gRPC median (target: under
2 ms) and their ratio. The HTTP client is the standard library's
http.client on one kept-alive connection (what a program without a Connect
library would use; a browser's fetch is native code); the gRPC client is
the generated stub on one channel. JSON encoding and decoding is part of
the HTTP figure, as it is part of what a browser pays.

Timing decides no test: the figures are printed and stored in the
benchmark's extra_info.
"""
from __future__ import annotations

import http.client
import json
import statistics
import time

import grpc
from google.protobuf import json_format

from easel.v1 import engine_pb2 as pb
from easel.v1 import engine_pb2_grpc as pb_grpc
from easel.server.http_server import add_http
from easel.server.limits import Limits
from easel.server.service import build_server
from figures import measure_once, show

ROUNDS = 300
WARMUP = 30


def _suggest_request():
    req = pb.SuggestRequest(position=pb.Position(record=pb.GameRecord(
        game="connect_four", steps=[pb.Step(text="x in column 4"), pb.Step(text="o in column 4")])))
    req.settings.budget.iterations = 100
    req.settings.seed = 1
    req.settings.threads = 1
    return req


CALLS = {"ListGames": pb.ListGamesRequest(), "Suggest": _suggest_request()}
KEYS = {"ListGames": "list_games", "Suggest": "suggest"}


def overhead() -> dict:
    srv = build_server(port=0, limits=Limits(max_concurrent_searches=2, max_threads=1))
    http_srv = add_http(srv, port=0)
    srv.start()
    channel = grpc.insecure_channel(f"127.0.0.1:{srv.port}")
    grpc.channel_ready_future(channel).result(timeout=10)
    stub = pb_grpc.EngineStub(channel)
    conn = http.client.HTTPConnection("127.0.0.1", http_srv.port, timeout=30)
    out = {}
    try:
        for name, request in CALLS.items():
            body = json.dumps(json_format.MessageToDict(request)).encode()
            rpc = getattr(stub, name)

            def over_http():
                conn.request("POST", f"/easel.v1.Engine/{name}", body,
                             {"Content-Type": "application/json"})
                r = conn.getresponse()
                data = r.read()
                assert r.status == 200, data[:200]
                return json.loads(data)

            def over_grpc():
                return rpc(request, timeout=30)

            for _ in range(WARMUP):
                over_http()
                over_grpc()
            times_http, times_grpc = [], []
            for _ in range(ROUNDS):
                t0 = time.perf_counter()
                over_http()
                times_http.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                over_grpc()
                times_grpc.append(time.perf_counter() - t0)
            h, g = statistics.median(times_http), statistics.median(times_grpc)
            key = KEYS[name]
            out.update({f"{key}_http_ms": h * 1e3, f"{key}_grpc_ms": g * 1e3,
                        f"{key}_overhead_ms": (h - g) * 1e3, f"{key}_ratio": h / g})
    finally:
        conn.close()
        channel.close()
        srv.stop(grace=0)
    return out


def test_http_overhead(benchmark):
    measure_once(benchmark, overhead, f"HTTP against gRPC (medians of {ROUNDS} alternating "
                                      f"calls; overhead target under 2 ms)", digits=3)


if __name__ == "__main__":
    show(f"HTTP against gRPC (medians of {ROUNDS} alternating calls)", overhead(), 3)
