"""The tournament journal: an append-only JSON-lines file, the run's only state.

Line 1 is the header: {"type": "header", "format": JOURNAL_FORMAT,
"fingerprint", "config", "levels", "searches"}; "levels" holds the mcts spec
each level bot stood for when the run began (game -> bot -> spec), since
`level(N)` names a row of search/levels.py that a later build may change;
"searches" the options each search bot (mcts or level) played with, the
game's defaults filled in (game -> bot -> options, specs.search_plays), since
a game's default may change too. Every
further line is one event:

    block         a finished block: id, game, field, block, seed, games (records)
    game          a game of a block still in play: id (the block's), record; the
                  block's next run keeps it rather than play it again (a stop
                  mid-block loses only the games in play); once the block is
                  journaled whole, its games are read from the block
    worker_died   a block's worker died, hung past block_seconds or failed outside
                  the bots: id, attempt, detail (the block is run again)
    block_failed  a block given up after its retries: id, attempts, detail
    quarantine    a bot whose further blocks are skipped: bot, forfeits

Each line is written with one write() on a file opened for appending, and
fsynced before the run goes on (the blocks that arrive together share one
fsync): after a crash the file holds every event
up to the last whole line. A torn last line (the crash came mid-write) has no
newline or is not JSON; opening the journal cuts it off. Block ids are
idempotent: a block journaled twice (a rerun whose first result arrived
after all) counts once, its first copy. Results and reports are computed
from the journal alone, so a resumed run ends where an uninterrupted one
would.
"""
from __future__ import annotations

import json
import os

from easel.engine import userfiles
from easel.engine.errors import EaselError

JOURNAL_FORMAT = "easel-tournament-journal-v1"
JOURNAL_NAME = "journal.jsonl"


class JournalError(EaselError, ValueError):
    """A journal that cannot be read or does not belong to this tournament."""


def _dumps(entry: dict) -> bytes:
    return (json.dumps(entry, separators=(",", ":"), sort_keys=False) + "\n").encode()


class Journal:
    def __init__(self, path, header: dict, events: list, cut: int = 0):
        self.path = str(path)
        self.header = header
        self.events = events          # every event after the header, in file order
        self.cut = cut                # bytes of a torn last line removed on opening
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)

    @classmethod
    def create(cls, path, config: dict, fingerprint: str,
               levels: dict | None = None, searches: dict | None = None) -> "Journal":
        if os.path.exists(path):
            raise JournalError(f"{path} exists already: resume it, or choose another output "
                               "directory")
        header = {"type": "header", "format": JOURNAL_FORMAT, "fingerprint": fingerprint,
                  "config": config}
        if levels:
            header["levels"] = levels
        if searches:
            header["searches"] = searches
        tmp = f"{path}.tmp"
        with open(tmp, "wb") as f:
            f.write(_dumps(header))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        _fsync_dir(os.path.dirname(os.path.abspath(path)))
        return cls(path, header, [])

    @classmethod
    def open(cls, path) -> "Journal":
        header, events, good = read(path)
        size = os.path.getsize(path)
        if good < size:                 # a torn last line: cut it off before appending
            with open(path, "r+b") as f:
                f.truncate(good)
                f.flush()
                os.fsync(f.fileno())
        return cls(path, header, events, size - good)

    def append(self, entry: dict, sync: bool = True) -> None:
        """Append one event as one line. sync=False leaves the fsync to a later
        `sync()` (group commit of the blocks that finished together: a crash
        before it loses at most those, and they are simply played again)."""
        data = _dumps(entry)
        view = memoryview(data)
        while view:
            written = os.write(self._fd, view)
            view = view[written:]
        if sync:
            os.fsync(self._fd)
        self.events.append(entry)

    def sync(self) -> None:
        os.fsync(self._fd)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def blocks(self) -> dict:
        """id -> the first journaled copy of each finished block."""
        out = {}
        for e in self.events:
            if e.get("type") == "block" and e["id"] not in out:
                out[e["id"]] = e
        return out


def read(path):
    """(header, events, length of the whole lines) of a journal file: a
    regular file within JOURNALS (engine/userfiles.py), else a JournalError."""
    data = userfiles.read_bytes(path, "the journal", userfiles.JOURNALS, JournalError)
    events, header, pos, line_no = [], None, 0, 0
    while pos < len(data):
        end = data.find(b"\n", pos)
        if end < 0:
            break                                   # torn last line
        line_no += 1
        try:
            entry = json.loads(data[pos:end])
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            if data.find(b"\n", end + 1) < 0 and end + 1 >= len(data):
                break                               # a last line that is not JSON: torn
            raise JournalError(f"{path}: line {line_no} is not JSON ({e}); the journal is "
                               "damaged before its end") from None
        if not isinstance(entry, dict) or "type" not in entry:
            raise JournalError(f"{path}: line {line_no} is not a journal event")
        if header is None:
            if entry.get("type") != "header" or entry.get("format") != JOURNAL_FORMAT:
                raise JournalError(f"{path}: line 1 is not a {JOURNAL_FORMAT} header")
            header = entry
        else:
            events.append(entry)
        pos = end + 1
    if header is None:
        raise JournalError(f"{path}: no header; not a tournament journal")
    return header, events, pos


def _fsync_dir(path):
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
