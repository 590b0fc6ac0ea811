"""`easel serve`: run the gRPC service easel.v1.Engine (with health checking
and reflection) and easel.v1.Matches over its database, until SIGTERM or
SIGINT, which drain the calls in flight. The same services answer over HTTP
too (--http, default 127.0.0.1:8080; --no-http: gRPC only), in the Connect
protocol's JSON shape, beside the web page (server/gateway.py).

Exposed to a network: --tls-cert/--tls-key (and --tls-client-ca for mutual
TLS), --auth-token-file for a bearer token, --data-dir for the data files
game options may name; the token and TLS cover both services. Every startup
problem is one line on stderr and exit status 2."""
from __future__ import annotations

import logging
import os
import signal
import sys
import threading


DEFAULT_HTTP = "127.0.0.1:8080"
# Who "one client" is, for the per-client limits' help (docs/serving.md)
ONE_CLIENT = "its token's name with --auth-tokens-file, else its IP address"


def add_parser(sub):
    from easel.server.http_server import HttpLimits
    from easel.server.limits import Limits
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
                   help="searches running at once; more wait in a fair queue "
                        "(default %(default)s)")
    p.add_argument("--max-waiting", type=int, default=d.max_waiting_searches,
                   help="searches waiting for a slot, all clients; more get RESOURCE_EXHAUSTED "
                        "with a retry delay (default %(default)s)")
    p.add_argument("--max-waiting-per-client", type=int, default=d.max_waiting_per_client,
                   help="searches waiting for a slot from one client (default %(default)s)")
    p.add_argument("--max-threads", type=int, default=d.max_threads,
                   help="search threads one request may use (default %(default)s)")
    p.add_argument("--max-message-bytes", type=int, default=d.max_message_bytes,
                   help="largest request or response (default %(default)s)")
    p.add_argument("--max-search-nodes", type=int, default=d.max_search_nodes, metavar="NODES",
                   help="tree nodes one search may hold, summed over its threads and PIMC "
                        "worlds, for requests and bot seats alike: 32 bytes each, 304 inside "
                        "the turn being searched (default %(default)s)")
    p.add_argument("--default-iterations", type=int, default=d.default_iterations,
                   help="a request that sets no budget searches until its two leading "
                        "candidates are told apart, at most this many iterations "
                        "(default %(default)s)")
    p.add_argument("--default-seconds", type=float, default=d.default_seconds,
                   help="a request that sets no budget searches at most this many seconds "
                        "(default %(default)s)")
    p.add_argument("--data-dir", metavar="DIR", default=None,
                   help="the data files (decks, ...) game options may name, by file name; "
                        "default: the data shipped with each game")
    p.add_argument("--max-data-bytes", type=int, default=d.max_data_bytes,
                   help="largest data file a game option may name (default and most: "
                        "%(default)s, the library's cap on game data files)")
    p.add_argument("--tls-cert", metavar="PEM", default=None,
                   help="serve TLS with this certificate chain (needs --tls-key)")
    p.add_argument("--tls-key", metavar="PEM", default=None, help="the TLS private key")
    p.add_argument("--tls-client-ca", metavar="PEM", default=None,
                   help="require client certificates signed by this CA (mutual TLS)")
    p.add_argument("--auth-token-file", metavar="FILE", default=None,
                   help="require 'authorization: Bearer <token>' metadata on every call but "
                        "health checks; the token is the file's content")
    p.add_argument("--auth-tokens-file", metavar="FILE", default=None,
                   help="like --auth-token-file, with a token per client: lines 'NAME TOKEN'; "
                        "each client is then counted by its name in the per-client limits "
                        "and fair shares (docs/serving.md)")
    p.add_argument("--replay-cache", type=int, default=d.replay_cache_entries,
                   help="recently replayed records kept to answer the next call of a game "
                        "faster (0: none; default %(default)s)")
    p.add_argument("--max-analyze-streams", type=int, default=d.max_analyze_streams,
                   help="Analyze streams open at once (default %(default)s)")
    p.add_argument("--max-review-streams", type=int, default=d.max_review_streams,
                   help="Review streams open at once (default %(default)s)")
    p.add_argument("--max-review-decisions", type=int, default=d.max_review_decisions,
                   help="turns one Review may search; a record of more is refused "
                        "(default %(default)s)")
    p.add_argument("--max-health-watches", type=int, default=d.max_health_watches,
                   help="health Watch streams open at once (default %(default)s)")
    p.add_argument("--max-reflection-streams", type=int, default=d.max_reflection_streams,
                   help="reflection streams open at once (default %(default)s)")
    for kind, what in (("analyze-streams", "Analyze streams"),
                       ("review-streams", "Review streams"),
                       ("health-watches", "health Watch streams"),
                       ("reflection-streams", "reflection streams")):
        name = f"max_{kind.replace('-', '_')}_per_client"
        p.add_argument(f"--max-{kind}-per-client", type=int, default=getattr(d, name),
                       help=f"{what} open at once from one client: {ONE_CLIENT}; at least "
                            f"1 (default %(default)s)")
    p.add_argument("--reflection-idle-seconds", type=float, default=d.reflection_idle_seconds,
                   help="a reflection stream that sends no request for this long is ended "
                        "(default %(default)s)")
    p.add_argument("--stream-stall-seconds", type=float, default=d.stream_stall_seconds,
                   help="a stream (Analyze, WatchMatch, reflection) whose client takes no "
                        "message for this long is ended, freeing its slot "
                        "(default %(default)s)")
    p.add_argument("--bot-cache", type=int, default=d.bot_cache_entries,
                   help="bots kept between the calls of a remote bot (Suggest with "
                        "play_as_bot), so that each call searches once (0: none; default "
                        "%(default)s)")
    p.add_argument("--max-replay", type=int, default=d.max_replayed_searches,
                   help="searches a play_as_bot call may redo to rebuild a bot the server "
                        "does not hold (default %(default)s)")
    p.add_argument("--http", metavar="ADDR", default=DEFAULT_HTTP,
                   help="also serve the services over HTTP (Connect protocol, JSON) and the "
                        "web page on HOST:PORT (default %(default)s; port 0 picks a free one); "
                        "the same TLS, token and limits apply (docs/serving.md)")
    p.add_argument("--no-http", action="store_true", help="serve gRPC only")
    p.add_argument("--http-max-connections", type=int, default=HttpLimits.max_connections,
                   help="HTTP connections open at once; more are closed on accept "
                        "(default %(default)s)")
    p.add_argument("--http-max-connections-per-client", type=int,
                   default=HttpLimits.max_connections_per_client,
                   help="HTTP connections open at once from one IP address (an IPv6 one by "
                        "its /64); more are closed on accept; behind a proxy, all come from "
                        "its address (default %(default)s)")
    p.add_argument("--http-request-seconds", type=float, default=HttpLimits.request_seconds,
                   help="an HTTP request must arrive whole within this many seconds "
                        "(default %(default)s)")
    p.add_argument("--web-dir", metavar="DIR", default=None,
                   help="the web app folder served at / on the HTTP port (default: the page "
                        "shipped with easel)")
    p.add_argument("--grace", type=float, default=5.0,
                   help="seconds given to calls in flight on shutdown (default %(default)s)")
    p.add_argument("--log-level", default="INFO", help="logging level (default %(default)s)")
    from easel.server.matches import options as match_options      # hosted matches
    match_options.add_arguments(p)
    p.set_defaults(func=run)


def _port_problem(host: str, port: int) -> str | None:
    """Why host:port cannot be listened on, found before gRPC tries (whose own
    failure is a log line from its C core and an exception); None if free.
    Bound the way gRPC binds (SO_REUSEADDR), then released at once."""
    import socket
    if port == 0:
        return None
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        return f"cannot listen on {host}:{port}: {e.strerror}"
    for family, kind, proto, _, address in infos[:1]:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(address)
            except OSError as e:
                return f"cannot listen on {host}:{port}: {e.strerror.lower()}"
    return None


def parse_address(text: str, flag: str) -> tuple[str, int]:
    """HOST:PORT ([HOST]:PORT for IPv6) as (host, port); ValueError naming
    the flag."""
    host, sep, port = text.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise ValueError(f"{flag}: write HOST:PORT (e.g. {DEFAULT_HTTP}, [::1]:8080), got "
                         f"{text!r}")
    return host, int(port)


def run(args) -> int:
    from easel.server.auth import check_files, read_token, read_tokens, server_credentials
    import ssl

    from easel.server.datafiles import DataFiles
    from easel.server.http_server import HttpLimits, add_http, ssl_context
    from easel.server.limits import Limits
    from easel.server.service import build_server

    from easel.server.logs import configure
    configure(args.log_level)
    log = logging.getLogger("easel.server")

    def fail(message) -> int:
        print(f"easel serve: error: {message}", file=sys.stderr)
        return 2

    try:
        limits = Limits(max_iterations=args.max_iterations, max_seconds=args.max_seconds,
                        max_concurrent_searches=args.max_searches, max_threads=args.max_threads,
                        max_waiting_searches=args.max_waiting,
                        max_waiting_per_client=args.max_waiting_per_client,
                        max_message_bytes=args.max_message_bytes,
                        max_data_bytes=args.max_data_bytes,
                        replay_cache_entries=args.replay_cache,
                        default_iterations=args.default_iterations,
                        default_seconds=args.default_seconds,
                        max_analyze_streams=args.max_analyze_streams,
                        max_review_streams=args.max_review_streams,
                        max_review_decisions=args.max_review_decisions,
                        max_analyze_streams_per_client=args.max_analyze_streams_per_client,
                        max_review_streams_per_client=args.max_review_streams_per_client,
                        max_health_watches_per_client=args.max_health_watches_per_client,
                        max_reflection_streams_per_client=args.max_reflection_streams_per_client,
                        max_health_watches=args.max_health_watches,
                        max_reflection_streams=args.max_reflection_streams,
                        reflection_idle_seconds=args.reflection_idle_seconds,
                        stream_stall_seconds=args.stream_stall_seconds,
                        max_search_nodes=args.max_search_nodes,
                        bot_cache_entries=args.bot_cache,
                        max_replayed_searches=args.max_replay)
        files = DataFiles(args.data_dir, max_bytes=limits.max_data_bytes)
        if (args.tls_cert is None) != (args.tls_key is None):
            return fail("--tls-cert and --tls-key go together")
        if args.tls_client_ca and not args.tls_cert:
            return fail("--tls-client-ca needs --tls-cert and --tls-key")
        check_files((("--tls-cert", args.tls_cert, "TLS certificate"),
                     ("--tls-key", args.tls_key, "TLS key"),
                     ("--tls-client-ca", args.tls_client_ca, "client CA")))
        credentials = (server_credentials(args.tls_cert, args.tls_key, args.tls_client_ca)
                       if args.tls_cert else None)
        if args.auth_token_file and args.auth_tokens_file:
            return fail("give --auth-token-file (one token for all) or --auth-tokens-file "
                        "(a token per client), not both")
        token = (read_token(args.auth_token_file, "--auth-token-file") if args.auth_token_file
                 else read_tokens(args.auth_tokens_file) if args.auth_tokens_file else None)
        http = None if args.no_http else parse_address(args.http, "--http")
        http_limits = HttpLimits(max_connections=args.http_max_connections,
                                 max_connections_per_client=args.http_max_connections_per_client,
                                 request_seconds=args.http_request_seconds)
        if args.web_dir is not None and not os.path.isdir(args.web_dir):
            return fail(f"--web-dir: {args.web_dir!r} is not a directory")
        tls_http = (ssl_context(args.tls_cert, args.tls_key, args.tls_client_ca)
                    if args.tls_cert and http else None)
    except (ValueError, ssl.SSLError) as e:
        return fail(e)
    problem = _port_problem(args.host, args.port)     # before the database opens
    if problem:
        return fail(problem)
    # hosted matches: open the database and resume its open matches (a
    # signal before the handlers below is a crash the database survives)
    from easel.server.matches import options as match_options
    from easel.server.matches.store import StoreError
    try:
        matches = match_options.build_manager(args, limits)
    except (ValueError, StoreError) as e:
        return fail(e)
    if matches is not None:
        log.info("matches: database %s, %d open match(es) resumed", args.db, matches.resumed)
    stopping = threading.Event()

    def on_signal(signum, frame):
        stopping.set()

    # Handlers first: a signal that comes while the server starts still drains.
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        srv = build_server(port=args.port, host=args.host, limits=limits, files=files,
                           credentials=credentials, auth_token=token, matches=matches)
        if http is not None:            # the HTTP face: same servicers, started with gRPC's
            add_http(srv, *http, ssl_context=tls_http, limits=http_limits, web_dir=args.web_dir)
        srv.start()
    except BaseException as e:
        if matches is not None:         # its bots stop; the database keeps every match
            matches.stop()
            matches.store.close()
        if isinstance(e, OSError):
            return fail(e)
        raise
    hosts = {args.host, *([http[0]] if http else [])}
    if token and credentials is None and hosts - {"127.0.0.1", "::1", "localhost"}:
        log.warning("a bearer token over a plain connection travels in clear: add --tls-cert")
    log.info("serving easel.v1.Engine%s on %s:%d (%s%s%s; data: %s)",
             " and easel.v1.Matches" if matches is not None else "", args.host, srv.port,
             "TLS" if credentials else "plaintext",
             ", client certificates" if args.tls_client_ca else "",
             ", bearer token" if isinstance(token, str) else
             f", {len(token)} named bearer tokens" if token else "", files.directory or "shipped", )
    if srv.http is not None:
        log.info("serving the same over HTTP on %s (Connect protocol, JSON; web page: %s; %s)",
                 srv.http.url, args.web_dir or "shipped", srv.http.limits)
    log.info("limits: %s", limits)
    print(f"listening on {args.host}:{srv.port}", flush=True)
    if srv.http is not None:
        print(f"http on {srv.http.url}", flush=True)
    while not stopping.wait(0.5):
        pass
    log.info("shutting down: draining calls in flight (grace %.1f s)", args.grace)
    srv.stop(grace=args.grace)
    # Every call has ended; a worker thread still alive here is a bug, and
    # must not keep the process from exiting (the interpreter waits for
    # non-daemon threads).
    stuck = [t for t in threading.enumerate()
             if t is not threading.main_thread() and not t.daemon and t.is_alive()]
    for t in stuck:
        t.join(timeout=1.0)
    stuck = [t for t in stuck if t.is_alive()]
    log.info("stopped")
    if stuck:
        log.warning("%d worker threads still busy after the drain; exiting anyway", len(stuck))
        logging.shutdown()
        sys.stdout.flush()
        os._exit(0)
    return 0
