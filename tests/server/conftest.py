"""Servers for the server tests: real gRPC servers on ephemeral loopback ports.

`server` is shared by the module's tests (roomy limits: 8 searches at once);
tests that need other limits build their own with `make_server`."""
from __future__ import annotations

import grpc
import pytest

from easel.v1 import engine_pb2 as pb
from easel.v1 import engine_pb2_grpc as pb_grpc
from easel.server.analysis import Limits
from easel.server.service import build_server

LIMITS = Limits(max_iterations=200_000, max_seconds=20.0, max_concurrent_searches=8,
                max_threads=2, default_iterations=300)


@pytest.fixture
def make_server():
    started = []

    def make(**limits):
        srv = build_server(port=0, host="127.0.0.1", limits=Limits(**{**LIMITS.__dict__, **limits}))
        srv.start()
        started.append(srv)
        return srv

    yield make
    for srv in started:
        srv.stop(grace=0)


@pytest.fixture(scope="module")
def server():
    srv = build_server(port=0, host="127.0.0.1", limits=LIMITS).start()
    yield srv
    srv.stop(grace=0)


@pytest.fixture(scope="module")
def channel(server):
    ch = grpc.insecure_channel(f"127.0.0.1:{server.port}")
    grpc.channel_ready_future(ch).result(timeout=10)
    yield ch
    ch.close()


@pytest.fixture(scope="module")
def stub(channel):
    return pb_grpc.EngineStub(channel)
