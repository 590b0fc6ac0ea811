"""How every service of the server takes requests and answers errors: the
lenient request decoding, the error mapping and the access log, shared by
easel.v1.Engine, easel.v1.Matches, health checking and reflection.

    handler = lenient_handlers(pb.DESCRIPTOR.services_by_name["Engine"], servicer)
    server.add_generic_rpc_handlers([handler])

    class Servicer:
        @unary("NewGame", engine_fields)
        def NewGame(self, request, context): ...

* A request whose bytes do not parse (bad UTF-8, nesting too deep) reaches
  the handler as `Undecodable`, which the wrappers answer INVALID_ARGUMENT,
  instead of gRPC's own INTERNAL "Exception deserializing request!" and a
  traceback in the log for every such request.
* `RequestError`s carry their status (INVALID_ARGUMENT with the field path,
  RESOURCE_EXHAUSTED naming the limit, ...); any other exception is a bug,
  logged with its traceback and answered INTERNAL, never a crash.
* One access-log line per call, every client value in it quoted short and
  escaped (server/errors.py `quote`): no log grows with a client's text and
  no client text forges a line.
"""
from __future__ import annotations

import functools
import logging
import time

import grpc
from google.protobuf import message_factory
from google.protobuf.message import DecodeError

from .errors import InvalidArgument, RequestError, ResourceExhausted, bounded, quote

log = logging.getLogger("easel.server")


class Undecodable:
    """A request whose bytes did not parse (bad UTF-8, nesting too deep):
    handed to the handler, which answers INVALID_ARGUMENT naming the field
    where the bytes went wrong."""

    def __init__(self, error: Exception, field: str = "", why: str = ""):
        self.error = error
        self.field = field
        self.why = why

    def HasField(self, name):      # the access log reads requests
        return False


def decoder(message_class):
    def decode(data: bytes):
        try:
            return message_class.FromString(data)
        except (DecodeError, RecursionError, ValueError) as e:
            field, why = where_undecodable(message_class.DESCRIPTOR, data)
            return Undecodable(e, field, why)
    return decode


def check_decoded(request) -> None:
    if isinstance(request, Undecodable):
        field = request.field
        if len(field) > 160:        # a path through deep nesting: its two ends
            field = f"{field[:80]}...{field[-60:]}"
        raise InvalidArgument(field, "the request could not be decoded as its "
                                             "protobuf message: " + (request.why or (
                                                 "(e.g. bad UTF-8 in a string, or nesting too "
                                                 f"deep): {quote(str(request.error), 120)}")))


# -- finding the field at fault in bytes that do not parse -----------------------------
MAX_DEPTH = 100                 # protobuf's own nesting limit
_STRING, _MESSAGE = 9, 11       # FieldDescriptor.TYPE_STRING, TYPE_MESSAGE


def _varint(data: bytes, i: int) -> tuple[int, int]:
    shift = value = 0
    while True:
        if i >= len(data) or shift > 63:
            raise ValueError("a truncated or overlong number")
        b = data[i]
        value |= (b & 0x7F) << shift
        i += 1
        if not b & 0x80:
            return value, i
        shift += 7


def where_undecodable(descriptor, data: bytes, path: str = "", depth: int = 0):
    """(field path, why) of the first fault in `data` as a `descriptor`
    message: a string that is not UTF-8, nesting beyond protobuf's limit,
    or bytes that break the wire format; ("", why) when the fault is not in
    a field of the message. Reads the wire format only (no message made)."""
    data = memoryview(data)         # slices of it copy nothing
    counts: dict[str, int] = {}
    i = 0
    try:
        while i < len(data):
            key, i = _varint(data, i)
            number, wire = key >> 3, key & 7
            field = descriptor.fields_by_number.get(number)
            name = field.name if field is not None else f"<field {number}>"
            if field is not None and (field.label == field.LABEL_REPEATED
                                      if not hasattr(field, "is_repeated")
                                      else field.is_repeated):
                k = counts.get(name, 0)
                counts[name] = k + 1
                name = f"{name}[{k}]"
            where = f"{path}.{name}" if path else name
            if wire == 0:
                _, i = _varint(data, i)
            elif wire == 1 or wire == 5:
                i += 8 if wire == 1 else 4
            elif wire == 2:
                size, i = _varint(data, i)
                body, i = data[i:i + size], i + size
                if i > len(data):
                    return where, "its length runs past the end of the request"
                if field is not None and field.type == _STRING:
                    try:
                        str(body, "utf-8")
                    except UnicodeDecodeError:
                        return where, "not valid UTF-8"
                elif field is not None and field.type == _MESSAGE:
                    if depth + 1 >= MAX_DEPTH:
                        return where, f"nested more than {MAX_DEPTH} messages deep"
                    inner = where_undecodable(field.message_type, body, where, depth + 1)
                    if inner[0] or inner[1]:
                        return inner
            else:
                return where, f"wire type {wire} is not one protobuf writes"
            if i > len(data):
                return where, "runs past the end of the request"
    except ValueError as e:
        return path, str(e)
    return "", ""


def decoded(requests):
    """A client's request stream, each request checked as `check_decoded` does."""
    for request in requests:
        check_decoded(request)
        yield request


def status_of(method, error: Exception, context):
    """(code, message) answering `error`; sets the retry pushback trailer."""
    if isinstance(error, RequestError):
        if isinstance(error, ResourceExhausted) and error.retry_after is not None:
            pushback = ("-1" if error.retry_after < 0        # gRPC: do not retry
                        else str(max(1, int(error.retry_after * 1000))))
            context.set_trailing_metadata([("grpc-retry-pushback-ms", pushback)])
        return error.code, str(error)
    log.exception("%s: internal error", method)
    return grpc.StatusCode.INTERNAL, bounded(f"internal error (a bug; please report it with "
                                             f"the request): {type(error).__name__}: {error}")


def abort_with(method, error: Exception, context):
    """Answer `error` as its status (from within a handler)."""
    code, message = status_of(method, error, context)
    context.abort(code, message)


def _log(method, fields, request, context, started, code):
    try:
        what = fields(request) if fields is not None and not isinstance(request, Undecodable) \
            else ""
    except Exception:
        what = "?"
    log.info("%s %sstatus=%s duration_ms=%.1f peer=%s", method, f"{what} " if what else "",
             code.name, (time.perf_counter() - started) * 1e3, quote(context.peer(), 60))


def _deadline_passed(context) -> bool:
    left = context.time_remaining()
    return left is not None and left <= 0


def unary(method, fields=None):
    """Wrap a unary handler: decode check, error mapping, one log line
    (`fields(request)`: the request's own part of it, client text quoted)."""
    def wrap(fn):
        @functools.wraps(fn)
        def handler(self, request, context):
            started = time.perf_counter()
            code = grpc.StatusCode.OK
            try:
                check_decoded(request)
                return fn(self, request, context)
            except Exception as e:     # every error becomes a status, never a crash
                code, message = status_of(method, e, context)
                context.abort(code, message)
            finally:
                if code == grpc.StatusCode.OK and not context.is_active():
                    code = (grpc.StatusCode.DEADLINE_EXCEEDED
                            if _deadline_passed(context) else grpc.StatusCode.CANCELLED)
                _log(method, fields, request, context, started, code)
        return handler
    return wrap


def streaming(method, fields=None):
    """`unary` for a handler that yields its responses."""
    def wrap(fn):
        @functools.wraps(fn)
        def handler(self, request, context):
            started = time.perf_counter()
            code = grpc.StatusCode.OK
            try:
                check_decoded(request)
                yield from fn(self, request, context)
            except GeneratorExit:      # the stream was closed under us (cancel, deadline)
                code = grpc.StatusCode.CANCELLED
                raise
            except Exception as e:
                code, message = status_of(method, e, context)
                context.abort(code, message)
            finally:
                if code == grpc.StatusCode.OK and not context.is_active():
                    code = grpc.StatusCode.CANCELLED
                if code == grpc.StatusCode.CANCELLED and _deadline_passed(context):
                    code = grpc.StatusCode.DEADLINE_EXCEEDED
                _log(method, fields, request, context, started, code)
        return handler
    return wrap


def lenient_handlers(service, servicer, behaviours=None):
    """The method handlers of `service` (a ServiceDescriptor) on `servicer`,
    decoding requests leniently: a request that does not parse reaches the
    method as `Undecodable` (see `unary`, `decoded`). `behaviours` may give
    a method's function instead of the servicer's attribute."""
    make = {(False, False): grpc.unary_unary_rpc_method_handler,
            (False, True): grpc.unary_stream_rpc_method_handler,
            (True, False): grpc.stream_unary_rpc_method_handler,
            (True, True): grpc.stream_stream_rpc_method_handler}
    table = {}
    for m in service.methods:
        req = message_factory.GetMessageClass(m.input_type)
        resp = message_factory.GetMessageClass(m.output_type)
        fn = (behaviours or {}).get(m.name) or getattr(servicer, m.name)
        table[m.name] = make[(m.client_streaming, m.server_streaming)](
            fn, request_deserializer=decoder(req), response_serializer=resp.SerializeToString)
    return grpc.method_handlers_generic_handler(service.full_name, table)
