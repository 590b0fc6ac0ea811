"""The bots' CPU share is fair between clients: bot decisions wait their
turn by client (round robin over the clients with moves waiting), so one
client's many bot-vs-bot matches do not hold back another client's bot.
Checked by the order of grants, not by timings."""
from __future__ import annotations

import threading
import time

from easel.server.analysis import Limits
from easel.server.matches import MatchLimits, MatchManager, Store
from easel.server.matches.seats import BotCPU


def _wait_for(cond, bound=30.0):
    t0 = time.monotonic()
    while not cond():
        assert time.monotonic() - t0 < bound
        time.sleep(0.005)


def _ask(cpu, client, n=1, got=None):
    def run():
        if cpu.acquire(n, lambda: False, client):
            got.append(client)
    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


def test_a_newcomer_is_served_before_a_busy_clients_backlog():
    cpu = BotCPU(1)
    assert cpu.acquire(1, lambda: False, "A")
    got = []
    for _ in range(4):
        _ask(cpu, "A", got=got)
    _wait_for(lambda: cpu._fair.waiting == 4)
    _ask(cpu, "B", got=got)
    _wait_for(lambda: cpu._fair.waiting == 5)
    cpu.release(1, client="A")
    _wait_for(lambda: len(got) == 1)
    assert got == ["B"]
    for i in range(4):
        cpu.release(1, client=got[-1])
        _wait_for(lambda: len(got) == i + 2)     # counted before: the grant may come first
    assert got == ["B", "A", "A", "A", "A"]
    assert list(cpu.granted_order) == ["A", "B", "A", "A", "A", "A"]


def test_clients_take_turns():
    cpu = BotCPU(1)
    assert cpu.acquire(1, lambda: False, "X")
    got = []
    for i, client in enumerate(["A", "A", "A", "B", "B", "B"]):
        _ask(cpu, client, got=got)
        _wait_for(lambda: cpu._fair.waiting == i + 1)
    holder = "X"
    for i in range(6):
        cpu.release(1, client=holder)
        _wait_for(lambda: len(got) == i + 1)
        holder = got[-1]
    assert got == ["A", "B"] * 3


def test_a_bot_with_more_threads_keeps_its_turn():
    cpu = BotCPU(2)
    assert cpu.acquire(1, lambda: False, "A")
    got = []
    _ask(cpu, "B", 2, got)                  # needs both threads: waits for A's
    _wait_for(lambda: cpu._fair.waiting == 1)
    _ask(cpu, "C", 1, got)                  # one thread is free, but it is B's turn
    _wait_for(lambda: cpu._fair.waiting == 2)
    assert got == [] and cpu.busy() == (1, 0)
    cpu.release(1, client="A")
    _wait_for(lambda: got == ["B"])
    cpu.release(2, client="B")
    _wait_for(lambda: got == ["B", "C"])


def test_a_move_that_gives_up_leaves_its_turn_to_the_next():
    cpu = BotCPU(1)
    assert cpu.acquire(1, lambda: False, "A")
    stop = threading.Event()
    got = []
    t = threading.Thread(target=lambda: got.append(cpu.acquire(1, stop.is_set, "B")),
                         daemon=True)
    t.start()
    _wait_for(lambda: cpu._fair.waiting == 1)
    _ask(cpu, "C", got=got)
    _wait_for(lambda: cpu._fair.waiting == 2)
    stop.set()
    t.join(5)
    assert got == [False]
    cpu.release(1, client="A")
    _wait_for(lambda: got == [False, "C"])
    assert not cpu.try_ponder(1)            # all threads in use


def test_another_clients_first_bot_move_waits_one_decision_of_each(tmp_path):
    """Client A runs four bot-vs-bot matches on one bot thread; client B's
    bot then moves after at most one more decision of A (first come, first
    served would put it behind A's four waiting moves, again and again)."""
    mgr = MatchManager(Store(str(tmp_path / "fair.sqlite3")),
                       MatchLimits(bot_threads=1), Limits()).start()
    log = []
    fair = mgr.cpu._fair
    add, started = fair.add, fair.started

    def logged_add(client, item):           # both run under the BotCPU's lock: one order
        log.append(("wait", client))
        add(client, item)

    def logged_started(client):
        log.append(("grant", client))
        started(client)

    fair.add, fair.started = logged_add, logged_started
    try:
        # The test holds the one thread while the matches are made, so the
        # queue is known when it lets go: A's four first moves, then B's (a
        # queue read by polling while the bots play can move on unseen on a
        # loaded machine).
        assert mgr.cpu.acquire(1, lambda: False, "X")
        spec = {"kind": "bot", "bot": "mcts(iterations=400)"}
        for _ in range(4):
            mgr.create("connect_four", [spec, spec], "server", False, "A")
        _wait_for(lambda: fair.waiting == 4)            # A's moves queue for the thread
        mgr.create("connect_four", [spec, {"kind": "client"}], "server", False, "B")
        _wait_for(lambda: fair.waiting == 5)
        mgr.cpu.release(1, client="X")
        _wait_for(lambda: ("grant", "B") in log)
        asked = log.index(("wait", "B"))
        served = log.index(("grant", "B"))
        between = [c for what, c in log[asked:served] if what == "grant"]
        assert between.count("A") <= 1, log[asked:served + 1]
        assert sum(1 for what, c in log[:asked] if what == "wait" and c == "A") >= 4
    finally:
        mgr.stop()
        mgr.store.close()
