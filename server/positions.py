"""Positions over the wire: game records and structured states in, engine
states out, and back. Plain functions, no gRPC server needed to call them.

A position arrives in one of two forms (see proto/easel/v1/engine.proto):

* a game record -- the game string and every step (action or chance outcome)
  since the initial state. It is replayed on a fresh state, step by step, with
  the engine's own validation, so an impossible record is refused at the first
  bad step, named by its index.
* a structured state -- the game's JSON form, for games that can read it back
  (`Game.state_from_json`; the others answer UNIMPLEMENTED).

Every state built here is new and belongs to the request that built it: no
state or game object is shared between calls.
"""
from __future__ import annotations

import functools
import json
import math

from google.protobuf import json_format, struct_pb2

from easel import engine
from easel.engine import PLAYER_CHANCE, textio
from easel.engine.errors import EaselError, GameSpecError, IllegalActionError
from easel.engine.registry import canonical_string
from easel.v1 import engine_pb2 as pb

from .errors import InvalidArgument, Unimplemented

_OPTION_TYPES = {int: pb.OPTION_TYPE_INT, float: pb.OPTION_TYPE_FLOAT,
                 bool: pb.OPTION_TYPE_BOOL, str: pb.OPTION_TYPE_STRING}


# -- games -------------------------------------------------------------------

def game_info(entry) -> pb.GameInfo:
    info = pb.GameInfo(
        reads_structured_state=entry.capabilities.structured_states,
        capabilities=entry.capabilities.names(), left_out=list(entry.left_out),
        name=entry.name, long_name=entry.long_name, description=entry.description,
        min_players=entry.min_players, max_players=entry.max_players,
        placeholder_data=list(entry.placeholder_data),
        implementations=entry.implementations,
        players_option=entry.players_option or "")
    for name in sorted(entry.options):
        opt = entry.options[name]
        default = opt.default
        text = ("true" if default else "false") if isinstance(default, bool) else str(default)
        o = info.options.add(name=name, type=_OPTION_TYPES.get(opt.type, pb.OPTION_TYPE_UNSPECIFIED),
                             default_text=text, doc=opt.doc)
        _set_value(o.default_value, default)
    return info


def list_games() -> list[pb.GameInfo]:
    return [game_info(e) for e in engine.registered_games()]


def load_game(spec: str, field: str):
    """The game named by a game string: its core if it has one (the search
    needs it), else its reference."""
    if not spec:
        raise InvalidArgument(field, "a game string is required, e.g. 'connect_four' "
                                     "or 'pig(players=3)'")
    try:
        entry, params = engine.parse_game_string(spec)
        canonical = canonical_string(entry, params)
        if entry.has_core:
            try:
                return engine.load_game(canonical, "core")
            except ImportError:     # a core declared but not built: the rules still serve
                pass
        return engine.load_game(canonical, "reference")
    except GameSpecError as e:
        raise InvalidArgument(field, str(e)) from None


# -- positions in --------------------------------------------------------------

def node_kind(state) -> int:
    if state.is_terminal():
        return pb.NODE_KIND_TERMINAL
    if state.is_chance_node():
        return pb.NODE_KIND_CHANCE
    return pb.NODE_KIND_DECISION


def _where(state) -> str:
    if state.is_terminal():
        return "the game is over"
    if state.is_chance_node():
        return "it is a chance node"
    return f"player {state.current_player()} is to move"


def resolve_step(state, step: pb.Step, field: str) -> int:
    """The action id a Step names in `state`, validated (not applied)."""
    has_id = step.HasField("id")
    text = step.text.strip()
    if not has_id and not text:
        raise InvalidArgument(field, "a step needs an id or a text")
    if state.is_terminal():
        raise InvalidArgument(field, "the game is already over; no step can follow")
    kind = node_kind(state)
    if step.kind not in (pb.NODE_KIND_UNSPECIFIED, kind):
        want = pb.NodeKind.Name(step.kind) if step.kind in pb.NodeKind.values() else step.kind
        raise InvalidArgument(f"{field}.kind",
                              f"step is marked {want} but {_where(state)}")
    try:
        if has_id:
            action = step.id
            if not state.is_legal(action):
                raise IllegalActionError(textio.illegal_message(state, action))
            if text and state.string_to_action(text) != action:
                raise InvalidArgument(field, f"id {action} and text {step.text!r} name "
                                             f"different actions")
            return action
        return state.string_to_action(text)
    except IllegalActionError as e:
        raise InvalidArgument(f"{field}.id" if has_id else f"{field}.text", str(e)) from None


def replay(record: pb.GameRecord, field: str = "position.record"):
    """Replay a game record on a fresh state; every step is validated."""
    return replay_with_record(record, field)[0]


def replay_with_record(record: pb.GameRecord, field: str = "position.record"):
    """(state, canonical record): the replayed state, and the record with
    every step's id, text and kind filled, built during the one replay."""
    game = load_game(record.game, f"{field}.game")
    state = game.new_initial_state()
    out = pb.GameRecord(game=game.spec)
    for i, step in enumerate(record.steps):
        action = resolve_step(state, step, f"{field}.steps[{i}]")
        out.steps.append(_canonical_step(state, action))
        state.apply_action(action)
    _check_expected(state, record, field)
    return state, out


def _canonical_step(state, action) -> pb.Step:
    return pb.Step(id=action, kind=node_kind(state),
                   text=state.get_game().codec.action_to_string(state.to_json(), action))


def _check_expected(state, msg, field):
    if msg.HasField("expected_player") and msg.expected_player != state.current_player():
        raise InvalidArgument(
            f"{field}.expected_player",
            f"expected player {msg.expected_player} to move, but {_where(state)} "
            f"(current_player {state.current_player()})")


def _integral(value):
    """Struct numbers are doubles (and a client may write 1.0 for 1): give
    integral ones back as ints, as the games' JSON forms write them."""
    if isinstance(value, float) and value.is_integer() and math.isfinite(value):
        return int(value)
    if isinstance(value, dict):
        return {k: _integral(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_integral(v) for v in value]
    return value


def from_structured(msg: pb.StructuredState, field: str = "position.state"):
    game = load_game(msg.game, f"{field}.game")
    which = msg.WhichOneof("json")
    if which is None:
        raise InvalidArgument(field, "a structured state needs 'value' (a Struct) or 'text' "
                                     "(a JSON object)")
    if which == "text":
        try:
            data = json.loads(msg.text)
        except ValueError as e:
            raise InvalidArgument(f"{field}.text", f"not valid JSON: {e}") from None
        if not isinstance(data, dict):
            raise InvalidArgument(f"{field}.text", "must be a JSON object")
        data = _integral(data)
    else:
        data = _integral(json_format.MessageToDict(msg.value))
    if not game.entry.capabilities.structured_states:
        raise Unimplemented(field, f"{game.name} cannot read a state from its JSON form; "
                                   f"send the position as a game record instead")
    try:
        state = game.state_from_json(data)
    except (EaselError, ValueError, KeyError, TypeError, IndexError, AttributeError) as e:
        raise InvalidArgument(f"{field}.{which}",
                              f"not a valid {game.name} state: {type(e).__name__}: {e}") from None
    _check_expected(state, msg, field)
    return state


def position_state(position: pb.Position, field: str = "position"):
    """(state, record): the engine state a Position message describes (new,
    owned by the caller) and its canonical record (None for a structured
    state, whose history is unknown)."""
    which = position.WhichOneof("form")
    if which == "record":
        return replay_with_record(position.record, f"{field}.record")
    if which == "state":
        return from_structured(position.state, f"{field}.state"), None
    raise InvalidArgument(field, "a position is required: set 'record' (game string and "
                                 "steps) or 'state' (structured state)")


# -- positions out -------------------------------------------------------------

def _set_value(value: struct_pb2.Value, x) -> None:
    if isinstance(x, bool):
        value.bool_value = x
    elif isinstance(x, (int, float)):
        value.number_value = x
    elif x is None:
        value.null_value = struct_pb2.NULL_VALUE
    else:
        value.string_value = str(x)


def _struct(data: dict) -> struct_pb2.Struct:
    s = struct_pb2.Struct()
    s.update(data)
    return s


def record_of(state) -> pb.GameRecord:
    """The record that reaches `state`: each step with its id, text and kind."""
    game = state.get_game()
    rec = pb.GameRecord(game=game.spec)
    walk = game.new_initial_state()
    for action in state.history():
        view = walk.to_json()
        rec.steps.add(id=action, text=game.codec.action_to_string(view, action),
                      kind=node_kind(walk))
        walk.apply_action(action)
    return rec


def position_info(state, record: pb.GameRecord | None = None,
                  with_record: bool = True) -> pb.PositionInfo:
    """The PositionInfo of `state`. Its record: `record` if given, else (if
    `with_record`) rebuilt from the state's history."""
    game = state.get_game()
    view = state.to_json()
    info = pb.PositionInfo(
        game=game.spec, kind=node_kind(state), current_player=state.current_player(),
        state=_struct(view), text=str(state), returns=state.returns(),
        move_number=state.move_number(), num_players=game.num_players())
    if record is not None:
        info.record.CopyFrom(record)
    elif with_record:
        info.record.CopyFrom(record_of(state))
    return info


def action_info(state, action: int, view=None, probability: float = 0.0) -> pb.ActionInfo:
    game = state.get_game()
    view = state.to_json() if view is None else view
    text = game.codec.action_to_string(view, action)
    chance = state.is_chance_node()
    player = PLAYER_CHANCE if chance else state.current_player()
    structured = {"id": action, "text": text, "kind": "chance" if chance else "action",
                  "player": player}
    extra = getattr(game.codec, "action_to_json", None)
    if extra is not None:
        structured.update(extra(view, action))
    return pb.ActionInfo(id=action, text=text, player=player, probability=probability,
                         kind=pb.NODE_KIND_CHANCE if chance else pb.NODE_KIND_DECISION,
                         structured=_struct(structured))


def legal_actions(state) -> list[pb.ActionInfo]:
    view = state.to_json()
    if state.is_chance_node():
        return [action_info(state, a, view, p) for a, p in state.chance_outcomes()]
    return [action_info(state, a, view) for a in state.legal_actions()]


def apply_step(state, step: pb.Step, field: str = "action",
               record: pb.GameRecord | None = None) -> pb.ActionInfo:
    """Apply a Step to `state` (in place), and append it to `record` if
    given; returns what was applied."""
    action = resolve_step(state, step, field)
    prob = dict(state.chance_outcomes()).get(action, 0.0) if state.is_chance_node() else 0.0
    applied = action_info(state, action, probability=prob)
    if record is not None:
        record.steps.add(id=applied.id, text=applied.text, kind=applied.kind)
    state.apply_action(action)
    return applied
