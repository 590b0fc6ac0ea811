"""Fuzzing every Engine method over HTTP (server/gateway.py): JSON made
from generated requests (every field, odd values), then broken -- values
swapped for JSON of any type, unknown keys added, the text's bytes
mutated -- and binary bodies. Each answer must be one a client can act on:
never a 500, never INTERNAL or UNKNOWN, always a Connect error body or the
answer; a stream ends with its end frame. Afterwards the server answers
health checks and has no search left running.

Short in CI. Long on demand (requests per method; mutations 4 times that):
    EASEL_FUZZ_EXAMPLES=2000 python -m pytest -q tests/server/test_server_http_fuzz.py
"""
from __future__ import annotations

import json
import os
import struct

import httpx
import pytest
from google.protobuf import json_format, message_factory
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st

from fuzz_requests import EDITS, json_values, message_bytes, mutate
from http_helpers import start

from easel.server.limits import Limits
from easel.v1 import engine_pb2 as pb

EXAMPLES = int(os.environ.get("EASEL_FUZZ_EXAMPLES", "40"))
METHODS = {m.name: m for m in pb.DESCRIPTOR.services_by_name["Engine"].methods}
BAD_CODES = {"internal", "unknown"}
FUZZ = hsettings(max_examples=EXAMPLES, deadline=None, database=None,
                 suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def fuzz_http():
    srv, base = start(limits=Limits(
        max_iterations=2000, max_seconds=0.3, max_concurrent_searches=2, max_threads=2,
        default_iterations=50, max_waiting_searches=4, max_message_bytes=1 << 20,
        max_review_decisions=6))
    with httpx.Client(base_url=base, timeout=30) as client:
        yield srv, client
    srv.stop(grace=0)


def send(client, method: str, body: bytes, binary: bool = False):
    m = METHODS[method]
    kind = "proto" if binary else "json"
    if m.server_streaming:
        r = client.post(f"/easel.v1.Engine/{method}", content=struct.pack(">BI", 0, len(body))
                        + body, headers={"Content-Type": f"application/connect+{kind}",
                                         "Connect-Timeout-Ms": "10000"})
    else:
        r = client.post(f"/easel.v1.Engine/{method}", content=body,
                        headers={"Content-Type": f"application/{kind}",
                                 "Connect-Timeout-Ms": "10000"})
    assert r.status_code != 500, r.text[:300]       # internal, unknown: a bug
    if m.server_streaming and r.status_code == 200:
        data, i, last = r.content, 0, None
        while i < len(data):
            flags, size = struct.unpack_from(">BI", data, i)
            last = (flags, data[i + 5:i + 5 + size])
            i += 5 + size
        assert last is not None and last[0] == 2, "a stream ends with its end frame"
        error = json.loads(last[1]).get("error")
        assert error is None or error["code"] not in BAD_CODES, error
        return
    if r.status_code != 200:
        error = r.json()
        assert set(error) == {"code", "message"} and error["code"] not in BAD_CODES, error
        assert len(error["message"]) <= 1000


def _as_json(descriptor, data: bytes):
    cls = message_factory.GetMessageClass(descriptor)
    try:
        return json_format.MessageToDict(cls.FromString(data))
    except Exception:
        return {}


@st.composite
def broken(draw, value):
    """`value` (a JSON object) with a few parts replaced by JSON of any type
    and unknown keys added, at any depth."""
    def walk(v, depth):
        if isinstance(v, dict):
            out = {}
            for k, x in v.items():
                if draw(st.integers(0, 5)) == 0:
                    out[k] = draw(json_values)
                else:
                    out[k] = walk(x, depth + 1)
            if draw(st.integers(0, 6)) == 0:
                out[draw(st.sampled_from(["bogus", "gmae", "Steps", "@type", ""]))] = \
                    draw(json_values)
            return out
        if isinstance(v, list):
            return [walk(x, depth + 1) for x in v]
        return draw(json_values) if draw(st.integers(0, 8)) == 0 else v
    return walk(value, 0)


@pytest.mark.parametrize("method", sorted(METHODS))
def test_fuzz_json_over_http(fuzz_http, method):
    srv, client = fuzz_http
    descriptor = METHODS[method].input_type

    @FUZZ
    @given(data=message_bytes(descriptor), how=st.sampled_from(["as is", "broken", "bytes",
                                                                "binary"]),
           edits=EDITS, st_data=st.data())
    def run(data, how, edits, st_data):
        if how == "binary":
            send(client, method, data, binary=True)
            return
        value = _as_json(descriptor, data)
        if how == "broken":
            value = st_data.draw(broken(value))
        text = json.dumps(value, allow_nan=True).encode()
        if how == "bytes":
            text = mutate(text, edits)
        send(client, method, text)

    run()


def test_after_fuzzing_the_server_is_healthy(fuzz_http):
    srv, client = fuzz_http
    assert client.get("/healthz").json() == {"status": "SERVING"}
    assert srv.running_searches() == 0 and srv.queue.waiting() == 0
    r = client.post("/easel.v1.Engine/NewGame", json={"game": "pig"})
    assert r.status_code == 200
