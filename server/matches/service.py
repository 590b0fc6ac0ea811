"""The gRPC service easel.v1.Matches: translates requests to the
`MatchManager` and its answers to protobuf; maps `RequestError`s to their
status codes (anything else is a bug: logged, answered INTERNAL).

    manager = MatchManager(Store(path), MatchLimits(), engine_limits).start()
    add_matches(server, manager, engine_limits, search_queue)
"""
from __future__ import annotations

import functools
import logging
import time

import grpc

from easel.v1 import matches_pb2 as pb
from easel.v1 import matches_pb2_grpc as pb_grpc

from .. import analysis
from ..errors import InvalidArgument, RequestError
from .events import STATUS_NAMES, describe_step, match_info, watch
from .manager import MatchManager

log = logging.getLogger("easel.server.matches")

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["Matches"].full_name


def _status(method, error):
    if isinstance(error, RequestError):
        return error.code, str(error)
    log.exception("%s: internal error", method)
    return grpc.StatusCode.INTERNAL, f"internal error: {type(error).__name__}: {error}"


def _unary(fn):
    @functools.wraps(fn)
    def handler(self, request, context):
        started = time.perf_counter()
        code = grpc.StatusCode.OK
        try:
            return fn(self, request, context)
        except Exception as e:
            code, message = _status(fn.__name__, e)
            context.abort(code, message)
        finally:
            log.info("%s match=%s status=%s duration_ms=%.1f", fn.__name__,
                     getattr(request, "match_id", "-") or "-", code.name,
                     (time.perf_counter() - started) * 1e3)
    return handler


_CHANCE = {pb.CHANCE_SOURCE_UNSPECIFIED: "server", pb.CHANCE_SOURCE_SERVER: "server",
           pb.CHANCE_SOURCE_TABLE: "table"}


class MatchesServicer(pb_grpc.MatchesServicer):
    def __init__(self, manager: MatchManager, engine_limits, queue):
        self.manager = manager
        self.engine_limits = engine_limits
        self.queue = queue              # server.queue.SearchQueue, shared with the Engine

    @_unary
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

    @_unary
    def SubmitAction(self, request, context):
        if not request.HasField("action"):
            raise InvalidArgument("action", "the step to play is required (id or text)")
        m, row, before = self.manager.submit(request.match_id, request.token, request.step,
                                             request.action)
        with m.cond:
            clocks = [m.clock_left[s.seat] if s.clock_seconds > 0 else 0.0 for s in m.seats]
        return pb.SubmitActionResponse(step=describe_step(m, before, row, clocks))

    def WatchMatch(self, request, context):
        started = time.perf_counter()
        code = grpc.StatusCode.OK
        m = None
        opened = False
        try:
            m = self.manager.get(request.match_id)
            with m.cond:
                n = len(m.steps)
                seat = m.seat_of_token(request.token) if request.token else None
            if request.token and seat is None:
                from .errors import PermissionDenied
                raise PermissionDenied("token", f"not a seat token of match {m.id}")
            if not 0 <= request.from_step <= n:
                raise InvalidArgument("from_step", f"must be from 0 to {n} (the steps so "
                                                   f"far), got {request.from_step}")
            self.manager.open_stream(m)
            opened = True
            yield from watch(m, request.from_step, seat, request.positions, context.is_active,
                             lambda: self.manager.stopping)
            if self.manager.stopping and context.is_active():
                code = grpc.StatusCode.UNAVAILABLE
                context.abort(code, "the server is shutting down; reconnect with from_step "
                                    "= the last step seen + 1")
        except GeneratorExit:
            code = grpc.StatusCode.CANCELLED
            raise
        except Exception as e:
            if code == grpc.StatusCode.OK:
                code, message = _status("WatchMatch", e)
                context.abort(code, message)
            raise
        finally:
            if opened:
                self.manager.close_stream(m)
            log.info("WatchMatch match=%s status=%s duration_ms=%.1f", request.match_id or "-",
                     code.name, (time.perf_counter() - started) * 1e3)

    @_unary
    def GetMatch(self, request, context):
        from .. import positions
        m = self.manager.get(request.match_id)
        with m.cond:
            info = match_info(m)
            state = m.state.clone()
        out = pb.GetMatchResponse(match=info)
        if request.with_record:
            out.record.CopyFrom(positions.record_of(state))
        return out

    @_unary
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

    @_unary
    def Resign(self, request, context):
        m = self.manager.resign(request.match_id, request.token)
        with m.cond:
            return pb.ResignResponse(match=match_info(m))

    @_unary
    def Abort(self, request, context):
        m = self.manager.abort(request.match_id, request.token)
        with m.cond:
            return pb.AbortResponse(match=match_info(m))

    @_unary
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


def add_matches(server, manager: MatchManager, engine_limits, queue) -> MatchesServicer:
    servicer = MatchesServicer(manager, engine_limits, queue)
    pb_grpc.add_MatchesServicer_to_server(servicer, server)
    return servicer
