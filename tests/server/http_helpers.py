"""Calling the server's HTTP face as a program would (httpx), and servers
that have one: the gRPC server of server/service.py with server/http_server.py
beside it."""
from __future__ import annotations

import json
import struct

import httpx
from google.protobuf import json_format

from easel.server.http_server import HttpLimits, add_http
from easel.server.service import build_server

JSON = {"Content-Type": "application/json"}
STREAM = {"Content-Type": "application/connect+json"}


def start(http_limits: HttpLimits | None = None, ssl_context=None, web_dir=None, **kw):
    """A started server with an HTTP port: (srv, base URL)."""
    srv = build_server(port=0, **kw)
    http = add_http(srv, port=0, ssl_context=ssl_context, limits=http_limits, web_dir=web_dir)
    srv.start()
    return srv, http.url.rstrip("/")


def body_of(message) -> bytes:
    return json.dumps(json_format.MessageToDict(message)).encode()


def envelope(data: bytes, flags: int = 0) -> bytes:
    return struct.pack(">BI", flags, len(data)) + data


def frames(data: bytes):
    """[(flags, decoded JSON)] of a streamed body."""
    out, i = [], 0
    while i < len(data):
        flags, size = struct.unpack_from(">BI", data, i)
        out.append((flags, json.loads(data[i + 5:i + 5 + size])))
        i += 5 + size
    assert i == len(data), "a frame runs past the body"
    return out


def read_frames(response: httpx.Response):
    """Frames as they arrive (a stream read incrementally)."""
    buf = b""
    for chunk in response.iter_raw():
        buf += chunk
        while len(buf) >= 5:
            flags, size = struct.unpack_from(">BI", buf)
            if len(buf) < 5 + size:
                break
            yield flags, json.loads(buf[5:5 + size])
            buf = buf[5 + size:]


def unary(client: httpx.Client, path: str, message, headers=None, **kw) -> httpx.Response:
    return client.post(path, content=body_of(message) if not isinstance(message, bytes)
                       else message, headers={**JSON, **(headers or {})}, **kw)


def stream(client: httpx.Client, path: str, message, headers=None, **kw):
    """(HTTP status, [messages as dicts], end-of-stream dict)."""
    r = client.post(path, content=envelope(body_of(message)), headers={**STREAM, **(headers or {})},
                    **kw)
    got = frames(r.content) if r.status_code == 200 else []
    assert not got or got[-1][0] == 2, "a stream ends with an end-of-stream frame"
    return r.status_code, [m for f, m in got[:-1]], (got[-1][1] if got else r.json())
