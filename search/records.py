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

`validate_record` replays one through the engine and checks that every step
is legal for the player recorded and that the end matches.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from easel.engine import userfiles
from easel.engine.contract_ids import PLAYER_CHANCE
from easel.engine.errors import EaselError, StateFormatError

RECORD_FORMAT = "easel-record-v1"
_REQUIRED = ("format", "game", "seats", "steps", "returns")


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
    """Yield (line number, record dict or RecordError) for each non-blank line."""
    for line_no, raw in enumerate(lines, start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            yield line_no, RecordError(f"line {line_no}: not UTF-8 text (column {e.start + 1})")
            continue
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as e:
            yield line_no, RecordError(f"line {line_no}: not JSON ({e.msg} at column {e.colno})")
            continue
        if not isinstance(record, dict):
            yield line_no, RecordError(f"line {line_no}: a record must be a JSON object")
            continue
        yield line_no, record


def read_records(path, what: str = "records file"):
    """Yield (line number, record dict or RecordError) for each non-blank line
    of the records file `path` (a RecordError naming the file if it is not
    read: not a regular file, or over its cap)."""
    return parse_records(record_lines(path, what))


def _load(spec, implementation, cache):
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
        game = _load(record["game"], implementation, cache)
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
    if not state.is_terminal():
        fail(f"the record ends after step {len(steps)} but the game is not over")
    returns = state.returns()
    recorded = record["returns"]
    if (not isinstance(recorded, list) or len(recorded) != n
            or any(abs(float(a) - float(b)) > 1e-9 for a, b in zip(returns, recorded))):
        fail(f"final returns {recorded!r} do not match the replay's {returns!r}")
    if record.get("scores") is not None:
        from .bots import player_scores
        scores = player_scores(state)
        if scores is None or any(abs(float(a) - float(b)) > 1e-9
                                 for a, b in zip(scores, record["scores"])):
            fail(f"final scores {record['scores']!r} do not match the replay's {scores!r}")
    return ReplayResult(game.spec, len(steps), decisions, returns)


def write_record(f, record: dict) -> None:
    f.write(json.dumps(record, separators=(",", ":")) + "\n")
    f.flush()
