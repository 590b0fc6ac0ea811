"""Server reflection in both versions clients use: grpc.reflection.v1 (grpcurl
and current tools) and grpc.reflection.v1alpha (older ones).

grpcio-reflection ships only v1alpha. The two protocols are the same messages
under another package name (field for field), so v1 is served by the same
servicer, its descriptors made from v1alpha's by renaming the package and
registered in the default pool, so that reflection describes itself too.

A reflection stream is bidirectional and holds a worker thread while open,
idle or not: each takes one of `Limits.max_reflection_streams` slots, at
most `max_reflection_streams_per_client` of them from one client
(server/streams.py; refusals name the limit), one that sends no request for
`Limits.reflection_idle_seconds` is ended, and requests are decoded
leniently (bad bytes are INVALID_ARGUMENT, not INTERNAL).

    enable(server, ["easel.v1.Engine", "grpc.health.v1.Health"], guard, limits,
           queue.clients)
"""
from __future__ import annotations

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool
from grpc_reflection.v1alpha import reflection, reflection_pb2

from .rpc import decoded, decoder, streaming
from .streams import per_client

V1ALPHA = reflection.SERVICE_NAME                    # grpc.reflection.v1alpha.ServerReflection
V1 = "grpc.reflection.v1.ServerReflection"
_V1_FILE = "grpc/reflection/v1/reflection.proto"


def _register_v1_descriptor() -> None:
    pool = descriptor_pool.Default()
    try:
        pool.FindFileByName(_V1_FILE)
        return
    except KeyError:
        pass
    fdp = descriptor_pb2.FileDescriptorProto()
    reflection_pb2.DESCRIPTOR.CopyToProto(fdp)
    fdp.name = _V1_FILE
    fdp.package = "grpc.reflection.v1"
    fdp.options.Clear()
    for msg in fdp.message_type:
        for f in msg.field:
            if f.type_name:
                f.type_name = f.type_name.replace(".grpc.reflection.v1alpha.",
                                                  ".grpc.reflection.v1.")
    for svc in fdp.service:
        for m in svc.method:
            m.input_type = m.input_type.replace(".grpc.reflection.v1alpha.", ".grpc.reflection.v1.")
            m.output_type = m.output_type.replace(".grpc.reflection.v1alpha.",
                                                  ".grpc.reflection.v1.")
    pool.Add(fdp)


class BoundedReflection:
    def __init__(self, names, guard, limits, clients):
        self.servicer = reflection.ReflectionServicer(names)
        self.streams = guard
        self.limits = limits
        self.clients = clients          # server/auth.py Clients: who a call comes from

    @streaming("ServerReflectionInfo")
    def ServerReflectionInfo(self, request_iterator, context):
        lim = self.limits
        with self.streams.slot(context, per_client(
                "max_reflection_streams", lim.max_reflection_streams,
                "max_reflection_streams_per_client", self.clients.of(context),
                lim.max_reflection_streams_per_client, "reflection streams"),
                idle_seconds=lim.reflection_idle_seconds) as ticket:
            requests = decoded(self.streams.reading(ticket, request_iterator))
            yield from self.streams.sending(
                ticket, self.servicer.ServerReflectionInfo(requests, context))


def enable(server, service_names, guard, limits, clients) -> None:
    """Serve reflection v1 and v1alpha for `service_names` (and themselves),
    its streams bounded by `guard` (a server.streams.StreamGuard) and
    `limits` (server.limits.Limits), in all and per client (`clients`,
    server/auth.py Clients)."""
    _register_v1_descriptor()
    names = tuple(service_names) + (V1ALPHA, V1)
    servicer = BoundedReflection(names, guard, limits, clients)
    handler = grpc.stream_stream_rpc_method_handler(
        servicer.ServerReflectionInfo,
        request_deserializer=decoder(reflection_pb2.ServerReflectionRequest),
        response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString)
    server.add_generic_rpc_handlers([
        grpc.method_handlers_generic_handler(V1ALPHA, {"ServerReflectionInfo": handler}),
        grpc.method_handlers_generic_handler(V1, {"ServerReflectionInfo": handler}),
    ])
