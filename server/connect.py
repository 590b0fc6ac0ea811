"""The Connect protocol's wire pieces (https://connectrpc.com/docs/protocol),
for the server's HTTP face (server/gateway.py): status codes and their HTTP
statuses, the error body, the envelope of streaming frames, the timeout
header, and requests decoded from the proto3 JSON mapping with the field at
fault named.

    decode_json(pb.SuggestRequest, b'{"position": {"record": {"game": "pig"}}}')
    error_body(grpc.StatusCode.INVALID_ARGUMENT, "position: ...")
        # b'{"code":"invalid_argument","message":"position: ..."}'
    frame(encode_json(msg))              # a streamed message: flags, length, JSON
    end_stream(grpc.StatusCode.CANCELLED, "...", trailers)

A request that does not decode (bad JSON, an unknown field, a wrong type, a
number out of range, nesting too deep) becomes `server.rpc.Undecodable`
naming the field path in proto names (`position.record.steps[2].id`), and
goes to the servicer like a gRPC request whose bytes did not parse: the
servicer answers INVALID_ARGUMENT starting with that path, so both faces
refuse alike and log alike.
"""
from __future__ import annotations

import json
import re
import struct

import grpc
from google.protobuf import json_format, message_factory

from . import protojson
from .errors import bounded, quote
from .rpc import Undecodable

# Connect's name and HTTP status for each gRPC status code (the protocol's
# table, "Error Codes").
CODES = {
    grpc.StatusCode.CANCELLED: ("canceled", 499),
    grpc.StatusCode.UNKNOWN: ("unknown", 500),
    grpc.StatusCode.INVALID_ARGUMENT: ("invalid_argument", 400),
    grpc.StatusCode.DEADLINE_EXCEEDED: ("deadline_exceeded", 504),
    grpc.StatusCode.NOT_FOUND: ("not_found", 404),
    grpc.StatusCode.ALREADY_EXISTS: ("already_exists", 409),
    grpc.StatusCode.PERMISSION_DENIED: ("permission_denied", 403),
    grpc.StatusCode.RESOURCE_EXHAUSTED: ("resource_exhausted", 429),
    grpc.StatusCode.FAILED_PRECONDITION: ("failed_precondition", 400),
    grpc.StatusCode.ABORTED: ("aborted", 409),
    grpc.StatusCode.OUT_OF_RANGE: ("out_of_range", 400),
    grpc.StatusCode.UNIMPLEMENTED: ("unimplemented", 501),
    grpc.StatusCode.INTERNAL: ("internal", 500),
    grpc.StatusCode.UNAVAILABLE: ("unavailable", 503),
    grpc.StatusCode.DATA_LOSS: ("data_loss", 500),
    grpc.StatusCode.UNAUTHENTICATED: ("unauthenticated", 401),
}

# Content types: a unary call's body is the message itself; a streaming
# call's request and responses are enveloped frames.
UNARY_TYPES = {"application/json": "json", "application/proto": "proto"}
STREAM_TYPES = {"application/connect+json": "json", "application/connect+proto": "proto"}

END_STREAM = 0x02              # the envelope flag of a stream's last frame
COMPRESSED = 0x01              # the envelope flag of a compressed message
_HEAD = struct.Struct(">BI")   # flags, length
MAX_TIMEOUT_DIGITS = 10        # the protocol's bound on Connect-Timeout-Ms
MAX_JSON_DEPTH = 100           # protobuf's own nesting limit


def error_json(code: grpc.StatusCode, message: str) -> dict:
    return {"code": CODES.get(code, ("unknown", 500))[0], "message": message}


def error_body(code: grpc.StatusCode, message: str) -> bytes:
    """A unary call's error body, sent with `http_status(code)`."""
    return json.dumps(error_json(code, message), separators=(",", ":")).encode()


def http_status(code: grpc.StatusCode) -> int:
    return CODES.get(code, ("unknown", 500))[1]


def frame(data: bytes, flags: int = 0) -> bytes:
    return _HEAD.pack(flags, len(data)) + data


def end_stream(code: grpc.StatusCode | None = None, message: str = "",
               trailers=()) -> bytes:
    """A stream's last frame: its error (if `code`) and its trailers."""
    body: dict = {}
    if code is not None and code != grpc.StatusCode.OK:
        body["error"] = error_json(code, message)
    metadata: dict[str, list[str]] = {}
    for key, value in trailers:
        metadata.setdefault(key, []).append(value)
    if metadata:
        body["metadata"] = metadata
    return frame(json.dumps(body, separators=(",", ":")).encode(), END_STREAM)


class ProtocolError(ValueError):
    """A request that breaks the protocol itself (not its message): the
    header or the framing named, answered INVALID_ARGUMENT."""


def unframe(body: bytes) -> bytes:
    """The one message of a server-streaming call's request body."""
    if len(body) < _HEAD.size:
        raise ProtocolError(f"the request body is {len(body)} bytes: a streaming call's body is "
                            f"one enveloped message (a flags byte, a 4-byte big-endian length, "
                            f"the message)")
    flags, size = _HEAD.unpack_from(body)
    if flags & COMPRESSED:
        raise ProtocolError("the request message is compressed; this server takes "
                            "uncompressed messages only")
    if flags != 0:
        raise ProtocolError(f"the request envelope has flags {flags:#04x}; a request message "
                            f"has flags 0")
    if size != len(body) - _HEAD.size:
        raise ProtocolError(f"the request envelope says {size} bytes and {len(body) - _HEAD.size} "
                            f"follow: a streaming call's body is exactly one message")
    return body[_HEAD.size:]


def parse_timeout(value: str | None) -> float | None:
    """Seconds from a Connect-Timeout-Ms header (None: no deadline)."""
    if value is None:
        return None
    value = value.strip()
    if not value.isdigit() or not value.isascii() or len(value) > MAX_TIMEOUT_DIGITS:
        raise ProtocolError(f"Connect-Timeout-Ms: must be a positive whole number of "
                            f"milliseconds of at most {MAX_TIMEOUT_DIGITS} digits, got "
                            f"{quote(value, 20)}")
    return int(value) / 1000.0


# -- the proto3 JSON mapping -----------------------------------------------------------------
def encode_json(message) -> bytes:
    """The proto3 JSON mapping of `message` (lowerCamelCase names, enums by
    name, 64-bit integers as strings), compact UTF-8."""
    return json.dumps(protojson.to_dict(message), ensure_ascii=False,
                      separators=(",", ":")).encode()


def decode_json(message_class, body: bytes):
    """`message_class` read from a JSON body (field names in either form of
    the mapping); `Undecodable` naming the field at fault when it cannot be.
    Unknown fields are refused, as a wrong type is: a typo is not ignored."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as e:
        return Undecodable(e, "", f"the body is not valid UTF-8 (byte {e.start})")
    try:
        value = json.loads(text)
    except RecursionError as e:
        return Undecodable(e, "", f"the JSON is nested more than {MAX_JSON_DEPTH} deep")
    except ValueError as e:          # JSONDecodeError, or an over-long number
        return Undecodable(e, "", f"not JSON: {quote(str(e), 120)}")
    if not isinstance(value, dict):
        return Undecodable(ValueError("not an object"), "",
                           f"the body must be a JSON object, got {type(value).__name__}")
    message = message_class()
    try:
        json_format.ParseDict(value, message, max_recursion_depth=MAX_JSON_DEPTH)
        return message
    except (json_format.ParseError, RecursionError, ValueError, TypeError) as e:
        field, why = where_unparsable(message_class.DESCRIPTOR, value)
        return Undecodable(e, field, why or _why(e))


def _field_of(descriptor, key: str):
    f = descriptor.fields_by_name.get(key)
    if f is None:
        for candidate in descriptor.fields:
            if candidate.json_name == key:
                return candidate
    return f


def _is_repeated(field) -> bool:
    return field.is_repeated if hasattr(field, "is_repeated") else \
        field.label == field.LABEL_REPEATED


_WHERE = re.compile(r'\.? at "?[\w.\[\]]+"?\.*$')    # json_format's own "at Message.path"


def _why(error: Exception) -> str:
    """json_format's reason, without the chain of "Failed to parse x field:"
    that the path already says."""
    text = str(error)
    while text.startswith("Failed to parse ") and " field: " in text:
        text = text.split(" field: ", 1)[1]
    text = _WHERE.sub("", text.split("\n", 1)[0])
    return bounded(text.rstrip(". "), 160)


def where_unparsable(descriptor, value, path: str = "", depth: int = 0) -> tuple[str, str]:
    """(field path, why) of the first part of the JSON object `value` that
    does not read as a `descriptor` message; ("", "") if none is found (the
    fault is then in the whole, e.g. two fields of one oneof)."""
    if depth >= MAX_JSON_DEPTH:
        return path, f"nested more than {MAX_JSON_DEPTH} messages deep"
    if not isinstance(value, dict):
        return path, f"must be a JSON object, got {type(value).__name__}"
    cls = message_factory.GetMessageClass(descriptor)
    for key, item in value.items():
        field = _field_of(descriptor, key)
        where = f"{path}.{key}" if path else key
        if field is None:
            names = ", ".join(f.name for f in descriptor.fields)
            return where, f"no such field in {descriptor.name} (its fields: {names})"
        where = f"{path}.{field.name}" if path else field.name
        nested = (field.type == field.TYPE_MESSAGE
                  and not field.message_type.GetOptions().map_entry
                  and field.message_type.file.package != "google.protobuf")
        items = (list(enumerate(item)) if _is_repeated(field) and isinstance(item, list)
                 else None)
        if nested and items is not None:
            for i, element in items:
                if element is None:
                    return f"{where}[{i}]", "null is not a message"
                found = where_unparsable(field.message_type, element, f"{where}[{i}]", depth + 1)
                if found[0] or found[1]:
                    return found
        elif nested and isinstance(item, dict):
            found = where_unparsable(field.message_type, item, where, depth + 1)
            if found[0] or found[1]:
                return found
        try:
            json_format.ParseDict({key: item}, cls(), max_recursion_depth=MAX_JSON_DEPTH - depth)
        except (json_format.ParseError, RecursionError, ValueError, TypeError) as e:
            if items is not None and not nested:
                for i, element in items:
                    try:
                        json_format.ParseDict({key: [element]}, cls())
                    except (json_format.ParseError, RecursionError, ValueError, TypeError) as e2:
                        return f"{where}[{i}]", _why(e2)
            return where, _why(e)
    return "", ""

