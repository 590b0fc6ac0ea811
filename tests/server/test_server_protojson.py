"""server/protojson.py writes exactly what google.protobuf.json_format's
MessageToDict writes, for generated messages of every type the Engine and
Matches services answer (every field, enum values known and unknown, NaN
and infinities, Structs, maps and repeated fields)."""
from __future__ import annotations

import pytest
from google.protobuf import json_format, message_factory
from hypothesis import HealthCheck, given, settings as hsettings

from fuzz_requests import message_bytes

from easel.server import protojson
from easel.v1 import engine_pb2, matches_pb2

SERVICES = [engine_pb2.DESCRIPTOR.services_by_name["Engine"],
            matches_pb2.DESCRIPTOR.services_by_name["Matches"]]
TYPES = sorted({m.output_type.full_name: m.output_type for s in SERVICES
                for m in s.methods}.items())


@pytest.mark.parametrize("name, descriptor", TYPES, ids=[n for n, _ in TYPES])
def test_protojson_writes_what_json_format_writes(name, descriptor):
    cls = message_factory.GetMessageClass(descriptor)

    @hsettings(max_examples=60, deadline=None, database=None,
               suppress_health_check=list(HealthCheck))
    @given(data=message_bytes(descriptor, hooks={}))
    def run(data):
        try:
            message = cls.FromString(data)
        except Exception:
            return
        try:
            want = json_format.MessageToDict(message)
        except json_format.SerializeToJsonError as e:     # NaN in a Struct: refused alike
            with pytest.raises(ValueError):
                protojson.to_dict(message)
            assert "Fail to serialize" in str(e)
            return
        assert protojson.to_dict(message) == want

    run()
