"""Slots for the server's long-lived calls, and the watchdog that frees the
slots of streams whose clients stopped reading.

A stream holds a worker thread of the server for as long as it is open
(gRPC's synchronous server), and a stream is opened by anyone who can reach
the port. So every kind of long-lived call has its own bounded number of
slots -- Engine's Analyze, Matches' WatchMatch (spectators, and seats apart),
health Watch, reflection -- and the server's worker pool is sized as those
slots plus a reserve that only unary calls and refusals use
(server/service.py). A call beyond its kind's slots is refused at once with
RESOURCE_EXHAUSTED naming the limit ("limit max_reflection_streams: ...");
it never waits for a worker that a stream holds. Each kind is also bounded
per client (`per_client`: its token's name or IP address), so that no one
client can hold every slot of a kind and lock the others out.

    guard = StreamGuard(stall_seconds=30.0)
    ticket = guard.open(context, [("max_reflection_streams", None, 8,
                                   "reflection streams")], idle_seconds=60.0)
    try:
        yield from guard.sending(ticket, responses)    # stall detection
    finally:
        guard.close(ticket)

A stream's slot is freed when it ends, and also when its client stops
reading: gRPC's send of a message blocks once the client's flow-control
window is full, so a message that has waited `stall_seconds` to be taken
means a client that reads nothing; the watchdog then cancels the call (its
thread and slot come back). A bidirectional stream (reflection) whose client
sends no request for `idle_seconds` is cancelled the same way. Streams that
wait for something to tell (a match's next step, a health change) and whose
client reads are never cut.
"""
from __future__ import annotations

import contextlib
import itertools
import logging
import threading
import time
from collections import defaultdict

from .errors import LimitReached

log = logging.getLogger("easel.server")

# Seconds a replaced stream may still be handing over its last message
# before it is cut (take_over).
REPLACED_GRACE = 1.0
# The retry delay a refusal suggests (grpc-retry-pushback-ms): a slot comes
# back when a stream ends, which no one can foretell; a second is long
# enough not to make a refused client spin, short enough to find one soon.
SLOT_RETRY = 1.0


def per_client(total_name: str, total: int, client_name: str, client: str, per_client: int,
               noun: str) -> list:
    """The counters of a kind of stream bounded in all and per client
    (server/auth.py `Clients`), for `StreamGuard.open`: the client's own
    first, so that a client at its bound is told so whatever the total."""
    return [(client_name, client, per_client,
             f"{noun} from your client (its token's name or IP address)"),
            (total_name, None, total, noun)]


class Ticket:
    """One open stream: the counters it holds, and since when it has been
    waiting for its client (a message not taken, a request not sent)."""

    _order = itertools.count()

    def __init__(self, context, keys, idle_seconds: float | None, what: str):
        self.seq = next(Ticket._order)          # opening order
        self.context = context
        self.keys = keys                        # the counters it counts in
        self.idle_seconds = idle_seconds
        self.what = what
        self.sending_since: float | None = None     # a message handed to gRPC, not yet taken
        self.reading_since: float | None = None     # waiting for the client's next request
        self.cancelled: str | None = None           # why the guard ended it
        self.closed = False

    def cancel(self, why: str) -> None:
        """End the call from any thread: its blocked send or read returns."""
        if self.cancelled is None:
            self.cancelled = why
        self.context.cancel()


class StreamGuard:
    def __init__(self, stall_seconds: float = 30.0):
        if not stall_seconds > 0:
            raise ValueError("limit stream_stall_seconds must be positive")
        self.stall_seconds = stall_seconds
        self._lock = threading.Lock()
        self._counts: dict[tuple, int] = defaultdict(int)
        self._open: set[Ticket] = set()
        self._stop = threading.Event()
        self._watchdog: threading.Thread | None = None

    # -- slots ---------------------------------------------------------------------------------
    def open(self, context, counters, idle_seconds: float | None = None) -> Ticket:
        """Take one place in every counter of `counters`, a list of
        (limit name, key, limit, what is counted), all or none. A counter
        already at its limit refuses: LimitReached naming it."""
        with self._lock:
            for name, key, limit, noun in counters:
                held = self._counts[(name, key)]
                if held >= limit:
                    raise LimitReached(name, f"{held} {noun} open, its limit; retry later",
                                       retry_after=SLOT_RETRY)
            keys = [(name, key) for name, key, _, _ in counters]
            for k in keys:
                self._counts[k] += 1
            ticket = Ticket(context, keys, idle_seconds, counters[0][3] if counters else "")
            self._open.add(ticket)
        self._ensure_watchdog()
        return ticket

    @contextlib.contextmanager
    def slot(self, context, counters, idle_seconds: float | None = None):
        """`open` for the length of a `with` block."""
        ticket = self.open(context, counters, idle_seconds)
        try:
            yield ticket
        finally:
            self.close(ticket)

    def close(self, ticket: Ticket) -> None:
        with self._lock:
            if ticket.closed:
                return
            ticket.closed = True
            self._open.discard(ticket)
            for k in ticket.keys:
                self._counts[k] -= 1
                if not self._counts[k]:
                    del self._counts[k]

    def take_over(self, name: str, key, context, why: str) -> Ticket | None:
        """A new stream takes the places of the oldest open one counted in
        (name, key), which is told to end (`why` in `cancelled`; cancelled
        outright if it is stuck sending, else it should notice the flag).
        None if no stream holds such a place any more."""
        with self._lock:
            held = [t for t in self._open if (name, key) in t.keys]
            if not held:
                return None
            old = min(held, key=lambda t: t.seq)
            new = Ticket(context, old.keys, old.idle_seconds, old.what)
            old.keys = []                   # still watched until it closes; counts nowhere
            old.cancelled = why
            self._open.add(new)
        # A stream whose last message is still being handed over ends with
        # `why` as soon as gRPC asks it for the next one (milliseconds, when
        # its client reads); cancelling it outright would race that hand-over
        # and end it CANCELLED with no reason. Only a stream stuck sending is
        # cut, here or by the watchdog (`check`).
        if old.sending_since is not None and time.monotonic() - old.sending_since > REPLACED_GRACE:
            old.context.cancel()
        return new

    def held(self, name: str, key=None) -> int:
        with self._lock:
            return self._counts.get((name, key), 0)

    def tickets(self) -> list[Ticket]:
        with self._lock:
            return list(self._open)

    # -- what a stream waits for ---------------------------------------------------------------
    def sending(self, ticket: Ticket, responses):
        """`responses`, each marked as waiting for the client from when it is
        handed to gRPC until gRPC asks for the next (its send has finished)."""
        for item in responses:
            if ticket.cancelled:
                return
            ticket.sending_since = time.monotonic()
            yield item
            ticket.sending_since = None

    def reading(self, ticket: Ticket, requests):
        """`requests` (a client's stream), marked as waiting while no request
        has come."""
        while not ticket.cancelled:
            ticket.reading_since = time.monotonic()
            try:
                item = next(requests)
            except StopIteration:
                return
            finally:
                ticket.reading_since = None
            yield item

    # -- the watchdog --------------------------------------------------------------------------
    def _ensure_watchdog(self) -> None:
        with self._lock:
            if self._watchdog is not None or self._stop.is_set():
                return
            self._watchdog = threading.Thread(target=self._watch, name="stream-watchdog",
                                              daemon=True)
        self._watchdog.start()

    def _watch(self) -> None:
        while not self._stop.wait(min(max(self.stall_seconds / 8, 0.02), 1.0)):
            self.check()

    def check(self, now: float | None = None) -> int:
        """Cancel the streams whose clients stopped reading (or, for those
        with an idle limit, stopped sending requests); how many."""
        now = time.monotonic() if now is None else now
        n = 0
        for t in self.tickets():
            sent, read = t.sending_since, t.reading_since
            if sent is not None and now - sent > self.stall_seconds:
                why = (f"its client took no message for {self.stall_seconds:g} s "
                       f"(limit stream_stall_seconds)")
            elif t.cancelled is not None and sent is not None and now - sent > REPLACED_GRACE:
                why = t.cancelled           # replaced (take_over), and stuck sending
            elif (read is not None and t.idle_seconds is not None
                  and now - read > t.idle_seconds):
                why = f"its client sent no request for {t.idle_seconds:g} s"
            else:
                continue
            log.info("closing a stream (%s): %s", t.what, why)
            t.cancel(why)
            n += 1
        return n

    def stop(self) -> None:
        self._stop.set()
