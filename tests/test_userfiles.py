"""Files a user names are read only if they are regular files under a size cap
(engine/userfiles.py), at every place the library reads one: game data
options, records files, steps files, tournament configurations and journals,
TLS and token files. A FIFO is refused at once (it would block `open()` for
good), a device before a byte is read (/dev/zero reads until MemoryError),
and a file over its cap by a message naming the cap.

The timeout below is a hang guard only: without the check, opening a FIFO
waits for a writer for ever and the guard turns that into a failure."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from types import SimpleNamespace

import pytest

from easel import engine
from easel.engine import userfiles
from easel.engine.errors import EaselError, GameSpecError, UserFileError

pytestmark = [pytest.mark.timeout(30, method="signal"),
              pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")]


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return str(path)


def sparse(tmp_path, size, name="big"):
    """A file of `size` bytes that takes no disk (a hole)."""
    path = tmp_path / name
    with open(path, "wb") as f:
        f.truncate(size)
    return str(path)


# -- the helper ----------------------------------------------------------------

def test_reads_a_regular_file(tmp_path):
    p = tmp_path / "f.txt"
    p.write_bytes(b"\xef\xbb\xbfhello\nworld\n")
    assert userfiles.read_bytes(str(p), "test file", userfiles.DATA_FILES) == \
        b"\xef\xbb\xbfhello\nworld\n"
    assert userfiles.read_text(str(p), "test file", userfiles.DATA_FILES) == "hello\nworld\n"
    assert list(userfiles.read_lines(str(p), "test file", userfiles.DATA_FILES)) == \
        [b"\xef\xbb\xbfhello\n", b"world\n"]


@pytest.mark.parametrize("reader", ["read_bytes", "read_lines"])
def test_a_fifo_is_refused_without_blocking(fifo, reader):
    with pytest.raises(UserFileError, match=r"cannot read test file .*pipe: it is a FIFO "
                                            r"\(named pipe\), not a regular file") as e:
        list(getattr(userfiles, reader)(fifo, "test file", userfiles.DATA_FILES) or ())
    assert e.value.reason == "not_regular"


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_an_endless_device_is_refused_before_reading(device):
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    with pytest.raises(UserFileError, match=f"{device}: it is a character device, not a regular"):
        userfiles.read_bytes(device, "test file", userfiles.DATA_FILES)


def test_a_directory_and_a_missing_file(tmp_path):
    with pytest.raises(UserFileError, match="is a directory") as e:
        userfiles.read_bytes(str(tmp_path), "test file", userfiles.DATA_FILES)
    assert e.value.reason == "directory"
    with pytest.raises(UserFileError, match="cannot read test file .*nope: not found") as e:
        userfiles.read_bytes(str(tmp_path / "nope"), "test file", userfiles.DATA_FILES)
    assert e.value.reason == "missing"


def test_a_file_over_its_cap_names_the_cap(tmp_path):
    cap = userfiles.Cap(1000, "test files", "TEST_CAP")
    ok = sparse(tmp_path, 1000, "ok")
    assert len(userfiles.read_bytes(ok, "test file", cap)) == 1000
    big = sparse(tmp_path, 1001)
    for reader in (userfiles.read_bytes, userfiles.read_lines):
        with pytest.raises(UserFileError, match=r"test file .*big: it is 1,001 bytes, over the "
                                                r"1,000 bytes cap on test files \(TEST_CAP\)"):
            list(reader(big, "test file", cap))


def test_a_file_that_grows_past_its_cap_is_cut_off(tmp_path):
    # /proc files report size 0 and hold more: only the read can catch them,
    # as it catches a file that grows between the open and the read.
    path = "/proc/self/maps"
    if not os.path.exists(path):
        pytest.skip("no /proc")
    cap = userfiles.Cap(10, "test files", "TEST_CAP")
    with pytest.raises(UserFileError, match="grew past the 10 bytes cap on test files"):
        userfiles.read_bytes(path, "test file", cap)
    with pytest.raises(UserFileError, match="grew past the 10 bytes cap on test files"):
        list(userfiles.read_lines(path, "test file", cap))


def test_not_utf8_is_named(tmp_path):
    p = tmp_path / "f"
    p.write_bytes(b"ok\xff")
    with pytest.raises(UserFileError, match=r"not UTF-8 text \(byte 2"):
        userfiles.read_text(str(p), "test file", userfiles.DATA_FILES)


def test_the_caller_chooses_the_error_class(fifo):
    class MyError(EaselError, ValueError):
        pass
    with pytest.raises(MyError, match="FIFO") as e:
        userfiles.read_bytes(fifo, "x", userfiles.DATA_FILES, MyError)
    assert e.value.reason == "not_regular"


def test_a_final_link_is_refused_when_asked(tmp_path):
    target = tmp_path / "t"
    target.write_text("x")
    link = tmp_path / "l"
    link.symlink_to(target)
    assert userfiles.read_bytes(str(link), "f", userfiles.DATA_FILES) == b"x"
    with pytest.raises(UserFileError, match="cannot read f .*l: ") as e:
        userfiles.read_bytes(str(link), "f", userfiles.DATA_FILES, follow_links=False)
    assert e.value.reason == "unreadable"


# -- game data options ---------------------------------------------------------------

DATA_OPTIONS = [("couleurs_de_paris", "data"), ("starving_artists", "deck"),
                ("vangogh", "deck")]


@pytest.mark.parametrize("game, option", DATA_OPTIONS)
@pytest.mark.parametrize("implementation", ["core", "reference"])
def test_a_data_option_naming_a_fifo_is_refused(fifo, game, option, implementation):
    with pytest.raises(GameSpecError, match=rf"{game}: option '{option}': cannot read .* {fifo}: "
                                            rf"it is a FIFO"):
        engine.load_game(f"{game}({option}={fifo})", implementation)


@pytest.mark.parametrize("game, option", DATA_OPTIONS)
def test_a_data_option_over_the_cap_names_the_cap(tmp_path, game, option):
    big = sparse(tmp_path, userfiles.DATA_FILES.limit + 1)
    with pytest.raises(GameSpecError, match=rf"option '{option}': .* over the 1 MiB cap on game "
                                            rf"data files \(easel.engine.userfiles.DATA_FILES\)"):
        engine.load_game(f"{game}({option}={big})", "reference")


def test_dev_zero_as_data_is_refused_in_a_bounded_process():
    """The issue's own cases, in a child whose memory is capped (so that a
    regression fails with MemoryError rather than taking the machine's)."""
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    code = textwrap.dedent("""
        import resource, sys
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
        from easel import engine
        from easel.engine.errors import GameSpecError
        for spec in ("couleurs_de_paris(data=/dev/zero)", "starving_artists(deck=/dev/zero)",
                     "vangogh(deck=/dev/zero)"):
            try:
                engine.load_game(spec)
            except GameSpecError as e:
                print(e)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.splitlines()
    assert len(lines) == 3, out.stdout
    for line, option in zip(lines, ("data", "deck", "deck")):
        assert f"option '{option}'" in line and "/dev/zero: it is a character device" in line


# -- records, steps, configurations, journals, credentials ----------------------------------

def test_replay_refuses_a_fifo_and_an_oversized_file(fifo, tmp_path, capsys):
    from easel.server.cli import main
    assert main(["replay", fifo]) == 2
    assert f"cannot read records file {fifo}: it is a FIFO" in capsys.readouterr().err
    big = sparse(tmp_path, userfiles.RECORD_FILES.limit + 1)
    assert main(["replay", big]) == 2
    assert "over the 1 GiB cap on game-record files" in capsys.readouterr().err


def test_records_reader_refuses_a_fifo(fifo):
    from easel.search.records import RecordError, read_records
    with pytest.raises(RecordError, match="FIFO"):
        list(read_records(fifo))


def test_arena_resume_refuses_a_fifo(fifo):
    from easel.search.arena import kept_records
    from easel.search.records import RecordError
    with pytest.raises(RecordError, match=rf"cannot read records file {fifo}: it is a FIFO"):
        kept_records(fifo, [])


def test_suggest_refuses_a_fifo_record(fifo, tmp_path, capsys):
    from easel.server.cli import main
    assert main(["suggest", "pig", "--record", fifo]) == 2
    assert f"cannot read the --record file {fifo}: it is a FIFO" in capsys.readouterr().err
    big = sparse(tmp_path, userfiles.STEPS_FILES.limit + 1)
    assert main(["suggest", "pig", "--record", big]) == 2
    assert "over the 4 MiB cap on steps files" in capsys.readouterr().err


def test_tournament_config_refuses_a_fifo(fifo, tmp_path):
    from easel.search.tournament.config import ConfigError, load
    with pytest.raises(ConfigError, match=f"cannot read the configuration {fifo}: it is a FIFO"):
        load(fifo)
    big = sparse(tmp_path, userfiles.CONFIG_FILES.limit + 1)
    with pytest.raises(ConfigError, match="over the 1 MiB cap on tournament configurations"):
        load(big)


def test_tournament_resume_refuses_a_fifo_journal(tmp_path):
    from easel.search.tournament import runner
    from easel.search.tournament.journal import JOURNAL_NAME, JournalError
    os.mkfifo(tmp_path / JOURNAL_NAME)
    with pytest.raises(JournalError, match="cannot read the journal .*: it is a FIFO"):
        runner.open_run(None, str(tmp_path), resume=True)


@pytest.mark.parametrize("reader", ["read_token", "read_file"])
def test_credential_files_refuse_a_fifo_and_an_oversized_file(fifo, tmp_path, reader):
    from easel.server import auth
    read = getattr(auth, reader)
    args = (fifo,) if reader == "read_token" else (fifo, "TLS key")
    with pytest.raises(ValueError, match="is a FIFO"):
        read(*args)
    big = sparse(tmp_path, userfiles.SECRET_FILES.limit + 1)
    with pytest.raises(ValueError, match="over the 1 MiB cap on TLS and token files"):
        read(big, *args[1:])


def test_serve_names_the_flag_of_a_fifo_token_file(fifo, capsys):
    from easel.server.cli import main
    assert main(["serve", "--port", "0", "--auth-token-file", fifo]) == 2
    err = capsys.readouterr().err
    assert f"--auth-token-file: cannot read the auth token file '{fifo}': it is a FIFO" in err


def test_client_options_name_the_flag_of_a_fifo_pem(fifo):
    from easel.server.commands import connection
    args = SimpleNamespace(server="localhost:1", tls=False, tls_ca=fifo, tls_cert=None,
                           tls_key=None, auth_token_file=None)
    with pytest.raises(connection.ClientOptionsError,
                       match=f"--tls-ca: cannot read the CA '{fifo}': it is a FIFO"):
        connection.channel_options(args)


# -- the server's data files share the check --------------------------------------------

def test_server_data_files_cap_cannot_exceed_the_library_cap(tmp_path):
    from easel.server.datafiles import DataFiles
    DataFiles(str(tmp_path), max_bytes=userfiles.DATA_FILES.limit)
    with pytest.raises(ValueError, match="DATA_FILES"):
        DataFiles(str(tmp_path), max_bytes=userfiles.DATA_FILES.limit + 1)


def test_server_data_files_refuse_a_fifo_by_name_only(tmp_path):
    from easel.server.datafiles import DataFiles
    os.mkfifo(tmp_path / "pipe.json")
    files = DataFiles(str(tmp_path))
    with pytest.raises(GameSpecError) as e:
        files.load_game("vangogh(deck=pipe.json)")
    assert "no data file named 'pipe.json'" in str(e.value)
    assert str(tmp_path) not in str(e.value)


def test_server_data_files_name_their_cap(tmp_path):
    from easel.server.datafiles import DataFiles
    (tmp_path / "big.json").write_text(json.dumps({"cards": []}) + " " * 200)
    files = DataFiles(str(tmp_path), max_bytes=100)
    with pytest.raises(GameSpecError, match=r"'big.json': it is 2\d\d bytes, over the 100 bytes "
                                            r"cap on this server's data files "
                                            r"\(--max-data-bytes\)"):
        files.load_game("vangogh(deck=big.json)")


def test_server_limits_cannot_exceed_the_library_cap():
    from easel.server.limits import Limits
    assert Limits().max_data_bytes == userfiles.DATA_FILES.limit
    with pytest.raises(ValueError, match=r"max_data_bytes must be at most 1048576, the library's "
                                         r"cap on game data files \(easel.engine.userfiles"):
        Limits(max_data_bytes=userfiles.DATA_FILES.limit + 1)


def test_suggest_caps_standard_input(monkeypatch, capsys):
    import io
    from easel.server.cli import main
    big = io.TextIOWrapper(io.BytesIO(b"roll\n" * (userfiles.STEPS_FILES.limit // 5 + 1)))
    monkeypatch.setattr(sys, "stdin", big)
    assert main(["suggest", "pig", "--record", "-"]) == 2
    assert ("cannot read the --record file from standard input: it is over the 4 MiB cap on "
            "steps files") in capsys.readouterr().err
