"""The Starving Artists web table's data: its deck file is the engine's deck, and its sample
positions load and are written in their shortest form (server/web/games/starving_artists.js;
the browser tests are in test_web_starving_artists.py)."""
from __future__ import annotations

import os
import re
import sys

import pytest

from easel.engine.registry import load_game

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir)
GAMES = os.path.join(ROOT, "server", "web", "games")


def module_samples() -> dict[int, str]:
    """The module's `samples`, read from its source (one template literal per player count)."""
    with open(os.path.join(GAMES, "starving_artists.js"), encoding="utf-8") as f:
        src = f.read()
    block = src[src.index("const samples = {"):]
    return {int(n): text for n, text in re.findall(r"\n  (\d): `(.*?)`,", block, re.S)}


def test_the_deck_file_is_what_the_tool_writes():
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    try:
        import web_starving_artists_deck as tool
    finally:
        sys.path.pop(0)
    with open(os.path.join(GAMES, "starving_artists_deck.js"), encoding="utf-8") as f:
        assert f.read() == tool.deck_module(), \
            "run python tools/web_starving_artists_deck.py and commit the file"


def test_there_is_a_sample_for_every_player_count():
    assert sorted(module_samples()) == [1, 2, 3, 4]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_each_sample_loads_mid_game_in_its_shortest_form(players):
    text = module_samples()[players]
    game = load_game(f"starving_artists(players={players})")
    state = game.state_from_notation(text)
    view = state.to_json()
    assert view["phase"] == "turn" and view["day"] >= 4          # mid-game, a turn to play
    assert any(s["paintings"] for s in view["studios"])              # something already sold
    assert any(c["cubes"].count(None) < len(c["cubes"])
               for s in view["studios"] for c in s["canvases"])   # a canvas being painted
    assert game.notation_of(state).strip() == text.strip()
