"""Request generators for the fuzz suites of the server's services
(tests/server/test_server_fuzz.py, tests/matches/test_matches_fuzz.py):
messages built from their descriptors (every field, oneof and enum, Structs
with odd JSON, NaN and huge numbers, long and control-character strings),
biased towards plausible values so that calls get deep, and byte-level
mutations of valid requests."""
from __future__ import annotations

from google.protobuf import struct_pb2
from google.protobuf.descriptor import FieldDescriptor as FD
from hypothesis import strategies as st

from easel.v1 import engine_pb2 as pb

GAMES = ["pig", "connect_four", "vangogh", "pig(players=3)", "pig(winscore=10)",
         "vangogh(players=3)", "vangogh(players=1)", "vangogh(deck=/dev/zero)",
         "vangogh(deck=paintings-placeholder.json)", "pig(players=99)", "chess", ""]
TEXTS = ["roll", "stop", "Roll 4", "x in column 4", "o in column 4", "x in column 10", "mcts", "random", "greedy",
         "mcts(uct_c=1.5)", "mcts(iterations=50)", "heuristic", "mcts(form=pimc,worlds=2)",
         "{}", '{"a": [1, 2]}', "NaN"]
strings = st.one_of(st.sampled_from(GAMES + TEXTS), st.text(max_size=40),
                    st.text(alphabet=st.characters(codec="utf-8"), min_size=200, max_size=3000))
numbers = st.one_of(st.integers(-3, 50), st.floats(allow_nan=True, allow_infinity=True),
                    st.just(1e300))
json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), numbers, st.text(max_size=10)),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=20)


def _struct_bytes(data: dict) -> bytes:
    """A Struct's bytes; NaN is written through a sentinel (Python's
    protobuf refuses to write it, other languages do not)."""
    import struct as _s
    sentinel = 98765.4321

    def swap(v):
        if isinstance(v, float) and v != v:
            return sentinel
        if isinstance(v, dict):
            return {k: swap(x) for k, x in v.items()}
        if isinstance(v, list):
            return [swap(x) for x in v]
        return v
    s = struct_pb2.Struct()
    s.update(swap(data))
    return s.SerializeToString().replace(_s.pack("<d", sentinel), _s.pack("<d", float("nan")))


def _scalar(field, text):
    t = field.type
    if t in (FD.TYPE_INT32, FD.TYPE_SINT32, FD.TYPE_SFIXED32):
        return st.one_of(st.integers(-5, 60), st.integers(-2**31, 2**31 - 1))
    if t in (FD.TYPE_INT64, FD.TYPE_SINT64, FD.TYPE_SFIXED64):
        return st.one_of(st.integers(-5, 3000), st.integers(-2**63, 2**63 - 1))
    if t in (FD.TYPE_UINT32, FD.TYPE_FIXED32):
        return st.integers(0, 2**32 - 1)
    if t in (FD.TYPE_UINT64, FD.TYPE_FIXED64):
        return st.integers(0, 2**64 - 1)
    if t in (FD.TYPE_DOUBLE, FD.TYPE_FLOAT):
        return st.one_of(st.floats(0.0001, 0.3), st.floats(allow_nan=True, allow_infinity=True),
                         st.just(1e-9))
    if t == FD.TYPE_BOOL:
        return st.booleans()
    if t == FD.TYPE_STRING:
        return text
    if t == FD.TYPE_BYTES:
        return st.binary(max_size=20)
    if t == FD.TYPE_ENUM:
        return st.one_of(st.sampled_from([v.number for v in field.enum_type.values]),
                         st.integers(-3, 1000))
    raise AssertionError(field.type)


@st.composite
def message_bytes(draw, descriptor, depth=0, hooks=None, text=strings):
    """A message of `descriptor`, as bytes (Structs may hold NaN).
    `hooks` maps a message's full name to a strategy of plausible bytes for
    it, used half the time (default ENGINE_HOOKS: a real game played at
    random, a small search budget), so that calls get past the first check;
    `text` is the strategy of string fields."""
    hooks = ENGINE_HOOKS if hooks is None else hooks
    hook = hooks.get(descriptor.full_name)
    if hook is not None and draw(st.booleans()):
        return draw(hook)
    cls = _class(descriptor)
    msg = cls()
    extra = b""
    for field in descriptor.fields:
        if not draw(st.booleans()):
            continue
        repeated = (field.is_repeated if hasattr(field, "is_repeated")
                    else field.label == FD.LABEL_REPEATED)
        count = draw(st.integers(0, 4)) if repeated else 1
        for _ in range(count):
            if field.type == FD.TYPE_MESSAGE:
                if field.message_type.full_name == "google.protobuf.Struct":
                    data = draw(st.dictionaries(st.sampled_from(
                        ["current_player", "scores", "round", "players", "deck", "x"]),
                        json_values, max_size=6))
                    body = _struct_bytes(data)
                    extra += _tag(field.number, 2) + _varint(len(body)) + body
                    continue
                if depth >= 4:
                    continue
                body = draw(message_bytes(field.message_type, depth + 1, hooks, text))
                extra += _tag(field.number, 2) + _varint(len(body)) + body
                continue
            value = draw(_scalar(field, text))
            try:
                if repeated:
                    getattr(msg, field.name).append(value)
                else:
                    setattr(msg, field.name, value)
            except (ValueError, TypeError):
                pass
    return msg.SerializeToString() + extra


@st.composite
def _played_record(draw):
    import random

    from easel import engine
    game = draw(st.sampled_from(["pig", "connect_four", "vangogh", "pig(players=3)",
                                 "vangogh(players=1)"]))
    rng = random.Random(draw(st.integers(0, 2**32)))
    state = engine.load_game(game).new_initial_state()
    steps = []
    for _ in range(draw(st.integers(0, 80))):
        if state.is_terminal():
            break
        a = (engine.draw_outcome(state, rng) if state.is_chance_node()
             else rng.choice(state.legal_actions()))
        by_text = draw(st.booleans())
        steps.append(pb.Step(text=state.action_to_string(a)) if by_text else pb.Step(id=a))
        state.apply_action(a)
    rec = pb.GameRecord(game=game, steps=steps)
    if steps and draw(st.integers(0, 4)) == 0:        # spoil one step
        i = draw(st.integers(0, len(steps) - 1))
        rec.steps[i].id = draw(st.integers(-2, 300))
    if draw(st.integers(0, 3)) == 0:
        rec.expected_player = draw(st.integers(-5, 5))
    return rec.SerializeToString()


@st.composite
def _small_settings(draw):
    s = pb.SearchSettings(bot=draw(st.sampled_from(["", "mcts", "random", "greedy", "heuristic",
                                                    "mcts(uct_c=2)", "mcts(form=pimc)"])),
                          num_candidates=draw(st.integers(0, 5)),
                          threads=draw(st.integers(0, 2)))
    if draw(st.booleans()):
        s.budget.iterations = draw(st.integers(1, 300))
    else:
        s.budget.seconds = draw(st.sampled_from([1e-9, 0.001, 0.02, 0.1]))
    if draw(st.booleans()):
        s.seed = draw(st.integers(0, 2**64 - 1))
    return s.SerializeToString()


def _class(descriptor):
    from google.protobuf import message_factory
    return message_factory.GetMessageClass(descriptor)


def _tag(number, wire):
    return _varint(number << 3 | wire)


def _varint(n):
    out = b""
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


ENGINE_HOOKS = {"easel.v1.GameRecord": _played_record(),
                "easel.v1.SearchSettings": _small_settings()}

EDITS = st.lists(st.tuples(st.sampled_from(["flip", "insert", "delete", "cut"]),
                           st.integers(0, 10_000), st.integers(0, 255)),
                 min_size=1, max_size=4)


def mutate(data: bytes, edits) -> bytes:
    """`data` with `edits` (from EDITS) applied: bits flipped, bytes
    inserted or deleted, the end cut off."""
    buf = bytearray(data)
    for op, pos, byte in edits:
        if not buf:
            break
        i = pos % len(buf)
        if op == "flip":
            buf[i] ^= 1 << (byte % 8)
        elif op == "insert":
            buf[i:i] = bytes([byte])
        elif op == "delete":
            del buf[i]
        else:
            del buf[i:]
    return bytes(buf)
