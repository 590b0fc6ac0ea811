"""Game records: one JSON object per line, one line per game played.

A record holds everything needed to replay and audit the game:

    format       "easel-record-v1"
    game         the canonical game string
    index        the game's number in its run (0-based)
    block        the duplicate block it belongs to; block_seed: that block's seed
                 (the chance outcomes of every game in the block come from it)
    rotation     which seat rotation of the block this game is
    seats        one entry per seat: {"seat", "bot" (index in the run), "spec", "seed"}
    steps        every step in order: [player, action]; player -1 is chance
    returns      final returns, one per player
    scores       final scores (points), or null for games without scores
    decisions    number of player decisions; think: seconds of thought per seat
    date         the UTC day the game ended, "YYYY-MM-DD"
    end          "normal" (or absent): played to the game's end; anything else
                 ("forfeit", "resigned", ...) names why it stopped before its end

`validate_record` replays one through the engine and checks that every step
is legal for the player recorded and that the end matches.

The same records are written as text a player reads, Easel Game Notation
(search/egn.py, docs/records.md); search/recordfiles.py reads and writes
either form by the file's extension.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass

from easel.engine import userfiles
from easel.engine.contract_ids import PLAYER_CHANCE
from easel.engine.errors import EaselError, StateFormatError

RECORD_FORMAT = "easel-record-v1"
_REQUIRED = ("format", "game", "seats", "steps", "returns")
# A records file is read only if it is a regular file of at most this size:
# a name can point anywhere (a FIFO would block for good, /dev/zero never ends).


class RecordError(StateFormatError):
    """A game record that is malformed or does not replay as recorded."""


@dataclass
class ReplayResult:
    game: str
    steps: int
    decisions: int
    returns: list


def record_lines(path, what: str = "records file"):
    """The lines (bytes) of a records file a user named: a regular file
    within RECORD_FILES (engine/userfiles.py), else a RecordError naming it."""
    return userfiles.read_lines(path, what, userfiles.RECORD_FILES, RecordError)


def parse_records(lines):
    """Yield (line number, record dict or RecordError) for each non-blank line
    of JSON lines. A last line without its newline that is not JSON is the
    record a run was writing when it stopped: its RecordError has `cut` set."""
    lines = iter(lines)
    line = next(lines, None)
    line_no = 0
    while line is not None:
        line_no += 1
        following = next(lines, None)
        cut = following is None and not line.endswith(b"\n")
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as e:
            yield line_no, _error(f"line {line_no}: not UTF-8 text (column {e.start + 1})", cut)
            line = following
            continue
        if text.strip():
            try:
                record = json.loads(text)
            except json.JSONDecodeError as e:
                yield line_no, _error(f"line {line_no}: not JSON ({e.msg} at column {e.colno})",
                                      cut)
            except RecursionError:
                yield line_no, _error(f"line {line_no}: not JSON that can be read (nested "
                                      f"deeper than the decoder goes)", cut)
            else:
                if isinstance(record, dict):
                    yield line_no, record
                else:
                    yield line_no, RecordError(f"line {line_no}: a record must be a JSON object")
        line = following


def _error(text: str, cut: bool) -> RecordError:
    e = RecordError(text)
    e.cut = cut
    return e


def read_records(path, what: str = "records file"):
    """Yield (line number, record dict or RecordError) for each non-blank line
    of a JSON-lines records file (a RecordError naming the file if it is not
    read). search/recordfiles.py reads either form."""
    return parse_records(record_lines(path, what))


def today() -> str:
    """The UTC day, as a record's "date" gives it."""
    return time.strftime("%Y-%m-%d", time.gmtime())


def load_game(spec, implementation, cache):
    """The game of a game string, loaded once per (spec, implementation) in `cache`."""
    key = (spec, implementation)
    if key not in cache:
        from easel import engine
        cache[key] = engine.load_game(spec, implementation)
    return cache[key]


def validate_record(record: dict, line_no: int | None = None, implementation: str = "core",
                    cache: dict | None = None, visit=None) -> ReplayResult:
    """Replay a record; raise RecordError naming the line and step on any mismatch.
    `visit(state, player)`, if given, sees each state before its step is
    applied (after the step is checked), so a reader of positions replays once."""
    where = f"line {line_no}" if line_no is not None else "record"
    cache = {} if cache is None else cache

    def fail(text):
        raise RecordError(f"{where}: {text}")

    missing = [k for k in _REQUIRED if k not in record]
    if missing:
        fail(f"missing field(s) {', '.join(missing)}")
    if record["format"] != RECORD_FORMAT:
        fail(f"unknown record format {record['format']!r} (expected {RECORD_FORMAT!r})")
    try:
        game = load_game(record["game"], implementation, cache)
    except EaselError as e:
        fail(f"game {record['game']!r}: {e}")
    n = game.num_players()
    seats = record["seats"]
    if not isinstance(seats, list) or len(seats) != n:
        fail(f"{n} seats expected for {game.spec}, the record has "
             f"{len(seats) if isinstance(seats, list) else seats!r}")
    steps = record["steps"]
    if not isinstance(steps, list):
        fail("steps must be a list of [player, action]")
    end = record.get("end", "normal")
    if not isinstance(end, str):
        fail(f"end must be a string (\"normal\", or why the game stopped), got {end!r}")
    stopped = end != "normal"
    state = game.new_initial_state()
    decisions = 0
    for i, step in enumerate(steps, start=1):
        if (not isinstance(step, list) or len(step) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in step)):
            fail(f"step {i}: {step!r} is not [player, action]")
        player, action = step
        if state.is_terminal():
            fail(f"step {i}: the game is already over, yet the record goes on "
                 f"({len(steps) - i + 1} more step(s))")
        actual = state.current_player()
        if actual != player:
            who = "chance" if actual == PLAYER_CHANCE else f"player {actual}"
            fail(f"step {i}: recorded for player {player}, but {who} is to move")
        if not state.is_legal(action):
            if player == PLAYER_CHANCE:
                possible = [o for o, _ in state.chance_outcomes()]
                fail(f"step {i}: chance outcome {action} is not possible here; "
                     f"possible: {possible}")
            fail(f"step {i}: action {action} is illegal for player {player}; "
                 f"legal: {state.legal_actions()}")
        if player >= 0:
            decisions += 1
        if visit is not None:
            visit(state, player)
        state.apply_action(action)
    recorded = record["returns"]
    if stopped:
        # Stopped before its end (a forfeit, a resignation): the returns were
        # given by the stop, not the rules; they are checked for shape alone.
        if state.is_terminal():
            fail(f"the record says the game stopped before its end (end {end!r}), "
                 f"but its {len(steps)} steps reach the end")
        returns = recorded
        if (not isinstance(recorded, list) or len(recorded) != n
                or not all(_number(x) for x in recorded)):
            fail(f"returns {recorded!r} must be {n} numbers")
    else:
        if not state.is_terminal():
            fail(f"the record ends after step {len(steps)} but the game is not over")
        returns = state.returns()
        if (not isinstance(recorded, list) or len(recorded) != n
                or not all(_number(x) for x in recorded)
                or any(abs(float(a) - float(b)) > 1e-9 for a, b in zip(returns, recorded))):
            fail(f"final returns {recorded!r} do not match the replay's {returns!r}")
    if record.get("scores") is not None:
        from .bots import player_scores
        scores = player_scores(state)
        given = record["scores"]
        if (scores is None or not isinstance(given, list) or len(given) != len(scores)
                or not all(_number(x) for x in given)
                or any(abs(float(a) - float(b)) > 1e-9 for a, b in zip(scores, given))):
            fail(f"final scores {given!r} do not match the replay's {scores!r}")
    return ReplayResult(game.spec, len(steps), decisions, returns)


def _number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def write_record(f, record: dict) -> None:
    f.write(json.dumps(record, separators=(",", ":")) + "\n")
    f.flush()
