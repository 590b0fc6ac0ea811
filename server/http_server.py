"""The HTTP port of `easel serve`: uvicorn serving the gateway
(server/gateway.py) on a thread of its own, beside the gRPC server, with
the same TLS certificate and key, and bounds on what a connection may hold.

    http = HttpServer(gateway, host="127.0.0.1", port=8080, ssl_context=ctx)
    http.port                    # bound at construction (OSError if it cannot be)
    http.start(); ...; http.stop(grace=5.0)

Bounds (`HttpLimits`), so that connections that send slowly or nothing
cannot pile up:
* at most `max_connections` open at once, and `max_connections_per_client`
  from one IP address (an IPv6 one by its /64, as server/auth.py
  `peer_key` counts clients; a token is not known before a request): one
  more is closed as soon as it is accepted, so that one client cannot hold
  every connection;
* a request (head and body) must arrive whole within `request_seconds` of
  the connection's start or of the previous response (slow-loris);
* an idle kept-alive connection is closed after `keep_alive_seconds`
  (uvicorn's timeout_keep_alive);
* a request head is at most `max_head_bytes` (h11's max incomplete event
  size; more is a 400 and the connection is closed);
* requests still running after their connection went are bounded too
  (uvicorn's limit_concurrency: beyond, 503).
Bodies are bounded by the gateway (Limits.max_message_bytes).
"""
from __future__ import annotations

import asyncio
import logging
import os
import socket
import ssl
import tempfile
import threading
from dataclasses import dataclass

from uvicorn.protocols.http.h11_impl import H11Protocol

from .auth import peer_key, read_file
from .gateway import peer_of

log = logging.getLogger("easel.server")


@dataclass(frozen=True)
class HttpLimits:
    max_connections: int = 256         # open at once; more are closed on accept
    max_connections_per_client: int = 32   # open at once from one IP address (/64 for IPv6)
    request_seconds: float = 10.0      # a request's head and body must arrive within this
    keep_alive_seconds: int = 5        # an idle kept-alive connection is closed after this
    max_head_bytes: int = 16 * 1024    # a request's head (line and headers)

    def __post_init__(self):
        for name in ("max_connections", "max_connections_per_client"):
            if getattr(self, name) < 1:
                raise ValueError(f"limit http {name} must be at least 1")
        if not self.request_seconds > 0:
            raise ValueError("limit http request_seconds must be positive")
        if self.keep_alive_seconds < 1:
            raise ValueError("limit http keep_alive_seconds must be at least 1")
        if self.max_head_bytes < 1024:
            raise ValueError("limit http max_head_bytes must be at least 1024")


def _bounded_protocol(limits: HttpLimits):
    class BoundedH11(H11Protocol):
        """uvicorn's HTTP/1.1 protocol with a cap on connections and a
        deadline for each request to arrive whole (module text)."""
        _timer = None
        # server/auth.py peer_key of the connection's address (not `client`:
        # uvicorn's protocol keeps the address tuple under that name)
        easel_client = None

        def connection_made(self, transport):
            super().connection_made(transport)
            # `client`: uvicorn's (host, port) of the peer, None if unknown
            key = self.easel_client = peer_key(peer_of({"client": self.client}))
            same = sum(1 for c in self.connections if getattr(c, "easel_client", None) == key)
            if len(self.connections) > limits.max_connections:
                full = f"{len(self.connections) - 1} open (limit http max_connections)"
            elif same > limits.max_connections_per_client:
                full = (f"{same - 1} open from {key} (limit http "
                        f"max_connections_per_client)")
            else:
                self._arm()
                return
            log.info("http: closing a new connection: %s", full)
            transport.abort()

        def _arm(self):
            self._disarm()
            self._timer = self.loop.call_later(limits.request_seconds, self._too_slow)

        def _disarm(self):
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

        def _too_slow(self):
            self._timer = None
            if not self.transport.is_closing():
                self.transport.close()

        def handle_events(self):
            super().handle_events()
            cycle = self.cycle
            if cycle is not None and not cycle.more_body and not cycle.response_complete:
                self._disarm()          # the request is in: the call may take its time

        def on_response_complete(self):
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()             # the next request must come whole in time too

        def connection_lost(self, exc):
            self._disarm()
            super().connection_lost(exc)

    return BoundedH11


def ssl_context(cert: str, key: str, client_ca: str | None = None) -> ssl.SSLContext:
    """A server TLS context from the PEM files gRPC's credentials are made
    of (server/auth.py `server_credentials`), read the same bounded way;
    with `client_ca`, client certificates signed by it are required."""
    chain, secret = read_file(cert, "TLS certificate"), read_file(key, "TLS key")
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    # load_cert_chain reads paths only: hand it the bytes already read
    # through an anonymous in-memory file, so nothing is read twice and no
    # key is written to disk.
    with _memory_file(chain) as chain_path, _memory_file(secret) as key_path:
        ctx.load_cert_chain(chain_path, key_path)
    if client_ca:
        ctx.load_verify_locations(cadata=read_file(client_ca, "client CA").decode("ascii",
                                                                                 "replace"))
        ctx.verify_mode = ssl.CERT_REQUIRED
    ctx.set_alpn_protocols(["http/1.1"])
    return ctx


class _memory_file:
    def __init__(self, data: bytes):
        self.data = data
        self.fd = None
        self.tmp = None

    def __enter__(self) -> str:
        if hasattr(os, "memfd_create"):
            self.fd = os.memfd_create("easel-tls")
            os.write(self.fd, self.data)
            return f"/proc/self/fd/{self.fd}"
        self.tmp = tempfile.TemporaryDirectory()          # private (0700), removed at exit
        path = os.path.join(self.tmp.name, "pem")
        with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as f:
            f.write(self.data)
        return path

    def __exit__(self, *exc):
        if self.fd is not None:
            os.close(self.fd)
        if self.tmp is not None:
            self.tmp.cleanup()


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on host:port; OSError naming the address."""
    address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        raise OSError(f"cannot listen on {address} (HTTP): {e.strerror}") from None
    family, kind, proto, _, sockaddr = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(sockaddr)
        sock.listen(1024)
    except OSError as e:
        sock.close()
        raise OSError(f"cannot listen on {address} (HTTP): "
                      f"{(e.strerror or str(e)).lower()}") from None
    sock.setblocking(False)
    return sock


class HttpServer:
    def __init__(self, app, host: str = "127.0.0.1", port: int = 8080,
                 ssl_context: ssl.SSLContext | None = None, limits: HttpLimits | None = None,
                 grace: float = 5.0):
        import uvicorn
        self.limits = limits or HttpLimits()
        self.host = host
        self.socket = bind(host, port)
        self.port = self.socket.getsockname()[1]
        self.tls = ssl_context is not None
        config = uvicorn.Config(
            app, http=_bounded_protocol(self.limits), lifespan="off", log_config=None,
            access_log=False, proxy_headers=False, server_header=False,
            timeout_keep_alive=self.limits.keep_alive_seconds,
            # uvicorn answers 503 once connections or running requests reach
            # it; connections are held to max_connections on accept, so this
            # bounds requests still running after their connection went.
            limit_concurrency=self.limits.max_connections + 1,
            h11_max_incomplete_event_size=self.limits.max_head_bytes,
            timeout_graceful_shutdown=max(1, int(round(grace))))
        config.load()
        config.ssl = ssl_context        # the context is ours (ssl_context above)
        self.server = uvicorn.Server(config)
        self.thread: threading.Thread | None = None
        self._done = threading.Event()

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{'https' if self.tls else 'http'}://{host}:{self.port}/"

    def start(self) -> "HttpServer":
        self.thread = threading.Thread(target=self._run, name="easel-http", daemon=True)
        self.thread.start()
        return self

    def _run(self):
        try:
            asyncio.run(self.server.serve(sockets=[self.socket]))
        except BaseException:
            log.exception("the HTTP server stopped with an error")
        finally:
            self._done.set()

    def begin_stop(self, grace: float | None = 5.0) -> None:
        """Stop taking connections; calls in flight get `grace` seconds to
        finish, then are cancelled (returns at once)."""
        # (uvicorn waits for its connections at most this long; at zero it
        # would not even look whether any are left)
        self.server.config.timeout_graceful_shutdown = max(0.1, grace or 0.0)
        self.server.should_exit = True

    def stop(self, grace: float | None = 5.0) -> None:
        """`begin_stop`, and return when the server is down."""
        self.begin_stop(grace)
        if self.thread is not None:
            self._done.wait((grace or 0) + 5.0)
        else:
            self.socket.close()
        pool = getattr(self, "pool", None)
        if pool is not None:            # its threads end as their calls do
            pool.shutdown(wait=False, cancel_futures=True)


def add_http(srv, host: str = "127.0.0.1", port: int = 8080,
             ssl_context: ssl.SSLContext | None = None, limits: HttpLimits | None = None,
             web_dir: str | None = None) -> HttpServer:
    """Serve `srv`'s services (server/service.py `build_server`) over HTTP
    too, on host:port (bound now; OSError if it cannot be), started and
    stopped with `srv`. The same limits, queue, stream slots and token;
    its own worker threads, as many as the gRPC server's."""
    from concurrent import futures

    from .gateway import WEB_DIR, Gateway
    from .service import worker_count
    pool = futures.ThreadPoolExecutor(max_workers=worker_count(srv.limits, srv.matches),
                                      thread_name_prefix="easel-http")
    app = Gateway(srv.servicers, srv.limits, pool, srv.auth_token, srv.health,
                  web_dir if web_dir is not None else WEB_DIR)
    srv.http = HttpServer(app, host, port, ssl_context, limits)
    srv.http.pool = pool
    return srv.http
