"""Request errors of the gRPC service: a status code, the path of the field at
fault and a message a client developer can act on.

The plain functions in server/positions.py and server/analysis.py raise these;
the servicer turns them into gRPC statuses. The message always starts with the
field path ("position.record.steps[3]: ..."), so a client can tell which part
of its request to fix without parsing anything else."""
from __future__ import annotations

import grpc

# Client text quoted in an error or a log line: at most this many characters,
# escaped. A status message travels in a header (grpc-message), and headers
# are small: a long echo turns INVALID_ARGUMENT into RESOURCE_EXHAUSTED in
# some clients and stalls the channel in others.
QUOTE_CHARS = 60
MAX_MESSAGE_CHARS = 1000       # any status message, whatever its source


def quote(text, limit: int = QUOTE_CHARS) -> str:
    """A short, escaped, quoted prefix of client text: 'abc' or
    'abcd...' (12345 chars). Control characters and quotes are escaped (no
    forged log lines, no broken headers); non-ASCII is escaped too."""
    if not isinstance(text, str):
        text = str(text)
    shown = repr(text[:limit]).encode("ascii", "backslashreplace").decode("ascii")
    if len(text) > limit:
        return f"{shown[:-1]}...{shown[-1]} ({len(text)} chars)"
    return shown


def bounded(message: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """A status message made safe for a header and a log: one line (control
    characters escaped), at most `limit` characters."""
    out = "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)
    if len(out) > limit:
        out = out[:limit - 30] + f"... ({len(out)} chars in all)"
    return out


class RequestError(Exception):
    code = grpc.StatusCode.INVALID_ARGUMENT

    def __init__(self, field: str, message: str):
        super().__init__(bounded(f"{field}: {message}" if field else message))
        self.field = field
        self.message = message


class InvalidArgument(RequestError):
    """A request field that is malformed, out of range or impossible."""
    code = grpc.StatusCode.INVALID_ARGUMENT


class Unimplemented(RequestError):
    """The request is well formed but the game lacks what it needs."""
    code = grpc.StatusCode.UNIMPLEMENTED


class ResourceExhausted(RequestError):
    """The server is at capacity; the client may retry later, after
    `retry_after` seconds if set (sent as grpc-retry-pushback-ms, which
    gRPC's own retry honours). A negative `retry_after` (NO_RETRY): asking
    again cannot help, and the pushback tells gRPC's retry not to."""
    code = grpc.StatusCode.RESOURCE_EXHAUSTED
    NO_RETRY = -1.0

    def __init__(self, field: str, message: str, retry_after: float | None = None):
        super().__init__(field, message)
        self.retry_after = retry_after


class LimitReached(ResourceExhausted):
    """A server limit: the message names it ("limit max_open_matches: ...")."""

    def __init__(self, limit: str, message: str, retry_after: float | None = None):
        super().__init__("", f"limit {limit}: {message}", retry_after)
        self.limit = limit


class Unauthenticated(RequestError):
    """No valid bearer token."""
    code = grpc.StatusCode.UNAUTHENTICATED


class Unavailable(RequestError):
    """The server is shutting down."""
    code = grpc.StatusCode.UNAVAILABLE


class DeadlineExceeded(RequestError):
    """The call's deadline passed before the search finished."""
    code = grpc.StatusCode.DEADLINE_EXCEEDED


class Cancelled(RequestError):
    """The client cancelled the call."""
    code = grpc.StatusCode.CANCELLED
