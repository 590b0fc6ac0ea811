"""The server's HTTP face: the easel.v1 services (Engine, Matches) in the
Connect protocol's shape, JSON or binary, for browsers, curl and programs,
as an ASGI application over the same servicers gRPC calls
(server/http_server.py serves it with uvicorn).

    app = Gateway(srv)              # srv: server.service.EngineServer
    curl -H 'Content-Type: application/json' -d '{}' \\
        http://127.0.0.1:8080/easel.v1.Engine/ListGames

* Routes come from the service descriptors: `POST /<service>/<method>` for
  every method of every served service, so a method added to a .proto is
  served without a line here. Unary methods take the message as the body
  (`application/json`, the proto3 JSON mapping, or `application/proto`) and
  answer it, or an error `{"code": "invalid_argument", "message": ...}`
  with the code's HTTP status (server/connect.py). Server-streaming methods
  (Analyze, WatchMatch) take and answer enveloped frames
  (`application/connect+json`), the last frame carrying the status: a
  browser's fetch reads them as they come.
* Every call runs the servicer method gRPC runs, with `HttpContext` as its
  context: the same validation, limits, search queue and fair share (the
  client is the token's name or the peer's address, server/auth.py
  `Clients`), stream slots and stall watchdog (server/streams.py), access
  log. The bearer token is the `Authorization: Bearer` header; the
  deadline is `Connect-Timeout-Ms`; a client that disconnects cancels its
  call (a search stops, a stream's slot comes back).
* A request body over `Limits.max_message_bytes` is refused before it is
  read whole; bad JSON, unknown fields, wrong types: INVALID_ARGUMENT naming
  the field, never INTERNAL.
* `GET /healthz` answers the health service's overall status (no token
  needed, as for gRPC health checks); every other GET is a file of the web
  app folder (`server/web/`), with a strict Content-Security-Policy; any
  other path is 404.
"""
from __future__ import annotations

import asyncio
import logging
import posixpath
import threading
import time
from concurrent import futures
from dataclasses import dataclass

import grpc
from google.protobuf import message_factory
from grpc_health.v1 import health_pb2

from . import connect
from .auth import BearerTokenInterceptor
from .errors import bounded, quote
from .rpc import decoder

log = logging.getLogger("easel.server")

WEB_DIR = posixpath.join(posixpath.dirname(__file__), "web")
HEALTH_PATH = "/healthz"
# Nothing of the page comes from another origin, and no other origin may
# frame it: scripts, styles and calls from this server only.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
SECURITY_HEADERS = [(b"content-security-policy", CSP.encode()),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"cross-origin-resource-policy", b"same-origin")]
API_HEADERS = SECURITY_HEADERS + [(b"cache-control", b"no-store")]


class Abort(Exception):
    """`HttpContext.abort`: ends the servicer's method with a status, as
    grpc's `context.abort` does."""

    def __init__(self, code: grpc.StatusCode, details: str):
        super().__init__(details)
        self.code = code
        self.details = details


class HttpContext:
    """What a servicer method uses of grpc.ServicerContext, for a call that
    came over HTTP. `end(why)` is the call's termination (grpc runs the
    callbacks of `add_callback` then, whatever ended it); `cancel()` is
    also how the stream watchdog (server/streams.py) cuts a stream whose
    client stopped reading: `on_cancel`, set by the gateway, ends the HTTP
    side from any thread."""

    def __init__(self, peer: str, metadata, timeout: float | None):
        self._peer = peer
        self._metadata = tuple(metadata)
        self._deadline = None if timeout is None else time.monotonic() + timeout
        self._lock = threading.Lock()
        self._callbacks: list = []
        self.ended: str | None = None     # "done", "cancelled", "deadline"
        self.trailing: tuple = ()
        self.code: grpc.StatusCode | None = None
        self.details: str | None = None
        self.on_cancel = None

    def peer(self) -> str:
        return self._peer

    def invocation_metadata(self):
        return self._metadata

    def time_remaining(self) -> float | None:
        if self._deadline is None:
            return None
        return max(0.0, self._deadline - time.monotonic())

    def is_active(self) -> bool:
        left = self.time_remaining()
        return self.ended is None and (left is None or left > 0)

    def add_callback(self, callback) -> bool:
        with self._lock:
            if self.ended is not None:
                return False
            self._callbacks.append(callback)
            return True

    def end(self, why: str) -> None:
        with self._lock:
            if self.ended is not None:
                return
            self.ended = why
            callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            try:
                callback()
            except Exception:
                log.exception("a call's termination callback failed")

    def cancel(self) -> None:
        self.end("cancelled")
        hook = self.on_cancel
        if hook is not None:
            hook()

    def abort(self, code, details):
        raise Abort(code, details)

    def set_trailing_metadata(self, metadata) -> None:
        self.trailing = tuple(metadata)

    def set_code(self, code) -> None:
        self.code = code

    def set_details(self, details) -> None:
        self.details = details


@dataclass(frozen=True)
class Method:
    """One route: a method of a served service and the servicer's function."""
    path: str
    name: str
    request: type
    response: type
    streaming: bool
    function: object


def routes(servicers: dict) -> dict[str, Method]:
    """{"/easel.v1.Engine/Suggest": Method, ...} for every method of every
    {ServiceDescriptor: servicer}; client-streaming methods (none in
    easel.v1) have no HTTP form and are left out."""
    table = {}
    for service, servicer in servicers.items():
        for m in service.methods:
            if m.client_streaming:
                continue
            path = f"/{service.full_name}/{m.name}"
            table[path] = Method(path, m.name, message_factory.GetMessageClass(m.input_type),
                                 message_factory.GetMessageClass(m.output_type),
                                 m.server_streaming, getattr(servicer, m.name))
    return table


def peer_of(scope) -> str:
    """The connection's peer as gRPC writes it ("ipv4:10.0.0.7:51234",
    "ipv6:[::1]:443"), so that server/auth.py `Clients` counts a client
    alike over both faces."""
    client = scope.get("client")
    if not client:
        return "unknown"
    host, port = client[0], client[1]
    return f"ipv6:[{host}]:{port}" if ":" in host else f"ipv4:{host}:{port}"


def _headers(scope) -> dict[str, str]:
    out: dict[str, str] = {}
    for k, v in scope.get("headers", ()):
        key = k.decode("latin-1").lower()
        if key not in out:        # a repeated header: its first value counts
            out[key] = v.decode("latin-1")
    return out


class TooLarge(Exception):
    pass


class Gateway:
    """The ASGI application (see the module text).

    servicers: {ServiceDescriptor: servicer}; limits: server.limits.Limits;
    pool: the worker threads the servicer methods run on; auth_token: the
    server's token or token list (None: no check); health: the health
    servicer (GET /healthz); web_dir: the web app folder (None: no files).
    Who a call comes from is the servicers' business (they ask
    `queue.clients.of(context)`): the gateway hands them the peer and the
    Authorization header, nothing a client can make up."""

    def __init__(self, servicers: dict, limits, pool: futures.Executor, auth_token=None,
                 health=None, web_dir: str | None = WEB_DIR):
        self.routes = routes(servicers)
        self.limits = limits
        self.pool = pool
        self.auth = BearerTokenInterceptor(auth_token) if auth_token else None
        self.health = health
        self.static = _static_app(web_dir) if web_dir else None

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":         # lifespan is off; no websockets
            return
        path = scope["path"]
        method = self.routes.get(path)
        if method is not None:
            await self._rpc(method, scope, receive, send)
        elif path == HEALTH_PATH:
            await self._health(scope, send)
        elif _looks_like_rpc(path):
            await _send_error(send, grpc.StatusCode.UNIMPLEMENTED,
                              f"no method {quote(path, 80)} on this server", status=404)
        elif self.static is not None and scope["method"] in ("GET", "HEAD"):
            await self.static(scope, receive, _with_headers(send, SECURITY_HEADERS))
        else:
            await _send_plain(send, 404, b"not found")

    # -- one call ------------------------------------------------------------------------------
    async def _rpc(self, m: Method, scope, receive, send):
        if scope["method"] != "POST":
            await _send_error(send, grpc.StatusCode.UNIMPLEMENTED,
                              f"{m.path} is called with POST", status=405,
                              extra=[(b"allow", b"POST")])
            return
        headers = _headers(scope)
        kind = (headers.get("content-type", "").split(";", 1)[0].strip().lower())
        types = connect.STREAM_TYPES if m.streaming else connect.UNARY_TYPES
        codec = types.get(kind)
        if codec is None:
            await _send_error(send, grpc.StatusCode.INVALID_ARGUMENT, (
                f"Content-Type: {quote(kind, 40)} is not one this method takes; send "
                f"{' or '.join(types)}"), status=415,
                extra=[(b"accept-post", ", ".join(types).encode())])
            return
        metadata = [(k, v) for k, v in headers.items() if k == "authorization"]
        if self.auth is not None and not self.auth.allowed(metadata):
            log.info("%s status=UNAUTHENTICATED peer=%s", quote(m.path, 80),
                     quote(peer_of(scope), 60))
            await _send_error(send, grpc.StatusCode.UNAUTHENTICATED,
                              "this server requires the header 'Authorization: Bearer <token>'; "
                              "the call had none or a wrong token")
            return
        try:
            timeout = connect.parse_timeout(headers.get("connect-timeout-ms"))
            encoding = headers.get("connect-content-encoding" if m.streaming
                                   else "content-encoding", "identity").strip().lower()
            if encoding != "identity":
                raise connect.ProtocolError(f"the body is compressed ({quote(encoding, 20)}); "
                                            f"this server takes uncompressed bodies only")
            body = await _read_body(receive, headers, self.limits.max_message_bytes
                                    + (5 if m.streaming else 0))
            if body is None:                 # the client went away
                return
            if m.streaming:
                body = connect.unframe(body)
        except connect.ProtocolError as e:
            await _send_error(send, grpc.StatusCode.INVALID_ARGUMENT, bounded(str(e)))
            return
        except TooLarge as e:
            await _send_error(send, grpc.StatusCode.RESOURCE_EXHAUSTED, str(e))
            return
        request = (connect.decode_json(m.request, body) if codec == "json"
                   else decoder(m.request)(body))
        context = HttpContext(peer_of(scope), metadata, timeout)
        if m.streaming:
            await self._stream(m, request, context, codec, receive, send)
        else:
            await self._unary(m, request, context, codec, receive, send)

    async def _unary(self, m, request, context, codec, receive, send):
        loop = asyncio.get_running_loop()
        call = loop.run_in_executor(self.pool, _run_unary, m, request, context, codec)
        gone = asyncio.ensure_future(_disconnected(receive))
        try:
            done, _ = await asyncio.wait({call, gone}, timeout=context.time_remaining(),
                                         return_when=asyncio.FIRST_COMPLETED)
            if call not in done:
                # The client left, or the deadline passed: the call ends now
                # (its search stops) and the client gets nothing, or
                # DEADLINE_EXCEEDED as gRPC's would.
                deadline = gone not in done
                context.end("deadline" if deadline else "cancelled")
                if deadline:
                    await _send_error(send, grpc.StatusCode.DEADLINE_EXCEEDED,
                                      "the call's deadline (Connect-Timeout-Ms) passed")
                await asyncio.shield(call)   # its thread ends soon; keep the task till then
                return
            code, payload, trailing = call.result()
        finally:
            gone.cancel()
        if code == grpc.StatusCode.OK:
            kind = b"application/json" if codec == "json" else b"application/proto"
            await _send(send, 200, payload, [(b"content-type", kind)] + _trailer_headers(trailing))
        else:
            await _send_error(send, code, payload, extra=_trailer_headers(trailing))

    async def _stream(self, m, request, context, codec, receive, send):
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        context.on_cancel = lambda: loop.call_soon_threadsafe(task.cancel)
        responses = m.function(request, context)       # a generator: nothing runs yet
        gone = asyncio.ensure_future(_disconnected(receive))
        started = False
        pending = None
        kind = (b"application/connect+json" if codec == "json"
                else b"application/connect+proto")

        async def start():
            nonlocal started
            if not started:
                started = True
                await send({"type": "http.response.start", "status": 200,
                            "headers": [(b"content-type", kind)] + API_HEADERS})

        try:
            while True:
                pending = loop.run_in_executor(self.pool, _next_frame, responses, context, codec)
                done, _ = await asyncio.wait({pending, gone}, timeout=context.time_remaining(),
                                             return_when=asyncio.FIRST_COMPLETED)
                if pending not in done:
                    if gone in done:
                        context.end("cancelled")
                        return
                    context.end("deadline")
                    await start()
                    await send({"type": "http.response.body", "more_body": False,
                                "body": connect.end_stream(
                                    grpc.StatusCode.DEADLINE_EXCEEDED,
                                    "the call's deadline (Connect-Timeout-Ms) passed")})
                    return
                item = pending.result()
                pending = None
                await start()
                if isinstance(item, bytes):
                    await send({"type": "http.response.body", "body": item, "more_body": True})
                    continue
                code, message, trailing = item
                await send({"type": "http.response.body", "more_body": False,
                            "body": connect.end_stream(code, message, trailing)})
                return
        except asyncio.CancelledError:
            # Cut by the stream watchdog (its client reads nothing) or by
            # the server's shutdown: the response stays incomplete, and the
            # server closes the connection.
            context.end("cancelled")
        finally:
            gone.cancel()
            context.on_cancel = None
            if pending is not None:
                await asyncio.shield(pending)
            await asyncio.shield(loop.run_in_executor(self.pool, _close, responses, context))

    async def _health(self, scope, send):
        if scope["method"] not in ("GET", "HEAD"):
            await _send_plain(send, 405, b"GET only", [(b"allow", b"GET")])
            return
        context = HttpContext(peer_of(scope), (), 5.0)
        try:
            answer = self.health.Check(health_pb2.HealthCheckRequest(service=""), context)
            status = health_pb2.HealthCheckResponse.ServingStatus.Name(answer.status)
        except Abort:
            status = "UNKNOWN"
        serving = status == "SERVING"
        await _send(send, 200 if serving else 503, f'{{"status":"{status}"}}'.encode(),
                    [(b"content-type", b"application/json")])


# -- what runs on the worker threads ------------------------------------------------------------
def _encoder(codec: str):
    return connect.encode_json if codec == "json" else (lambda msg: msg.SerializeToString())


def _failure(m_name: str, e: BaseException):
    if isinstance(e, Abort):
        return e.code, bounded(e.details or ""), ()
    log.exception("%s over HTTP: internal error", m_name)
    return grpc.StatusCode.INTERNAL, bounded(f"internal error (a bug; please report it with the "
                                             f"request): {type(e).__name__}: {e}"), ()


def _run_unary(m: Method, request, context: HttpContext, codec: str):
    """(code, body or error message, trailing metadata)."""
    try:
        response = m.function(request, context)
        if context.code not in (None, grpc.StatusCode.OK):     # set_code, no abort
            return context.code, bounded(context.details or ""), context.trailing
        return grpc.StatusCode.OK, _encoder(codec)(response), context.trailing
    except Exception as e:
        code, message, _ = _failure(m.name, e)
        return code, message, context.trailing
    finally:
        context.end("done")


def _next_frame(responses, context: HttpContext, codec: str):
    """The next response as a frame, or (code, message, trailers) at the end."""
    try:
        item = next(responses)
    except StopIteration:
        return grpc.StatusCode.OK, "", context.trailing
    except Exception as e:
        code, message, _ = _failure(getattr(responses, "__name__", "stream"), e)
        return code, message, context.trailing
    return connect.frame(_encoder(codec)(item))


def _close(responses, context: HttpContext):
    try:
        responses.close()
    except Exception:
        log.exception("closing a stream failed")
    finally:
        context.end("done")


# -- ASGI helpers -------------------------------------------------------------------------------
def _looks_like_rpc(path: str) -> bool:
    """/package.Service/Method: answered as a call (404 unimplemented), not a file."""
    parts = path.strip("/").split("/")
    return len(parts) == 2 and "." in parts[0] and not parts[1].count(".")


async def _read_body(receive, headers, limit: int) -> bytes | None:
    """The whole body, at most `limit` bytes (TooLarge naming the limit);
    None if the client disconnected first."""
    declared = headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise TooLarge(f"limit max_message_bytes: the body is {int(declared)} bytes, over this "
                       f"server's {limit}")
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise TooLarge(f"limit max_message_bytes: the body is over this server's {limit} "
                           f"bytes")
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


async def _disconnected(receive) -> None:
    """Returns when the client has gone (after the body was read, uvicorn's
    receive() answers only that)."""
    while (await receive())["type"] != "http.disconnect":
        pass


def _trailer_headers(trailing) -> list:
    # A unary call's trailers travel as headers prefixed "trailer-" (the
    # Connect protocol); the retry pushback also as Retry-After, which any
    # HTTP client knows (seconds, rounded up).
    out = [(f"trailer-{k}".encode("latin-1"), str(v).encode("latin-1")) for k, v in trailing]
    for k, v in trailing:
        if k == "grpc-retry-pushback-ms" and str(v).isdigit():
            out.append((b"retry-after", str(-(-int(v) // 1000)).encode()))
    return out


async def _send(send, status: int, body: bytes, headers=()):
    await send({"type": "http.response.start", "status": status,
                "headers": list(headers) + API_HEADERS
                + [(b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body, "more_body": False})


async def _send_error(send, code, message: str, status: int | None = None, extra=()):
    await _send(send, status or connect.http_status(code), connect.error_body(code, message),
                [(b"content-type", b"application/json")] + list(extra))


async def _send_plain(send, status: int, body: bytes, extra=()):
    await _send(send, status, body, [(b"content-type", b"text/plain; charset=utf-8")]
                + list(extra))


def _with_headers(send, headers):
    async def wrapped(message):
        if message["type"] == "http.response.start":
            message = {**message, "headers": list(message.get("headers", [])) + headers}
        await send(message)
    return wrapped


def _static_app(directory: str):
    """Starlette's StaticFiles on the folder (no listing, no path outside
    it, no link followed out of it), behind a check that turns away any
    path with a NUL, a backslash or a dot-segment before it is looked up."""
    from starlette.exceptions import HTTPException
    from starlette.staticfiles import StaticFiles
    files = StaticFiles(directory=directory, html=True, check_dir=True)

    async def app(scope, receive, send):
        path = scope["path"]
        segments = path.split("/")
        if "\x00" in path or "\\" in path or ".." in segments or any(
                s.startswith(".") for s in segments if s):
            await _send_plain(send, 404, b"not found")
            return
        try:
            await files(scope, receive, send)
        except HTTPException as e:       # no such file (StaticFiles raises its 404s)
            await _send_plain(send, e.status_code, b"not found" if e.status_code == 404
                              else str(e.detail).encode()[:200])
    return app


