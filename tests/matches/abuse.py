"""Abusive clients of a running server (easel.v1.Matches and the long-lived
calls of every service), shared by tests/matches/test_matches_fuzz.py and
benchmarks/bench_matches_memory.py. Each function takes a server address,
does its harm with bounded counts and times, and returns the status codes
it got (code name -> count) and the refusal messages.

    codes = abuse_all("127.0.0.1:50051", clients=8)
"""
from __future__ import annotations

import threading
from collections import Counter

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2_grpc

from easel.v1 import engine_pb2 as epb
from easel.v1 import matches_pb2 as pb
from easel.v1 import matches_pb2_grpc

# Bot specs at and beyond every range the server checks, with what a bot
# seat must get: "ok" (accepted) or "invalid" (INVALID_ARGUMENT naming the
# seat's bot).
BOT_SPECS = {
    "random": "ok", "heuristic": "ok", "greedy(depth=6)": "ok", "greedy(depth=0)": "ok",
    "mcts(iterations=1)": "ok", "mcts(iterations=2000)": "ok", "mcts(time=0.5)": "ok",
    "mcts(time=1e-9)": "ok", "mcts(threads=1)": "ok", "mcts(form=closed)": "ok",
    "mcts(iterations=2001)": "invalid", "mcts(iterations=0)": "invalid",
    "mcts(iterations=-1)": "invalid", "mcts(iterations=1000000000000000000000000)": "invalid",
    "mcts(time=0.51)": "invalid", "mcts(time=0)": "invalid", "mcts(time=-1)": "invalid",
    "mcts(time=nan)": "invalid", "mcts(time=inf)": "invalid", "mcts(threads=2)": "invalid",
    "mcts(form=bogus)": "invalid", "mcts(foo=1)": "invalid", "greedy(depth=7)": "invalid",
    "greedy(samples=65)": "invalid", "greedy(budget=20001)": "invalid",
    "greedy(max_outcomes=65)": "invalid", "greedy(depth=-1)": "invalid",
    "greedy(samples=0)": "invalid", "human": "invalid", "mcts(": "invalid", "": "invalid",
    "mcts(" + "k" * 5000 + "=1)": "invalid",
    # the search's own options
    "mcts(threads=0)": "invalid", "mcts(threads=-1)": "invalid",
    "mcts(uct_c=nan)": "invalid", "mcts(uct_c=-1)": "invalid",
    "mcts(policy_bias=nan)": "invalid", "mcts(policy_bias=-1)": "invalid",
    "mcts(form=pimc,worlds=0)": "invalid", "mcts(form=pimc,worlds=-1)": "invalid",
    "mcts(form=pimc,worlds=100000000)": "invalid", "mcts(form=pimc,worlds=1e8)": "invalid",
}


class Tally:
    """Status codes and refusal messages, from many threads."""

    def __init__(self):
        self.codes: Counter = Counter()
        self.refusals: list[str] = []
        self._lock = threading.Lock()

    def call(self, fn, *args, **kw):
        try:
            out = fn(*args, **kw)
            code, details = grpc.StatusCode.OK, ""
        except grpc.RpcError as e:
            out, code, details = None, e.code(), e.details() or ""
        self.record(code, details)
        return out

    def record(self, code, details: str) -> None:
        with self._lock:
            self.codes[code.name] += 1
            if code == grpc.StatusCode.RESOURCE_EXHAUSTED:
                self.refusals.append(details)

    def ended(self, calls) -> None:
        """The status of each call that has already ended (refused ones)."""
        for c in calls:
            if c.done():
                self.record(c.code(), c.details() or "")


def create_client_match(stub, tally: Tally, game="connect_four"):
    return tally.call(stub.CreateMatch, pb.CreateMatchRequest(
        game=game, seats=[pb.SeatConfig(client=True), pb.SeatConfig(client=True)]),
        timeout=20)


def many_clients(address: str, clients: int, per_client: int, tally: Tally) -> list:
    """`clients` connections, each creating `per_client` matches of two
    client seats (refusals past the limits), all at once. The matches made."""
    made, lock = [], threading.Lock()

    def one():
        with grpc.insecure_channel(address) as ch:
            stub = matches_pb2_grpc.MatchesStub(ch)
            for _ in range(per_client):
                m = create_client_match(stub, tally)
                if m is not None:
                    with lock:
                        made.append(m)
    threads = [threading.Thread(target=one) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return made


def open_never_read(channel, match_ids, streams: int, tally: Tally, token_of=None) -> list:
    """WatchMatch streams (with positions) that are never read: the calls,
    to cancel later. Refusals come back as soon as asked."""
    stub = matches_pb2_grpc.MatchesStub(channel)
    calls = []
    for i in range(streams):
        mid = match_ids[i % len(match_ids)]
        token = token_of(mid) if token_of else ""
        calls.append(stub.WatchMatch(pb.WatchMatchRequest(match_id=mid, positions=True,
                                                          token=token), timeout=600))
    return calls


def idle_reflection(channel, streams: int):
    """Reflection streams that send nothing: (calls, release event)."""
    done = threading.Event()

    def nothing():
        done.wait()
        return
        yield                                       # pragma: no cover

    stub = reflection_pb2_grpc.ServerReflectionStub(channel)
    return [stub.ServerReflectionInfo(nothing(), timeout=600) for _ in range(streams)], done


def health_watches(channel, streams: int, name_chars: int = 150) -> list:
    """Health Watch streams on long service names, never read past the first."""
    stub = health_pb2_grpc.HealthStub(channel)
    return [stub.Watch(health_pb2.HealthCheckRequest(service="s" * name_chars + str(i)),
                       timeout=600) for i in range(streams)]


def huge_requests(stub, tally: Tally, count: int, size: int = 3_000_000) -> None:
    """GetMatch and ListMatches with megabytes of client text."""
    for i in range(count):
        tally.call(stub.GetMatch, pb.GetMatchRequest(match_id="x" * size + str(i)), timeout=30)
        tally.call(stub.ListMatches, pb.ListMatchesRequest(page_token="9" * size), timeout=30)


def bad_bots(stub, tally: Tally, specs=None) -> None:
    """A match per bot spec, its bot in the second seat (it never moves:
    the client seat is to play first), aborted at once if accepted."""
    for spec in specs if specs is not None else BOT_SPECS:
        made = tally.call(stub.CreateMatch, pb.CreateMatchRequest(
            game="connect_four", seats=[pb.SeatConfig(client=True), pb.SeatConfig(bot=spec)]),
            timeout=20)
        if made is not None:
            tally.call(stub.Abort, pb.AbortRequest(match_id=made.match_id,
                                                   token=made.creator_token), timeout=20)


def cancel_all(calls) -> None:
    for c in calls:
        c.cancel()


def end_all(stub, made, tally: Tally) -> None:
    for m in made:
        tally.call(stub.Abort, pb.AbortRequest(match_id=m.match_id, token=m.creator_token),
                   timeout=20)


def abuse_all(address: str, clients: int = 8, streams: int = 40, huge: int = 3,
              during=None) -> Tally:
    """Every kind of abuse above, against one server, then everything it
    opened closed or ended (`during()` is called while all of it is open).
    The tally of answers."""
    tally = Tally()
    with grpc.insecure_channel(address, options=[
            ("grpc.max_send_message_length", 8 << 20)]) as ch:
        stub = matches_pb2_grpc.MatchesStub(ch)
        made = many_clients(address, clients, 4, tally)
        ids = [m.match_id for m in made] or [
            (create_client_match(stub, tally) or pb.CreateMatchResponse(match_id="none"))
            .match_id]
        tokens = {m.match_id: m.seat_tokens[0].token for m in made}
        watch = open_never_read(ch, ids, streams, tally)
        seats = open_never_read(ch, ids, streams, tally, token_of=lambda mid: tokens.get(mid, ""))
        refl, release = idle_reflection(ch, streams)
        health = health_watches(ch, streams)
        huge_requests(stub, tally, huge)
        bad_bots(stub, tally)
        # the server still answers unary calls while all this is open
        tally.call(stub.ListMatches, pb.ListMatchesRequest(page_size=5), timeout=10)
        tally.call(health_pb2_grpc.HealthStub(ch).Check, health_pb2.HealthCheckRequest(),
                   timeout=10)
        for m in made[:2]:
            tally.call(stub.SubmitAction, pb.SubmitActionRequest(
                match_id=m.match_id, token=m.seat_tokens[0].token, step=0,
                action=epb.Step(text="x in column 4")), timeout=10)
        if during is not None:
            during()
        release.set()
        tally.ended(watch + seats + refl + health)
        cancel_all(watch + seats + refl + health)
        end_all(stub, made, tally)
    return tally
