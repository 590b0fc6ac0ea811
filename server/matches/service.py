"""The gRPC service easel.v1.Matches: translates requests to the
`MatchManager` and its answers to protobuf. Requests are decoded leniently
and errors mapped as for every service of the server (server/rpc.py):
`RequestError`s carry their status codes, anything else is a bug (logged,
answered INTERNAL).

WatchMatch streams have slots of their own (server/streams.py): spectators
(no seat token) at most `max_streams` in all, `max_streams_per_match` on one
match and `max_streams_per_client` from one client (server/auth.py
`Clients`: its token's name or its IP address); a seat's own streams apart,
at most `max_seat_streams` in all, `max_seat_streams_per_client` from one
client and SEAT_STREAMS per seat, where a seat's newer stream takes the
place of its oldest (also when its client is at its own bound), so that no
one can lock a seat out of watching its own match. A stream whose client
stops reading is ended (`stream_stall_seconds`), and so its slot comes
back, match over or not.

    manager = MatchManager(Store(path), MatchLimits(), engine_limits).start()
    add_matches(server, manager, engine_limits, search_queue, stream_guard)
"""
from __future__ import annotations

import time

from easel.v1 import matches_pb2 as pb
from easel.v1 import matches_pb2_grpc as pb_grpc

from .. import analysis
from ..errors import InvalidArgument, LimitReached, Unavailable, quote
from ..rpc import lenient_handlers, streaming, unary
from ..streams import StreamGuard, per_client
from .errors import Aborted, PermissionDenied
from .events import STATUS_NAMES, describe_step, match_info, watch
from .manager import MatchManager

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["Matches"].full_name
SEAT_STREAMS = 2            # a seat's own WatchMatch streams at once (a reconnect's overlap)


def match_fields(request) -> str:
    """The Matches' part of an access-log line (client text quoted short)."""
    if getattr(request, "game", None):
        return f"game={quote(request.game, 40)}"
    return f"match={quote(request.match_id, 40) if getattr(request, 'match_id', '') else '-'}"


_CHANCE = {pb.CHANCE_SOURCE_UNSPECIFIED: "server", pb.CHANCE_SOURCE_SERVER: "server",
           pb.CHANCE_SOURCE_TABLE: "table"}


class MatchesServicer(pb_grpc.MatchesServicer):
    def __init__(self, manager: MatchManager, engine_limits, queue,
                 streams: StreamGuard | None = None):
        self.manager = manager
        self.engine_limits = engine_limits
        self.queue = queue              # server.queue.SearchQueue, shared with the Engine
        self.streams = streams or StreamGuard(engine_limits.stream_stall_seconds)

    @unary("CreateMatch", match_fields)
    def CreateMatch(self, request, context):
        if request.chance not in _CHANCE:
            raise InvalidArgument("chance", f"unknown chance source {request.chance}")
        seats = []
        for s in request.seats:
            which = s.WhichOneof("player")
            tc = s.time_control
            seat = {"name": s.name, "move_seconds": tc.move_seconds,
                    "clock_seconds": tc.clock_seconds, "increment": tc.increment_seconds}
            if which == "bot":
                seat.update(kind="bot", bot=s.bot)
            elif which == "client" and s.client:
                seat.update(kind="client")
            seats.append(seat)
        m, tokens, creator, table = self.manager.create(
            request.game, seats, _CHANCE[request.chance], request.allow_hints,
            self.queue.clients.of(context))      # the per-client limit's key
        with m.cond:
            info = match_info(m)
        return pb.CreateMatchResponse(
            match_id=m.id, creator_token=creator, table_token=table, match=info,
            seat_tokens=[pb.SeatToken(seat=k, token=v) for k, v in sorted(tokens.items())])

    @unary("SubmitAction", match_fields)
    def SubmitAction(self, request, context):
        if not request.HasField("action"):
            raise InvalidArgument("action", "the step to play is required (id or text)")
        m, row, before = self.manager.submit(request.match_id, request.token, request.step,
                                             request.action)
        with m.cond:
            clocks = [m.clock_left[s.seat] if s.clock_seconds > 0 else 0.0 for s in m.seats]
        return pb.SubmitActionResponse(step=describe_step(m, before, row, clocks))

    @streaming("WatchMatch", match_fields)
    def WatchMatch(self, request, context):
        m = self.manager.get(request.match_id)
        with m.cond:
            n = len(m.steps)
            seat = m.seat_of_token(request.token) if request.token else None
        if request.token and seat is None:
            raise PermissionDenied("token", f"not a seat token of match {m.id}")
        if not 0 <= request.from_step <= n:
            raise InvalidArgument("from_step", f"must be from 0 to {n} (the steps so "
                                               f"far), got {request.from_step}")
        ticket = self._open_watch(m, seat, self.queue.clients.of(context), context)
        try:
            yield from self.streams.sending(ticket, watch(
                m, request.from_step, seat, request.positions,
                lambda: context.is_active() and ticket.cancelled is None,
                lambda: self.manager.stopping))
        finally:
            self.streams.close(ticket)
        if ticket.cancelled is not None:
            raise Aborted("", ticket.cancelled)
        if self.manager.stopping and context.is_active():
            raise Unavailable("", "the server is shutting down; reconnect with from_step = the "
                                  "last step seen + 1")

    def _open_watch(self, m, seat: int | None, client: str, context):
        """The stream's slot (a Ticket): a spectator's, or its seat's own."""
        lim = self.manager.limits
        if seat is None:
            return self.streams.open(context, per_client(
                "max_streams", lim.max_streams, "max_streams_per_client", client,
                lim.max_streams_per_client, "spectator streams (WatchMatch without a seat "
                                            "token)") + [
                ("max_streams_per_match", m.id, lim.max_streams_per_match,
                 f"spectator streams on match {m.id}")])
        per_seat = ("streams_per_seat", (m.id, seat))
        counters = per_client("max_seat_streams", lim.max_seat_streams,
                              "max_seat_streams_per_client", client,
                              lim.max_seat_streams_per_client,
                              "seat streams (WatchMatch with a seat token)") + [
            (*per_seat, SEAT_STREAMS, f"streams of seat {seat} of match {m.id}")]
        for _ in range(2):
            try:
                return self.streams.open(context, counters)
            except LimitReached as e:
                if e.limit not in (per_seat[0], "max_seat_streams_per_client"):
                    raise
                refused = e
            # The seat's own streams are full, or its client's: the newest
            # takes the place of the seat's oldest (a client that lost its
            # connection may not know yet), so a seat is never locked out of
            # its own match by its own dead streams.
            ticket = self.streams.take_over(*per_seat, context, (
                f"a newer WatchMatch stream of seat {seat} took this one's place "
                + (f"(at most {SEAT_STREAMS} per seat)" if refused.limit == per_seat[0]
                   else "(its client was at limit max_seat_streams_per_client)")))
            if ticket is not None:
                with m.cond:            # wake the old stream: it ends at once
                    m.cond.notify_all()
                return ticket
            if refused.limit != per_seat[0]:
                raise refused
        raise LimitReached(per_seat[0], f"{SEAT_STREAMS} streams of seat {seat} of match "
                                        f"{m.id} open; retry")

    @unary("GetMatch", match_fields)
    def GetMatch(self, request, context):
        from .. import positions
        from . import records
        m = self.manager.get(request.match_id)
        with m.cond:
            info = match_info(m)
            state = m.state.clone()
            row = records.snapshot(m) if request.with_record_text else None
        out = pb.GetMatchResponse(match=info)
        if request.with_record:
            out.record.CopyFrom(positions.record_of(state))
        if row is not None:
            out.record_text = records.record_text(row, m.game)
        return out

    @unary("ListMatches", match_fields)
    def ListMatches(self, request, context):
        if request.status not in STATUS_NAMES and request.status != pb.MATCH_STATUS_UNSPECIFIED:
            raise InvalidArgument("status", f"unknown status {request.status}")
        status = STATUS_NAMES.get(request.status)
        matches, token = self.manager.list(status, request.page_size, request.page_token)
        out = pb.ListMatchesResponse(next_page_token=token)
        for m in matches:
            with m.cond:
                out.matches.append(match_info(m))
        return out

    @unary("Resign", match_fields)
    def Resign(self, request, context):
        m = self.manager.resign(request.match_id, request.token)
        with m.cond:
            return pb.ResignResponse(match=match_info(m))

    @unary("Abort", match_fields)
    def Abort(self, request, context):
        m = self.manager.abort(request.match_id, request.token)
        with m.cond:
            return pb.AbortResponse(match=match_info(m))

    @unary("RequestHint", match_fields)
    def RequestHint(self, request, context):
        m, seat, step, state = self.manager.hint_position(request.match_id, request.token)
        plan = analysis.plan(request.settings, state.get_game(), self.engine_limits)
        left = context.time_remaining()
        deadline = None if left is None else time.monotonic() + left
        client = self.queue.clients.of(context)
        control = self.queue.ticket(client)
        if not context.add_callback(lambda: control.stop("cancelled")):
            control.stop("cancelled")
        self.queue.acquire(client, deadline, control)   # the Engine's fair queue
        try:
            result, _reason = analysis.suggest(plan, state, control, deadline)
        finally:
            self.queue.release(control)
        self.manager.add_hint(m, seat, step, result)
        return pb.RequestHintResponse(step=step, analysis=result)


def add_matches(server, manager: MatchManager, engine_limits, queue,
                streams: StreamGuard | None = None) -> MatchesServicer:
    servicer = MatchesServicer(manager, engine_limits, queue, streams)
    server.add_generic_rpc_handlers([lenient_handlers(
        pb.DESCRIPTOR.services_by_name["Matches"], servicer)])
    return servicer
