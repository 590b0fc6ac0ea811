"""Benchmarks are run on purpose, never with the tests (testpaths is tests/):

    python -m pytest benchmarks/ --benchmark-only        # or one file by name

Files are named bench_*.py so that no ordinary test run picks them up; this
conftest collects them when benchmarks/ itself is run. `pytest benchmarks/`
measures the installed build; `python -m pytest benchmarks/` the source tree
built in place."""
from __future__ import annotations

import pytest


def pytest_collect_file(file_path, parent):
    if (file_path.suffix == ".py" and file_path.name.startswith("bench_")
            and not parent.session.isinitpath(file_path)):
        return pytest.Module.from_parent(parent, path=file_path)
