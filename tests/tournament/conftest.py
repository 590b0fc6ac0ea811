"""Tournament tests: write a configuration, run it, read what it wrote."""
from __future__ import annotations

import json

import pytest
from tournament_helpers import to_toml

from easel.search.tournament import config as config_mod
from easel.search.tournament import runner


@pytest.fixture
def write_config(tmp_path):
    def write(data: dict, name="t.toml") -> str:
        path = tmp_path / name
        path.write_text(json.dumps(data) if name.endswith(".json") else to_toml(data))
        return str(path)
    return write


@pytest.fixture
def run_tournament(tmp_path):
    """Run a configuration (a dict) into a fresh directory; (results, out dir)."""
    counter = [0]

    def run(data: dict, out=None, backend=None, jobs=None, report=True, **kw):
        counter[0] += 1
        out = out or str(tmp_path / f"out{counter[0]}")
        cfg = config_mod.parse(data)
        cfg, journal = runner.open_run(cfg, out, resume=False)
        try:
            res = runner.run(cfg, journal, backend=backend, jobs=jobs, **kw)
            res = runner.finish(cfg, journal, out, res, report=report)
        finally:
            journal.close()
        return res, out
    return run
