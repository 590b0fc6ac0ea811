"""Easel Game Notation (EGN): a game record as text a player reads.

In the spirit of PGN: a game is a block of `[Key "value"]` headers (the game
string, who sat where, the date, the seeds, the result), then its moves
numbered by turn, each decision by its action text and each chance outcome by
its text after a `*`, comments in braces, and a result line. Several games
follow one another, separated by a blank line. docs/records.md gives the
grammar and an example per game.

The text holds exactly what a JSON-lines record (search/records.py) holds:
`dumps` and `parse` convert one into the other and back, every field. Fields
with a header of their own are written readably; any other field, or a value
its header cannot hold (a null, a string with a line break), goes into a
header named in lowercase after the field, whose value is the field's JSON.

Reading replays the game: each text is matched against the texts of the
actions legal at that step (of the outcomes possible, for a chance outcome),
compared as `normalise` says; so a record that reads is legal step by step,
and one that does not is refused naming its line, the move, the text and the
legal texts. Writing replays too: a text that would not name its action alone
(two legal actions that read alike) is followed by the action's id, `@17`.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from easel.engine.contract_ids import PLAYER_CHANCE
from easel.engine.errors import EaselError
from easel.engine.textio import normalise_text, old_form_hint

from .records import RECORD_FORMAT, RecordError, load_game

FORMAT = "EGN 1"             # the Format header: the notation and its version
EXTENSION = ".egn"
# Limits on what a reader accepts (docs/records.md, "Limits"): a turn of the
# longest game is a few kilobytes of text.
MAX_LINE_CHARS = 64 * 1024
MAX_HEADERS = 256            # headers of one game
MAX_GAMES = 1_000_000        # games in one file
LISTED_TEXTS = 12            # legal texts a refusal lists
QUOTED_CHARS = 80            # characters of a refused text a message repeats


# How texts are compared: the normalisation every reader of action text uses.
normalise = normalise_text


# -- turns ----------------------------------------------------------------------

@dataclass(frozen=True)
class Turn:
    """One numbered line of moves: steps [start, end) of the record."""
    number: int
    player: int | None          # None: a line of chance outcomes only
    start: int
    end: int


def layout(steps, num_players: int) -> list[Turn]:
    """How the writer numbers a record's steps. A turn is a run of one
    player's decisions with the chance outcomes that follow them; chance
    outcomes before the first decision are turn 0. In a one-player game,
    where the player never changes, a decision after a chance outcome starts
    a turn as well (a draw ends what the player could plan)."""
    turns, start, player, number = [], 0, None, 0
    for i, (p, _) in enumerate(steps):
        if p < 0:
            continue
        if i == 0 or (p != player) or (num_players == 1 and steps[i - 1][0] < 0):
            if i > start or player is not None:
                turns.append(Turn(number, player, start, i))
            number, player, start = number + 1, p, i
    if len(steps) > start or player is not None:
        turns.append(Turn(number, player, start, len(steps)))
    return turns


def steps_after(turns: list[Turn], number: int) -> int:
    """The count of steps up to the end of turn `number` (0: after the
    chance outcomes before the first decision, if any; none else)."""
    for t in turns:
        if t.number == number:
            return t.end
    if number == 0:
        return 0
    have = f"{turns[0].number} to {turns[-1].number}" if turns else "none"
    raise RecordError(f"no move {number} in the record (its moves: {have})")


# -- result ---------------------------------------------------------------------

def result_token(returns) -> str:
    """PGN's result for any number of seats: each seat's share of the win
    (1, 0, or 1/k for k tied winners), joined by '-': "1-0", "1/2-1/2",
    "0-1-0". Solo: "1" if the goal was reached (returns >= 0), else "0".
    "*" when the record has no returns (a game in progress)."""
    if (not isinstance(returns, list) or not returns
            or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in returns)):
        return "*"
    from .stats import seat_outcomes
    parts = []
    for share, _, _ in seat_outcomes(returns):
        parts.append("0" if share == 0 else "1" if share == 1 else f"1/{round(1 / share)}")
    return "-".join(parts)


_RESULT = re.compile(r"\*|[01](?:/\d{1,2})?(?:-[01](?:/\d{1,2})?)*")


# -- header values ----------------------------------------------------------------

def _floats(v):
    return isinstance(v, list) and all(type(x) is float for x in v)


def _ints(v):
    return isinstance(v, list) and all(type(x) is int for x in v)


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _plain(v):
    return isinstance(v, str) and not _CONTROL.search(v)


# type name -> (fits: value -> bool, write: value -> text, read: text -> value)
_NUMBER = r"[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|inf|nan)"


def _read_int(text):
    if not re.fullmatch(r"-?\d{1,40}", text):
        raise ValueError("an integer")
    return int(text)


def _read_float(text):
    if not re.fullmatch(_NUMBER, text.strip()):
        raise ValueError("a number")
    return float(text)


def _read_list(item):
    def read(text):
        return [item(x) for x in text.split()]
    return read


_TYPES = {
    "text": (_plain, str, str),
    "int": (lambda v: type(v) is int, str, _read_int),
    "float": (lambda v: type(v) is float, repr, _read_float),
    "floats": (_floats, lambda v: " ".join(map(repr, v)), _read_list(_read_float)),
    "ints": (_ints, lambda v: " ".join(map(str, v)), _read_list(_read_int)),
}

# Record fields with a header of their own: (field, header, type), in the
# order the writer puts them (the seats, Result and the fault go where marked).
_FIELDS = [
    ("event", "Event", "text"), ("round", "Round", "text"), ("game", "Game", "text"),
    ("date", "Date", "text"), ("match_id", "Match", "text"),
    "SEATS", "RESULT",
    ("index", "Index", "int"), ("block", "Block", "int"), ("block_seed", "BlockSeed", "int"),
    ("rotation", "Rotation", "int"), ("chance", "Chance", "text"),
    ("returns", "Returns", "floats"), ("scores", "Scores", "floats"),
    ("places", "Places", "ints"), ("end", "End", "text"), "FAULT",
    ("decisions", "Decisions", "int"), ("seat_decisions", "SeatDecisions", "ints"),
    ("think", "Think", "floats"), ("seconds", "Seconds", "float"),
    ("created_at", "CreatedAt", "float"),
]
_BY_HEADER = {f[1]: f for f in _FIELDS if isinstance(f, tuple)}
_BY_FIELD = {f[0]: f for f in _FIELDS if isinstance(f, tuple)}
# A seat's fields: the header's suffix after "Seat0". A seat's "bot" is the
# arena's bot number (an int) or the tournament's bot name (a string).
_SEAT_FIELDS = [("spec", "", "text"), ("bot", "Bot", "int"), ("bot", "Name", "text"),
                ("seed", "Seed", "int"), ("kind", "Kind", "text"), ("plays", "Plays", "text")]
_SEAT_ORDER = ["seat", "bot", "spec", "seed", "kind", "plays"]
_FAULT_FIELDS = [("seat", "Seat", "int"), ("bot", "Bot", "text"), ("reason", "Reason", "text"),
                 ("detail", "Detail", "text"), ("step", "Step", "int")]
# Fields the notation holds in its own way, never as a JSON header.
_OWN = {"format", "steps", "comments"}

_HEADER = re.compile(r'\[([A-Za-z][A-Za-z0-9_.]{0,63})[ \t]+"((?:[^"\\]|\\["\\])*)"\]')
_JSON_NAME = re.compile(r"[a-z][a-z0-9_]{0,63}")
_SEAT_HEADER = re.compile(r"Seat(\d{1,2})(Bot|Name|Seed|Kind|Plays|)")
_SEAT_JSON = re.compile(r"seat(\d{1,2})\.([a-z][a-z0-9_]{0,63})")
_FAULT_HEADER = re.compile(r"Fault(Seat|Bot|Reason|Detail|Step)")


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _unescape(text: str) -> str:
    return re.sub(r'\\(["\\])', r"\1", text)


def _header(name: str, value: str) -> str:
    return f'[{name} "{_escape(value)}"]'


def _json_header(name: str, value) -> str:
    return _header(name, json.dumps(value, separators=(",", ":"), ensure_ascii=False))


def _typed(name: str, kind: str, value):
    """The header for a value that fits its type, else None."""
    fits, write, _ = _TYPES[kind]
    return _header(name, write(value)) if fits(value) else None


def _headers(record: dict) -> list[str]:
    out = [_header("Format", FORMAT)]
    for entry in _FIELDS:
        if entry == "SEATS":
            out += _seat_headers(record)
        elif entry == "RESULT":
            out.append(_header("Result", result_token(record.get("returns"))))
        elif entry == "FAULT":
            if "fault" in record:
                out += _fault_headers(record["fault"])
        elif entry[0] in record:
            key, name, kind = entry
            out.append(_typed(name, kind, record[key]) or _json_header(key, record[key]))
    for key, value in record.items():
        if key in _BY_FIELD or key in _OWN or key in ("seats", "fault"):
            continue
        if not _JSON_NAME.fullmatch(key):
            raise RecordError(f"field {key[:40]!r} cannot be written as a header: a field "
                              f"name is lowercase letters, digits and '_', at most 64")
        out.append(_json_header(key, value))
    return out


def _seat_headers(record: dict) -> list[str]:
    if "seats" not in record:
        return []
    seats = record["seats"]
    if not (isinstance(seats, list) and seats and all(
            isinstance(s, dict) and s.get("seat") == i and type(s.get("seat")) is int
            for i, s in enumerate(seats))) or len(seats) > 99:
        return [_json_header("seats", seats)]
    out = []
    for i, seat in enumerate(seats):
        lines, done = [], {"seat"}
        for key, suffix, kind in _SEAT_FIELDS:
            if key in seat and key not in done:
                line = _typed(f"Seat{i}{suffix}", kind, seat[key])
                if line is not None:
                    lines.append(line)
                    done.add(key)
        for key, value in seat.items():
            if key not in done:
                if not _JSON_NAME.fullmatch(key):
                    raise RecordError(f"seat {i}: field {key[:40]!r} cannot be written as a "
                                      f"header (lowercase letters, digits and '_')")
                lines.append(_json_header(f"seat{i}.{key}", value))
        if not lines:               # a seat with nothing but its number
            lines.append(_json_header(f"seat{i}.seat", i))
        out += lines
    return out


def _fault_headers(fault) -> list[str]:
    kinds = {key: kind for key, _, kind in _FAULT_FIELDS}
    if (isinstance(fault, dict) and fault and all(k in kinds for k in fault)
            and all(_TYPES[kinds[k]][0](v) for k, v in fault.items())):
        return [_typed(f"Fault{suffix}", kind, fault[key])
                for key, suffix, kind in _FAULT_FIELDS if key in fault]
    return [_json_header("fault", fault)]


# -- writing ------------------------------------------------------------------------

def _legal_texts(state):
    """(ids, texts) of the actions legal here, or of the outcomes possible."""
    ids = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
           else state.legal_actions())
    view = state.to_json()
    codec = state.get_game().codec
    return ids, [codec.action_to_string(view, a) for a in ids]


def _bare_ok(text: str) -> bool:
    """Whether a text may be written as it is: it reads back as itself."""
    try:
        segments = _segments(text, 0)
        if len(segments) != 1 or [k for k, _ in segments[0]] != ["text"]:
            return False
        return _item(segments[0][0][1], 0) == (False, text, None)
    except RecordError:
        return False


def _step_text(text: str, chance: bool, action: int, unique: bool) -> str:
    written = text if _bare_ok(text) else json.dumps(text, ensure_ascii=False)
    return ("*" if chance else "") + written + ("" if unique else f" @{action}")


def _movetext(record: dict, game, state) -> list[str]:
    steps = record["steps"]
    comments: dict[int, list[str]] = {}
    for k, text in _comments(record):
        comments.setdefault(k, []).append(text)
    items = []                  # the written step i
    for i, step in enumerate(steps, start=1):
        where = f"step {i}"
        if (not isinstance(step, list) or len(step) != 2
                or not all(type(x) is int for x in step)):
            raise RecordError(f"{where}: {step!r} is not [player, action]")
        player, action = step
        if state.is_terminal():
            raise RecordError(f"{where}: the game is already over, yet the record goes on")
        actual = state.current_player()
        if actual != player:
            who = "chance" if actual == PLAYER_CHANCE else f"player {actual}"
            raise RecordError(f"{where}: recorded for player {player}, but {who} is to move")
        ids, texts = _legal_texts(state)
        if action not in ids:
            raise RecordError(f"{where}: {action} is not "
                              f"{'a possible outcome' if player < 0 else 'a legal action'} here")
        text = texts[ids.index(action)]
        wanted = normalise(text)
        unique = sum(1 for t in texts if normalise(t) == wanted) == 1
        written = _step_text(text, player < 0, action, unique)
        for c in comments.get(i, ()):
            written += " {" + c + "}"
        items.append(written)
        state.apply_action(action)
    lines = ["{" + c + "}" for c in comments.get(0, ())]
    for t in layout(steps, game.num_players()):
        head = f"{t.number}. " + ("" if t.player is None else f"P{t.player}: ")
        lines.append(head + "; ".join(items[t.start:t.end]))
    return lines


def _comments(record: dict) -> list:
    comments = record.get("comments", [])
    n = len(record["steps"])
    if not isinstance(comments, list):
        raise RecordError("comments must be a list of [steps before it, text]")
    for c in comments:
        if (not isinstance(c, list) or len(c) != 2 or type(c[0]) is not int
                or not 0 <= c[0] <= n or not isinstance(c[1], str)):
            raise RecordError(f"comment {c!r} is not [steps before it (0 to {n}), text]")
        if "}" in c[1] or _CONTROL.search(c[1]):
            raise RecordError(f"comment {c[1][:QUOTED_CHARS]!r} holds a '}}' or a line break, "
                              f"which a comment in braces cannot")
    return comments


def dumps(record: dict, implementation: str = "core", cache: dict | None = None,
          game=None) -> str:
    """One record as EGN text, ending with its result line and a newline.
    The record's steps are replayed to find their texts: a step that is not
    legal is a RecordError naming it. `game`: the record's game, loaded
    already (else it is loaded from the record's game string)."""
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    if record.get("format") != RECORD_FORMAT:
        raise RecordError(f"unknown record format {record.get('format')!r} "
                          f"(expected {RECORD_FORMAT!r})")
    if not isinstance(record.get("game"), str) or not isinstance(record.get("steps"), list):
        raise RecordError("a record needs its game string (game) and its steps")
    if game is None:
        try:
            game = load_game(record["game"], implementation, {} if cache is None else cache)
        except EaselError as e:
            raise RecordError(f"game {record['game']!r}: {e}") from None
    lines = _headers(record)
    lines.append("")
    lines += _movetext(record, game, game.new_initial_state())
    lines.append(result_token(record.get("returns")))
    return "\n".join(lines) + "\n"


# -- reading ------------------------------------------------------------------------

@dataclass
class ParsedGame:
    """A game read from EGN: its record, its first line and its numbered turns."""
    record: dict
    line: int
    turns: list[Turn] = field(default_factory=list)


def _segments(body: str, line_no: int) -> list[list]:
    """A turn line's body split at ';' (outside quotes and braces) into
    segments, each a list of ("text", s) and ("comment", s) pieces in order."""
    segments, pieces, buf = [], [], []
    i, n = 0, len(body)

    def flush():
        if buf:
            text = "".join(buf)
            if text.strip():
                pieces.append(("text", text.strip()))
            buf.clear()
    while i < n:
        c = body[i]
        if c == '"':
            j = i + 1
            while j < n and body[j] != '"':
                j += 2 if body[j] == "\\" else 1
            if j >= n:
                raise RecordError(f"line {line_no}: a quote that does not end")
            buf.append(body[i:j + 1])
            i = j + 1
        elif c == "{":
            j = body.find("}", i + 1)
            if j < 0:
                raise RecordError(f"line {line_no}: a comment ({{...}}) that does not end")
            flush()
            pieces.append(("comment", body[i + 1:j]))
            i = j + 1
        elif c == "}":
            raise RecordError(f"line {line_no}: a '}}' that ends no comment")
        elif c == ";":
            flush()
            segments.append(pieces)
            pieces = []
            i += 1
        else:
            buf.append(c)
            i += 1
    flush()
    segments.append(pieces)
    return segments


_ID = re.compile(r"(.*?)\s+@(\d{1,9})")


def _item(text: str, line_no: int):
    """(chance, action text, id or None) of one written step."""
    chance = text.startswith("*")
    if chance:
        text = text[1:].lstrip()
    action = None
    if text.startswith('"'):
        try:
            value, end = json.JSONDecoder().raw_decode(text)
        except json.JSONDecodeError as e:
            raise RecordError(f"line {line_no}: a quoted text that is not a JSON string "
                              f"({e.msg})") from None
        rest = text[end:].strip()
        if not isinstance(value, str) or (rest and not re.fullmatch(r"@\d{1,9}", rest)):
            raise RecordError(f"line {line_no}: after a quoted text only an id (@17) may "
                              f"follow, not {rest[:QUOTED_CHARS]!r}")
        text, action = value, (int(rest[1:]) if rest else None)
    else:
        m = _ID.fullmatch(text)
        if m:
            text, action = m.group(1), int(m.group(2))
    return chance, text, action


def _quote(text: str) -> str:
    return repr(text[:QUOTED_CHARS]) + ("..." if len(text) > QUOTED_CHARS else "")


def _listing(texts) -> str:
    shown = "; ".join(texts[:LISTED_TEXTS])
    return shown + (f"; ... ({len(texts)} in all)" if len(texts) > LISTED_TEXTS else "")


class _Reader:
    """Reads one game's lines as they come; replays its moves."""

    def __init__(self, line_no: int, implementation: str, cache: dict):
        self.first = line_no
        self.implementation, self.cache = implementation, cache
        self.headers: dict[str, tuple] = {}     # header name -> (value, line)
        self.game = self.state = None
        self.steps, self.comments, self.turns = [], [], []
        self.result = None

    def header(self, name: str, value: str, line_no: int):
        if self.state is not None:
            raise RecordError(f"line {line_no}: a header among the moves; a game's headers "
                              f"come first, and a game ends with its result line")
        if name in self.headers:
            raise RecordError(f"line {line_no}: header {name} given twice (first on line "
                              f"{self.headers[name][1]})")
        if len(self.headers) >= MAX_HEADERS:
            raise RecordError(f"line {line_no}: more than {MAX_HEADERS} headers in one game "
                              f"(search.egn.MAX_HEADERS)")
        self.headers[name] = (value, line_no)

    def start_moves(self, line_no: int):
        if self.state is not None:
            return
        fmt = self.headers.get("Format")
        if fmt is None:
            raise RecordError(f"line {self.first}: the game has no [Format \"{FORMAT}\"] header")
        if fmt[0] != FORMAT:
            raise RecordError(f"line {fmt[1]}: Format {fmt[0][:40]!r}: this reader knows "
                              f"{FORMAT!r}")
        spec = self.headers.get("Game")
        if spec is None:
            raise RecordError(f"line {self.first}: the game has no [Game \"...\"] header "
                              f"(its game string)")
        try:
            self.game = load_game(spec[0], self.implementation, self.cache)
        except EaselError as e:
            raise RecordError(f"line {spec[1]}: game {spec[0][:QUOTED_CHARS]!r}: {e}") from None
        self.state = self.game.new_initial_state()

    def comment(self, text: str):
        self.comments.append([len(self.steps), text])

    def turn(self, number: int, player: int | None, body: str, line_no: int):
        self.start_moves(line_no)
        expected = (self.turns[-1].number + 1) if self.turns else None
        if expected is None and number not in (0, 1):
            raise RecordError(f"line {line_no}: the first move is numbered 0 (chance before "
                              f"the first decision) or 1, not {number}")
        if expected is not None and number != expected:
            raise RecordError(f"line {line_no}: move {number} where move {expected} was due")
        start = len(self.steps)
        for segment in _segments(body, line_no):
            texts = [p for p in segment if p[0] == "text"]
            if len(texts) != 1:
                raise RecordError(
                    f"line {line_no}: move {number}: " +
                    ("an empty step (two ';' in a row, or one at the end)" if not texts else
                     f"{_quote(texts[1][1])} follows another text inside one step "
                     f"(a comment within a step, or a ';' missing)"))
            for kind, text in segment:
                if kind == "comment":
                    self.comment(text)
                else:
                    self.step(number, player, text, line_no)
        self.turns.append(Turn(number, player, start, len(self.steps)))

    def step(self, number: int, player: int | None, written: str, line_no: int):
        chance, text, action = _item(written, line_no)
        state, spec = self.state, self.game.spec
        where = f"line {line_no}: move {number}"
        if state.is_terminal():
            raise RecordError(f"{where}: {_quote(written)}: the game ({spec}) is over after "
                              f"{len(self.steps)} steps, yet the record goes on")
        actual = state.current_player()
        if chance and actual != PLAYER_CHANCE:
            raise RecordError(f"{where}: {_quote(written)} is marked a chance outcome (*), "
                              f"but player {actual} is to move ({spec})")
        if not chance and actual == PLAYER_CHANCE:
            raise RecordError(f"{where}: {_quote(written)}: chance is to act here ({spec}); "
                              f"write a chance outcome with a '*' before its text")
        if not chance and player is None:
            raise RecordError(f"{where}: {_quote(written)} is a decision, but the line names "
                              f"no player (write '{number}. P{actual}: ...')")
        if not chance and actual != player:
            raise RecordError(f"{where}: {_quote(written)}: the line is player {player}'s, "
                              f"but player {actual} is to move ({spec})")
        ids, texts = _legal_texts(state)
        wanted = normalise(text)
        what = "possible outcome" if chance else "legal move"
        if action is not None:
            if action not in ids:
                raise RecordError(f"{where}: @{action} is not a {what} here ({spec}); "
                                  f"{what}s: {_listing(texts)}")
            if normalise(texts[ids.index(action)]) != wanted:
                raise RecordError(f"{where}: {_quote(text)} is not the text of @{action}, "
                                  f"which reads {texts[ids.index(action)]!r} ({spec})")
        else:
            hits = [i for i, t in enumerate(texts) if normalise(t) == wanted]
            if not hits:
                raise RecordError(f"{where}: {_quote(text)} is not a {what} here ({spec}, "
                                  f"{'chance' if chance else f'player {actual}'} to act); "
                                  + old_form_hint(self.game, state.to_json(), text)
                                  + f"{what}s: {_listing(texts)}")
            if len(hits) > 1:
                raise RecordError(f"{where}: {_quote(text)} reads as {len(hits)} {what}s here "
                                  f"({spec}): add the id, one of " +
                                  ", ".join(f"@{ids[i]}" for i in hits[:LISTED_TEXTS]))
            action = ids[hits[0]]
        state.apply_action(action)
        self.steps.append([actual, action])

    def finish(self, token: str, line_no: int) -> ParsedGame:
        self.start_moves(line_no)
        record = {"format": RECORD_FORMAT}
        fields: dict[str, tuple] = {}          # field -> (value, line)

        def put(key, value, line, target=fields):
            if key in target:
                raise RecordError(f"line {line}: field {key!r} given twice (also on line "
                                  f"{target[key][1]})")
            target[key] = (value, line)
        seats: dict[int, dict] = {}
        fault: dict[str, tuple] = {}
        result = None
        for name, (text, line) in self.headers.items():
            try:
                if name in ("Format",):
                    continue
                if name == "Result":
                    result = (text, line)
                elif name in _BY_HEADER:
                    key, _, kind = _BY_HEADER[name]
                    put(key, _TYPES[kind][2](text), line)
                elif _SEAT_HEADER.fullmatch(name):
                    m = _SEAT_HEADER.fullmatch(name)
                    key, _, kind = next(f for f in _SEAT_FIELDS if f[1] == m.group(2))
                    put(key, _TYPES[kind][2](text), line, seats.setdefault(int(m.group(1)), {}))
                elif _SEAT_JSON.fullmatch(name):
                    m = _SEAT_JSON.fullmatch(name)
                    put(m.group(2), json.loads(text), line,
                        seats.setdefault(int(m.group(1)), {}))
                elif _FAULT_HEADER.fullmatch(name):
                    key, _, kind = next(f for f in _FAULT_FIELDS
                                        if f[1] == _FAULT_HEADER.fullmatch(name).group(1))
                    put(key, _TYPES[kind][2](text), line, fault)
                elif _JSON_NAME.fullmatch(name) and name not in _OWN:
                    put(name, json.loads(text), line)
                else:
                    raise RecordError(f"line {line}: unknown header {name}; a field of your "
                                      f"own goes in a lowercase header holding its JSON")
            except RecordError:
                raise
            except (ValueError, RecursionError) as e:   # a value that does not read (JSON
                # included; RecursionError: JSON nested deeper than the decoder goes)
                what = str(e) if str(e) in ("an integer", "a number") else "JSON"
                raise RecordError(f"line {line}: header {name}: {text[:QUOTED_CHARS]!r} is "
                                  f"not {what}") from None
        if seats:
            if "seats" in fields:
                raise RecordError(f"line {fields['seats'][1]}: the seats given both as "
                                  f"[seats ...] and as Seat headers")
            if sorted(seats) != list(range(len(seats))):
                missing = min(set(range(len(seats))) - set(seats))
                raise RecordError(f"line {self.first}: the Seat headers skip seat {missing}")
            out = []
            for i in range(len(seats)):
                seat = {"seat": i}
                given = {k: v for k, (v, _) in seats[i].items()}
                for key in _SEAT_ORDER:
                    if key in given:
                        seat[key] = given.pop(key)
                seat.update(given)
                out.append(seat)
            fields["seats"] = (out, self.first)
        if fault:
            if "fault" in fields:
                raise RecordError(f"line {fields['fault'][1]}: the fault given both as "
                                  f"[fault ...] and as Fault headers")
            fields["fault"] = ({key: fault[key][0] for key, _, _ in _FAULT_FIELDS
                                if key in fault}, min(line for _, line in fault.values()))
        for entry in _FIELDS:           # the writer's order, then any other field
            key = "seats" if entry == "SEATS" else "fault" if entry == "FAULT" else \
                entry[0] if isinstance(entry, tuple) else None
            if key == "returns":
                record["steps"] = self.steps
            if key in fields:
                record[key] = fields.pop(key)[0]
        record.setdefault("steps", self.steps)
        for key, (value, _) in fields.items():
            record[key] = value
        if self.comments:
            record["comments"] = self.comments
        derived = result_token(record.get("returns"))
        for given, line in ((token, line_no),) + ((result,) if result else ()):
            if given != derived:
                raise RecordError(f"line {line}: result {given[:20]!r} does not agree with "
                                  f"the returns, which give {derived!r}")
        return ParsedGame(record, self.first, self.turns)


_TURN = re.compile(r"(\d{1,9})\.(?:[ \t]+P(\d{1,2}):)?[ \t]*(.*)")


def parse(lines, implementation: str = "core", cache: dict | None = None):
    """Yield (line number, ParsedGame or RecordError) for each game of EGN
    text, given as lines (str or bytes, newline kept). A game that fails is
    reported at its first line and skipped to the next game (a line starting
    with '[' after a blank line). A last game cut short (the file ends before
    its result line, or inside a line) gives a RecordError with `cut` set:
    what a run killed while writing leaves behind."""
    cache = {} if cache is None else cache
    reader, pending, games, line_no = None, None, 0, 0
    blank, newline = True, True
    for line_no, raw in enumerate(lines, start=1):
        problem, text = None, ""
        if isinstance(raw, bytes):
            try:
                raw = raw.decode("utf-8")
            except UnicodeDecodeError as e:
                problem = f"line {line_no}: not UTF-8 text (byte {e.start + 1} of the line)"
                raw = ""
        newline = raw.endswith("\n")
        if problem is None:
            text = raw.rstrip("\r\n").lstrip("\ufeff" if line_no == 1 else "")
            if len(text) > MAX_LINE_CHARS:
                problem = (f"line {line_no}: {len(text):,} characters, over the "
                           f"{MAX_LINE_CHARS:,}-character cap on a line "
                           f"(search.egn.MAX_LINE_CHARS)")
            text = text.strip()
        was_blank, blank = blank, problem is None and not text
        if pending is not None:
            # after a failure, skip to the next game: a header after a blank line
            if problem is not None or not (was_blank and text.startswith("[")):
                continue
            yield pending
            pending = None
        try:
            if problem is not None:
                raise RecordError(problem)
            if not text:
                continue
            if reader is None:
                if not text.startswith("["):
                    raise RecordError(f"line {line_no}: a game starts with its headers "
                                      f"([Format \"{FORMAT}\"], [Game \"...\"], ...)")
                games += 1
                if games > MAX_GAMES:
                    yield line_no, RecordError(f"line {line_no}: more than {MAX_GAMES:,} games "
                                               f"in one file (search.egn.MAX_GAMES)")
                    return
                reader = _Reader(line_no, implementation, cache)
            if text.startswith("["):
                m = _HEADER.fullmatch(text)
                if not m:
                    raise RecordError(f"line {line_no}: not a header; a header reads "
                                      f"[Name \"value\"] (with \\\" and \\\\ inside the value)")
                reader.header(m.group(1), _unescape(m.group(2)), line_no)
            elif text.startswith("{"):
                segments = _segments(text, line_no)
                if len(segments) != 1 or any(k != "comment" for k, _ in segments[0]):
                    raise RecordError(f"line {line_no}: a line starting with '{{' holds "
                                      f"comments only")
                reader.start_moves(line_no)
                for _, c in segments[0]:
                    reader.comment(c)
            elif _RESULT.fullmatch(text):
                game = reader.finish(text, line_no)
                reader = None
                yield game.line, game
            else:
                m = _TURN.fullmatch(text)
                if not m:
                    raise RecordError(f"line {line_no}: expected a move ('12. P0: text; "
                                      f"text'), a comment in braces or the result line")
                reader.turn(int(m.group(1)), None if m.group(2) is None else int(m.group(2)),
                            m.group(3), line_no)
        except RecordError as e:
            pending = (reader.first if reader is not None else line_no, e)
            reader = None
    if reader is not None:
        pending = (reader.first, RecordError(
            f"line {line_no}: the file ends inside the game that starts on line "
            f"{reader.first}, before its result line"))
        pending[1].cut = True
    if pending is not None:
        if not newline:
            pending[1].cut = True
        yield pending


def loads(text: str, implementation: str = "core") -> list[dict]:
    """The records of EGN text; the first problem is a RecordError."""
    out = []
    for _, game in parse(text.splitlines(keepends=True), implementation):
        if isinstance(game, RecordError):
            raise game
        out.append(game.record)
    return out
