"""From the repository root the package imports as it does installed, under
its one name `easel`, and never as a second copy.

The root holds engine/, search/ and server/, which `easel/` links to: a
Python started there could import each folder under two names (`engine` and
`easel.engine`), load two copies of every module and register every game
twice. The top-level names refuse to import and say what to write instead.
These tests start Pythons in the root with the working directory first on
the path (no PYTHONSAFEPATH), as `python -c` and `python -m pytest` do."""
from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

from easel import engine

ROOT = pathlib.Path(__file__).resolve().parents[1]
# The source tree is built in place when this run imports it; otherwise (CI,
# the installed build under test) its cores are not compiled.
IN_PLACE = pathlib.Path(engine.__file__).resolve().is_relative_to(ROOT)


def run_in_root(code: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONSAFEPATH", "PYTHONPATH")}
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, text=True,
                          capture_output=True, timeout=300)


def test_the_package_imports_from_the_root_and_plays():
    impl = "core" if IN_PLACE else "reference"
    done = run_in_root(
        "from easel import engine\n"
        f"game = engine.load_game('connect_four', {impl!r})\n"
        "state = game.new_initial_state()\n"
        "state.apply_action(3)\n"
        "print(engine.__file__, state.history())\n")
    assert done.returncode == 0, done.stderr
    where, history = done.stdout.split(" ", 1)
    assert pathlib.Path(where).resolve().is_relative_to(ROOT) and history.strip() == "[3]"


@pytest.mark.skipif(not IN_PLACE, reason="the example loads a core: the source tree has none built")
def test_the_engine_docstring_example_runs_from_the_root():
    done = run_in_root("import doctest, easel.engine as m\n"
                       "r = doctest.testmod(m)\n"
                       "assert r.attempted and not r.failed, r\n")
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("name, part", [
    ("engine", "engine"), ("engine.kit", "engine"), ("search", "search"),
    ("search.tournament", "search"), ("server", "server"), ("server.cli", "server"),
])
def test_a_folder_imported_under_its_own_name_is_refused_with_the_right_name(name, part):
    done = run_in_root(f"import {name}")
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError:") and f"from easel import {part}" in last, done.stderr
    assert "registered twice" not in done.stderr
