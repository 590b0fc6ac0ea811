"""Game options that name data files, over the network.

A game option declared with `Option(data_file=True)` (Van Gogh's `deck`, and
any later game's deck or canvas file) takes a file path in local use. A
network client must never make the server open a path of its choosing: it
could name /dev/zero (unbounded memory), a FIFO (a worker blocked for good)
or probe which paths exist. So over the network such an option may only
name, by its bare file name, a file that the server offers:

    files = DataFiles("/srv/easel-data")      # `easel serve --data-dir DIR`
    game = files.load_game("vangogh(deck=real-cards.json)", "game")

* The offer: the regular files directly in the data directory (one
  directory for every game), or, when none is given, each game's shipped
  data (the `data/` folder beside the game's package); never Python
  sources or notes (.py, .md, ...), which live beside the shipped data.
* A name is plain (letters, digits, '.', '_', '-'; no directory part, no
  leading dot) and names a regular file there; it is read as every file a
  user names is (engine/userfiles.py: without blocking, so a FIFO is
  refused, not waited on; regular files only), without following a final
  link and with this server's size cap (`max_bytes`, at most the library's
  DATA_FILES) before the game reads it.
* Every refusal says only what the server offers ("no data file named
  'x'; offered: a.json, b.json"): nothing tells whether some other path
  exists on the server, and messages and the game string the server sends
  back use the name, never the server's own path.

`DataFiles(allow_paths=True)` keeps local semantics (any path the user can
read), for the private in-process server of `easel suggest`, which is also
protected by a random bearer token.
"""
from __future__ import annotations

import importlib
import os
import re
import stat

from easel.engine import userfiles
from easel.engine.errors import DataFileError, GameSpecError
from easel.engine.build import build
from easel.engine.registry import game_params, split_game_string

from .errors import InvalidArgument, quote

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")
# A real deck is a few kilobytes; a server may lower the library's cap on
# game data files (engine/userfiles.py), never raise it, since the game
# reads the file again under that cap.
DEFAULT_MAX_BYTES = userfiles.DATA_FILES.limit
# Not data: the scripts and notes that live beside the shipped data.
_NOT_DATA = (".py", ".pyc", ".pyx", ".pxd", ".md", ".c", ".so")


def shipped_data_dir(entry) -> str | None:
    """The `data/` folder beside a game's package, if it has one."""
    module_name = entry.hooks.reference.partition(":")[0]      # "easel.engine.vangogh.reference"
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        return None
    path = getattr(module, "__file__", None)
    if not path:
        return None
    folder = os.path.join(os.path.dirname(os.path.abspath(path)), "data")
    return folder if os.path.isdir(folder) else None


class DataFiles:
    """The data files a server offers, and game loading under that policy."""

    def __init__(self, directory: str | None = None, max_bytes: int = DEFAULT_MAX_BYTES,
                 allow_paths: bool = False):
        if directory is not None and not os.path.isdir(directory):
            raise ValueError(f"data directory {directory!r} is not a directory")
        if not 1 <= max_bytes <= userfiles.DATA_FILES.limit:
            raise ValueError(f"max_bytes (--max-data-bytes) must be from 1 to "
                             f"{userfiles.DATA_FILES.limit}, the library's cap on game data "
                             f"files ({userfiles.DATA_FILES.source}); got {max_bytes}")
        self.directory = os.path.abspath(directory) if directory is not None else None
        self.max_bytes = max_bytes
        self.cap = userfiles.Cap(max_bytes, "this server's data files", "--max-data-bytes")
        self.allow_paths = allow_paths

    # -- the offer -------------------------------------------------------------
    def directory_for(self, entry) -> str | None:
        return self.directory if self.directory is not None else shipped_data_dir(entry)

    def offered(self, entry) -> list[str]:
        """Names a client may give to this game's data-file options."""
        folder = self.directory_for(entry)
        if folder is None:
            return []
        try:
            names = os.listdir(folder)
        except OSError:
            return []
        out = []
        for n in sorted(names):
            if _NAME.match(n) and not n.endswith(_NOT_DATA):
                try:
                    if stat.S_ISREG(os.lstat(os.path.join(folder, n)).st_mode):
                        out.append(n)
                except OSError:
                    pass
        return out

    def _refuse(self, entry, option: str, what: str):
        offered = self.offered(entry)
        listing = ", ".join(offered[:20]) + (", ..." if len(offered) > 20 else "")
        return GameSpecError(f"{entry.name}: option '{option}': {what}; this server offers "
                             f"{listing or 'no data files'} (names only, no paths)")

    def resolve(self, entry, option: str, value: str) -> str:
        """The path of the offered file `value` names (checked: a regular
        file within the size cap); GameSpecError otherwise."""
        if not _NAME.match(value) or value.endswith(_NOT_DATA):
            raise self._refuse(entry, option, f"{quote(value)} is not the name of a data file")
        folder = self.directory_for(entry)
        if folder is None:
            raise self._refuse(entry, option, f"no data file named {quote(value)}")
        path = os.path.join(folder, value)
        try:
            # Read it here, capped, so that the game's own reader meets a file
            # already known to be small and readable; a final link is refused.
            userfiles.read_bytes(path, "data file", self.cap, GameSpecError,
                                 follow_links=False, shown=quote(value))
        except GameSpecError as e:
            if e.reason == "over_cap":      # the message names the file by its name only
                raise GameSpecError(f"{entry.name}: option '{option}': {e}") from None
            raise self._refuse(entry, option, f"no data file named {quote(value)}") from None
        return path

    # -- loading ---------------------------------------------------------------
    def parse(self, spec: str) -> tuple[object, dict, dict]:
        """(entry, params to load with, params as the client named them)."""
        entry, pairs = split_game_string(spec)
        if self.allow_paths:
            params = game_params(entry, pairs)
            return entry, params, params
        real, paths = [], {}
        for key, text in pairs:
            opt = entry.options[key]
            value = text.strip()
            if opt.data_file and value and value != opt.default:
                path = self.resolve(entry, key, value)
                paths[path] = value
                real.append((key, path))
            else:
                real.append((key, text))
        try:
            params = game_params(entry, real)
        except (GameSpecError, DataFileError) as e:
            message = str(e)
            for path, name in paths.items():      # never show the server's own paths
                message = message.replace(path, name)
            raise GameSpecError(message) from None
        public = dict(params)
        for key, value in params.items():
            if value in paths:
                public[key] = paths[value]
        return entry, params, public

    def load_game(self, spec: str, implementation: str = "auto"):
        """The game a game string names, under this policy: its core when
        it has one and `implementation` is "auto" (the search needs it),
        else its reference. Its `spec` is the public game string (data
        files by name)."""
        entry, params, public = self.parse(spec)
        game = None
        if entry.has_core and implementation in ("auto", "core"):
            try:
                game = build(entry, params, "core")
            except ImportError:     # a core declared but not built: the rules still serve
                if implementation == "core":
                    raise
        if game is None:
            game = build(entry, params, "reference")
        game.spec = entry.canonical_string(public)
        return game

