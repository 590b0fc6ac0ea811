"""Transport security and client authentication for the server's services.

    creds = server_credentials("server.pem", "server.key", client_ca="ca.pem")
    server.add_secure_port("0.0.0.0:50051", creds)
    interceptor = BearerTokenInterceptor(read_token("token.txt"))
    grpc.server(pool, interceptors=[interceptor])

* TLS: `server_credentials(cert, key, client_ca=None)` reads PEM files; with
  a client CA the server requires and checks client certificates (mutual
  TLS). `channel_credentials(ca, cert, key)` is the client's side.
* Bearer token: `BearerTokenInterceptor(token)` checks the metadata
  "authorization: Bearer <token>" on every call (compared in constant time)
  except those of the exempt services (by default grpc.health.v1.Health, so
  that load balancers and orchestrators can probe without the secret), and
  answers others UNAUTHENTICATED. Any service added to the server (hosted
  matches, ...) is covered by the same interceptor.
  A token sent over a plain connection travels in clear: use it with TLS
  (or on a loopback address).
"""
from __future__ import annotations

import hmac

import grpc

from easel.engine import userfiles

HEALTH_PREFIX = "/grpc.health.v1.Health/"


def read_file(path: str, what: str) -> bytes:
    """A PEM or token file, read as every file a user names is
    (engine/userfiles.py: a regular file within SECRET_FILES, 1 MiB); a
    ValueError "cannot read the {what} '{path}': ..." otherwise."""
    return userfiles.read_bytes(path, f"the {what}", userfiles.SECRET_FILES, ValueError,
                                shown=repr(path))


def check_files(named) -> None:
    """Read now each (flag, path, what) whose path is given, so that a bad
    file is refused before anything starts, named by the flag that gave it:
    ValueError "--tls-key: cannot read the TLS key 'k.pem': not found"."""
    for flag, path, what in named:
        if path:
            try:
                read_file(path, what)
            except ValueError as e:
                raise ValueError(f"{flag}: {e}") from None


def read_token(path: str, flag: str | None = None) -> str:
    """The token in a file (surrounding white space dropped; never empty).
    `flag`, the command-line option that named the file, starts a refusal."""
    try:
        token = read_file(path, "auth token file").decode("utf-8", "replace").strip()
        if not token:
            raise ValueError(f"the auth token file {path!r} is empty")
        if any(c.isspace() or not c.isprintable() for c in token):
            raise ValueError(f"the auth token in {path!r} must be one word of printable "
                             f"characters")
    except ValueError as e:
        raise ValueError(f"{flag}: {e}" if flag else str(e)) from None
    return token


def server_credentials(cert: str, key: str, client_ca: str | None = None):
    pair = (read_file(key, "TLS key"), read_file(cert, "TLS certificate"))
    ca = read_file(client_ca, "client CA") if client_ca else None
    return grpc.ssl_server_credentials([pair], root_certificates=ca,
                                       require_client_auth=ca is not None)


def channel_credentials(ca: str | None = None, cert: str | None = None, key: str | None = None):
    """Client TLS: `ca` to check the server (default: the system's roots),
    `cert` and `key` to present a client certificate."""
    return grpc.ssl_channel_credentials(
        root_certificates=read_file(ca, "CA") if ca else None,
        private_key=read_file(key, "TLS key") if key else None,
        certificate_chain=read_file(cert, "TLS certificate") if cert else None)


def _deny(handler, message):
    def unary(request, context):
        context.abort(grpc.StatusCode.UNAUTHENTICATED, message)

    def stream(request, context):
        context.abort(grpc.StatusCode.UNAUTHENTICATED, message)
        yield  # pragma: no cover  (makes this a generator)

    if handler.request_streaming and handler.response_streaming:
        return grpc.stream_stream_rpc_method_handler(
            stream, handler.request_deserializer, handler.response_serializer)
    if handler.request_streaming:
        return grpc.stream_unary_rpc_method_handler(
            unary, handler.request_deserializer, handler.response_serializer)
    if handler.response_streaming:
        return grpc.unary_stream_rpc_method_handler(
            stream, handler.request_deserializer, handler.response_serializer)
    return grpc.unary_unary_rpc_method_handler(
        unary, handler.request_deserializer, handler.response_serializer)


class BearerTokenInterceptor(grpc.ServerInterceptor):
    def __init__(self, token: str, exempt: tuple[str, ...] = (HEALTH_PREFIX,)):
        if not token:
            raise ValueError("an empty bearer token would admit everyone")
        self._want = f"Bearer {token}".encode()
        self.exempt = exempt

    def allowed(self, metadata) -> bool:
        got = None
        for key, value in metadata or ():
            if key == "authorization":
                got = value.encode() if isinstance(value, str) else bytes(value)
                break
        return got is not None and hmac.compare_digest(got, self._want)

    def intercept_service(self, continuation, details):
        if details.method.startswith(self.exempt) or self.allowed(details.invocation_metadata):
            return continuation(details)
        handler = continuation(details)
        if handler is None:
            return None
        return _deny(handler, "this server requires 'authorization: Bearer <token>' metadata; "
                              "the call had none or a wrong token")
