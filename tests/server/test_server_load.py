"""Load: 32 concurrent clients (each its own connection) mixing every RPC.
Every call is answered correctly or told to retry (RESOURCE_EXHAUSTED with
grpc-retry-pushback-ms); health checks keep answering; memory stays flat.

Short in CI (8 s). The minute-long run on demand:
    EASEL_LOAD_SECONDS=60 python -m pytest -q -s tests/server/test_server_load.py
"""
from __future__ import annotations

import os
import random
import threading
import time
from collections import Counter

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from easel import engine
from easel.v1 import engine_pb2 as pb
from easel.v1 import engine_pb2_grpc as pb_grpc
from easel.server.limits import Limits
from easel.server.service import build_server
from server_helpers import record, settings

SECONDS = float(os.environ.get("EASEL_LOAD_SECONDS", "8"))
CLIENTS = 32


def _rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _positions(n, seed):
    """(game, steps, legal ids) of positions from random play."""
    rng = random.Random(seed)
    out = []
    for game in ["pig", "connect_four", "vangogh"]:
        g = engine.load_game(game)
        for _ in range(n):
            state = g.new_initial_state()
            steps = []
            for _ in range(rng.randint(0, 60)):
                if state.is_terminal():
                    break
                a = (engine.draw_outcome(state, rng) if state.is_chance_node()
                     else rng.choice(state.legal_actions()))
                state.apply_action(a)
                steps.append(a)
            legal = (sorted(a for a, _ in state.chance_outcomes()) if state.is_chance_node()
                     else sorted(state.legal_actions()))
            out.append((game, steps, legal, state.current_player()))
    return out


def _client(port, deadline, positions, seed, tally, errors):
    rng = random.Random(seed)
    ch = grpc.insecure_channel(f"127.0.0.1:{port}", options=[("grpc.use_local_subchannel_pool", 1),
                                                            ("grpc.enable_retries", 0)])
    stub = pb_grpc.EngineStub(ch)
    try:
        while time.monotonic() < deadline:
            game, steps, legal, player = rng.choice(positions)
            kind = rng.choice(["ListGames", "NewGame", "LegalActions", "ApplyAction", "Suggest",
                               "Suggest", "Analyze", "Bad"])
            try:
                if kind == "ListGames":
                    assert len(stub.ListGames(pb.ListGamesRequest(), timeout=30).games) >= 3
                elif kind == "NewGame":
                    assert stub.NewGame(pb.NewGameRequest(game=game), timeout=30).position.game \
                        == game
                elif kind == "LegalActions":
                    r = stub.LegalActions(pb.LegalActionsRequest(position=record(game, *steps)),
                                          timeout=30)
                    assert sorted(a.id for a in r.actions) == legal
                elif kind == "ApplyAction":
                    if not legal:
                        continue
                    a = rng.choice(legal)
                    r = stub.ApplyAction(pb.ApplyActionRequest(position=record(game, *steps),
                                                               action=pb.Step(id=a)), timeout=30)
                    assert r.applied.id == a and r.position.move_number == len(steps) + 1
                elif kind == "Bad":
                    try:
                        stub.ApplyAction(pb.ApplyActionRequest(position=record(game, *steps),
                                                               action=pb.Step(id=10_000)),
                                         timeout=30)
                        raise AssertionError("an illegal step was accepted")
                    except grpc.RpcError as e:
                        assert e.code() == grpc.StatusCode.INVALID_ARGUMENT, e.code()
                else:
                    if player < 0:
                        continue
                    bot = rng.choice(["", "", "", "random", "greedy"])
                    s = (settings(iterations=rng.choice([50, 200, 800]), bot=bot)
                         if rng.random() < 0.7 else settings(seconds=0.05, bot=bot))
                    if kind == "Suggest":
                        r = stub.Suggest(pb.SuggestRequest(position=record(game, *steps),
                                                           settings=s), timeout=30)
                        assert r.analysis.candidates and r.analysis.candidates[0].id in legal
                    else:
                        msgs = list(stub.Analyze(pb.AnalyzeRequest(
                            position=record(game, *steps), settings=s, report_interval_ms=20),
                            timeout=30))
                        assert msgs[-1].final and msgs[-1].analysis.candidates[0].id in legal
                tally[kind + " OK"] += 1
            except grpc.RpcError as e:
                if e.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and any(
                        k == "grpc-retry-pushback-ms" for k, _ in (e.trailing_metadata() or ())):
                    tally[kind + " told to retry"] += 1
                    time.sleep(0.05)
                else:
                    errors.append(f"{kind}: {e.code()} {e.details()}")
            except AssertionError as e:
                errors.append(f"{kind}: wrong answer: {e}")
    finally:
        ch.close()


def test_thirty_two_clients_mixing_every_rpc():
    srv = build_server(port=0, limits=Limits(max_concurrent_searches=2, max_waiting_searches=12,
                                             max_waiting_per_client=4, max_threads=1,
                                             max_iterations=5000, max_seconds=1.0)).start()
    positions = _positions(12, seed=1)
    tally, errors = Counter(), []
    health_failures, rss = [], []
    try:
        deadline = time.monotonic() + SECONDS
        threads = [threading.Thread(target=_client, args=(srv.port, deadline, positions, i,
                                                          tally, errors), daemon=True)
                   for i in range(CLIENTS)]
        for t in threads:
            t.start()
        with grpc.insecure_channel(f"127.0.0.1:{srv.port}") as ch:
            health = health_pb2_grpc.HealthStub(ch)
            while time.monotonic() < deadline:
                try:
                    r = health.Check(health_pb2.HealthCheckRequest(service="easel.v1.Engine"),
                                     timeout=2)
                    assert r.status == health_pb2.HealthCheckResponse.SERVING
                except grpc.RpcError as e:
                    health_failures.append(e.code())
                rss.append(_rss_mb())
                time.sleep(0.25)
        for t in threads:
            t.join(timeout=60)
        assert not any(t.is_alive() for t in threads), "a client hung"
    finally:
        srv.stop(grace=0)
    total = sum(tally.values())
    print(f"\nload: {CLIENTS} clients, {SECONDS:.0f} s, {total} calls "
          f"({total / SECONDS:.0f}/s): {dict(sorted(tally.items()))}; "
          f"RSS {rss[len(rss) // 3]:.0f} -> {rss[-1]:.0f} MB; errors {len(errors)}")
    assert not errors, errors[:10]
    assert not health_failures
    for kind in ["ListGames", "NewGame", "LegalActions", "ApplyAction", "Suggest", "Analyze"]:
        assert tally[kind + " OK"] > 0, kind
    # flat memory: after warm-up (the first third), growth stays small
    assert rss[-1] - rss[len(rss) // 3] < 60, rss
