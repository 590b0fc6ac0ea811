"""The match service's own request errors (beside server/errors.py's): each
carries its gRPC status; the message names the field or the state at fault."""
from __future__ import annotations

import grpc

from ..errors import LimitReached, RequestError  # noqa: F401  (LimitReached: re-exported)


class PermissionDenied(RequestError):
    """A token that is not this match's, or not for what it is used for."""
    code = grpc.StatusCode.PERMISSION_DENIED


class FailedPrecondition(RequestError):
    """Right request, wrong moment: a stale step number, another seat's turn,
    a match that has ended."""
    code = grpc.StatusCode.FAILED_PRECONDITION


class NotFound(RequestError):
    code = grpc.StatusCode.NOT_FOUND


class Aborted(RequestError):
    """The stream was ended for another (a seat's newer stream took its place)."""
    code = grpc.StatusCode.ABORTED


class DatabaseFailed(RequestError):
    """The match database failed under the running server (disk full, an
    I/O error): nothing was written or read; the client may retry later.
    The message says what SQLite reported, never the file's path."""
    code = grpc.StatusCode.UNAVAILABLE


class DatabaseDamaged(DatabaseFailed):
    """The match database (or one match's rows in it) is damaged: what was
    asked cannot be read or kept. Retrying does not help."""
    code = grpc.StatusCode.DATA_LOSS
