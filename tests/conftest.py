"""Shared test set-up: which package is under test.

`python -m pytest` puts the working directory first on sys.path, so in a
clone the source tree's `engine/` would shadow the installed build, and a
clone built out of tree has no compiled cores there. When the source tree
holds no compiled modules it is taken off sys.path, so the tests run against
the installed build (what CI checks), and the Pythons that tests start
inherit PYTHONSAFEPATH=1 to the same end; an in-place or editable build is
tested in place. EASEL_TEST_INSTALLED=1 makes a run fail unless the packages
come from outside the source tree.

The game variants and game counts of the randomized suites are in
tests/game_variants.py."""
from __future__ import annotations

import glob
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _source_tree_is_built() -> bool:
    return bool(glob.glob(os.path.join(ROOT, "engine", "_core*.so")) or
                glob.glob(os.path.join(ROOT, "engine", "_core*.pyd")))


if not _source_tree_is_built():
    sys.path[:] = [p for p in sys.path
                   if os.path.abspath(p or os.curdir) != ROOT]
    # The same for the Pythons that tests start with the tree as working
    # directory (Python >= 3.11 reads this; `python -c` would otherwise put it first).
    os.environ.setdefault("PYTHONSAFEPATH", "1")

import pytest  # noqa: E402

import engine  # noqa: E402


def pytest_report_header(config):
    return f"easel packages under test: {os.path.dirname(os.path.dirname(engine.__file__))}"


def pytest_configure(config):
    if os.environ.get("EASEL_TEST_INSTALLED") == "1":
        where = os.path.abspath(engine.__file__)
        if where.startswith(ROOT + os.sep):
            raise pytest.UsageError(
                f"EASEL_TEST_INSTALLED=1 but engine was imported from the source tree ({where})")
