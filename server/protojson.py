"""The proto3 JSON mapping of the HTTP face's answers, written fast:
`to_dict(message)` gives exactly what google.protobuf.json_format's
`MessageToDict(message)` gives (lowerCamelCase names, set fields only,
64-bit integers as strings, enums by name, NaN and infinities as strings,
bytes in base64), in a fraction of its time.

json_format works out how to write each field (its kind, whether it is a
map, an enum's names, a well-known type) again for every field of every
message; a ListGames answer has some 250 fields, and that work was most of
the HTTP face's cost over gRPC (benchmarks/bench_http.py). Here it is
worked out once per message type, from its descriptor, and kept. Well-known
types (Struct, Value, ...) and anything unusual (extensions, enum values
with JSON options) are handed to json_format itself.
tests/server/test_server_protojson.py checks the two agree on generated
messages of every type the services answer.
"""
from __future__ import annotations

import base64
import math
import threading

from google.protobuf import json_format
from google.protobuf.descriptor import FieldDescriptor as FD

_INT64 = {FD.CPPTYPE_INT64, FD.CPPTYPE_UINT64}
_plans: dict = {}                  # message descriptor -> {field descriptor: (name, write)}
_lock = threading.Lock()


def to_dict(message):
    plan = _plans.get(message.DESCRIPTOR)
    if plan is None:
        plan = _plan(message.DESCRIPTOR)
    if plan is False:
        return json_format.MessageToDict(message)
    if plan.__class__ is not dict:      # google.protobuf.Struct, Value, ListValue
        return plan(message)
    out = {}
    for field, value in message.ListFields():
        name, write = plan[field]
        out[name] = value if write is None else write(value)    # None: written as it is
    return out


def _plan(descriptor):
    with _lock:
        plan = _plans.get(descriptor)
        if plan is not None:
            return plan
        plan = _JSON_TYPES.get(descriptor.full_name) or (False if _special(descriptor) else {})
        _plans[descriptor] = plan          # before the fields: a type may contain itself
        if plan is False or plan.__class__ is not dict:
            return plan
        for field in descriptor.fields:
            plan[field] = (field.json_name, _writer(field))
        return plan


def _special(descriptor) -> bool:
    """Written by json_format: well-known types, and messages with what this
    module does not write (extensions, enum values with options)."""
    if descriptor.file.package == "google.protobuf" or descriptor.extension_ranges:
        return True
    for field in descriptor.fields:
        if field.cpp_type == FD.CPPTYPE_ENUM and any(
                v.GetOptions().ListFields() for v in field.enum_type.values):
            return True
    return False


def _writer(field):
    if field.message_type is not None and field.message_type.GetOptions().map_entry:
        key_field = field.message_type.fields_by_name["key"]
        value = _element(field.message_type.fields_by_name["value"])
        boolean = key_field.cpp_type == FD.CPPTYPE_BOOL

        def write_map(m):
            return {(("true" if k else "false") if boolean else str(k)): value(m[k]) for k in m}
        return write_map
    element = _element(field)
    if _repeated(field):
        return list if element is None else (lambda values: [element(v) for v in values])
    return element


def _repeated(field) -> bool:
    return field.is_repeated if hasattr(field, "is_repeated") else \
        field.label == FD.LABEL_REPEATED


def _element(field):
    kind = field.cpp_type
    if kind == FD.CPPTYPE_MESSAGE:
        return to_dict
    if kind == FD.CPPTYPE_ENUM:
        if field.enum_type.full_name == "google.protobuf.NullValue":
            return lambda v: None
        names = {v.number: v.name for v in field.enum_type.values}
        return lambda v: names.get(v, v)     # an unknown number (an open enum) as itself
    if field.type == FD.TYPE_BYTES:
        return lambda v: base64.b64encode(v).decode("utf-8")
    if kind in _INT64:
        return str
    if kind == FD.CPPTYPE_DOUBLE:
        return _double
    if kind == FD.CPPTYPE_FLOAT:
        from google.protobuf.internal import type_checkers     # as json_format writes floats
        return lambda v: _double(v) if not math.isfinite(v) else type_checkers.ToShortestFloat(v)
    return None                     # int32, bool, string: JSON as they are


def _double(v):
    if v - v == 0:                  # finite (inf - inf and NaN - NaN are NaN)
        return v
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    return v


# -- google.protobuf.Struct and its parts, JSON itself (as json_format writes them) ----------
def _value(v):
    which = v.WhichOneof("kind")
    if which is None or which == "null_value":
        return None
    if which == "number_value":
        n = v.number_value
        if not math.isfinite(n):
            raise ValueError(f"Fail to serialize {'NaN' if n != n else 'Infinity'} for "
                             f"Value.number_value, which would parse as string_value")
        return n
    if which == "struct_value":
        return _struct(v.struct_value)
    if which == "list_value":
        return _list(v.list_value)
    return getattr(v, which)


def _struct(s):
    fields = s.fields
    return {k: _value(fields[k]) for k in fields}


def _list(lv):
    return [_value(v) for v in lv.values]


_JSON_TYPES = {"google.protobuf.Value": _value, "google.protobuf.Struct": _struct,
               "google.protobuf.ListValue": _list}
