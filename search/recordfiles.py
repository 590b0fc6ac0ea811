"""Records files in either form, told apart by the file's name.

`NAME.egn` holds Easel Game Notation, the text a player reads (search/egn.py);
`NAME.jsonl` holds one JSON record per line, the form for programs
(search/records.py). Reading another name looks at the file's first
character that is not white space: '[' (a header) is EGN, anything else JSON
lines. Writing another name writes JSON lines, as records files always were.
Both forms hold the same records: `convert` turns one into the other, field
for field (docs/records.md).
"""
from __future__ import annotations

import itertools
import os

from easel.engine.errors import EaselError

from . import egn
from .records import RecordError, load_game, parse_records, record_lines, write_record

EGN, JSONL = "egn", "jsonl"
_EXTENSIONS = {".egn": EGN, ".jsonl": JSONL}


def name_format(path) -> str | None:
    """The form a file's name gives (EGN or JSONL), or None."""
    return _EXTENSIONS.get(os.path.splitext(str(path))[1].lower())


def _sniffed(lines):
    """(form, the same lines) from the first character that is not white space."""
    lines = iter(lines)
    seen = []
    for line in lines:
        seen.append(line)
        head = line.lstrip(b"\xef\xbb\xbf \t\r\n")
        if head:
            return (EGN if head.startswith(b"[") else JSONL), itertools.chain(seen, lines)
    return JSONL, iter(seen)


def read_games(path, implementation: str = "core", cache: dict | None = None,
               what: str = "records file"):
    """Yield (line number, egn.ParsedGame or RecordError) for each game of a
    records file of either form. EGN text is replayed as it is read (every
    text must name a legal action); a JSON record is only parsed (see
    records.validate_record). A file that cannot be read at all is a
    RecordError raised on the first step of the iteration."""
    return parse_games(record_lines(path, what), name_format(path), implementation, cache)


def parse_games(lines, form: str | None = None, implementation: str = "core",
                cache: dict | None = None):
    """As `read_games`, from lines (bytes, newline kept) of the form given,
    or, if None, of the form their first character says."""
    cache = {} if cache is None else cache
    if form is None:
        form, lines = _sniffed(lines)
    if form == EGN:
        yield from egn.parse(lines, implementation, cache)
        return
    for line_no, record in parse_records(lines):
        yield line_no, (record if isinstance(record, RecordError)
                        else egn.ParsedGame(record, line_no, None))


def looks_like_records(head: bytes) -> bool:
    """Whether text starting with `head` is a records file: its first
    character that is not white space opens a header ('[') or a JSON record ('{')."""
    return head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] in (b"[", b"{")


def read_records(path, implementation: str = "core", cache: dict | None = None,
                 what: str = "records file"):
    """As `read_games`, the records alone: (line number, dict or RecordError)."""
    for line_no, game in read_games(path, implementation, cache, what):
        yield line_no, (game if isinstance(game, RecordError) else game.record)


def turns(game: egn.ParsedGame, implementation: str = "core", cache: dict | None = None):
    """A game's numbered turns: as its EGN text numbers them, or for a JSON
    record as the EGN writer would (egn.layout)."""
    if game.turns is not None:
        return game.turns
    record = game.record
    try:
        loaded = load_game(record.get("game"), implementation, {} if cache is None else cache)
    except EaselError as e:
        raise RecordError(f"line {game.line}: game {record.get('game')!r}: {e}") from None
    steps = record.get("steps")
    if not isinstance(steps, list) or not all(
            isinstance(s, list) and len(s) == 2 and type(s[0]) is int for s in steps):
        raise RecordError(f"line {game.line}: steps must be a list of [player, action]")
    return egn.layout(steps, loaded.num_players())


def steps_at(game: egn.ParsedGame, move: int | None, implementation: str = "core",
             cache: dict | None = None) -> list[int]:
    """The action ids of a game's steps up to the end of move `move` (as
    `turns` numbers them: the position after that move), or all of them."""
    steps = game.record.get("steps")
    numbered = turns(game, implementation, cache)
    end = len(steps) if move is None else egn.steps_after(numbered, move)
    return [action for _, action in steps[:end]]


class RecordWriter:
    """Writes records to `path` in the form its name gives (JSON lines
    unless it ends in .egn), each record whole and flushed as it comes, so a
    run that stops leaves every finished game. append=True goes on at the
    end of the file."""

    def __init__(self, path, append: bool = False, implementation: str = "core",
                 form: str | None = None):
        self.path = str(path)
        self.format = form or name_format(path) or JSONL
        self.implementation = implementation
        self.cache: dict = {}
        self._f = open(self.path, "a" if append else "w", encoding="utf-8")

    def text(self, record: dict) -> str:
        """The record as this file writes it (a RecordError if it cannot be)."""
        if self.format == EGN:
            return egn.dumps(record, self.implementation, self.cache) + "\n"
        return format_jsonl(record)

    def write(self, record: dict, text: str | None = None) -> None:
        """Write one record; `text`: its form as `text` gives it, made already."""
        self._f.write(self.text(record) if text is None else text)
        self._f.flush()

    def close(self) -> None:
        self._f.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def format_jsonl(record: dict) -> str:
    import io
    buf = io.StringIO()
    write_record(buf, record)
    return buf.getvalue()


def write_atomically(path, games, implementation: str = "core") -> int:
    """Write the records of `games` ((where, record) pairs: where names the
    record in an error, "line 3") to `path`, in the form its name gives,
    through a temporary file beside it that replaces it only once all are
    written: a failure leaves the old file. Returns the count written."""
    tmp = f"{path}.tmp-{os.getpid()}"
    n = 0
    try:
        with RecordWriter(tmp, implementation=implementation,
                          form=name_format(path) or JSONL) as out:
            for where, record in games:
                try:
                    out.write(record)
                except RecordError as e:
                    raise RecordError(f"{where}: {e}") from None
                n += 1
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    return n


def convert(source, target, implementation: str = "core") -> int:
    """Convert the records file `source` into `target`, the form of each by
    its name; the first game that does not read or write is a RecordError
    naming the source and its line, and `target` is then left as it was.
    Returns the count of games."""
    if os.path.abspath(str(source)) == os.path.abspath(str(target)):
        raise RecordError(f"{target}: converting a file into itself; give another name")
    cache: dict = {}

    def games():
        for line_no, record in read_records(source, implementation, cache):
            if isinstance(record, RecordError):
                raise record
            yield f"line {line_no}", record
    try:
        return write_atomically(target, games(), implementation)
    except RecordError as e:
        if str(e).startswith("line "):          # else it names the file already
            raise RecordError(f"{source}: {e}") from None
        raise
