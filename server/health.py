"""Health checking (grpc.health.v1) as every other service of the server is
served: requests decoded leniently (bad bytes are INVALID_ARGUMENT, not
INTERNAL), Watch streams bounded (`Limits.max_health_watches` in all,
`max_health_watches_per_client` from one client; refusals naming the
limit) and service names bounded in length (a Watch keeps its name while
it is open).

grpcio-health-checking's servicer answers Watch without a thread of its own
(it registers a callback and returns), so a Watch costs no worker; what an
open Watch holds is its name and its callback, hence the count and length
bounds.

    servicer = add_health(server, guard, limits, queue.clients)
"""
from __future__ import annotations

from grpc_health.v1 import health, health_pb2

from .errors import InvalidArgument
from .rpc import abort_with, check_decoded, lenient_handlers
from .streams import per_client

NAME = health_pb2.DESCRIPTOR.services_by_name["Health"]
MAX_SERVICE_CHARS = 200


def _check_request(request) -> None:
    check_decoded(request)
    if len(request.service) > MAX_SERVICE_CHARS:
        raise InvalidArgument("service", f"at most {MAX_SERVICE_CHARS} characters, got "
                                         f"{len(request.service)}")


class BoundedHealth(health.HealthServicer):
    def __init__(self, guard, limits, clients):
        super().__init__()
        self.guard = guard
        self.limits = limits
        self.clients = clients          # server/auth.py Clients: who a call comes from

    def Check(self, request, context):
        try:
            _check_request(request)
        except Exception as e:
            abort_with("Check", e, context)
        return super().Check(request, context)

    def Watch(self, request, context, send_response_callback=None):
        try:
            _check_request(request)
            lim = self.limits
            ticket = self.guard.open(context, per_client(
                "max_health_watches", lim.max_health_watches, "max_health_watches_per_client",
                self.clients.of(context), lim.max_health_watches_per_client,
                "health Watch streams"))
        except Exception as e:
            abort_with("Watch", e, context)
        if not context.add_callback(lambda: self.guard.close(ticket)):
            self.guard.close(ticket)          # already over
        return super().Watch(request, context, send_response_callback)


def add_health(server, guard, limits, clients) -> BoundedHealth:
    servicer = BoundedHealth(guard, limits, clients)
    server.add_generic_rpc_handlers([lenient_handlers(NAME, servicer)])
    return servicer
