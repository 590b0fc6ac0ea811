"""The match database: one SQLite file (the standard library's `sqlite3`), in
WAL mode, holding every match, its seats, every step and its secret seed.

Durability contract: each write below is one transaction, committed before it
returns; the callers tell no client of a step until it has returned. A
process killed at any moment (SIGKILL included) therefore loses nothing that
anyone was told: SQLite's WAL either holds a committed transaction whole or
not at all: with `synchronous="NORMAL"` (the default) a commit is in the WAL,
in the operating system's hands, when it returns. "FULL" also waits for the
disk (an fsync per step: about 7 ms on the machine the benchmarks ran on,
against 0.1 ms), so that a power cut or a kernel crash, not only a killed
server, loses nothing acknowledged either (benchmarks/bench_matches.py).

What is stored: token *hashes* (SHA-256), never tokens; the chance seed, which
is never sent to anyone. One connection, used under a lock: the writes are
small (one row or two) and serialising them keeps the model simple.

Failures while the server runs (docs/matches.md, "A database that fails
under a running server"): SQLite's errors become `DatabaseDamaged`
(DATA_LOSS: the file is damaged, or one match's rows cannot be read back)
or `DatabaseFailed` (UNAVAILABLE: disk full, an I/O error), whose messages
say what SQLite reported but never the file's path; the log names the file,
once per kind of failure. Once SQLite reports damage, nothing more is
written to the file (a write into a damaged b-tree may spread the damage to
pages that hold acknowledged steps): `damaged` says why, and stays set
until the server is restarted (the start's integrity check then refuses
the file, or passes it if it was repaired).
"""
from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import sqlite3
import stat
import threading
from dataclasses import dataclass, field
from urllib.parse import quote

from .errors import DatabaseDamaged, DatabaseFailed

log = logging.getLogger("easel.server.matches")

SCHEMA_VERSION = 1
# SQLite's words in a client's message, at most this many characters
SQLITE_TEXT = 120
# Matches whose damaged rows were logged (each once), at most this many kept
LOGGED_MATCHES = 1000

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id            TEXT PRIMARY KEY,
    game          TEXT NOT NULL,          -- canonical game string
    status        TEXT NOT NULL,          -- in_progress, finished, aborted, expired
    chance        TEXT NOT NULL,          -- server, table
    allow_hints   INTEGER NOT NULL,
    seed          BLOB NOT NULL,          -- secret: chance draws derive from it
    creator_hash  BLOB NOT NULL,
    table_hash    BLOB,                   -- table mode only
    client        TEXT NOT NULL,          -- who created it (for the per-client limit)
    created_at    REAL NOT NULL,
    updated_at    REAL NOT NULL,          -- last step or change (idle expiry)
    result        TEXT                    -- JSON, once ended
);
CREATE INDEX IF NOT EXISTS matches_by_status ON matches (status, created_at);
CREATE TABLE IF NOT EXISTS seats (
    match_id      TEXT NOT NULL REFERENCES matches (id),
    seat          INTEGER NOT NULL,
    kind          TEXT NOT NULL,          -- bot, client
    bot           TEXT NOT NULL,          -- bot spec as run ('' for a client seat)
    name          TEXT NOT NULL,
    token_hash    BLOB,                   -- client seats only
    move_seconds  REAL NOT NULL,
    clock_seconds REAL NOT NULL,
    increment     REAL NOT NULL,
    PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS steps (
    match_id      TEXT NOT NULL REFERENCES matches (id),
    n             INTEGER NOT NULL,       -- 0-based step number
    action        INTEGER NOT NULL,
    player        INTEGER NOT NULL,       -- -1 for chance
    by            TEXT NOT NULL,          -- bot, client, server, table
    at            REAL NOT NULL,
    clock         REAL,                   -- the mover's clock left after it (clock seats)
    PRIMARY KEY (match_id, n)
) WITHOUT ROWID;
"""


def hash_token(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8")).digest()


def token_matches(token: str, stored: bytes | None) -> bool:
    """Constant-time check of a token against a stored hash."""
    if not token or stored is None:
        return False
    return hmac.compare_digest(hash_token(token), bytes(stored))


def default_path() -> str:
    """The database in the user's data directory ($XDG_DATA_HOME/easel, or
    ~/.local/share/easel)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                           "share")
    return os.path.join(base, "easel", "matches.sqlite3")


class StoreError(Exception):
    """The database cannot be used (wrong schema, unreadable file, in use)."""


# Marks the file as an Easel match database (PRAGMA application_id, the
# four bytes "EzMt"), so that another application's SQLite file is told from
# ours before anything is written to it.
APPLICATION_ID = 0x457A4D74
# Files SQLite and the lock keep beside the database: each, if present, must
# be a regular file (not a link: SQLite would write where it points).
BESIDE = (".lock", "-wal", "-shm", "-journal")


def _expected_columns() -> dict:
    """{table: its columns as PRAGMA table_info lists them}, from SCHEMA."""
    db = sqlite3.connect(":memory:")
    try:
        db.executescript(SCHEMA)
        return _columns(db)
    finally:
        db.close()


def _columns(db) -> dict:
    names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table' "
                                      "AND name NOT LIKE 'sqlite_%' ORDER BY name")]
    # (name, declared type, not null, primary key position) of each column
    return {t: db.execute('SELECT name, type, "notnull", pk FROM pragma_table_info(?)',
                          (t,)).fetchall() for t in names}


EXPECTED_COLUMNS = _expected_columns()


def _uri(path: str, mode: str) -> str:
    """A SQLite URI for a file path (a `?` or `#` in the name stays part of
    it) opened in `mode`: ro, or rwc (read, write, create)."""
    return f"file:{quote(os.path.abspath(path))}?mode={mode}"


def _check_files(path: str) -> None:
    """The database, if it exists, is a regular file (a device, a FIFO or a
    directory is refused before anything is opened or created beside it);
    so is each file beside it that exists (and none is a link)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise StoreError(f"{path}: cannot use it as the match database: {e.strerror}") from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise StoreError(f"{path}: not a regular file; give --db the path of a match "
                         f"database file (it is created if missing)")
    for suffix in BESIDE:
        try:
            st = os.lstat(path + suffix)
        except FileNotFoundError:
            continue
        except OSError as e:
            raise StoreError(f"{path}{suffix}: cannot check it: {e.strerror}") from None
        if not stat.S_ISREG(st.st_mode):
            raise StoreError(f"{path}{suffix}: not a regular file (SQLite or the server's "
                             f"lock keeps a file of that name beside the database); move it "
                             f"away")


def _make_directory(path: str) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as e:
        raise StoreError(f"{path}: cannot create its directory {folder}: "
                         f"{e.strerror or e}") from None


def _lock_exclusively(lock_path: str):
    """One server per database: two would both resume the same open matches
    and play them twice. An advisory lock (flock) on a file beside the
    database, held while the store is open; the kernel drops it when the
    process dies, SIGKILL included, so a crash never leaves it stale."""
    import fcntl
    database = lock_path[:-len(".lock")]
    try:
        # no link followed, no blocking open (a FIFO put there), not inherited
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
                     | os.O_CLOEXEC, 0o644)
    except OSError as e:
        raise StoreError(f"{lock_path}: cannot open the match database's lock file: "
                         f"{e.strerror}") from None
    f = os.fdopen(fd, "r+b")
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise StoreError(f"{lock_path}: not a regular file (the server's lock for "
                             f"{database}); move it away")
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise StoreError(f"{database}: the match database is in use by another server "
                             f"(one server per database; give this one another --db)") from None
        except OSError as e:
            raise StoreError(f"{lock_path}: cannot lock the match database: "
                             f"{e.strerror}") from None
    except BaseException:
        f.close()
        raise
    return f


@dataclass
class SeatRow:
    seat: int
    kind: str
    bot: str
    name: str
    token_hash: bytes | None
    move_seconds: float
    clock_seconds: float
    increment: float


@dataclass
class StepRow:
    n: int
    action: int
    player: int
    by: str
    at: float
    clock: float | None = None


@dataclass
class MatchRow:
    id: str
    game: str
    status: str
    chance: str
    allow_hints: bool
    seed: bytes
    creator_hash: bytes
    table_hash: bytes | None
    client: str
    created_at: float
    updated_at: float
    result: dict | None = None
    seats: list[SeatRow] = field(default_factory=list)
    steps: list[StepRow] = field(default_factory=list)


class Store:
    def __init__(self, path: str, synchronous: str = "NORMAL", read_only: bool = False):
        """read_only: for tools (export) beside a running server: no lock
        taken, nothing written, the schema must already be there.

        Refused with a StoreError of one line naming the file, before
        anything is served or written: a path that is not a regular file
        (or has a non-regular file beside it), a file that is not SQLite,
        another application's database, a database that fails SQLite's
        integrity check (damaged), a directory or lock that cannot be
        created or taken."""
        if synchronous not in ("FULL", "NORMAL"):
            raise ValueError("synchronous must be FULL or NORMAL")
        self.path = path
        self._lockfile = None
        self._lock = threading.Lock()
        self.damaged: str | None = None      # SQLite's report of damage, once seen
        self._logged: set[str] = set()       # failures already logged (bounded)
        self._log = not read_only            # the tools report failures themselves
        memory = path == ":memory:"
        if not memory:
            _check_files(path)
        if read_only:
            if not os.path.exists(path):
                raise StoreError(f"{path}: no such match database")
            target = _uri(path, "ro")
        elif memory:
            target = path
        else:
            _make_directory(path)
            self._lockfile = _lock_exclusively(path + ".lock")
            target = _uri(path, "rwc")
        try:
            try:
                self._db = sqlite3.connect(target, uri=not memory, isolation_level=None,
                                           check_same_thread=False, timeout=30.0)
                self._check(read_only)
                if read_only:
                    return
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute(f"PRAGMA synchronous={synchronous}")
                self._db.execute("PRAGMA foreign_keys=ON")
                # one transaction: a crash leaves no half-made schema
                self._db.executescript(f"BEGIN IMMEDIATE; {SCHEMA} "
                                       f"PRAGMA user_version={SCHEMA_VERSION}; "
                                       f"PRAGMA application_id={APPLICATION_ID}; COMMIT;")
            except sqlite3.DatabaseError as e:
                raise StoreError(f"{path}: cannot {'read' if read_only else 'open'} the match "
                                 f"database: {e}") from None
        except BaseException:
            if getattr(self, "_db", None) is not None:
                self._db.close()
            if self._lockfile is not None:
                self._lockfile.close()
                self._lockfile = None
            raise

    def _check(self, read_only: bool) -> None:
        """Refuse a damaged database and another application's file before
        anything is written (the checks only read)."""
        db, path = self._db, self.path
        try:
            problems = [r[0] for r in db.execute("PRAGMA quick_check(3)")]
        except sqlite3.DatabaseError as e:
            # the header itself is not SQLite's: another kind of file, or a
            # database damaged at its start
            raise StoreError(f"{path}: not a SQLite database, or one damaged beyond reading "
                             f"({e}); give --db another file") from None
        if problems != ["ok"]:
            found = [line.strip() for p in problems for line in p.splitlines()
                     if line.strip() and not line.startswith("***")]
            raise StoreError(f"{path}: the match database is damaged (SQLite's integrity "
                             f"check: {'; '.join(found)[:160]}); refused. Keep a copy, recover "
                             f"what it holds (sqlite3 {path} .recover) or give --db a new file")
        app = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        found = _columns(db)
        if app not in (0, APPLICATION_ID):
            raise StoreError(f"{path}: a SQLite database of another application (application "
                             f"id {app:#x}), not an Easel match database; give --db another "
                             f"file")
        if not found and version == 0:
            if read_only:
                raise StoreError(f"{path}: an empty database, not a match database yet")
            return                      # a new database: the schema is written next
        if app == APPLICATION_ID and version != SCHEMA_VERSION:
            raise StoreError(f"{path}: match database schema version {version}; this "
                             f"server knows version {SCHEMA_VERSION}")
        # unmarked (made before the mark, or by someone else): ours only if it
        # has exactly our tables, and no other schema version
        if found != EXPECTED_COLUMNS or version not in (0, SCHEMA_VERSION):
            tables = ", ".join(sorted(found)) or "none"
            raise StoreError(f"{path}: not an Easel match database of schema version "
                             f"{SCHEMA_VERSION} (its tables: {tables[:200]}; schema version "
                             f"{version}); nothing was changed in it; give --db another file")

    def close(self) -> None:
        with self._lock:
            self._db.close()
        if self._lockfile is not None:
            self._lockfile.close()          # releases the lock
            self._lockfile = None

    def _write(self, statements) -> None:
        """Run (sql, params) pairs as one transaction, committed on return.
        Nothing is written to a damaged file (`damaged`)."""
        with self._lock:
            if self.damaged is not None:
                raise self._damage_error()
            db = self._db
            try:
                db.execute("BEGIN IMMEDIATE")
                try:
                    for sql, params in statements:
                        db.execute(sql, params)
                    db.execute("COMMIT")
                except BaseException:
                    if db.in_transaction:    # a failed COMMIT may leave it open
                        try:
                            db.execute("ROLLBACK")
                        except sqlite3.Error:
                            pass
                    raise
            except sqlite3.IntegrityError:
                raise                   # a constraint, not the file: the caller's bug
            except sqlite3.DatabaseError as e:
                raise self._failed(e, "written to") from None

    # -- failures under a running server ------------------------------------------
    def _failed(self, e: sqlite3.DatabaseError, doing: str) -> DatabaseFailed:
        """The error a client gets for SQLite's `e`; logged once per kind.
        Damage (SQLITE_CORRUPT, SQLITE_NOTADB) also stops every later write."""
        name = getattr(e, "sqlite_errorname", "") or type(e).__name__
        said = str(e)[:SQLITE_TEXT]
        if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
            if self.damaged is None:
                self.damaged = said
                if self._log:
                    log.error("the match database %s is damaged (SQLite: %s, %s): nothing "
                              "more is written to it and no new match is taken; stop the "
                              "server, keep a copy and recover it (sqlite3 %s .recover)",
                              self.path, said, name, self.path)
            return self._damage_error()
        if self._log and name not in self._logged:
            self._logged.add(name)          # SQLite's error names: a small, fixed set
            log.error("the match database %s cannot be %s (SQLite: %s, %s); this failure "
                      "is logged once, each call that meets it is refused UNAVAILABLE",
                      self.path, doing, said, name)
        return DatabaseFailed("", f"the match database cannot be {doing} right now "
                                  f"(SQLite: {said}); nothing was changed; retry later")

    def _damage_error(self) -> DatabaseDamaged:
        return DatabaseDamaged("", f"the match database is damaged (SQLite: {self.damaged}); "
                                   f"this server writes nothing more to it and takes no new "
                                   f"match until its operator recovers it")

    def damaged_match(self, match_id: str, why: str) -> DatabaseDamaged:
        """One match's rows cannot be read back (the file itself may be
        sound): the error for its callers, logged once per match."""
        if self._log and match_id not in self._logged and len(self._logged) < LOGGED_MATCHES:
            self._logged.add(match_id)
            log.error("the match database %s: match %s cannot be read back: %s", self.path,
                      match_id, why[:200])
        return DatabaseDamaged("", f"match {match_id}'s stored rows are damaged and cannot be "
                                   f"read back ({why[:SQLITE_TEXT]})")

    # -- writes ----------------------------------------------------------------
    def create(self, m: MatchRow) -> None:
        stmts = [("INSERT INTO matches (id, game, status, chance, allow_hints, seed, "
                  "creator_hash, table_hash, client, created_at, updated_at, result) "
                  "VALUES (?,?,?,?,?,?,?,?,?,?,?,NULL)",
                  (m.id, m.game, m.status, m.chance, int(m.allow_hints), m.seed,
                   m.creator_hash, m.table_hash, m.client, m.created_at, m.updated_at))]
        for s in m.seats:
            stmts.append(("INSERT INTO seats VALUES (?,?,?,?,?,?,?,?,?)",
                          (m.id, s.seat, s.kind, s.bot, s.name, s.token_hash, s.move_seconds,
                           s.clock_seconds, s.increment)))
        self._write(stmts)

    def append_step(self, match_id: str, step: StepRow,
                    end: tuple[str, dict] | None = None) -> None:
        """One step (with the mover's clock after it) and, if the step ends
        the match, the end: one transaction. A step number already taken
        violates the primary key: nothing is written."""
        stmts = [("INSERT INTO steps VALUES (?,?,?,?,?,?,?)",
                  (match_id, step.n, step.action, step.player, step.by, step.at, step.clock))]
        if end is not None:
            stmts.append(("UPDATE matches SET status=?, result=?, updated_at=? WHERE id=?",
                          (end[0], json.dumps(end[1]), step.at, match_id)))
        else:
            stmts.append(("UPDATE matches SET updated_at=? WHERE id=?", (step.at, match_id)))
        self._write(stmts)

    def end(self, match_id: str, status: str, result: dict, at: float) -> None:
        self._write([("UPDATE matches SET status=?, result=?, updated_at=? WHERE id=?",
                      (status, json.dumps(result), at, match_id))])

    def touch(self, match_id: str, at: float) -> None:
        self._write([("UPDATE matches SET updated_at=? WHERE id=?", (at, match_id))])

    # -- reads -----------------------------------------------------------------
    def _rows(self, sql, params=()):
        with self._lock:
            try:
                return self._db.execute(sql, params).fetchall()
            except sqlite3.DatabaseError as e:
                raise self._failed(e, "read") from None

    def load(self, match_id: str) -> MatchRow | None:
        """The match's rows, or None. Rows that are there but cannot be
        what this server wrote: DatabaseDamaged naming the match."""
        try:
            return self._load(match_id)
        except (ValueError, TypeError, KeyError, IndexError) as e:
            raise self.damaged_match(match_id, f"{type(e).__name__}: {e}") from None

    def _load(self, match_id: str) -> MatchRow | None:
        rows = self._rows("SELECT id, game, status, chance, allow_hints, seed, creator_hash, "
                          "table_hash, client, created_at, updated_at, result FROM matches "
                          "WHERE id=?", (match_id,))
        if not rows:
            return None
        r = rows[0]
        m = MatchRow(r[0], r[1], r[2], r[3], bool(r[4]), bytes(r[5]), bytes(r[6]),
                     None if r[7] is None else bytes(r[7]), r[8], r[9], r[10],
                     None if r[11] is None else json.loads(r[11]))
        m.seats = [SeatRow(*row) for row in self._rows(
            "SELECT seat, kind, bot, name, token_hash, move_seconds, clock_seconds, increment "
            "FROM seats WHERE match_id=? ORDER BY seat", (match_id,))]
        m.steps = [StepRow(*row) for row in self._rows(
            "SELECT n, action, player, by, at, clock FROM steps WHERE match_id=? ORDER BY n",
            (match_id,))]
        if [s.n for s in m.steps] != list(range(len(m.steps))):
            raise ValueError(f"its steps are not numbered 0..{len(m.steps) - 1}")
        return m

    def open_ids(self) -> list[str]:
        return [r[0] for r in self._rows(
            "SELECT id FROM matches WHERE status='in_progress' ORDER BY created_at")]

    def list(self, status: str | None, limit: int, before: int | None):
        """(id, position) of up to `limit` matches, newest first (creation
        order), created before the match at `position` if given."""
        where, params = [], []
        if status is not None:
            where.append("status=?")
            params.append(status)
        if before is not None:
            where.append("rowid < ?")
            params.append(before)
        sql = ("SELECT id, rowid FROM matches" + (" WHERE " + " AND ".join(where)
                                                  if where else "")
               + " ORDER BY rowid DESC LIMIT ?")
        return self._rows(sql, params + [limit])

    def seed_of(self, match_id: str) -> bytes:
        return bytes(self._rows("SELECT seed FROM matches WHERE id=?", (match_id,))[0][0])
