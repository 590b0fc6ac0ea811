"""Real servers for the match tests: in-process gRPC servers on ephemeral
loopback ports, each over its own SQLite file in the test's tmp_path."""
from __future__ import annotations

import os
import sys

import grpc
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from easel.server.analysis import Limits  # noqa: E402
from easel.server.matches import MatchLimits, MatchManager, Store  # noqa: E402
from easel.server.service import build_server  # noqa: E402
from easel.v1 import engine_pb2_grpc, matches_pb2_grpc  # noqa: E402

ENGINE_LIMITS = Limits(max_iterations=200_000, max_seconds=20.0, max_concurrent_searches=4,
                       max_threads=2, default_iterations=300)


class Served:
    """A running server with its manager, and stubs on one channel."""

    def __init__(self, db: str, **limits):
        self.db = db
        self.manager = MatchManager(Store(db), MatchLimits(**{"bot_threads": 2, **limits}),
                                    ENGINE_LIMITS).start()
        self.server = build_server(port=0, limits=ENGINE_LIMITS, matches=self.manager).start()
        self.address = f"127.0.0.1:{self.server.port}"
        self.channel = grpc.insecure_channel(self.address)
        grpc.channel_ready_future(self.channel).result(timeout=10)
        self.matches = matches_pb2_grpc.MatchesStub(self.channel)
        self.engine = engine_pb2_grpc.EngineStub(self.channel)

    def stop(self):
        self.channel.close()
        self.server.stop(grace=0)
        self.manager.store.close()


@pytest.fixture
def serve(tmp_path):
    """serve(**match_limits) -> Served; every server is stopped afterwards.
    The same db (tmp_path/matches.sqlite3) is reused, so a test can stop a
    server and start another on its database."""
    running = []

    def make(db=None, **limits):
        s = Served(db or str(tmp_path / "matches.sqlite3"), **limits)
        running.append(s)
        return s

    yield make
    for s in running:
        try:
            s.stop()
        except Exception:
            pass


@pytest.fixture
def served(serve):
    return serve()
