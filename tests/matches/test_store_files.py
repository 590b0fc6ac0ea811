"""The match database's file: a damaged database, a path that is not a
regular file, another application's SQLite file, and a path that cannot be
created or locked are all refused before anything is served, each with one
line naming the file (and `easel serve` exits 2), and nothing is written to a
file that is not a match database."""
from __future__ import annotations

import hashlib
import logging
import os
import random
import sqlite3
import time

import pytest

from easel.server.cli import main
from easel.server.matches.store import MatchRow, SeatRow, Store, StepRow, StoreError


def fill(path: str, matches: int = 40, steps: int = 60) -> None:
    """A real match database of a few hundred KB (many pages)."""
    store = Store(path)
    now = time.time()
    for i in range(matches):
        row = MatchRow(id=f"m{i:04d}", game="connect_four", status="in_progress",
                       chance="server", allow_hints=False, seed=os.urandom(32),
                       creator_hash=os.urandom(32), table_hash=None, client="ipv4:127.0.0.1",
                       created_at=now, updated_at=now,
                       seats=[SeatRow(0, "client", "", "a" * 40, os.urandom(32), 0, 0, 0),
                              SeatRow(1, "client", "", "b" * 40, os.urandom(32), 0, 0, 0)])
        store.create(row)
        for n in range(steps):
            store.append_step(row.id, StepRow(n, n % 7, n % 2, "client", now))
    store.close()


def sql(path: str, *statements: str) -> None:
    """Run statements on a SQLite file as another program would."""
    con = sqlite3.connect(path)
    for statement in statements:
        con.execute(statement)
    con.commit()
    con.close()


def digest(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def serve_fails(db: str, capsys, *fragments) -> str:
    """`easel serve --db DB` refuses at start: exit 2, one line naming it."""
    assert main(["serve", "--port", "0", "--db", str(db)]) == 2
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("easel serve: error: "), err
    for f in fragments:
        assert f in lines[0], lines[0]
    assert "listening" not in out
    return lines[0]


def test_a_damaged_database_is_refused_at_start(tmp_path, capsys):
    db = str(tmp_path / "matches.sqlite3")
    fill(db)
    size = os.path.getsize(db)
    assert size > 64 * 1024
    with open(db, "r+b") as f:                     # 8 KB of noise in the middle
        f.seek(size // 2)
        f.write(random.Random(8).randbytes(8192))
    with pytest.raises(StoreError, match="damaged"):
        Store(db)
    line = serve_fails(db, capsys, db, "damaged")
    assert "Traceback" not in line
    # the read-only tools refuse it too, with one line
    assert main(["matches", "list", "--db", db]) == 2
    assert "damaged" in capsys.readouterr().err


def test_an_intact_database_still_opens(tmp_path):
    db = str(tmp_path / "matches.sqlite3")
    fill(db, matches=3, steps=5)
    store = Store(db)
    assert len(store.open_ids()) == 3 and len(store.load("m0001").steps) == 5
    store.close()
    ro = Store(db, read_only=True)
    assert len(ro.open_ids()) == 3
    ro.close()


def test_a_database_of_an_older_build_without_the_application_id_opens(tmp_path):
    db = str(tmp_path / "matches.sqlite3")
    fill(db, matches=2, steps=3)
    sql(db, "PRAGMA application_id=0")
    store = Store(db)
    assert len(store.open_ids()) == 2
    store.close()
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA application_id").fetchone()[0] != 0     # marked as ours now
    con.close()


@pytest.mark.parametrize("path", ["/dev/null", "/dev/zero"])
def test_a_device_is_refused_and_nothing_is_created_beside_it(path, capsys):
    beside = [path + suffix for suffix in (".lock", "-journal", "-wal", "-shm")]
    there = {p for p in beside if os.path.lexists(p)}
    try:
        with pytest.raises(StoreError, match="not a regular file"):
            Store(path)
        serve_fails(path, capsys, path, "not a regular file")
        assert {p for p in beside if os.path.lexists(p)} == there
    finally:
        for p in beside:                  # clean up after a server that made them
            if p not in there and os.path.lexists(p):
                os.remove(p)


def test_a_directory_and_a_fifo_are_refused(tmp_path, capsys):
    serve_fails(tmp_path, capsys, "not a regular file")
    fifo = tmp_path / "fifo.sqlite3"
    os.mkfifo(fifo)
    serve_fails(fifo, capsys, "not a regular file")          # without blocking on it
    with pytest.raises(StoreError, match="not a regular file"):
        Store(str(fifo), read_only=True)


def test_files_beside_the_database_must_be_regular_too(tmp_path, capsys):
    db = tmp_path / "matches.sqlite3"
    os.mkfifo(str(db) + ".lock")                  # open() on it would block for ever
    serve_fails(db, capsys, ".lock", "not a regular file")
    os.remove(str(db) + ".lock")
    target = tmp_path / "elsewhere"
    os.symlink(target, str(db) + "-wal")          # would make SQLite write elsewhere
    serve_fails(db, capsys, "-wal", "not a regular file")
    assert not target.exists()


def test_another_applications_sqlite_file_is_left_alone(tmp_path, capsys):
    db = str(tmp_path / "app.sqlite3")
    sql(db, "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)",
        "INSERT INTO users (name) VALUES ('ada')")
    before = digest(db)
    with pytest.raises(StoreError, match="not an Easel match database"):
        Store(db)
    serve_fails(db, capsys, db, "not an Easel match database", "users")
    assert digest(db) == before
    con = sqlite3.connect(db)
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    con.close()
    assert tables == {"users"}                    # no match tables added


def test_a_foreign_file_with_our_table_names_is_refused(tmp_path):
    db = str(tmp_path / "look-alike.sqlite3")
    sql(db, "CREATE TABLE matches (id TEXT PRIMARY KEY, score INTEGER)", "PRAGMA user_version=1")
    with pytest.raises(StoreError, match="not an Easel match database"):
        Store(db)
    sql(db, "PRAGMA application_id=1234")
    with pytest.raises(StoreError, match="another application"):
        Store(db)


def test_a_path_that_cannot_be_created_or_locked_is_one_line(tmp_path, capsys):
    afile = tmp_path / "afile"
    afile.write_text("x")
    serve_fails(afile / "sub" / "matches.sqlite3", capsys, "matches.sqlite3")
    db = tmp_path / "matches.sqlite3"
    os.mkdir(str(db) + ".lock")                   # the lock cannot be opened
    line = serve_fails(db, capsys, ".lock")
    assert "in use" not in line
    assert not db.exists()


def test_a_file_that_is_not_sqlite_at_all_is_refused(tmp_path, capsys):
    db = tmp_path / "notes.txt"
    db.write_text("some notes, not a database\n" * 100)
    before = digest(str(db))
    serve_fails(db, capsys, str(db), "not")
    assert digest(str(db)) == before


# -- damage under a running server ----------------------------------------------------------

def _damage_under(served, db: str) -> None:
    """Damage the file as a failing disk or another program would, under
    the running server: every page but the first overwritten with noise.
    Another connection first moves the log into the file (a checkpoint),
    which also makes the server read its pages from the file again."""
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    size = os.path.getsize(db)
    with open(db, "r+b") as f:
        f.seek(4096)
        f.write(random.Random(27).randbytes(size - 4096))


def _files(db: str) -> dict:
    return {p: digest(p) for p in (db, db + "-wal") if os.path.exists(p)}


def test_damage_under_a_running_server_is_answered_never_internal(tmp_path, caplog, serve):
    """A database damaged while the server runs: DATA_LOSS naming the
    database's problem (never INTERNAL, never the file's path), logged once;
    no new match is taken, nothing more is written to the file, and the
    steps acknowledged before stay as they were in memory."""
    import grpc
    from match_helpers import assert_status, client, pb
    from easel.v1 import engine_pb2 as epb
    db = str(tmp_path / "matches.sqlite3")
    fill(db, matches=400, steps=5)
    sql(db, "UPDATE matches SET status='finished'")         # ended: not resumed
    served = serve(db)                     # tests/matches/conftest.py: stopped afterwards
    stub = served.matches
    made = stub.CreateMatch(pb.CreateMatchRequest(game="connect_four",
                                                  seats=[client(), client()]), timeout=10)
    token = {t.seat: t.token for t in made.seat_tokens}

    def play(step):
        return stub.SubmitAction(pb.SubmitActionRequest(
            match_id=made.match_id, token=token[step % 2], step=step,
            action=epb.Step(id=step)), timeout=10)

    for step in range(3):
        play(step)                                      # acknowledged
    _damage_under(served, db)
    caplog.set_level(logging.INFO, logger="easel.server")
    with pytest.raises(grpc.RpcError) as e:
        play(3)
    assert_status(e, grpc.StatusCode.DATA_LOSS, "the match database is damaged (SQLite: ")
    details = e.value.details()
    assert db not in details and str(tmp_path) not in details and len(details) < 400
    before = _files(db)
    calls = [lambda: play(3),
             lambda: stub.Resign(pb.ResignRequest(match_id=made.match_id,
                                                  token=token[1]), timeout=10),
             lambda: stub.Abort(pb.AbortRequest(match_id=made.match_id,
                                                token=made.creator_token), timeout=10),
             lambda: stub.GetMatch(pb.GetMatchRequest(match_id="m0123"), timeout=10),
             lambda: stub.ListMatches(pb.ListMatchesRequest(), timeout=10)]
    for call in calls * 3:
        with pytest.raises(grpc.RpcError) as e:
            call()
        assert_status(e, grpc.StatusCode.DATA_LOSS, "the match database is damaged")
    with pytest.raises(grpc.RpcError) as e:
        stub.CreateMatch(pb.CreateMatchRequest(game="connect_four",
                                               seats=[client(), client()]), timeout=10)
    assert_status(e, grpc.StatusCode.UNAVAILABLE, "takes no new matches",
                  "match database is damaged")
    served.manager._started_at -= 10 * 24 * 3600        # the janitor may try to expire it
    served.manager.expire_idle()
    assert _files(db) == before                         # nothing more written to it
    got = stub.GetMatch(pb.GetMatchRequest(match_id=made.match_id), timeout=10)
    assert got.match.status == pb.MATCH_STATUS_IN_PROGRESS and got.match.steps == 3
    logged = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(logged) == 1 and "is damaged" in logged[0].getMessage(), \
        [r.getMessage()[:200] for r in logged]
    assert db in logged[0].getMessage() and "\n" not in logged[0].getMessage()
    assert "INTERNAL" not in caplog.text


def test_a_match_whose_rows_cannot_be_read_back_is_data_loss(tmp_path, caplog, serve):
    """One match's rows changed under the server (a step missing): that
    match is DATA_LOSS naming it, logged once; the others are served."""
    import grpc
    from match_helpers import assert_status, pb
    db = str(tmp_path / "matches.sqlite3")
    fill(db, matches=3, steps=5)
    sql(db, "UPDATE matches SET status='finished'")
    served = serve(db)                     # tests/matches/conftest.py: stopped afterwards
    sql(db, "DELETE FROM steps WHERE match_id='m0001' AND n=2")
    caplog.set_level(logging.INFO, logger="easel.server")
    for _ in range(3):
        with pytest.raises(grpc.RpcError) as e:
            served.matches.GetMatch(pb.GetMatchRequest(match_id="m0001"), timeout=10)
        assert_status(e, grpc.StatusCode.DATA_LOSS, "match m0001's stored rows are damaged",
                      "not numbered")
    assert served.matches.GetMatch(pb.GetMatchRequest(match_id="m0002"),
                                   timeout=10).match.steps == 5
    logged = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(logged) == 1 and "m0001" in logged[0].getMessage()
    assert served.manager.store.damaged is None         # the file itself is sound


def test_the_tools_name_a_match_whose_rows_are_damaged(tmp_path, capsys):
    db = str(tmp_path / "matches.sqlite3")
    fill(db, matches=3, steps=5)
    sql(db, "DELETE FROM steps WHERE match_id='m0001' AND n=2")
    assert main(["matches", "list", "--db", db]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "match m0001's stored rows are damaged" in err[0], err
