"""The Couleurs de Paris web table's data: its card file (server/web/games/couleurs_de_paris_cards.js)
is what tools/web_couleurs_de_paris_cards.py writes from the engine's shipped data, so the easels
and the painting pickers show the cards the engine plays with (the browser tests are in
test_web_couleurs_de_paris.py)."""
from __future__ import annotations

import json
import os
import re
import sys

from easel.engine.couleurs_de_paris.data import PAINT_COLOURS, load_data
from easel.engine.couleurs_de_paris.notation import _LETTER

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir)
CARDS_JS = os.path.join(ROOT, "server", "web", "games", "couleurs_de_paris_cards.js")


def test_the_card_file_is_what_the_tool_writes():
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    try:
        import web_couleurs_de_paris_cards as tool
    finally:
        sys.path.pop(0)
    with open(CARDS_JS, encoding="utf-8") as f:
        assert f.read() == tool.cards_module(), \
            "run python tools/web_couleurs_de_paris_cards.py and commit the file"


def test_every_painting_is_in_the_card_file_in_the_notations_letters():
    with open(CARDS_JS, encoding="utf-8") as f:
        rows = [json.loads(r) for r in re.findall(r"^  (\[.*\]),$", f.read(), re.M)]
    board = load_data()
    assert len(rows) == len(board.paintings)
    for (cid, name, value, spaces), card in zip(rows, board.paintings):
        assert (cid, name, value) == (card.id, card.name, card.value)
        # the letters a painting line is written with (notation.py), so the page's cells match it
        assert spaces == "".join(_LETTER[PAINT_COLOURS[k]] for k in card.spaces)
