"""The crash test: concurrent matches (bots, client seats, server chance) on
an `easel serve` subprocess that is killed with SIGKILL at random moments and
restarted, again and again. Then:

  * every match has ended (its bots went on after each restart);
  * its record holds every step any client was told of (a SubmitAction
    answer or a stream event), at the same number, and nothing else: each
    client-seat step is one that client submitted for that number;
  * every server-drawn chance outcome is the one the match's secret seed and
    the step number fix, i.e. the one it would have drawn without crashes.

Short by default (CI): 20 matches, 3 kills. The long form, on demand:
    EASEL_CRASH_ROUNDS=25 EASEL_CRASH_BOT=300 python -m pytest -q tests/matches/test_crash.py
"""
from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time

import grpc
import pytest

from easel import engine
from easel.server.matches import Store, draws
from easel.v1 import engine_pb2 as epb
from easel.v1 import matches_pb2 as pb
from easel.v1 import matches_pb2_grpc

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ROUNDS = int(os.environ.get("EASEL_CRASH_ROUNDS", "3"))
MATCHES = int(os.environ.get("EASEL_CRASH_MATCHES", "20"))
BOT_ITERATIONS = int(os.environ.get("EASEL_CRASH_BOT", "100"))
GAMES = ["pig", "connect_four", "pig", "vangogh"]


class Server:
    """`easel serve` on a database; restartable; its address changes."""

    def __init__(self, db):
        self.db = db
        self.proc = None
        self.address = None
        self.lock = threading.Lock()
        self.starts = 0

    def start(self):
        proc = subprocess.Popen(
            [sys.executable, "-m", "easel.server.cli", "serve", "--port", "0", "--no-http",
             "--db", self.db,
             "--bot-threads", "2", "--max-open-per-client", "100", "--log-level", "WARNING",
             "--grace", "0"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = proc.stdout.readline()
        assert line.startswith("listening on"), line
        with self.lock:
            self.proc = proc
            self.address = line.split()[-1]
            self.starts += 1

    def kill(self):
        with self.lock:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
            self.address = None

    def stub(self):
        while True:
            with self.lock:
                address = self.address
            if address is not None:
                return address
            time.sleep(0.05)


class Channels:
    """One channel per server address (a restart gets a new one)."""

    def __init__(self, server):
        self.server = server
        self.channels = {}
        self.lock = threading.Lock()

    def stub(self):
        address = self.server.stub()
        with self.lock:
            ch = self.channels.get(address)
            if ch is None:
                ch = self.channels[address] = grpc.insecure_channel(address)
        return matches_pb2_grpc.MatchesStub(ch)

    def close(self):
        for ch in self.channels.values():
            ch.close()


class Seat(threading.Thread):
    """A client seat (or, with token None, a plain watcher) that plays random
    legal moves from the event stream and reconnects through crashes."""

    def __init__(self, channels, match_id, game, seat, token, seed):
        super().__init__(daemon=True)
        self.channels, self.match_id, self.seat, self.token = channels, match_id, seat, token
        self.game = engine.load_game(game)
        self.rng = random.Random(seed)
        self.seen = []            # every step event, in order: (n, action)
        self.attempts = {}        # n -> set of actions submitted for step n
        self.acked = {}           # n -> action, as answered OK
        self.ended = None
        self.errors = 0

    def run(self):
        deadline = time.time() + 600
        while self.ended is None and time.time() < deadline:
            try:
                self._follow()
            except grpc.RpcError:
                self.errors += 1
                time.sleep(0.1)

    def _follow(self):
        stub = self.channels.stub()
        state = self.game.new_initial_state()
        for _, a in self.seen:
            state.apply_action(a)
        call = stub.WatchMatch(pb.WatchMatchRequest(match_id=self.match_id,
                                                    from_step=len(self.seen)), timeout=120)
        for ev in call:
            kind = ev.WhichOneof("event")
            if kind == "snapshot":
                assert ev.snapshot.step == len(self.seen)
                turn = ev.snapshot.turn
            elif kind == "step":
                assert ev.step.step == len(self.seen), "a step missed or repeated"
                self.seen.append((ev.step.step, ev.step.action.id))
                state.apply_action(ev.step.action.id)
                turn = ev.step.turn
            elif kind == "end":
                self.ended = ev.end
                return
            n = len(self.seen)
            if (self.token and turn.kind == epb.NODE_KIND_DECISION and turn.player == self.seat
                    and self.acked.get(n) is None):
                time.sleep(self.rng.uniform(0.0, 0.05))      # a client thinks
                action = self.rng.choice(state.legal_actions())
                self.attempts.setdefault(n, set()).add(action)
                try:
                    stub.SubmitAction(pb.SubmitActionRequest(
                        match_id=self.match_id, token=self.token, step=n,
                        action=epb.Step(id=action)), timeout=10)
                    self.acked[n] = action
                except grpc.RpcError as e:
                    if e.code() not in (grpc.StatusCode.UNAVAILABLE,
                                        grpc.StatusCode.FAILED_PRECONDITION,
                                        grpc.StatusCode.DEADLINE_EXCEEDED):
                        raise AssertionError(f"{e.code()}: {e.details()}")


def test_matches_survive_sigkill(tmp_path):
    db = str(tmp_path / "matches.sqlite3")
    server = Server(db)
    server.start()
    channels = Channels(server)
    rng = random.Random(int(os.environ.get("EASEL_CRASH_SEED", "7")))
    strong = f"mcts(iterations={BOT_ITERATIONS})"
    made = []
    stub = channels.stub()
    for i in range(MATCHES):
        game = GAMES[i % len(GAMES)]
        with_client = i % 2 == 1
        seats = ([pb.SeatConfig(client=True)] if with_client else
                 [pb.SeatConfig(bot=strong)]) + [pb.SeatConfig(bot=strong)]
        r = stub.CreateMatch(pb.CreateMatchRequest(game=game, seats=seats), timeout=30)
        token = r.seat_tokens[0].token if with_client else None
        made.append((r.match_id, game, token))
    seats = [Seat(channels, m, g, 0, t, seed=k) for k, (m, g, t) in enumerate(made)]
    for s in seats:
        s.start()
    kills = 0
    try:
        for _ in range(ROUNDS):
            time.sleep(rng.uniform(0.3, 2.5))
            server.kill()
            kills += 1
            server.start()
        for s in seats:
            s.join(timeout=600)
    finally:
        server.kill()
        channels.close()
    assert kills == ROUNDS and server.starts == ROUNDS + 1

    store = Store(db)
    try:
        unfinished = []
        for s, (match_id, game, token) in zip(seats, made):
            row = store.load(match_id)
            if row.status != "finished" or s.ended is None:
                unfinished.append((match_id, game, row.status, len(row.steps)))
                continue
            record = [(st.n, st.action) for st in row.steps]
            # everything anyone was told is in the record, at its number
            assert s.seen == record, f"{match_id}: the stream saw other steps"
            for n, action in s.acked.items():
                assert record[n] == (n, action), f"{match_id}: acknowledged step {n} lost"
            state = engine.load_game(game).new_initial_state()
            for st in row.steps:
                if st.by == "client":      # nothing else: only steps the client sent
                    assert token and st.player == 0 and st.action in s.attempts.get(st.n, ())
                elif st.by == "server":    # the hidden sequence, crashes or not
                    assert st.action == draws.draw(row.seed, st.n, state)
                else:
                    assert st.by == "bot" and st.player in (0, 1)
                assert state.is_legal(st.action)
                state.apply_action(st.action)
            assert state.is_terminal()
            assert row.result["returns"] == list(state.returns())
        assert not unfinished, f"matches that never ended: {unfinished}"
    finally:
        store.close()
    print(f"\n{MATCHES} matches, {kills} kills, {sum(len(s.seen) for s in seats)} steps, "
          f"{sum(len(s.acked) for s in seats)} acknowledged client steps, "
          f"{sum(s.errors for s in seats)} reconnects")


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-s"]))
