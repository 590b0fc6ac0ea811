"""Helpers of the tournament tests (imported by name: a second conftest module
would clash with the others)."""
from __future__ import annotations

import json
import os


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


def without_timing(results: dict) -> dict:
    return {k: v for k, v in results.items() if k != "timing"}


def read_results(out) -> dict:
    with open(os.path.join(out, "results.json")) as f:
        return json.load(f)
