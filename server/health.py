"""Health checking (grpc.health.v1) as every other service of the server is
served: requests decoded leniently (bad bytes are INVALID_ARGUMENT, not
INTERNAL), Watch streams bounded (`Limits.max_health_watches`, refusals
naming the limit) and service names bounded in length (a Watch keeps its
name while it is open).

grpcio-health-checking's servicer answers Watch without a thread of its own
(it registers a callback and returns), so a Watch costs no worker; what an
open Watch holds is its name and its callback, hence the count and length
bounds.

    servicer = add_health(server, guard, limits)
"""
from __future__ import annotations

from grpc_health.v1 import health, health_pb2

from .errors import InvalidArgument
from .rpc import abort_with, check_decoded, lenient_handlers

NAME = health_pb2.DESCRIPTOR.services_by_name["Health"]
MAX_SERVICE_CHARS = 200


def _check_request(request) -> None:
    check_decoded(request)
    if len(request.service) > MAX_SERVICE_CHARS:
        raise InvalidArgument("service", f"at most {MAX_SERVICE_CHARS} characters, got "
                                         f"{len(request.service)}")


class BoundedHealth(health.HealthServicer):
    def __init__(self, guard, limits):
        super().__init__()
        self.guard = guard
        self.limits = limits

    def Check(self, request, context):
        try:
            _check_request(request)
        except Exception as e:
            abort_with("Check", e, context)
        return super().Check(request, context)

    def Watch(self, request, context, send_response_callback=None):
        try:
            _check_request(request)
            ticket = self.guard.open(context, [("max_health_watches", None,
                                                self.limits.max_health_watches,
                                                "health Watch streams")])
        except Exception as e:
            abort_with("Watch", e, context)
        if not context.add_callback(lambda: self.guard.close(ticket)):
            self.guard.close(ticket)          # already over
        return super().Watch(request, context, send_response_callback)


def add_health(server, guard, limits) -> BoundedHealth:
    servicer = BoundedHealth(guard, limits)
    server.add_generic_rpc_handlers([lenient_handlers(NAME, servicer)])
    return servicer
