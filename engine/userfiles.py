"""Reading a file a user names: regular files only, never blocking, under a size cap.

Every file the library reads because a user named it goes through here: a
game's data option (a deck, a board), a steps file for `easel suggest
--record`, a records file for `easel replay` or `easel arena --resume`, a
tournament configuration and its journal, a table position for `easel play
--position`, and the TLS and bearer-token files
of `easel serve` and the client commands. A name can be anything, so:

* the file is opened with O_NONBLOCK and checked with fstat on the open
  descriptor (no race between a check and the open): only a regular file is
  read. A FIFO is refused at once instead of waiting for a writer for ever;
  /dev/zero or /dev/urandom, which never end, are refused before a byte is
  read; a directory is named as one;
* it is read up to its cap and refused past it, by its size on opening or by
  what it holds if it grew since: the refusal names the cap (which cap, its
  size, where it is set);
* every refusal reads "cannot read {what} {file}: {why}", `what` saying
  what the file is for ("painting deck file", "the --record file"; a game
  option's check adds the option's name, a command its flag), and is the
  caller's own exception class with a `reason` ("missing", "directory",
  "not_regular", "over_cap", "unreadable").

The caps (`Cap`), each far above any real file of its kind:

| cap          | size    | files                                                    |
| ------------ | ------- | -------------------------------------------------------- |
| DATA_FILES   | 1 MiB   | game data options; the shipped canvas file is 64 KB       |
| STEPS_FILES  | 4 MiB   | `easel suggest --record` (the server's message cap)       |
| CONFIG_FILES | 1 MiB   | tournament configurations                                 |
| SECRET_FILES | 1 MiB   | TLS certificates and keys, bearer-token files             |
| RECORD_FILES | 1 GiB   | game-record files (`easel replay`, `easel arena --resume`) |
| JOURNALS     | 1 GiB   | tournament journals (`easel tournament --resume/--report`) |
| POSITION_FILES | 1 MiB | table positions (`easel play --position FILE`)             |

A server's `--max-data-bytes` may only lower DATA_FILES (server/datafiles.py).
Files the library writes (`--records`, `--json`, the match database) are not
read through here.
"""
from __future__ import annotations

import os
import stat
from typing import NamedTuple

from .errors import UserFileError

KiB, MiB, GiB = 1 << 10, 1 << 20, 1 << 30


class Cap(NamedTuple):
    """A size cap: at most `limit` bytes; a refusal says "over the 1 MiB cap on
    {kind} ({source})", so that the user knows which limit refused and where
    it is set."""
    limit: int
    kind: str
    source: str

    def describe(self) -> str:
        return f"the {size_text(self.limit)} cap on {self.kind} ({self.source})"


def _library(name: str) -> str:
    return f"easel.engine.userfiles.{name}"


DATA_FILES = Cap(1 * MiB, "game data files", _library("DATA_FILES"))
STEPS_FILES = Cap(4 * MiB, "steps files", _library("STEPS_FILES"))
CONFIG_FILES = Cap(1 * MiB, "tournament configurations", _library("CONFIG_FILES"))
SECRET_FILES = Cap(1 * MiB, "TLS and token files", _library("SECRET_FILES"))
RECORD_FILES = Cap(1 * GiB, "game-record files", _library("RECORD_FILES"))
JOURNALS = Cap(1 * GiB, "tournament journals", _library("JOURNALS"))
POSITION_FILES = Cap(1 * MiB, "position files", _library("POSITION_FILES"))


def size_text(n: int) -> str:
    """1048576 -> "1 MiB", 1500 -> "1,500 bytes"."""
    for unit, size in (("GiB", GiB), ("MiB", MiB), ("KiB", KiB)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n:,} bytes"


_KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def _fail(error, reason: str, what: str, name: str, detail: str):
    """`error`("cannot read {what} {name}: {detail}") with its `reason`: "missing",
    "directory", "not_regular", "over_cap" or "unreadable"."""
    e = error(f"cannot read {what} {name}: {detail}")
    e.reason = reason
    return e


def _open(path, what: str, cap: Cap, error, follow_links: bool, shown: str | None):
    """A descriptor of `path` open for reading, checked: a regular file no
    larger than the cap. `shown` names the file in messages (default: the path)."""
    name = shown if shown is not None else str(path)
    flags = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
             | getattr(os, "O_BINARY", 0))
    if not follow_links:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise _fail(error, "missing", what, name, "not found") from None
    except IsADirectoryError:
        raise _fail(error, "directory", what, name, "it is a directory") from None
    except OSError as e:
        raise _fail(error, "unreadable", what, name, e.strerror or str(e)) from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise _fail(error, "directory", what, name, "it is a directory")
        if not stat.S_ISREG(st.st_mode):
            kind = next((k for test, k in _KINDS if test(st.st_mode)), "not a plain file")
            raise _fail(error, "not_regular", what, name,
                        f"it is {kind}, not a regular file (only regular files are read)")
        if st.st_size > cap.limit:
            raise _fail(error, "over_cap", what, name,
                        f"it is {st.st_size:,} bytes, over {cap.describe()}")
    except BaseException:
        os.close(fd)
        raise
    return fd


def _over(error, what, name, cap):
    return _fail(error, "over_cap", what, name, f"it grew past {cap.describe()} while being read")


def read_bytes(path, what: str, cap: Cap, error=UserFileError, *, follow_links: bool = True,
               shown: str | None = None) -> bytes:
    """The whole content of the regular file `path`, at most `cap.limit` bytes.
    Refusals are `error` (a subclass of Exception taking one message) with a
    `reason` attribute: "missing", "directory", "not_regular", "over_cap" or
    "unreadable". follow_links=False refuses a final symbolic link."""
    name = shown if shown is not None else str(path)
    fd = _open(path, what, cap, error, follow_links, shown)
    chunks, total = [], 0
    try:
        while True:
            try:
                chunk = os.read(fd, min(cap.limit + 1 - total, 1 * MiB))
            except OSError as e:
                raise _fail(error, "unreadable", what, name, e.strerror or str(e)) from None
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > cap.limit:
                raise _over(error, what, name, cap)
    finally:
        os.close(fd)
    return b"".join(chunks)


def read_text(path, what: str, cap: Cap, error=UserFileError, **kw) -> str:
    """`read_bytes` decoded as UTF-8 (a byte-order mark dropped); bytes that
    are not UTF-8 are refused naming their offset."""
    data = read_bytes(path, what, cap, error, **kw)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        name = kw.get("shown") or str(path)
        raise _fail(error, "unreadable", what, name, f"not UTF-8 text (byte {e.start} is "
                                                     f"{data[e.start:e.start + 1]!r})") from None


def read_lines(path, what: str, cap: Cap, error=UserFileError):
    """The regular file's lines as bytes, newline kept, read as they come
    (a file of records is not held whole); the whole read stays within the cap."""
    fd = _open(path, what, cap, error, True, None)
    with os.fdopen(fd, "rb") as f:
        total = 0
        while True:
            try:
                line = f.readline(cap.limit + 1 - total)
            except OSError as e:
                raise _fail(error, "unreadable", what, str(path), e.strerror or str(e)) from None
            if not line:
                return
            total += len(line)
            if total > cap.limit:
                raise _over(error, what, str(path), cap)
            yield line


def read_stream(stream, what: str, cap: Cap, error=UserFileError) -> str:
    """The text of an open stream (standard input for "-"), UTF-8, refused
    past the cap: a pipe has no size to check first, so the read stops at
    the cap."""
    data = getattr(stream, "buffer", stream).read(cap.limit + 1)
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise _fail(error, "unreadable", what, "from standard input",
                        f"not UTF-8 text (byte {e.start})") from None
    if len(data) > cap.limit:
        raise _fail(error, "over_cap", what, "from standard input",
                    f"it is over {cap.describe()}")
    return data

