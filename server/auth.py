"""Transport security and client authentication for the server's services.

    creds = server_credentials("server.pem", "server.key", client_ca="ca.pem")
    server.add_secure_port("0.0.0.0:50051", creds)
    interceptor = BearerTokenInterceptor(read_token("token.txt"))
    grpc.server(pool, interceptors=[interceptor])

* TLS: `server_credentials(cert, key, client_ca=None)` reads PEM files; with
  a client CA the server requires and checks client certificates (mutual
  TLS). The client's side is easel/client/credentials.py, whose bounded
  `read_file` reads the server's keys, certificates and tokens too.
* Bearer token: `BearerTokenInterceptor(token)` checks the metadata
  "authorization: Bearer <token>" on every call except those of the exempt
  services (by default grpc.health.v1.Health, so
  that load balancers and orchestrators can probe without the secret), and
  answers others UNAUTHENTICATED. Any service added to the server (hosted
  matches, ...) is covered by the same interceptor.
  `BearerTokenInterceptor(read_tokens("tokens.txt"))` admits any token of a
  token list ({name: token}, one per client).
  A token sent over a plain connection travels in clear: use it with TLS
  (or on a loopback address).
* Who a call comes from (`Clients`), for fairness and per-client limits:
  the name of its token where the server has a token list, else the
  address of its peer (the IP, without the port; an IPv6 address by its
  /64, what one host is usually given). Never anything the client can mint
  for free: a made-up `authorization` header, a new connection or a new
  source port is the same client.
"""
from __future__ import annotations

import hashlib
import ipaddress
import logging
import re
from collections.abc import Mapping
from urllib.parse import unquote

import grpc

from easel.engine import userfiles

from .errors import quote

log = logging.getLogger("easel.server")

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


NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@-]{0,63}")


def read_tokens(path: str) -> dict[str, str]:
    """A token list: {client name: token}, from a file of lines `NAME TOKEN`
    (blank lines and lines starting with # skipped). Names are 1 to 64 of
    letters, digits and . _ @ -; tokens one word of printable characters;
    both unique. Errors name the line, never a token."""
    text = read_file(path, "auth tokens file").decode("utf-8", "replace")
    tokens: dict[str, str] = {}
    seen: dict[str, int] = {}
    for i, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split()
        where = f"{path!r} line {i}"
        if len(parts) != 2:
            raise ValueError(f"the auth tokens file {where}: write 'NAME TOKEN' (two words)")
        name, token = parts
        if not NAME.fullmatch(name):
            raise ValueError(f"the auth tokens file {where}: a name is 1 to 64 letters, digits "
                             f"and . _ @ - (starting with a letter or digit)")
        if not token.isprintable():
            raise ValueError(f"the auth tokens file {where}: the token must be printable")
        if name in tokens:
            raise ValueError(f"the auth tokens file {where}: the name {name!r} is already given "
                             f"on line {seen[name]}")
        if token in seen:
            raise ValueError(f"the auth tokens file {where}: the same token as line "
                             f"{seen[token]}; give each client its own")
        tokens[name] = token
        seen[name] = seen[token] = i
    if not tokens:
        raise ValueError(f"the auth tokens file {path!r} lists no token")
    return tokens


def _digest(header: bytes) -> bytes:
    return hashlib.sha256(header).digest()


def _authorization(metadata) -> bytes | None:
    for key, value in metadata or ():
        if key == "authorization":
            return value.encode() if isinstance(value, str) else bytes(value)
    return None


def peer_key(peer: str) -> str:
    """A connection's peer ("ipv4:10.0.0.7:51234", "ipv6:[2001:db8::5]:443")
    as a client: the IP without the port, an IPv6 address by its /64 (an
    IPv4-mapped one as the IPv4 address); anything else (a Unix socket) as
    it is."""
    peer = unquote(peer or "") or "unknown"
    kind, _, rest = peer.partition(":")
    if kind not in ("ipv4", "ipv6") or ":" not in rest:
        return peer
    host = rest.rsplit(":", 1)[0].strip("[]")
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return f"{kind}:{host}"
    if ip.version == 6 and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.version == 4:
        return f"ipv4:{ip}"
    return f"ipv6:{ipaddress.ip_network((ip, 64), strict=False)}"


class Clients:
    """Who a call comes from (see the module doc): `of(context)` is
    "token:NAME" for a call bearing a token of the token list, else
    `peer_key` of its connection. One per server, shared by its services."""

    def __init__(self, tokens: Mapping[str, str] | None = None):
        self._names = {_digest(f"Bearer {t}".encode()): name
                       for name, t in (tokens or {}).items()}

    def of(self, context) -> str:
        if self._names:
            got = _authorization(context.invocation_metadata())
            name = self._names.get(_digest(got)) if got is not None else None
            if name is not None:
                return f"token:{name}"
        return peer_key(context.peer())


def server_credentials(cert: str, key: str, client_ca: str | None = None):
    pair = (read_file(key, "TLS key"), read_file(cert, "TLS certificate"))
    ca = read_file(client_ca, "client CA") if client_ca else None
    return grpc.ssl_server_credentials([pair], root_certificates=ca,
                                       require_client_auth=ca is not None)


def _deny(handler, message, method):
    def refuse(context):
        # the method path is the client's text (any path reaches here)
        log.info("%s status=UNAUTHENTICATED peer=%s", quote(method, 80),
                 quote(context.peer(), 60))
        context.abort(grpc.StatusCode.UNAUTHENTICATED, message)

    def unary(request, context):
        refuse(context)

    def stream(request, context):
        refuse(context)
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
    """token: the server's one token, or a token list {name: token}. The
    header is compared by its SHA-256 digest (a set lookup: its time tells
    nothing of any token)."""

    def __init__(self, token: str | Mapping[str, str],
                 exempt: tuple[str, ...] = (HEALTH_PREFIX,)):
        tokens = [token] if isinstance(token, str) else list(token.values())
        if not tokens or not all(tokens):
            raise ValueError("an empty bearer token would admit everyone")
        self._want = {_digest(f"Bearer {t}".encode()) for t in tokens}
        self.exempt = exempt

    def allowed(self, metadata) -> bool:
        got = _authorization(metadata)
        return got is not None and _digest(got) in self._want

    def intercept_service(self, continuation, details):
        if details.method.startswith(self.exempt) or self.allowed(details.invocation_metadata):
            return continuation(details)
        handler = continuation(details)
        if handler is None:
            return None
        return _deny(handler, "this server requires 'authorization: Bearer <token>' metadata; "
                              "the call had none or a wrong token", details.method)
