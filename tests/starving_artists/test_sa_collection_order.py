"""Starving Artists: the collection order of a sale is named by the canvases'
printed ids in the JSON view, by title in the notation (docs/table-notation.md,
"Names and numbers")."""
from __future__ import annotations

import random

import pytest

from easel import engine

from sa_helpers import IMPLS
from test_sa_random import progress_choice


@pytest.mark.parametrize("impl", IMPLS)
def test_starving_artists_names_the_collection_order_by_printed_id(impl):
    """pending.order lists the canvases sold in the order they collect, by
    printed id as pending.selling does; the notation's `order=` names them
    by title, and both load back. Random players rarely sell: these games
    lean to progress (test_sa_random.py)."""
    g = engine.load_game("starving_artists", implementation=impl)
    rng, seen = random.Random(5), 0
    for _ in range(40):
        s = g.new_initial_state()
        while not s.is_terminal() and seen < 3:
            v = s.to_json()
            pend = v["pending"]
            if v["phase"] == "collect":
                assert sorted(pend["order"]) == sorted(pend["selling"]), pend
                assert g.state_from_json(v).to_json() == v
                back = g.state_from_notation(g.notation_of(s)).to_json()
                assert back["pending"]["order"] == pend["order"]
                seen += 1
            else:
                assert pend["order"] == [], pend
            s.apply_action(engine.draw_outcome(s, rng) if s.is_chance_node()
                           else progress_choice(s, rng))
        if seen >= 3:
            break
    assert seen, "no sale reached its collection"
    v["pending"]["order"] = [0]                             # an index, as views had
    with pytest.raises(engine.StateFormatError, match=r"pending\.order\[0\].*printed id"):
        g.state_from_json(v)
