"""The gRPC service easel.v1.Engine: a thin servicer over server/positions.py
and server/analysis.py, plus health checking, reflection (v1 and v1alpha),
the fair search queue, TLS and an optional bearer token.

    >>> srv = build_server(port=0, limits=Limits(max_concurrent_searches=2))
    >>> srv.start(); print(srv.port)        # the bound port
    >>> srv.stop(grace=5.0)

Each handler translates the request, calls plain functions and maps errors:
`RequestError`s carry their own status code (INVALID_ARGUMENT with the field
path, RESOURCE_EXHAUSTED with a retry delay, UNIMPLEMENTED); a request that
cannot be decoded is INVALID_ARGUMENT; any other exception is a bug, logged
with its traceback and answered INTERNAL, and never brings the server down.
Shared between calls: the read-only game registry, the search queue
(server/queue.py) and the replay cache (server/replay_cache.py).

Building blocks reused by other services on the same server (hosted
matches): `EngineServer.queue`, `EngineServer.limits`, `EngineServer.files`,
`EngineServer.streams` (the long-lived calls' slots, server/streams.py),
`build_grpc_server` (TLS, token), `worker_count`, and from server/rpc.py
`unary`/`streaming` (error mapping and the access log) and `lenient_handlers`;
`queue.clients` (who a call comes from: the fairness key and the per-client
limits).
"""
from __future__ import annotations

import logging
import threading
import time
from concurrent import futures

import grpc
from grpc_health.v1 import health_pb2

from easel.v1 import engine_pb2 as pb
from easel.v1 import engine_pb2_grpc as pb_grpc

from . import analysis, bot_replay, positions, reflection, review
from .auth import BearerTokenInterceptor, Clients
from .datafiles import DataFiles
from .errors import InvalidArgument, quote
from .health import add_health
from .limits import Limits
from .queue import SearchQueue
from .replay_cache import ReplayCache
from .rpc import (Undecodable, abort_with, check_decoded, lenient_handlers, streaming,  # noqa: F401
                  unary)
from .streams import StreamGuard, per_client

log = logging.getLogger("easel.server")
# Seconds a stop waits for grpc-health to tell its watchers NOT_SERVING (see
# EngineServer._report_not_serving).
HEALTH_SHUTDOWN_WAIT = 2.0

# A Suggest in the middle of a turn searches at most this many of the turn's
# earlier positions for the plan it is following (then the position itself).
MAX_PLAN_ORIGINS = 8

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["Engine"].full_name
HEALTH_NAME = health_pb2.DESCRIPTOR.services_by_name["Health"].full_name


def _game_of(request) -> str:
    """The game string a request names, for the log (quoted, short)."""
    if hasattr(request, "game") and isinstance(request.game, str):
        return quote(request.game, 40)
    if hasattr(request, "notation") and not hasattr(request, "position"):
        return quote(request.notation.game, 40)      # a ReadPosition
    pos = getattr(request, "position", None)
    if pos is None:         # a Review: its record's game (EGN text names it inside)
        source = request.WhichOneof("source") if hasattr(request, "egn_text") else None
        return quote(request.record.game, 40) if source == "record" else "-"
    form = pos.WhichOneof("form")
    return quote(getattr(pos, form).game, 40) if form else "-"


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
        parts.append(quote(settings.bot, 40))
    return ",".join(parts) or "default"


def engine_fields(request) -> str:
    """The Engine's part of an access-log line."""
    return f"game={_game_of(request)} budget={_budget_of(request)}"


def _deadline(context) -> float | None:
    left = context.time_remaining()
    return None if left is None else time.monotonic() + left


class EngineServicer(pb_grpc.EngineServicer):
    def __init__(self, limits: Limits, queue: SearchQueue, files: DataFiles,
                 cache: ReplayCache | None, streams: StreamGuard | None = None):
        self.limits = limits
        self.queue = queue
        self.files = files
        self.cache = cache
        self.streams = streams or StreamGuard(limits.stream_stall_seconds)
        self.bots = bot_replay.BotCache(limits.bot_cache_entries, limits.bot_cache_nodes)

    @unary("ListGames", engine_fields)
    def ListGames(self, request, context):
        return pb.ListGamesResponse(games=positions.list_games(self.files))

    @unary("NewGame", engine_fields)
    def NewGame(self, request, context):
        game = positions.load_game(request.game, "game", self.files)
        state = game.new_initial_state()
        return pb.NewGameResponse(position=positions.position_info(state),
                                  game=positions.game_info(game.entry, self.files))

    @unary("ReadPosition", engine_fields)
    def ReadPosition(self, request, context):
        if not request.HasField("notation"):
            raise InvalidArgument("notation", "a table notation is required: set 'game' (the "
                                              "game string) and 'text'")
        return positions.read_position(request.notation, "notation", self.files)

    def _position(self, request):
        """(state, canonical record or None, turn start or None)."""
        if not request.HasField("position"):
            raise InvalidArgument("position", "a position is required: set 'record' (game "
                                              "string and steps), 'state' (structured state) "
                                              "or 'notation'")
        return positions.resolve_position(request.position, "position", self.files, self.cache)

    @unary("LegalActions", engine_fields)
    def LegalActions(self, request, context):
        state, record, _ = self._position(request)
        return pb.LegalActionsResponse(position=_info(state, record),
                                       actions=positions.legal_actions(state))

    @unary("ApplyAction", engine_fields)
    def ApplyAction(self, request, context):
        state, record, _ = self._position(request)
        steps = ([("action", request.action)] if request.HasField("action") else [])
        steps += [(f"actions[{i}]", s) for i, s in enumerate(request.actions)]
        if not steps:
            raise InvalidArgument("action", "the step to apply is required (id or text), or "
                                            "several in 'actions'")
        applied = [positions.apply_step(state, step, field, record) for field, step in steps]
        return pb.ApplyActionResponse(position=_info(state, record), applied=applied[-1],
                                      applied_steps=applied)

    def _acquire(self, context):
        client = self.queue.clients.of(context)
        control = self.queue.ticket(client)
        if not context.add_callback(lambda: control.stop(_why_ended(context))):
            control.stop("cancelled")
        return self.queue.acquire(client, _deadline(context), control)

    @unary("Suggest", engine_fields)
    def Suggest(self, request, context):
        state, record, turn_start = self._position(request)
        analysis.check_searchable(state)
        if request.settings.play_as_bot:
            return self._play_as_bot(request, context, state, record)
        plan = analysis.plan(request.settings, state.get_game(), self.limits)
        if not plan.mcts:          # cheap bots do not queue for a search slot
            return pb.SuggestResponse(analysis=analysis.bot_move(plan, state),
                                      position=_info(state, record),
                                      stop_reason=pb.STOP_REASON_NO_SEARCH)
        origins = []               # (state, steps taken since) of each earlier turn position
        if (turn_start is not None and turn_start < len(record.steps)
                and not request.settings.search_from_here):
            sent = request.position.record
            for j in range(turn_start, min(len(record.steps), turn_start + MAX_PLAN_ORIGINS)):
                prefix = pb.GameRecord(game=sent.game, steps=sent.steps[:j])
                origin, _, _ = positions.replay_full(prefix, "position.record", self.files,
                                                     self.cache)
                origins.append((origin, [s.id for s in record.steps[j:]]))
        control = self._acquire(context)
        try:
            answer = None
            # The earliest position of this turn whose plan the steps taken
            # since have followed gives the answer (see SearchSettings.
            # search_from_here): if the plan of position j was followed to
            # here, the plans of the earlier positions were not, so the next
            # call of the turn finds the same j again.
            for origin, taken in origins:
                answer = analysis.follow_plan(plan, origin, taken, control, _deadline(context))
                if answer is not None or control.stopped:
                    break
            if answer is None:
                answer = analysis.suggest(plan, state, control, _deadline(context))
        finally:
            self.queue.release(control)
        result, reason = answer
        return pb.SuggestResponse(analysis=result, position=_info(state, record),
                                  stop_reason=reason)

    def _play_as_bot(self, request, context, state, record):
        """Suggest with play_as_bot: the bot's own move (server/bot_replay.py)."""
        plan = analysis.plan(request.settings, state.get_game(), self.limits, as_bot=True)
        if not plan.mcts or len(state.legal_actions()) == 1:     # no search: no queue
            result, reason = bot_replay.play(plan, state, None, self.limits, self.bots)
        else:
            control = self._acquire(context)
            try:
                result, reason = bot_replay.play(plan, state, control, self.limits, self.bots,
                                                 _deadline(context))
            finally:
                self.queue.release(control)
        return pb.SuggestResponse(analysis=result, position=_info(state, record),
                                  stop_reason=reason, played_as_bot=True)

    @streaming("Analyze", engine_fields)
    def Analyze(self, request, context):
        # Its own slots: an Analyze stream holds a worker while it searches
        # or waits for a search slot, and its client may stop reading.
        lim = self.limits
        with self.streams.slot(context, per_client(
                "max_analyze_streams", lim.max_analyze_streams,
                "max_analyze_streams_per_client", self.queue.clients.of(context),
                lim.max_analyze_streams_per_client, "Analyze streams")) as ticket:
            yield from self.streams.sending(ticket, self._analyze(request, context))

    def _analyze(self, request, context):
        state, record, _ = self._position(request)
        analysis.check_searchable(state)
        interval_ms = request.report_interval_ms or self.limits.default_report_ms
        if interval_ms < 10 or interval_ms > 600_000:
            raise InvalidArgument("report_interval_ms",
                                  f"must be 0 (default) or 10 to 600000, got {interval_ms}")
        if request.report_candidates < 0:
            raise InvalidArgument("report_candidates",
                                  f"must be 0 (default) or more, got {request.report_candidates}")
        report_k = request.report_candidates or self.limits.default_report_candidates
        plan = analysis.plan(request.settings, state.get_game(), self.limits,
                             until_cancelled=request.until_cancelled)
        if not plan.mcts:
            msg = pb.AnalyzeResponse(analysis=analysis.bot_move(plan, state), final=True,
                                     stop_reason=pb.STOP_REASON_NO_SEARCH)
            msg.position.CopyFrom(_info(state, record))
            yield msg
            return
        control = self._acquire(context)
        try:
            first = True
            for result, final, reason in analysis.analyze(plan, state, control,
                                                          interval_ms / 1000.0,
                                                          _deadline(context), report_k):
                msg = pb.AnalyzeResponse(analysis=result, final=final, stop_reason=reason)
                if first:
                    msg.position.CopyFrom(_info(state, record))
                    first = False
                yield msg
        finally:
            self.queue.release(control)

    @streaming("Review", engine_fields)
    def Review(self, request, context):
        # Its own slots, as Analyze's: a Review stream holds a worker for all
        # its turns; each turn's search waits in the fair queue.
        lim = self.limits
        with self.streams.slot(context, per_client(
                "max_review_streams", lim.max_review_streams,
                "max_review_streams_per_client", self.queue.clients.of(context),
                lim.max_review_streams_per_client, "Review streams")) as ticket:
            yield from self.streams.sending(ticket, review.run(
                request, self.files, self.cache, self.limits,
                lambda: self._acquire(context), self.queue.release))


def _why_ended(context) -> str:
    left = context.time_remaining()
    return "deadline" if left is not None and left <= 0 else "cancelled"


def _info(state, record):
    return positions.position_info(state, record, with_record=False)


class EngineServer:
    """A bound (not yet started) server: `port` is the port it listens on."""

    def __init__(self, server, port, servicer, health_servicer, queue, limits, files, cache,
                 matches=None):
        self.server = server
        self.port = port
        self.servicer = servicer
        self.health = health_servicer
        self.queue = queue
        self.limits = limits
        self.files = files
        self.cache = cache
        self.matches = matches          # hosted matches' MatchManager, or None

    def start(self) -> "EngineServer":
        self.server.start()
        if getattr(self, "http", None) is not None:     # the HTTP face (server/http_server.py)
            self.http.start()
        for name in ("", *getattr(self, "service_names", [SERVICE_NAME])):
            self.health.set(name, health_pb2.HealthCheckResponse.SERVING)
        return self

    def _report_not_serving(self, wait: float = HEALTH_SHUTDOWN_WAIT) -> None:
        """NOT_SERVING to every health watcher, waiting at most `wait`
        seconds: grpc-health sends it to each open Watch under its lock and
        waits for each send, so a watcher whose stream is stuck held the
        whole stop (and every health Check) for ever. The server's stop then
        cancels the streams, which lets a stuck send end."""
        done = threading.Thread(target=self.health.enter_graceful_shutdown,
                                name="health-shutdown", daemon=True)
        done.start()
        done.join(wait)
        if done.is_alive():
            log.warning("health: NOT_SERVING not delivered to every watcher within %.1f s; "
                        "stopping anyway", wait)

    def stop(self, grace: float | None = 5.0):
        """Drain: report NOT_SERVING, refuse new searches, cut running ones
        short (they still answer), wait up to `grace` seconds for calls in
        flight, then cancel what is left. Returns when the server is down."""
        self._report_not_serving()
        self.queue.shutdown()
        if self.matches is not None:    # bots stop; open matches stay open in the database
            self.matches.stop()
        if getattr(self, "http", None) is not None:
            self.http.begin_stop(grace)
        self.server.stop(grace).wait()
        if getattr(self, "http", None) is not None:
            self.http.stop(grace)
        if getattr(self, "streams", None) is not None:
            self.streams.stop()

    def wait(self):
        self.server.wait_for_termination()

    def running_searches(self) -> int:
        return self.queue.running()


def build_grpc_server(limits: Limits, workers: int, credentials=None, auth_token=None,
                      host: str = "127.0.0.1", port: int = 0):
    """A grpc.Server with the message limits, the bearer-token check (if a
    token is given) and a bound port (TLS if `credentials`). (server, port);
    OSError naming the address if it cannot listen."""
    options = [("grpc.max_receive_message_length", limits.max_message_bytes),
               ("grpc.max_send_message_length", limits.max_message_bytes),
               ("grpc.so_reuseport", 0)]
    interceptors = [BearerTokenInterceptor(auth_token)] if auth_token else []
    pool = futures.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="easel-rpc")
    server = grpc.server(pool, options=options, interceptors=interceptors)
    address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        bound = (server.add_secure_port(address, credentials) if credentials is not None
                 else server.add_insecure_port(address))
    except RuntimeError:
        bound = 0
    if bound == 0:
        raise OSError(f"cannot listen on {address} (in use, or not an address of this machine)")
    return server, bound


def build_server(port: int = 0, host: str = "127.0.0.1", limits: Limits | None = None,
                 extra_workers: int = 8, files: DataFiles | None = None, credentials=None,
                 auth_token=None, matches=None) -> EngineServer:
    """Build the server on host:port (0: any free port). Start it with .start().

    files: the data files game options may name (default: the shipped data,
    by name). credentials: grpc.ssl_server_credentials for TLS (see
    server/auth.py). auth_token: require "authorization: Bearer <token>": the
    server's one token (str), or a token list {client name: token} (each
    client then counted by its name: `queue.clients`).
    matches: a started `server.matches.MatchManager` to serve easel.v1.Matches
    beside the Engine (its streams get worker threads of their own; its hints
    wait in the same search queue; the token check covers it too)."""
    limits = limits or Limits()
    files = files or DataFiles(max_bytes=limits.max_data_bytes)
    named = auth_token if isinstance(auth_token, dict) else None
    queue = SearchQueue(limits, clients=Clients(named))
    cache = (ReplayCache(limits.replay_cache_entries, limits.replay_cache_steps)
             if limits.replay_cache_entries else None)
    streams = StreamGuard(limits.stream_stall_seconds)
    server, bound = build_grpc_server(limits, worker_count(limits, matches, extra_workers),
                                      credentials, auth_token, host, port)
    servicer = EngineServicer(limits, queue, files, cache, streams)
    server.add_generic_rpc_handlers([lenient_handlers(pb.DESCRIPTOR.services_by_name["Engine"],
                                                      servicer)])
    names = [SERVICE_NAME]
    servicers = {pb.DESCRIPTOR.services_by_name["Engine"]: servicer}
    if matches is not None:             # hosted matches (server/matches/)
        from .matches.service import SERVICE_NAME as MATCHES_NAME, add_matches
        matches_servicer = add_matches(server, matches, limits, queue, streams)
        from easel.v1 import matches_pb2
        servicers[matches_pb2.DESCRIPTOR.services_by_name["Matches"]] = matches_servicer
        names.append(MATCHES_NAME)
    health_servicer = add_health(server, streams, limits, queue.clients)
    reflection.enable(server, (*names, HEALTH_NAME), streams, limits, queue.clients)
    srv = EngineServer(server, bound, servicer, health_servicer, queue, limits, files, cache,
                       matches)
    srv.service_names = names
    srv.streams = streams
    srv.servicers = servicers           # {ServiceDescriptor: servicer}: the HTTP face calls these
    srv.auth_token = auth_token
    srv.http = None                     # server/http_server.py add_http
    return srv


def worker_count(limits: Limits, matches=None, extra_workers: int = 8) -> int:
    """The server's worker threads: one for each call that may hold one for
    long, plus `extra_workers` that only short calls and refusals use, so
    that no kind of long call can take the threads of the others. Running
    and waiting searches (Suggest, Analyze, hints) are bounded by the search
    queue; each reflection stream and each WatchMatch stream holds one; a
    health Watch holds none (its servicer answers by callback). A Review
    stream holds one between its turns' searches too."""
    workers = (limits.max_concurrent_searches + limits.max_waiting_searches
               + limits.max_reflection_streams + limits.max_review_streams + extra_workers)
    if matches is not None:
        workers += matches.limits.max_streams + matches.limits.max_seat_streams
    return workers
