"""`easel serve`: run the gRPC service easel.v1.Engine (with health checking
and reflection), and easel.v1.Matches over its database, until SIGTERM or
SIGINT, which drain the calls in flight."""
from __future__ import annotations

import logging
import signal
import sys
import threading


def add_parser(sub):
    from easel.server.analysis import Limits
    d = Limits()
    p = sub.add_parser("serve", help="serve the engine over gRPC (easel.v1.Engine)",
                       description="Serve easel.v1.Engine over gRPC, with health checking "
                                   "(grpc.health.v1) and server reflection. SIGTERM or SIGINT "
                                   "stop it gracefully: new calls are refused, running searches "
                                   "are cut short and answer, calls in flight get --grace "
                                   "seconds to finish; the exit status is then 0.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default %(default)s)")
    p.add_argument("--port", type=int, default=50051,
                   help="port (default %(default)s; 0 picks a free one, printed on start)")
    p.add_argument("--max-iterations", type=int, default=d.max_iterations,
                   help="largest iteration budget a request may ask (default %(default)s)")
    p.add_argument("--max-seconds", type=float, default=d.max_seconds,
                   help="largest time budget a request may ask (default %(default)s)")
    p.add_argument("--max-searches", type=int, default=d.max_concurrent_searches,
                   help="searches running at once; more get RESOURCE_EXHAUSTED "
                        "(default %(default)s)")
    p.add_argument("--max-threads", type=int, default=d.max_threads,
                   help="search threads one request may use (default %(default)s)")
    p.add_argument("--max-message-bytes", type=int, default=d.max_message_bytes,
                   help="largest request or response (default %(default)s)")
    p.add_argument("--default-iterations", type=int, default=d.default_iterations,
                   help="budget of a request that sets none (default %(default)s)")
    p.add_argument("--grace", type=float, default=5.0,
                   help="seconds given to calls in flight on shutdown (default %(default)s)")
    p.add_argument("--log-level", default="INFO", help="logging level (default %(default)s)")
    from easel.server.matches import options as match_options      # hosted matches
    match_options.add_arguments(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from easel.server.analysis import Limits
    from easel.server.service import build_server

    logging.basicConfig(level=args.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    log = logging.getLogger("easel.server")
    try:
        limits = Limits(max_iterations=args.max_iterations, max_seconds=args.max_seconds,
                        max_concurrent_searches=args.max_searches, max_threads=args.max_threads,
                        max_message_bytes=args.max_message_bytes,
                        default_iterations=args.default_iterations)
    except ValueError as e:
        print(f"easel serve: error: {e}", file=sys.stderr)
        return 2
    # hosted matches: open the database and resume its open matches (a
    # signal before the handlers below is a crash the database survives)
    from easel.server.matches import options as match_options
    from easel.server.matches.store import StoreError
    try:
        matches = match_options.build_manager(args, limits)
    except (ValueError, StoreError) as e:
        print(f"easel serve: error: {e}", file=sys.stderr)
        return 2
    if matches is not None:
        log.info("matches: database %s, %d open match(es) resumed", args.db, matches.resumed)
    stopping = threading.Event()

    def on_signal(signum, frame):
        stopping.set()

    # Handlers first: a signal that comes while the server starts still drains.
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        srv = build_server(port=args.port, host=args.host, limits=limits,
                           matches=matches).start()
    except BaseException:
        if matches is not None:         # its bots stop; the database keeps every match
            matches.stop()
            matches.store.close()
        raise
    log.info("serving easel.v1.Engine on %s:%d (%s)", args.host, srv.port, limits)
    print(f"listening on {args.host}:{srv.port}", flush=True)
    while not stopping.wait(0.5):
        pass
    log.info("shutting down: draining calls in flight (grace %.1f s)", args.grace)
    srv.stop(grace=args.grace)
    log.info("stopped")
    return 0
