"""Hosted matches' speed. Run: python -m pytest benchmarks/bench_matches.py -s
(or PYTHONPATH=. python benchmarks/bench_matches.py [step|rate|reuse|fair|arena]).

1. Committed step: the median cost of one client step, from the request to
   the commit (token check, step resolution, SQLite commit, wake-ups), in
   three layers measured in the same run: the store's append alone, the
   manager's `submit` in-process, and SubmitAction over loopback gRPC; each
   with synchronous=NORMAL (the default: safe against a killed server) and
   FULL (an fsync per step: safe against a power cut too).
   Target: under 2 ms median for SubmitAction (NORMAL).
2. Matches per minute with 1, 4 and 16 bot-only matches in flight at once
   (connect_four, mcts(iterations=200) against mcts(iterations=200), two bot
   threads), over one server; the ratio to the single-match rate. Each
   round plays the same 16 seeded matches at each concurrency, rounds
   alternate, medians are reported, with matches per CPU-minute beside them.
3. Tree reuse: the median bot move time with tree reuse across the match
   against a fresh search per move, at the same iterations (connect_four and
   pig, mcts(iterations=2000), the same games replayed for both).
4. Strength (arena, on demand: `arena` argument or EASEL_BENCH_ARENA=1):
   mcts(iterations=300) with tree reuse against a fresh search per move
   (reuse=false), 200 games in duplicate blocks each: connect_four, pig,
   and pig with the IS tree kept across chance events (reuse_across_chance,
   which MCTSBot no longer does by default: it made the bot far weaker).
5. Fair bot CPU (`fair` argument): client A runs 4 bot-vs-bot connect_four
   matches (mcts(time=1) on both seats) on one bot thread; client B then
   creates a match whose bot (mcts(time=1)) moves first. The time from B's
   CreateMatch to its bot's first step, 5 trials: its own 1 s search plus
   its wait for the CPU (fair: about one move of A; first come, first
   served: A's four waiting moves).
Timing decides no test: the figures are printed and kept in extra_info.
"""
from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import threading
import time

import grpc

from easel import engine
from easel.server.analysis import Limits
from easel.server.matches import MatchLimits, MatchManager, Store
from easel.server.matches.store import StepRow
from easel.server.service import build_server
from easel.v1 import engine_pb2 as epb
from easel.v1 import matches_pb2 as pb
from easel.v1 import matches_pb2_grpc
from figures import measure_once, show

STEPS = 600
STEP_ROUNDS = 10
RATE_MATCHES = {1: 16, 4: 16, 16: 16}      # matches per round at each concurrency
RATE_ROUNDS = 3
RATE_BOT = "mcts(iterations=200,seed={seed})"
REUSE_ITERATIONS = 2000
REUSE_GAMES = 6
ARENA_GAMES = int(os.environ.get("EASEL_BENCH_ARENA_GAMES", "200"))
ARENA_ITERATIONS = 300


def _manager(db, sync="FULL", **limits):
    return MatchManager(Store(db, synchronous=sync),
                        MatchLimits(**{"bot_threads": 2, "max_open_matches": 1000,
                                       "max_open_per_client": 1000, **limits}),
                        Limits()).start()


def _client_match(manager, game="connect_four"):
    m, tokens, _, _ = manager.create(game, [{"kind": "client"}, {"kind": "client"}],
                                     "server", False, "bench")
    return m, tokens


class _StepRig:
    """One database mode: a store for bare appends, a manager for in-process
    submits, a gRPC server over that manager for SubmitAction."""

    def __init__(self, d, sync):
        self.store = Store(os.path.join(d, f"alone-{sync}.sqlite3"), synchronous=sync)
        bare = MatchManager(self.store, MatchLimits(bot_threads=1), Limits())
        self.alone, _ = _client_match(bare)
        self.manager = _manager(os.path.join(d, f"submit-{sync}.sqlite3"), sync)
        self.server = build_server(port=0, matches=self.manager).start()
        self.channel = grpc.insecure_channel(f"127.0.0.1:{self.server.port}")
        self.stub = matches_pb2_grpc.MatchesStub(self.channel)
        self.rng = random.Random(1)
        self.appended = 0

    def append(self, k, times):
        for _ in range(k):
            n = self.appended
            self.appended += 1
            row = StepRow(n, n % 7, n % 2, "client", time.time())
            t0 = time.perf_counter()
            self.store.append_step(self.alone.id, row)
            times.append(time.perf_counter() - t0)

    def submit(self, k, times):
        """k steps of client-against-client connect_four, through the manager."""
        done = 0
        while done < k:
            m, tokens = _client_match(self.manager)
            while not m.ended and done < k:
                state = m.state
                step = epb.Step(id=self.rng.choice(state.legal_actions()))
                t0 = time.perf_counter()
                self.manager.submit(m.id, tokens[state.current_player()], len(m.steps), step)
                times.append(time.perf_counter() - t0)
                done += 1

    def rpc(self, k, times):
        done = 0
        while done < k:
            made = self.stub.CreateMatch(pb.CreateMatchRequest(
                game="connect_four", seats=[pb.SeatConfig(client=True)] * 2), timeout=10)
            tokens = {t.seat: t.token for t in made.seat_tokens}
            state = engine.load_game("connect_four").new_initial_state()
            while not state.is_terminal() and done < k:
                action = self.rng.choice(state.legal_actions())
                req = pb.SubmitActionRequest(
                    match_id=made.match_id, token=tokens[state.current_player()],
                    step=len(state.history()), action=epb.Step(id=action))
                t0 = time.perf_counter()
                self.stub.SubmitAction(req, timeout=10)
                times.append(time.perf_counter() - t0)
                state.apply_action(action)
                done += 1

    def close(self):
        self.channel.close()
        self.server.stop(grace=0)
        self.manager.store.close()
        self.store.close()


def step_cost(rounds=STEP_ROUNDS, per_round=STEPS // STEP_ROUNDS):
    """Medians over alternating rounds (NORMAL, FULL, each layer in turn), so
    that the load of the machine at any moment falls on all alike."""
    out = {"load_average_1min": os.getloadavg()[0]}
    with tempfile.TemporaryDirectory() as d:
        rigs = {sync: _StepRig(d, sync) for sync in ("NORMAL", "FULL")}
        times = {(sync, layer): [] for sync in rigs for layer in ("append", "submit", "rpc")}
        try:
            for _ in range(rounds):
                for sync, rig in rigs.items():
                    rig.append(per_round, times[sync, "append"])
                    rig.submit(per_round, times[sync, "submit"])
                    rig.rpc(per_round, times[sync, "rpc"])
        finally:
            for rig in rigs.values():
                rig.close()
    names = {"append": "store_append", "submit": "submit_in_process", "rpc": "submit_grpc"}
    for (sync, layer), ts in times.items():
        out[f"{names[layer]}_{sync.lower()}_ms"] = statistics.median(ts) * 1e3
    return out


def _play_matches(manager, conc, total):
    """Play `total` bot-only matches, `conc` at a time; (seconds, CPU seconds
    of this process, steps)."""
    lock = threading.Lock()
    left = list(range(total))
    steps = [0]

    def worker():
        while True:
            with lock:
                if not left:
                    return
                k = left.pop()
            # seeded bots: every concurrency plays the very same matches
            seats = [{"kind": "bot", "bot": RATE_BOT.format(seed=2 * k + p)} for p in (0, 1)]
            m, _, _, _ = manager.create("connect_four", seats, "server", False, "bench")
            with m.cond:
                while not m.ended:
                    m.cond.wait(1.0)
                n = len(m.steps)
            with lock:
                steps[0] += n

    threads = [threading.Thread(target=worker) for _ in range(conc)]
    t0, c0 = time.perf_counter(), time.process_time()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - t0, time.process_time() - c0, steps[0]


def match_rate(rounds=RATE_ROUNDS):
    """Matches per minute at each concurrency, medians of alternating rounds;
    beside them matches per CPU-minute of this process, which the load of a
    shared machine moves far less than wall time."""
    out = {"load_average_1min": os.getloadavg()[0]}
    rates = {c: [] for c in RATE_MATCHES}
    per_cpu = {c: [] for c in RATE_MATCHES}
    with tempfile.TemporaryDirectory() as d:
        manager = _manager(os.path.join(d, "rate.sqlite3"))
        try:
            _play_matches(manager, 2, 2)                    # warm up
            for _ in range(rounds):
                for conc, total in RATE_MATCHES.items():
                    wall, cpu, _ = _play_matches(manager, conc, total)
                    rates[conc].append(total / wall * 60)
                    per_cpu[conc].append(total / cpu * 60)
        finally:
            manager.stop()
            manager.store.close()
    for conc in RATE_MATCHES:
        out[f"matches_per_min_{conc}"] = statistics.median(rates[conc])
        out[f"matches_per_cpu_min_{conc}"] = statistics.median(per_cpu[conc])
    for conc in RATE_MATCHES:
        out[f"ratio_{conc}_to_1"] = out[f"matches_per_min_{conc}"] / out["matches_per_min_1"]
    return out


def reuse_move_times():
    """Median move time, reuse against fresh, on the same positions: the
    games are played by the reusing bots, then every one of their decision
    positions is searched again by fresh-search bots of the same iterations."""
    from easel.search.mcts import MCTSBot
    out = {}
    for game_name in ("connect_four", "pig"):
        game = engine.load_game(game_name)
        reuse_t, fresh_t, kept = [], [], []
        for g in range(REUSE_GAMES):
            rng = random.Random(g)
            bots = [MCTSBot(game, iterations=REUSE_ITERATIONS, seed=100 * g + p,
                            early_stop=False) for p in range(2)]
            fresh = [MCTSBot(game, iterations=REUSE_ITERATIONS, seed=100 * g + p,
                             reuse=False, early_stop=False) for p in range(2)]
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    engine.play_chance(state, rng)
                    continue
                p = state.current_player()
                if bots[p]._search is not None:      # root visits the reused tree brings
                    search = bots[p]._search_for(state)
                    kept.append(sum(n for t in search._trees for _, n in t.root_visits()))
                t0 = time.perf_counter()
                action = bots[p].step(state)
                reuse_t.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                fresh[p].step(state)
                fresh_t.append(time.perf_counter() - t0)
                state.apply_action(action)
        r, f = statistics.median(reuse_t), statistics.median(fresh_t)
        out[f"{game_name}_reuse_move_ms"] = r * 1e3
        out[f"{game_name}_fresh_move_ms"] = f * 1e3
        out[f"{game_name}_reuse_over_fresh"] = r / f
        out[f"{game_name}_root_visits_kept_median"] = statistics.median(kept) if kept else 0
    return out


ARENA_PAIRS = [   # (game, with reuse, without): the same iterations per move
    ("connect_four", "mcts(iterations={n})", "mcts(iterations={n},reuse=false)"),
    ("pig", "mcts(iterations={n})", "mcts(iterations={n},reuse=false)"),
    ("pig", "mcts(iterations={n},reuse_across_chance=true)", "mcts(iterations={n},reuse=false)"),
]


def reuse_arena():
    """Arena results (duplicate blocks, seed 1) for each pair of ARENA_PAIRS."""
    from easel.search.arena import run_arena
    out = []
    for game, a, b in ARENA_PAIRS:
        out.append(run_arena(game, [a.format(n=ARENA_ITERATIONS), b.format(n=ARENA_ITERATIONS)],
                             games=ARENA_GAMES, seed=1, jobs=1))
    return out




def fair_first_reply(trials=5):
    """Seconds from client B's CreateMatch to its bot's first step while
    client A's four bot-vs-bot matches share the one bot thread."""
    spec = {"kind": "bot", "bot": "mcts(time=1)"}
    waits = []
    with tempfile.TemporaryDirectory() as d:
        for trial in range(trials):
            manager = _manager(os.path.join(d, f"fair{trial}.sqlite3"), bot_threads=1)
            try:
                for _ in range(4):
                    manager.create("connect_four", [spec, spec], "server", False, "A")
                time.sleep(3)                  # A's matches are under way
                started = time.monotonic()
                m, _, _, _ = manager.create("connect_four", [spec, {"kind": "client"}],
                                            "server", False, "B")
                with m.cond:
                    while not m.steps:
                        m.cond.wait(0.05)
                waits.append(time.monotonic() - started)
            finally:
                manager.stop()
                manager.store.close()
    return {"first_reply_s_median": statistics.median(waits), "min": min(waits),
            "max": max(waits), "load_average_1min": os.getloadavg()[0]}


def test_fair_bot_cpu(benchmark):
    measure_once(benchmark, fair_first_reply, "another client's first bot reply", 2)


def test_committed_step_cost(benchmark):
    measure_once(benchmark, step_cost, "committed step (median)", 3)


def test_matches_per_minute(benchmark):
    measure_once(benchmark, match_rate, "bot-only matches", 3)


def test_tree_reuse_move_time(benchmark):
    measure_once(benchmark, reuse_move_times, "tree reuse", 3)


def test_tree_reuse_strength(benchmark):
    import pytest
    if os.environ.get("EASEL_BENCH_ARENA") != "1":
        pytest.skip("the 200-game arena runs on demand: EASEL_BENCH_ARENA=1")
    from easel.search.arena import format_report
    for result in benchmark.pedantic(reuse_arena, rounds=1, iterations=1):
        print(format_report(result.summary))


if __name__ == "__main__":
    which = sys.argv[1:] or ["step", "rate", "reuse"]
    if "step" in which:
        show("committed step (median)", step_cost(), 3)
    if "rate" in which:
        show("bot-only matches", match_rate(), 3)
    if "reuse" in which:
        show("tree reuse", reuse_move_times(), 3)
    if "fair" in which:
        show("another client's first bot reply", fair_first_reply(), 2)
    if "arena" in which:
        from easel.search.arena import format_report
        for result in reuse_arena():
            print(format_report(result.summary))
    sys.exit(0)
