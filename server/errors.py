"""Request errors of the gRPC service: a status code, the path of the field at
fault and a message a client developer can act on.

The plain functions in server/positions.py and server/analysis.py raise these;
the servicer turns them into gRPC statuses. The message always starts with the
field path ("position.record.steps[3]: ..."), so a client can tell which part
of its request to fix without parsing anything else."""
from __future__ import annotations

import grpc


class RequestError(Exception):
    code = grpc.StatusCode.INVALID_ARGUMENT

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.message = message


class InvalidArgument(RequestError):
    """A request field that is malformed, out of range or impossible."""
    code = grpc.StatusCode.INVALID_ARGUMENT


class Unimplemented(RequestError):
    """The request is well formed but the game lacks what it needs."""
    code = grpc.StatusCode.UNIMPLEMENTED


class ResourceExhausted(RequestError):
    """The server is at capacity; the client may retry later."""
    code = grpc.StatusCode.RESOURCE_EXHAUSTED


class Unavailable(RequestError):
    """The server is shutting down."""
    code = grpc.StatusCode.UNAVAILABLE


class DeadlineExceeded(RequestError):
    """The call's deadline passed before the search finished."""
    code = grpc.StatusCode.DEADLINE_EXCEEDED


class Cancelled(RequestError):
    """The client cancelled the call."""
    code = grpc.StatusCode.CANCELLED
