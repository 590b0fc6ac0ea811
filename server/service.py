"""The gRPC service easel.v1.Engine: a thin servicer over server/positions.py
and server/analysis.py, plus health checking, reflection and limits.

    >>> srv = build_server(port=0, limits=Limits(max_concurrent_searches=2))
    >>> srv.start(); print(srv.port)        # the bound port
    >>> srv.stop(grace=5.0)

Each handler translates the request, calls plain functions and maps errors:
`RequestError`s carry their own status code (INVALID_ARGUMENT with the field
path, RESOURCE_EXHAUSTED, UNIMPLEMENTED); any other exception is a bug,
logged with its traceback and answered INTERNAL, and never brings the server
down. Nothing is shared between calls except the read-only game registry and
the search-slot counter.
"""
from __future__ import annotations

import functools
import logging
import time
from concurrent import futures

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from easel.v1 import engine_pb2 as pb
from easel.v1 import engine_pb2_grpc as pb_grpc

from . import analysis, positions
from .analysis import Limits
from .errors import InvalidArgument, RequestError

log = logging.getLogger("easel.server")

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["Engine"].full_name


def _game_of(request) -> str:
    """The game string a request names, for the log."""
    if hasattr(request, "game") and isinstance(request.game, str):
        return request.game
    pos = getattr(request, "position", None)
    if pos is None:
        return "-"
    form = pos.WhichOneof("form")
    return getattr(pos, form).game if form else "-"


def _budget_of(request) -> str:
    settings = getattr(request, "settings", None)
    if settings is None:
        return "-"
    b = settings.budget
    parts = []
    if b.HasField("iterations"):
        parts.append(f"{b.iterations}it")
    if b.HasField("seconds"):
        parts.append(f"{b.seconds:g}s")
    if settings.bot:
        parts.append(settings.bot)
    return ",".join(parts) or "default"


def _status_of(method, error: Exception):
    if isinstance(error, RequestError):
        return error.code, str(error)
    log.exception("%s: internal error", method)
    return grpc.StatusCode.INTERNAL, f"internal error: {type(error).__name__}: {error}"


def _log(method, request, started, code):
    log.info("%s game=%s budget=%s status=%s duration_ms=%.1f", method, _game_of(request),
             _budget_of(request), code.name, (time.perf_counter() - started) * 1e3)


def unary(method):
    def wrap(fn):
        @functools.wraps(fn)
        def handler(self, request, context):
            started = time.perf_counter()
            code = grpc.StatusCode.OK
            try:
                return fn(self, request, context)
            except Exception as e:     # every error becomes a status, never a crash
                code, message = _status_of(method, e)
                context.abort(code, message)
            finally:
                if code == grpc.StatusCode.OK and not context.is_active():
                    code = (grpc.StatusCode.DEADLINE_EXCEEDED
                            if _deadline_passed(context) else grpc.StatusCode.CANCELLED)
                _log(method, request, started, code)
        return handler
    return wrap


def streaming(method):
    def wrap(fn):
        @functools.wraps(fn)
        def handler(self, request, context):
            started = time.perf_counter()
            code = grpc.StatusCode.OK
            try:
                yield from fn(self, request, context)
            except GeneratorExit:      # the stream was closed under us (cancel, deadline)
                code = grpc.StatusCode.CANCELLED
                raise
            except Exception as e:
                code, message = _status_of(method, e)
                context.abort(code, message)
            finally:
                if code == grpc.StatusCode.OK and not context.is_active():
                    code = grpc.StatusCode.CANCELLED
                if code == grpc.StatusCode.CANCELLED and _deadline_passed(context):
                    code = grpc.StatusCode.DEADLINE_EXCEEDED
                _log(method, request, started, code)
        return handler
    return wrap


def _deadline_passed(context) -> bool:
    left = context.time_remaining()
    return left is not None and left <= 0


def _deadline(context) -> float | None:
    left = context.time_remaining()
    return None if left is None else time.monotonic() + left


class EngineServicer(pb_grpc.EngineServicer):
    def __init__(self, limits: Limits, slots: analysis.SearchSlots):
        self.limits = limits
        self.slots = slots

    @unary("ListGames")
    def ListGames(self, request, context):
        return pb.ListGamesResponse(games=positions.list_games())

    @unary("NewGame")
    def NewGame(self, request, context):
        game = positions.load_game(request.game, "game")
        state = game.new_initial_state()
        return pb.NewGameResponse(position=positions.position_info(state),
                                  game=positions.game_info(game.entry))

    @unary("LegalActions")
    def LegalActions(self, request, context):
        state, record = _position(request)
        return pb.LegalActionsResponse(position=_info(state, record),
                                       actions=positions.legal_actions(state))

    @unary("ApplyAction")
    def ApplyAction(self, request, context):
        state, record = _position(request)
        if not request.HasField("action"):
            raise InvalidArgument("action", "the step to apply is required (id or text)")
        applied = positions.apply_step(state, request.action, "action", record)
        return pb.ApplyActionResponse(position=_info(state, record),
                                      applied=applied)

    @unary("Suggest")
    def Suggest(self, request, context):
        state, record = _position(request)
        analysis.check_searchable(state)
        plan = analysis.plan(request.settings, state.get_game(), self.limits)
        control = self.slots.acquire()
        try:
            if not context.add_callback(lambda: control.stop(_why_ended(context))):
                control.stop("cancelled")
            result = analysis.suggest(plan, state, control, _deadline(context))
        finally:
            self.slots.release(control)
        return pb.SuggestResponse(analysis=result,
                                  position=_info(state, record))

    @streaming("Analyze")
    def Analyze(self, request, context):
        state, record = _position(request)
        analysis.check_searchable(state)
        interval_ms = request.report_interval_ms or self.limits.default_report_ms
        if interval_ms < 10 or interval_ms > 600_000:
            raise InvalidArgument("report_interval_ms",
                                  f"must be 0 (default) or 10 to 600000, got {interval_ms}")
        plan = analysis.plan(request.settings, state.get_game(), self.limits)
        control = self.slots.acquire()
        try:
            if not context.add_callback(lambda: control.stop(_why_ended(context))):
                control.stop("cancelled")
            first = True
            for result, final, reason in analysis.analyze(plan, state, control,
                                                          interval_ms / 1000.0,
                                                          _deadline(context)):
                msg = pb.AnalyzeResponse(analysis=result, final=final, stop_reason=reason)
                if first:
                    msg.position.CopyFrom(_info(state, record))
                    first = False
                yield msg
        finally:
            self.slots.release(control)


def _why_ended(context) -> str:
    return "deadline" if _deadline_passed(context) else "cancelled"


def _info(state, record):
    return positions.position_info(state, record, with_record=False)


def _position(request):
    """(state, canonical record or None) of the request's position."""
    if not request.HasField("position"):
        raise InvalidArgument("position", "a position is required: set 'record' (game string "
                                          "and steps) or 'state' (structured state)")
    return positions.position_state(request.position, "position")


class EngineServer:
    """A bound (not yet started) server: `port` is the port it listens on."""

    def __init__(self, server, port, servicer, health_servicer, slots, matches=None):
        self.server = server
        self.port = port
        self.servicer = servicer
        self.health = health_servicer
        self.slots = slots
        self.matches = matches          # hosted matches' MatchManager, or None

    def start(self) -> "EngineServer":
        self.server.start()
        for name in ("", *getattr(self, "service_names", [SERVICE_NAME])):
            self.health.set(name, health_pb2.HealthCheckResponse.SERVING)
        return self

    def stop(self, grace: float | None = 5.0):
        """Drain: report NOT_SERVING, refuse new searches, cut running ones
        short (they still answer), wait up to `grace` seconds for calls in
        flight, then cancel what is left. Returns when the server is down."""
        self.health.enter_graceful_shutdown()
        self.slots.shutdown()
        if self.matches is not None:    # bots stop; open matches stay open in the database
            self.matches.stop()
        self.server.stop(grace).wait()

    def wait(self):
        self.server.wait_for_termination()

    def running_searches(self) -> int:
        return self.slots.running()


def build_server(port: int = 0, host: str = "127.0.0.1", limits: Limits | None = None,
                 extra_workers: int = 8, matches=None) -> EngineServer:
    """Build the server on host:port (0: any free port). Start it with .start().
    matches: a started `server.matches.MatchManager` to serve easel.v1.Matches
    beside the Engine (its streams get worker threads of their own)."""
    limits = limits or Limits()
    slots = analysis.SearchSlots(limits.max_concurrent_searches)
    options = [("grpc.max_receive_message_length", limits.max_message_bytes),
               ("grpc.max_send_message_length", limits.max_message_bytes),
               ("grpc.so_reuseport", 0)]
    # Searches hold a worker each; the extra workers keep cheap calls (and the
    # RESOURCE_EXHAUSTED answer itself) flowing while every search slot is busy.
    workers = limits.max_concurrent_searches + extra_workers
    if matches is not None:             # each WatchMatch stream holds a worker
        workers += matches.limits.max_streams
    pool = futures.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="easel-rpc")
    server = grpc.server(pool, options=options)
    servicer = EngineServicer(limits, slots)
    pb_grpc.add_EngineServicer_to_server(servicer, server)
    names = [SERVICE_NAME]
    if matches is not None:             # hosted matches (server/matches/)
        from .matches.service import SERVICE_NAME as MATCHES_NAME, add_matches
        add_matches(server, matches, limits, slots)
        names.append(MATCHES_NAME)
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection(
        (*names, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
         reflection.SERVICE_NAME), server)
    address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    bound = server.add_insecure_port(address)
    if bound == 0:
        raise OSError(f"cannot listen on {address}")
    srv = EngineServer(server, bound, servicer, health_servicer, slots, matches)
    srv.service_names = names
    return srv
