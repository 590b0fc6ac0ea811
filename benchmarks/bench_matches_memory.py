"""A real `easel serve`'s memory under the Matches abuse suite and after it.
Run: python -m pytest benchmarks/bench_matches_memory.py -s
(or python benchmarks/bench_matches_memory.py, which prints the same figures).

The server runs as a subprocess with its default limits (but for
--stream-stall-seconds 2, so that never-read streams give their slots back
within the run); its resident set (VmRSS in /proc) is read every 20 ms.

1. idle: after start-up and one call of each kind (every module loaded);
2. peak: the highest reading while tests/matches/abuse.py's `abuse_all` runs
   (many clients creating matches up to the limits, never-read WatchMatch
   streams as spectators and as seats, idle reflection streams, health
   Watches on long names, megabyte match ids and page tokens, every bot spec
   of the corpus), ABUSE_ROUNDS rounds one after the other;
3. after: a few seconds after the last round, once every slot is back.

Figures: idle_mb, peak_mb, after_mb and the ratios peak/idle, after/idle
(target: after within 20% of idle). Timing decides nothing here.

    EASEL_ABUSE_ROUNDS=5 EASEL_ABUSE_STREAMS=200 python benchmarks/bench_matches_memory.py
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

import grpc

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path[:0] = [os.path.join(ROOT, "tests"), os.path.join(ROOT, "tests", "matches")]

import abuse  # noqa: E402
from easel.v1 import engine_pb2 as epb  # noqa: E402
from easel.v1 import engine_pb2_grpc  # noqa: E402
from figures import measure_once, show  # noqa: E402

ROUNDS = int(os.environ.get("EASEL_ABUSE_ROUNDS", "2"))
STREAMS = int(os.environ.get("EASEL_ABUSE_STREAMS", "80"))
CLIENTS = int(os.environ.get("EASEL_ABUSE_CLIENTS", "16"))
ENV = dict(x.split("=", 1) for x in os.environ.get("EASEL_SERVE_ENV", "").split() if "=" in x)
SETTLE = 6.0                 # seconds after the abuse before "after" is read


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


class Sampler(threading.Thread):
    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.pid, self.peak, self.stop = pid, 0.0, threading.Event()

    def run(self):
        while not self.stop.wait(0.02):
            self.peak = max(self.peak, rss_mb(self.pid))


def _serve(db: str):
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from easel.server.cli import main; sys.exit(main())",
         "serve", "--port", "0", "--no-http", "--db", db, "--stream-stall-seconds", "2",
         "--log-level", "WARNING"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT,
        env={**os.environ, **ENV})
    line = proc.stdout.readline()
    if not line.startswith("listening on "):
        proc.kill()
        raise RuntimeError(f"easel serve did not start: {line!r}")
    return proc, line.split()[-1]


def _warm(address: str) -> None:
    """One call of each kind, so that idle counts every module loaded."""
    tally = abuse.Tally()
    abuse.abuse_all(address, clients=1, streams=1, huge=0)
    with grpc.insecure_channel(address) as ch:
        stub = engine_pb2_grpc.EngineStub(ch)
        stub.ListGames(epb.ListGamesRequest(), timeout=30)
        req = epb.SuggestRequest(position=epb.Position(record=epb.GameRecord(game="pig")))
        req.settings.budget.iterations = 200
        tally.call(stub.Suggest, req, timeout=30)


def memory_under_abuse() -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        proc, address = _serve(os.path.join(tmp, "m.sqlite3"))
        try:
            _warm(address)
            time.sleep(SETTLE)
            idle = rss_mb(proc.pid)
            sampler = Sampler(proc.pid)
            sampler.start()
            codes: dict = {}
            for _ in range(ROUNDS):
                tally = abuse.abuse_all(address, clients=CLIENTS, streams=STREAMS)
                for k, v in tally.codes.items():
                    codes[k] = codes.get(k, 0) + v
            time.sleep(SETTLE)
            sampler.stop.set()
            sampler.join()
            after = rss_mb(proc.pid)
            threads = len(os.listdir(f"/proc/{proc.pid}/task"))
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
    assert "INTERNAL" not in codes and "UNKNOWN" not in codes, codes
    return {"idle_mb": idle, "peak_mb": sampler.peak, "after_mb": after,
            "peak_over_idle": sampler.peak / idle, "after_over_idle": after / idle,
            "threads_after": threads, "rounds": ROUNDS, "answers": sum(codes.values()),
            "refused": codes.get("RESOURCE_EXHAUSTED", 0)}


def test_memory_under_abuse(benchmark):
    measure_once(benchmark, memory_under_abuse, "matches memory under abuse")


if __name__ == "__main__":
    show("matches memory under abuse", memory_under_abuse())
