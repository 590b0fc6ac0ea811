"""A server's stop cannot hang on its health watchers (issue #27's class of
long-lived streams): grpc-health tells every open Watch NOT_SERVING under
its lock and waits for each send, and a watcher whose stream was stuck held
the whole stop, seen as a 600 s hang in a loaded run."""
from __future__ import annotations

import threading

import pytest

from easel.server.analysis import Limits
from easel.server.service import build_server


@pytest.mark.timeout(60, method="thread")
def test_a_stuck_health_shutdown_does_not_hold_the_stop(monkeypatch):
    srv = build_server(port=0, limits=Limits()).start()
    release = threading.Event()
    calls = []

    def stuck():
        calls.append("sending")
        release.wait(30)          # a send to a watcher that does not complete (30 s: the
        calls.append("sent")      # old stop returns at last, and the test sees it waited)

    monkeypatch.setattr(srv.health, "enter_graceful_shutdown", stuck)
    try:
        srv.stop(grace=0)
        stopped_while = list(calls)
    finally:
        release.set()
    assert stopped_while == ["sending"]     # the stop ended while the send was still stuck
