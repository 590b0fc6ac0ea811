"""`easel games`: the registered games as text and as JSON."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from easel import engine
from easel.server.cli import main


def _entries():
    return engine.registered_games()


def test_games_text(capsys):
    assert main(["games"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    lines = out.splitlines()
    for entry in _entries():
        header = [ln for ln in lines if ln.startswith(f"{entry.name}  (")]
        assert len(header) == 1, f"{entry.name}: no single header line in:\n{out}"
        players = (str(entry.min_players) if entry.min_players == entry.max_players
                   else f"{entry.min_players}-{entry.max_players}")
        assert f"{entry.long_name}, {players} players" in header[0]
        assert entry.description in out
        for name, option in entry.options.items():
            assert f"    {name}: {option.type.__name__} = {option.default!r}" in out, \
                f"{entry.name}: option {name} not listed"


def test_games_json(capsys):
    assert main(["games", "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    games = json.loads(out)
    assert [g["name"] for g in games] == [e.name for e in _entries()]
    for g, entry in zip(games, _entries()):
        assert g["long_name"] == entry.long_name
        assert g["description"] == entry.description
        assert (g["min_players"], g["max_players"]) == (entry.min_players, entry.max_players)
        assert set(g["options"]) == set(entry.options)
        for name, option in entry.options.items():
            assert g["options"][name] == {"type": option.type.__name__,
                                          "default": option.default, "doc": option.doc}
        expected = entry.implementations
        assert g["implementations"] == expected
        assert g["placeholder_data"] == list(entry.placeholder_data)
        for implementation in g["implementations"]:
            # what the listing offers can be loaded
            assert engine.load_game(g["name"], implementation=implementation).name == g["name"]


def test_games_rejects_unknown_flags(capsys):
    with pytest.raises(SystemExit) as info:
        main(["games", "--yaml"])
    assert info.value.code == 2
    assert "--yaml" in capsys.readouterr().err


def test_games_as_a_separate_process(tmp_path):
    """`python -m easel.server.cli games --json` from another directory: the
    build under test runs on its own."""
    import easel
    home = os.path.dirname(os.path.dirname(os.path.abspath(easel.__file__)))
    proc = subprocess.run([sys.executable, "-m", "easel.server.cli", "games", "--json"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": home})
    assert proc.returncode == 0, proc.stderr
    assert [g["name"] for g in json.loads(proc.stdout)] == [e.name for e in _entries()]
