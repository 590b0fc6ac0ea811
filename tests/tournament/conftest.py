"""Tournament tests: write a configuration, run it, read what it wrote."""
from __future__ import annotations

import json
import os

import pytest

from easel.search.tournament import config as config_mod
from easel.search.tournament import runner


def toml_value(v):
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    return repr(v)


def to_toml(data: dict) -> str:
    lines, tables = [], []
    for k, v in data.items():
        if isinstance(v, dict):
            tables.append((k, v))
        else:
            lines.append(f"{k} = {toml_value(v)}")
    for name, table in tables:
        lines.append(f"\n[{name}]")
        lines += [f"{json.dumps(k) if not k.replace('_', '').isalnum() else k} = "
                  f"{toml_value(v)}" for k, v in table.items()]
    return "\n".join(lines) + "\n"


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


def without_timing(results: dict) -> dict:
    return {k: v for k, v in results.items() if k != "timing"}


def read_results(out) -> dict:
    with open(os.path.join(out, "results.json")) as f:
        return json.load(f)
