"""Positions over the wire: game records and structured states in, engine
states out, and back. Plain functions, no gRPC server needed to call them.

A position arrives in one of two forms (see proto/easel/v1/engine.proto):

* a game record -- the game string and every step (action or chance outcome)
  since the initial state. It is replayed on a fresh state, step by step, with
  the engine's own validation, so an impossible record is refused at the first
  bad step, named by its index.
* a structured state -- the game's JSON form, for games that can read it back
  (`Game.state_from_json`; the others answer UNIMPLEMENTED).
* a table notation -- the game's own short text for a position, for games
  that declare it (`entry.capabilities.notation`; the others answer
  INVALID_ARGUMENT).

Network input is hostile: game strings name data files only from the
server's offer (server/datafiles.py), client text is quoted short and
escaped, numbers must be finite, and every refusal is INVALID_ARGUMENT
naming the field. A record is replayed from the longest cached prefix when
a `ReplayCache` is given (server/replay_cache.py).

Every state built here is new and belongs to the request that built it: no
state or game object is shared between calls.
"""
from __future__ import annotations

import json
import math

from google.protobuf import struct_pb2

from easel import engine
from easel.engine import PLAYER_CHANCE, textio
from easel.engine.errors import EaselError, GameSpecError, IllegalActionError
from easel.v1 import engine_pb2 as pb

from .datafiles import DataFiles
from .errors import QUOTE_CHARS, InvalidArgument, Unimplemented, bounded, quote
from .replay_cache import Entry, RecordKeys, ReplayCache

# Lengths of client text, refused (not truncated) beyond: a game string names
# a game and a few options; a step's text is a move as LegalActions writes it.
MAX_GAME_STRING = 256
MAX_STEP_TEXT = 256
MAX_NOTATION = 64 * 1024
# ReadPosition's answer to a refused notation: at most this many refusals,
# each message at most this long (a hostile text's answer stays small).
MAX_REFUSALS = 100
MAX_REFUSAL_CHARS = 500

# The network policy: data files by name from the shipped data. A server
# built with `easel serve --data-dir` passes its own.
NETWORK_FILES = DataFiles()

_OPTION_TYPES = {int: pb.OPTION_TYPE_INT, float: pb.OPTION_TYPE_FLOAT,
                 bool: pb.OPTION_TYPE_BOOL, str: pb.OPTION_TYPE_STRING}


# -- games -------------------------------------------------------------------

def game_info(entry, files: DataFiles | None = None) -> pb.GameInfo:
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
        if getattr(opt, "data_file", False):
            o.data_file = True
            o.data_files.extend((files or NETWORK_FILES).offered(entry))
    return info


def list_games(files: DataFiles | None = None) -> list[pb.GameInfo]:
    return [game_info(e, files) for e in engine.registered_games()]


def load_game(spec: str, field: str, files: DataFiles | None = None):
    """The game named by a game string: its core if it has one (the search
    needs it), else its reference. Data-file options follow `files` (the
    network policy by default: names from the server's offer)."""
    if not isinstance(spec, str) or not spec.strip():
        raise InvalidArgument(field, "a game string is required, e.g. 'connect_four' "
                                     "or 'pig(players=3)'")
    if len(spec) > MAX_GAME_STRING:
        raise InvalidArgument(field, f"a game string is at most {MAX_GAME_STRING} characters; "
                                     f"got {quote(spec)}")
    try:
        return (files or NETWORK_FILES).load_game(spec)
    except GameSpecError as e:
        raise InvalidArgument(field, str(e)) from None


def capabilities(entry):
    """The game's declared capabilities (None until games declare them)."""
    return getattr(entry, "capabilities", None)


def has_notation(entry) -> bool:
    return bool(getattr(capabilities(entry), "notation", False))


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
    if len(step.text) > MAX_STEP_TEXT:
        raise InvalidArgument(f"{field}.text", f"a step's text is at most {MAX_STEP_TEXT} "
                                               f"characters; got {quote(step.text)}")
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
                raise InvalidArgument(field, f"id {action} and text {quote(step.text)} name "
                                             f"different actions")
            return action
        return state.string_to_action(text)
    except IllegalActionError as e:
        raise InvalidArgument(f"{field}.id" if has_id else f"{field}.text", str(e)) from None


def replay(record: pb.GameRecord, field: str = "position.record", files: DataFiles | None = None):
    """Replay a game record on a fresh state; every step is validated."""
    return replay_with_record(record, field, files)[0]


def replay_with_record(record: pb.GameRecord, field: str = "position.record",
                       files: DataFiles | None = None, cache: ReplayCache | None = None):
    """(state, canonical record): the replayed state, and the record with
    every step's id, text and kind filled, built during the one replay."""
    state, out, _ = replay_full(record, field, files, cache)
    return state, out


def replay_full(record: pb.GameRecord, field: str = "position.record",
                files: DataFiles | None = None, cache: ReplayCache | None = None):
    """(state, canonical record, turn_start): as replay_with_record, and
    where the current player's turn began -- the index of the first of the
    trailing steps that are all that player's decisions (the record's length
    when none is). With a cache, the replay starts from the longest cached
    prefix of the record and the result is cached."""
    start, hit = 0, None
    keys = None
    if cache is not None:
        keys = RecordKeys(record)
        hit = cache.longest_prefix(keys)
    if hit is not None:
        start, entry = hit
        state = entry.state.clone()
        out = pb.GameRecord()
        out.CopyFrom(entry.record)
        run_start, last_actor = entry.turn
    else:
        game = load_game(record.game, f"{field}.game", files)
        state = game.new_initial_state()
        out = pb.GameRecord(game=game.spec)
        run_start, last_actor = 0, None
    steps = record.steps
    for i in range(start, len(steps)):
        action = resolve_step(state, steps[i], f"{field}.steps[{i}]")
        actor = state.current_player()          # -1 at a chance node
        out.steps.append(_canonical_step(state, action))
        state.apply_action(action)
        if actor < 0 or actor != last_actor:
            run_start = i
        last_actor = actor
    if keys is not None and (hit is None or start < len(steps)):
        cache.put(keys.key(len(steps)), Entry(state.clone(), _copy(out), (run_start, last_actor)))
    _check_expected(state, record, field)
    n = len(steps)
    turn_start = run_start if (n and last_actor is not None and last_actor >= 0
                               and state.current_player() == last_actor) else n
    return state, out, turn_start


def _copy(record: pb.GameRecord) -> pb.GameRecord:
    out = pb.GameRecord()
    out.CopyFrom(record)
    return out


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


def _check_finite(value, where: str) -> None:
    """NaN and infinities are no game's numbers: refuse them, naming where."""
    if isinstance(value, float) and not math.isfinite(value):
        raise InvalidArgument(where, f"numbers must be finite, got {value}")
    if isinstance(value, dict):
        for k, v in value.items():
            _check_finite(v, f"{where}.{quote(k, 40)[1:-1]}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _check_finite(v, f"{where}[{i}]")


def _from_value(v: struct_pb2.Value, where: str):
    kind = v.WhichOneof("kind")
    if kind == "number_value":
        if not math.isfinite(v.number_value):
            raise InvalidArgument(where, f"numbers must be finite, got {v.number_value}")
        return v.number_value
    if kind == "struct_value":
        return _from_struct(v.struct_value, where)
    if kind == "list_value":
        return [_from_value(x, f"{where}[{i}]") for i, x in enumerate(v.list_value.values)]
    if kind == "string_value":
        return v.string_value
    if kind == "bool_value":
        return v.bool_value
    return None


def _from_struct(s: struct_pb2.Struct, where: str) -> dict:
    """A Struct as plain Python, refusing NaN and infinities (naming where;
    json_format would fail on them with a ValueError of its own)."""
    return {k: _from_value(v, f"{where}.{quote(k, 40)[1:-1]}") for k, v in s.fields.items()}


def _no_constant(name):
    raise ValueError(f"{name} is not a number JSON allows")


def from_structured(msg: pb.StructuredState, field: str = "position.state",
                    files: DataFiles | None = None):
    game = load_game(msg.game, f"{field}.game", files)
    which = msg.WhichOneof("json")
    if which is None:
        raise InvalidArgument(field, "a structured state needs 'value' (a Struct) or 'text' "
                                     "(a JSON object)")
    if which == "text":
        try:
            data = json.loads(msg.text, parse_constant=_no_constant)
        except RecursionError:
            raise InvalidArgument(f"{field}.text", "JSON nested too deeply") from None
        except ValueError as e:
            raise InvalidArgument(f"{field}.text", f"not valid JSON: {e}") from None
        if not isinstance(data, dict):
            raise InvalidArgument(f"{field}.text", "must be a JSON object")
    else:
        data = _from_struct(msg.value, f"{field}.value")
    _check_finite(data, f"{field}.{which}")
    data = _integral(data)
    if not game.entry.capabilities.structured_states:
        raise Unimplemented(field, f"{game.name} cannot read a state from its JSON form; "
                                   f"send the position as a game record instead")
    try:
        state = game.state_from_json(data)
    except (EaselError, ValueError, KeyError, TypeError, IndexError, AttributeError,
            OverflowError, RecursionError) as e:
        raise InvalidArgument(f"{field}.{which}",
                              f"not a valid {game.name} state: {type(e).__name__}: {e}") from None
    _check_current_player(state, data, f"{field}.{which}")
    _check_expected(state, msg, field)
    return state


def _check_current_player(state, data: dict, where: str) -> None:
    """A state that names its player to move must agree with the state the
    game built from it (a loader that ignores the field must not make the
    server answer for another player than the client meant)."""
    if "current_player" not in data:
        return
    given = data["current_player"]
    have = state.current_player()
    if isinstance(given, bool) or not isinstance(given, int) or given != have:
        raise InvalidArgument(f"{where}.current_player",
                              f"is {quote(given)}, but the state it describes has "
                              f"current_player {have} ({_where(state)})")


# What a game's notation reader may raise on a hostile text: each is the
# text's fault (a refusal), never the server's.
_NOTATION_ERRORS = (EaselError, ValueError, KeyError, TypeError, IndexError, AttributeError,
                    OverflowError, RecursionError)


def _notation_game(msg, field: str, files: DataFiles | None):
    """The game a TableNotation names, checked: it has a notation and the
    text is within MAX_NOTATION."""
    game = load_game(msg.game, f"{field}.game", files)
    if not has_notation(game.entry):
        raise InvalidArgument(f"{field}.game", f"{game.name} has no table notation; send the "
                                               f"position as a record or a structured state")
    if len(msg.text) > MAX_NOTATION:
        raise InvalidArgument(f"{field}.text", f"{len(msg.text)} characters; limit "
                                               f"MAX_NOTATION: at most {MAX_NOTATION}")
    return game


def from_notation(msg, field: str = "position.notation", files: DataFiles | None = None):
    """A state from the game's table notation (games that declare it)."""
    game = _notation_game(msg, field, files)
    try:
        state = game.state_from_notation(msg.text)
    except _NOTATION_ERRORS as e:
        raise InvalidArgument(f"{field}.text",
                              f"not a valid {game.name} position: {e}") from None
    _check_expected(state, msg, field)
    return state


def read_position(msg, field: str = "notation",
                  files: DataFiles | None = None) -> pb.ReadPositionResponse:
    """Engine.ReadPosition: the position a notation describes, or the game's
    refusals as an answer (StateFormatError.refusals: line, field, message),
    at most MAX_REFUSALS, each message bounded to MAX_REFUSAL_CHARS."""
    game = _notation_game(msg, field, files)
    try:
        state = game.state_from_notation(msg.text)
    except _NOTATION_ERRORS as e:
        found = list(getattr(e, "refusals", None) or [(0, "", str(e))])
        out = pb.ReadPositionResponse()
        for line, name, message in found[:MAX_REFUSALS]:
            out.refusals.add(line=line, field=bounded(name, QUOTE_CHARS),
                             message=bounded(message, MAX_REFUSAL_CHARS))
        if len(found) > MAX_REFUSALS:
            out.refusals.add(message=f"and {len(found) - MAX_REFUSALS} more problems; limit "
                                     f"MAX_REFUSALS: the first {MAX_REFUSALS} are listed")
        return out
    _check_expected(state, msg, field)
    return pb.ReadPositionResponse(position=position_info(state, with_record=False))


def position_state(position: pb.Position, field: str = "position",
                   files: DataFiles | None = None, cache: ReplayCache | None = None):
    """(state, record): the engine state a Position message describes (new,
    owned by the caller) and its canonical record (None for a structured
    state or a notation, whose history is unknown)."""
    state, record, _ = resolve_position(position, field, files, cache)
    return state, record


def resolve_position(position: pb.Position, field: str = "position",
                     files: DataFiles | None = None, cache: ReplayCache | None = None):
    """(state, record, turn_start): as position_state, and for a record
    where the current player's turn began (see replay_full; None for the
    other forms, whose history is unknown)."""
    which = position.WhichOneof("form")
    if which == "record":
        return replay_full(position.record, f"{field}.record", files, cache)
    if which == "state":
        return from_structured(position.state, f"{field}.state", files), None, None
    if which == "notation":
        return from_notation(position.notation, f"{field}.notation", files), None, None
    raise InvalidArgument(field, "a position is required: set 'record' (game string and "
                                 "steps), 'state' (structured state) or 'notation'")


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
    origin = state.loaded_from()        # a loaded position: its steps start there
    walk = game.new_initial_state() if origin is None else game.state_from_json(origin)
    for action in state.history():
        view = walk.to_json()
        rec.steps.add(id=action, text=game.codec.action_to_string(view, action),
                      kind=node_kind(walk))
        walk.apply_action(action)
    return rec


def _move_number(state) -> int:
    """Steps since the initial state; -1 when unknown (a loaded position that
    did not give its move number)."""
    move = state.move_number()
    return -1 if move is None else move


def position_info(state, record: pb.GameRecord | None = None,
                  with_record: bool = True) -> pb.PositionInfo:
    """The PositionInfo of `state`. Its record: `record` if given, else (if
    `with_record`) rebuilt from the state's history."""
    game = state.get_game()
    view = state.to_json()
    info = pb.PositionInfo(
        game=game.spec, kind=node_kind(state), current_player=state.current_player(),
        state=_struct(view), text=str(state), returns=state.returns(),
        move_number=_move_number(state), num_players=game.num_players())
    if has_notation(game.entry):
        info.notation = notation_of(state)
    if record is not None:
        info.record.CopyFrom(record)
    elif with_record:
        info.record.CopyFrom(record_of(state))
    return info


def notation_of(state) -> str:
    """The state's table notation (games that declare one)."""
    return state.get_game().notation_of(state)


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
