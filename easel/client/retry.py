"""The service config this project publishes for its clients: gRPC's own
retry policy for easel.v1.Engine, so stock clients retry a full search
queue (RESOURCE_EXHAUSTED, honouring the server's grpc-retry-pushback-ms)
and a server that is restarting (UNAVAILABLE) by themselves.

    channel = grpc.insecure_channel(target, options=[
        ("grpc.service_config", SERVICE_CONFIG_JSON), ("grpc.enable_retries", 1)])

Node (@grpc/grpc-js): pass {"grpc.service_config": SERVICE_CONFIG_JSON} as
a channel option (examples/node/client.js does). Both requests that search
and those that do not are safe to retry: every call is stateless.
(gRPC does not retry a streaming call once the server has sent a message:
an Analyze stream is retried only while its search waits for a slot.)
"""
from __future__ import annotations

import json

SERVICE_CONFIG = {
    "methodConfig": [{
        "name": [{"service": "easel.v1.Engine"}],
        "retryPolicy": {
            "maxAttempts": 5,
            "initialBackoff": "0.1s",
            "maxBackoff": "10s",
            "backoffMultiplier": 2,
            "retryableStatusCodes": ["RESOURCE_EXHAUSTED", "UNAVAILABLE"],
        },
    }],
}
SERVICE_CONFIG_JSON = json.dumps(SERVICE_CONFIG)
