"""Text forms shared by both implementations: action text, serialization,
error messages. Each game's `codec` module turns actions into words and back,
reading the state's JSON view, so the core and the reference speak alike."""
from __future__ import annotations

import copy
import difflib
import json

from .errors import IllegalActionError, StateFormatError

_HEADER = "easel-state-v1"


def _describe_turn(state) -> str:
    p = state.current_player()
    if state.is_terminal():
        return "the game is over"
    if p < 0:
        return "it is a chance node"
    return f"player {p} is to move"


def illegal_message(state, action) -> str:
    game = state.get_game()
    if not isinstance(action, int) or isinstance(action, bool):
        return f"{game.spec}: an action must be an integer, got {type(action).__name__} {action!r}"
    if state.is_terminal():
        return f"{game.spec}: action {action} cannot be applied: the game is over"
    if state.is_chance_node():
        ids = [a for a, _ in state.chance_outcomes()]
        return (f"{game.spec}: {action} is not a possible chance outcome here; "
                f"possible outcomes: {_short(ids)}")
    legal = state.legal_actions()
    return (f"{game.spec}: action {action} is illegal: {_describe_turn(state)}; "
            f"legal actions: {_short(legal)}")


def _short(ids, limit=40) -> str:
    text = ", ".join(map(str, ids[:limit]))
    return text + (f", ... ({len(ids)} in all)" if len(ids) > limit else "")


def action_to_string(state, action) -> str:
    """The text of any id of the game (as OpenSpiel's ActionToString): at a
    chance node a chance outcome id in [0, max_chance_outcomes), elsewhere an
    action id in [0, num_distinct_actions), legal here or not. Anything else
    is an IllegalActionError naming the range."""
    game = state.get_game()
    if not isinstance(action, int) or isinstance(action, bool):
        raise IllegalActionError(illegal_message(state, action))
    chance = state.is_chance_node()
    size = game.max_chance_outcomes() if chance else game.num_distinct_actions()
    if not 0 <= action < size:
        raise IllegalActionError(
            f"{game.spec}: {action} is not a {'chance outcome' if chance else 'action'} id of "
            f"this game: ids are 0..{size - 1}")
    return game.codec.action_to_string(state.to_json(), int(action))


# A refusal lists this many legal texts, then says how many there are in all.
LISTED_TEXTS = 12
# How much of a refused text a message repeats.
QUOTED_CHARS = 60
# difflib's ratio (twice the matching characters over both lengths) from
# which a legal text is offered as the closest to a refused one.
CLOSE_ENOUGH = 0.6


def normalise_text(text: str) -> str:
    """The form action texts are compared in: case ignored, and white space
    at the ends, its amount between words and around commas. Nothing else is
    forgiven: "Buy  canvas 1,(x)" reads as "buy canvas 1, (x)", but
    "buy 1" does not read as "buy canvas 1"."""
    return " ".join(text.lower().replace(",", " , ").split())


def quote_text(text: str, limit: int = QUOTED_CHARS) -> str:
    """A text as a message repeats it: quoted, escaped, cut at `limit` characters."""
    return repr(text[:limit]) + ("..." if len(text) > limit else "")


def string_to_action(state, text) -> int:
    """The legal action (at a chance node: the possible outcome) whose text,
    as `action_to_string` writes it, is `text` up to `normalise_text`. Text
    is matched exactly against the legal actions' texts, whatever words the
    game's codec writes: no looser form, no number read on its own (a bare
    action id is not text; give it as an id). Anything else is an
    IllegalActionError that lists the legal texts (the first LISTED_TEXTS and
    their count) and, when one is close, the closest."""
    game = state.get_game()
    if not isinstance(text, str):
        raise IllegalActionError(f"{game.spec}: an action text must be a string, got {text!r}")
    if state.is_terminal():
        raise IllegalActionError(f"{game.spec}: {quote_text(text)} cannot be applied: "
                                 f"the game is over")
    candidates = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                  else state.legal_actions())
    view = state.to_json()
    texts = [game.codec.action_to_string(view, a) for a in candidates]
    wanted = normalise_text(text)
    normal = [normalise_text(t) for t in texts]
    hits = [i for i, t in enumerate(normal) if t == wanted]
    if len(hits) == 1:
        return candidates[hits[0]]
    if hits:        # texts that differ only in case or spacing: the exact one decides
        exact = [i for i in hits if texts[i] == text.strip()]
        if len(exact) == 1:
            return candidates[exact[0]]
        raise IllegalActionError(
            f"{game.spec}: {quote_text(text)} reads as {len(hits)} moves here "
            f"({_describe_turn(state)}): " + "; ".join(texts[i] for i in hits[:LISTED_TEXTS])
            + "; give the move's id")
    what = "possible outcome" if state.is_chance_node() else "legal move"
    raise IllegalActionError(f"{game.spec}: {quote_text(text)} is not a {what} here "
                             f"({_describe_turn(state)}); "
                             + old_form_hint(game, view, text)
                             + _listing(f"{what}s", texts, normal, wanted))


def old_form_hint(game, view: dict, text: str) -> str:
    """"<what to write>; " when `text` is in a form the game's texts had
    before (a record written then: engine/connect_four/codec.py), else ""."""
    old = getattr(game.codec, "old_text_hint", None)
    hint = old(view, text[:QUOTED_CHARS]) if old is not None else None
    return f"{hint}; " if hint else ""


def _listing(label: str, texts: list, normal: list, wanted: str) -> str:
    """"legal moves: a; b; ... (N in all); closest: 'x'" for a refusal."""
    shown = "; ".join(texts[:LISTED_TEXTS])
    if len(texts) > LISTED_TEXTS:
        shown += f"; ... ({len(texts)} in all)"
    out = f"{label}: {shown}"
    close = _closest(wanted, normal)
    if close is not None:
        out += f"; closest: {texts[close]!r}"
    return out


def _closest(wanted: str, normal: list):
    """The index of the legal text most like `wanted`, or None if none is
    CLOSE_ENOUGH. Each is compared whole and cut to the typed length, since
    people type the start of a text ("buy canvas 0" is closest to "buy canvas
    1 (The Parasol)"); the first wins a tie."""
    best, where = CLOSE_ENOUGH, None
    if not wanted:
        return None
    for i, t in enumerate(normal):
        score = max(difflib.SequenceMatcher(None, wanted, t).ratio(),
                    difflib.SequenceMatcher(None, wanted, t[:len(wanted)]).ratio())
        if score > best or (score == best and where is None):
            best, where = score, i
    return where


def mark_loaded(state, view: dict, move_number) -> None:
    """Record that `state` was loaded from the position `view` (a JSON view)
    rather than played from the initial state: its history starts there, its
    serialization carries the position, and its move number is the one the
    position gave (None, unknown, if it gave none)."""
    state._origin = copy.deepcopy(view)
    state._move_base = move_number


def split_move_number(view):
    """A JSON view may carry the position's move number as the extra key
    "move_number" (a non-negative integer); returns (view without it, the number or None)."""
    if not isinstance(view, dict) or "move_number" not in view:
        return view, None
    view = dict(view)
    move = view.pop("move_number")
    if not isinstance(move, int) or isinstance(move, bool) or move < 0:
        raise StateFormatError(f"field 'move_number': must be a non-negative integer, got {move!r}")
    return view, move


def serialize(state) -> str:
    """The game string and every step since the state's origin; a state loaded
    from a position first gives that position ("position" and its JSON view,
    with its move number when known), so every state round-trips."""
    game = state.get_game()
    lines = [_HEADER, game.spec]
    origin = state.loaded_from()
    if origin is not None:
        view = dict(origin)
        move = state.move_number()
        if move is not None:
            view["move_number"] = move - len(state.history())
        lines.append("position " + json.dumps(view, sort_keys=True, separators=(",", ":")))
    return "\n".join(lines + [str(a) for a in state.history()]) + "\n"


def deserialize(game, text: str):
    if not isinstance(text, str):
        raise StateFormatError(f"a serialized state must be text, got {type(text).__name__}")
    lines = [ln.strip() for ln in text.strip().splitlines()]
    if len(lines) < 2 or lines[0] != _HEADER:
        raise StateFormatError(f"not a serialized Easel state: first line must be {_HEADER!r}")
    if lines[1] != game.spec:
        raise StateFormatError(
            f"serialized state is for {lines[1]!r}, but this game is {game.spec!r}")
    steps = lines[2:]
    if steps and steps[0].startswith("position"):
        try:
            view = json.loads(steps[0][len("position"):])
        except ValueError as e:
            raise StateFormatError(f"line 3: the position is not valid JSON: {e}") from None
        state = game.state_from_json(view)
        steps = steps[1:]
    else:
        state = game.new_initial_state()
    for i, line in enumerate(steps, start=1):
        try:
            action = int(line)
        except ValueError:
            raise StateFormatError(f"step {i}: {line!r} is not an integer action") from None
        try:
            state.apply_action(action)
        except IllegalActionError as e:
            raise StateFormatError(f"step {i}: {e}") from None
    return state

