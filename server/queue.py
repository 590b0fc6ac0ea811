"""The search queue: at most N searches run at once, a bounded number wait,
served fairly across clients; beyond, a refusal that says when to retry.

Shared by every service on a server that runs searches (easel.v1.Engine's
Suggest and Analyze, and later hosted matches), so that together they never
run more than the server allows:

    queue = SearchQueue(limits)                     # server/limits.py
    control = queue.acquire(client="ipv4:10.0.0.7:51234", deadline=t)   # blocks
    try:
        ...                                         # control.attach(search); search.run()
    finally:
        queue.release(control)

* `acquire` returns at once when a slot is free; else the call waits in the
  queue until a slot is granted to it, and raises DeadlineExceeded when its
  deadline passes first, Cancelled when `control.stop("cancelled")` is
  called meanwhile (wire that to the RPC's done-callback: `queue.ticket()`
  gives the control before waiting), Unavailable when the server shuts down.
* Fairness (`FairOrder`, shared with the hosted matches' bot CPU): when a
  slot frees, it goes to the waiting client with the fewest searches
  running, ties to the client served longest ago (round robin); each
  client's own requests are served first come, first served. A client is
  what the caller names it: the services name it with `queue.clients`
  (server/auth.py `Clients`: its token's name where the server has a token
  list, else its IP address), so a new connection or a made-up header is
  not a new client. So one client's many long searches take at most their
  share once others are waiting.
* When the queue is full (`max_waiting_searches` in all, or
  `max_waiting_per_client` for that client), ResourceExhausted carries
  `retry_after`, sent by the service as grpc-retry-pushback-ms. A place in
  the queue opens about every (mean recent search time / slots) seconds, so
  the refused calls are given successive places: the first is told to come
  back after one interval, the next after two, and so on (clamped to 50 ms
  .. 30 s). Refused clients thus return spread out, about when there is
  room for them, instead of all at once.
* `shutdown()` refuses new searches and stops the running and waiting ones
  ("shutdown"): running searches answer with what they have.
"""
from __future__ import annotations

import itertools
import threading
import time
from collections import OrderedDict, deque

from .auth import Clients
from .errors import Cancelled, DeadlineExceeded, ResourceExhausted, Unavailable

MIN_RETRY = 0.05
MAX_RETRY = 30.0
MAX_CLIENTS_REMEMBERED = 10_000      # when each was last served (fairness ties)


class FairOrder:
    """Requests of many clients waiting for a share of something (search
    slots, bot threads), in the order they are to be served: the client with
    the fewest running first, ties to the client served longest ago (never
    served: first); each client's own requests first come, first served.
    With one running at a time this is round robin over the clients, so a
    newcomer waits for at most one grant of each other waiting client.
    Not thread-safe: its owner holds its lock."""

    def __init__(self):
        self._waiting: OrderedDict[str, deque] = OrderedDict()   # client -> its requests
        self.waiting = 0
        self._running: dict[str, int] = {}
        self._order = itertools.count()
        self._last_grant: OrderedDict[str, int] = OrderedDict()   # client -> its last grant
        self.granted_order: deque = deque(maxlen=4096)   # clients in grant order (tests, logs)

    def add(self, client: str, item) -> None:
        self._waiting.setdefault(client, deque()).append(item)
        self.waiting += 1

    def waiting_of(self, client: str) -> int:
        q = self._waiting.get(client)
        return len(q) if q is not None else 0

    def remove(self, client: str, item) -> bool:
        q = self._waiting.get(client)
        if q is None or item not in q:
            return False
        q.remove(item)
        self.waiting -= 1
        if not q:
            del self._waiting[client]
        return True

    def next(self):
        """(client, request) to be served next, left waiting; None if none."""
        if not self.waiting:
            return None
        client = min(self._waiting, key=lambda c: (self._running.get(c, 0),
                                                   self._last_grant.get(c, -1)))
        return client, self._waiting[client][0]

    def pop(self):
        """Take `next()` out of the waiting ones and count it as running."""
        client, item = self.next()
        self.remove(client, item)
        self.started(client)
        return item

    def all_waiting(self) -> list:
        return [item for q in self._waiting.values() for item in q]

    def started(self, client: str) -> None:
        self._running[client] = self._running.get(client, 0) + 1
        self.granted_order.append(client)
        self._last_grant[client] = next(self._order)
        self._last_grant.move_to_end(client)
        if len(self._last_grant) > MAX_CLIENTS_REMEMBERED:
            self._last_grant.popitem(last=False)

    def finished(self, client: str) -> None:
        n = self._running.get(client, 1) - 1
        if n:
            self._running[client] = n
        else:
            self._running.pop(client, None)


class SearchControl:
    """One search (waiting or running): why it was stopped, and the search
    to cancel."""

    def __init__(self, client: str = ""):
        self.client = client
        self._lock = threading.Lock()
        self._search = None
        self.reason: str | None = None       # "cancelled", "deadline", "shutdown"
        self.granted = False
        self.started: float | None = None    # time.monotonic() when granted
        self.finished = threading.Event()
        self._wake = None                    # the queue's condition, while waiting

    def attach(self, search) -> None:
        with self._lock:
            self._search = search
            stopped = self.reason is not None
        if stopped:
            search.cancel()

    def detach(self) -> None:
        """The search is done with: later stops (the call's end runs one)
        no longer cancel it, so that it can be kept for another call."""
        with self._lock:
            self._search = None

    def stop(self, reason: str) -> None:
        with self._lock:
            if self.reason is None:
                self.reason = reason
            search = self._search
            wake = self._wake
        if search is not None:
            search.cancel()
        if wake is not None:
            with wake:
                wake.notify_all()

    @property
    def stopped(self) -> bool:
        return self.reason is not None


class SearchQueue:
    def __init__(self, limits=None, *, slots: int | None = None, max_waiting: int | None = None,
                 max_waiting_per_client: int | None = None, clients: Clients | None = None):
        self.slots = slots if slots is not None else limits.max_concurrent_searches
        self.max_waiting = (max_waiting if max_waiting is not None
                            else limits.max_waiting_searches)
        self.max_waiting_per_client = (max_waiting_per_client if max_waiting_per_client is not None
                                       else limits.max_waiting_per_client)
        self.clients = clients or Clients()     # who a call comes from: clients.of(context)
        self._cond = threading.Condition()
        self._running: set[SearchControl] = set()
        self._fair = FairOrder()
        self.granted_order = self._fair.granted_order    # clients in grant order (tests, logs)
        self._closed = False
        self._mean_seconds = 1.0            # recent search duration (exponential mean)
        self._promised = 0.0                # the last retry time promised (time.monotonic())
        self.refused = 0                                 # RESOURCE_EXHAUSTED answers so far

    # -- state ---------------------------------------------------------------
    def running(self) -> int:
        with self._cond:
            return len(self._running)

    def waiting(self) -> int:
        with self._cond:
            return self._fair.waiting

    def _retry_after_locked(self) -> float:
        """The next free place among those promised to refused calls."""
        now = time.monotonic()
        interval = self._mean_seconds / self.slots
        at = max(now, self._promised) + interval
        delay = min(MAX_RETRY, max(MIN_RETRY, at - now))
        self._promised = now + delay
        return delay

    # -- acquiring -------------------------------------------------------------
    def ticket(self, client: str = "") -> SearchControl:
        """A control for a search about to `acquire` (stop it to cancel the wait)."""
        return SearchControl(client)

    def acquire(self, client: str = "", deadline: float | None = None,
                control: SearchControl | None = None) -> SearchControl:
        """Block until this search may run (see the module doc); returns its
        control, counted as running until `release`."""
        control = control or SearchControl(client)
        control.client = client
        with self._cond:
            if self._closed:
                raise Unavailable("", "the server is shutting down")
            if control.stopped:
                raise Cancelled("", "the call was cancelled")
            if len(self._running) < self.slots and self._fair.waiting == 0:
                self._fair.started(client)
                self._grant_locked(control)
                return control
            mine = self._fair.waiting_of(client) >= self.max_waiting_per_client
            if self._fair.waiting >= self.max_waiting or mine:
                who = "this client's" if mine else "the"
                delay = self._retry_after_locked()
                self.refused += 1
                raise ResourceExhausted(
                    "", f"{who} search queue is full ({self.slots} running, "
                        f"{self._fair.waiting} waiting); retry in {delay:.2f} s",
                    retry_after=delay)
            self._fair.add(client, control)
            control._wake = self._cond
            try:
                while not control.granted:
                    if control.stopped or self._closed:
                        break
                    timeout = None
                    if deadline is not None:
                        timeout = deadline - time.monotonic()
                        if timeout <= 0:
                            control.reason = control.reason or "deadline"
                            break
                    self._cond.wait(timeout)
            finally:
                control._wake = None
                if not control.granted:
                    self._fair.remove(control.client, control)
            if control.granted:
                if control.stopped and control.reason != "shutdown":
                    self._release_locked(control)
                    raise Cancelled("", "the call was cancelled")
                return control
            if self._closed:
                raise Unavailable("", "the server is shutting down")
            if control.reason == "deadline":
                raise DeadlineExceeded("", "the call's deadline passed while its search waited "
                                           "for a slot")
            raise Cancelled("", "the call was cancelled")

    def _grant_locked(self, control: SearchControl) -> None:
        """Counted as running by `_fair` already (started or pop)."""
        control.granted = True
        control.started = time.monotonic()
        self._running.add(control)

    def _dispatch_locked(self) -> None:
        while len(self._running) < self.slots and self._fair.waiting:
            self._grant_locked(self._fair.pop())
        self._cond.notify_all()

    def release(self, control: SearchControl) -> None:
        """The search is over (whatever happened): free its slot."""
        with self._cond:
            self._release_locked(control)
        control.finished.set()

    def _release_locked(self, control: SearchControl) -> None:
        if control in self._running:
            self._running.discard(control)
            self._fair.finished(control.client)
            if control.started is not None:
                took = time.monotonic() - control.started
                self._mean_seconds = 0.8 * self._mean_seconds + 0.2 * took
        self._dispatch_locked()

    def shutdown(self) -> None:
        """Refuse new searches; stop the waiting and running ones."""
        with self._cond:
            self._closed = True
            everyone = list(self._running) + self._fair.all_waiting()
            self._cond.notify_all()
        for c in everyone:
            c.stop("shutdown")
