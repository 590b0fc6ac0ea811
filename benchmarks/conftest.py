"""Benchmarks are run on purpose, never with the tests (testpaths is tests/):

    python -m pytest benchmarks/ --benchmark-only        # or one file by name

Files are named bench_*.py so that no ordinary test run picks them up; this
conftest collects them when benchmarks/ itself is run. As in tests/conftest.py,
a source tree without compiled modules is taken off sys.path so that the
installed build is measured."""
from __future__ import annotations

import glob
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

if not glob.glob(os.path.join(ROOT, "engine", "_core*.so")):
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != ROOT]


def pytest_collect_file(file_path, parent):
    if (file_path.suffix == ".py" and file_path.name.startswith("bench_")
            and not parent.session.isinitpath(file_path)):
        return pytest.Module.from_parent(parent, path=file_path)
