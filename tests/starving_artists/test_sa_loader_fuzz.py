"""Starving Artists loader against hostile input: small mutations of valid
JSON views (a number nudged, a list entry dropped or duplicated, a field's
type changed) are either refused with StateFormatError naming a field, or
load into a position that plays on to the end without any other error."""
from __future__ import annotations

import copy
import random

import pytest

from easel import engine
from easel.engine.errors import StateFormatError

from sa_helpers import IMPLS
from test_sa_random import progress_choice

SPECS = ["starving_artists(players=2,lastsupper=true)", "starving_artists(players=1)",
         "starving_artists(players=3)"]


def _paths(v, prefix=()):
    if isinstance(v, dict):
        for k, x in v.items():
            yield from _paths(x, prefix + (k,))
    elif isinstance(v, list):
        yield prefix
        for i, x in enumerate(v):
            yield from _paths(x, prefix + (i,))
    else:
        yield prefix


def _mutate(view, rng):
    v = copy.deepcopy(view)
    paths = [p for p in _paths(v) if p]
    path = rng.choice(paths)
    parent = v
    for k in path[:-1]:
        parent = parent[k]
    key = path[-1]
    x = parent[key]
    kind = rng.random()
    if isinstance(x, list):
        if x and kind < 0.5:
            x.pop(rng.randrange(len(x)))
        elif x:
            x.append(rng.choice(x))
        else:
            x.append(rng.randrange(-2, 40))
    elif isinstance(x, bool):
        parent[key] = not x
    elif isinstance(x, int):
        parent[key] = x + rng.choice([-2, -1, 1, 2, 37, -100])
    elif x is None:
        parent[key] = rng.choice([0, "blue", 3])
    elif isinstance(x, str):
        parent[key] = rng.choice(["", "blue", "turn", "collect", x.upper()])
    if kind > 0.97:
        parent[key] = rng.choice([None, "x", 1.5, [], {}])
    return v


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("spec", SPECS)
def test_mutated_views_are_refused_or_playable(spec, impl):
    g = engine.load_game(spec, implementation=impl)
    rng = random.Random(spec)
    views = []
    for _ in range(6):
        s = g.new_initial_state()
        while not s.is_terminal():
            if rng.random() < 0.1:
                views.append(s.to_json())
            s.apply_action(engine.draw_outcome(s, rng) if s.is_chance_node()
                           else progress_choice(s, rng))
    refused = played = 0
    for k in range(300):
        bad = _mutate(rng.choice(views), rng)
        try:
            s = g.state_from_json(bad)
        except StateFormatError as e:
            assert "field '" in str(e), str(e)
            refused += 1
            continue
        steps = 0
        while not s.is_terminal():
            s.apply_action(engine.draw_outcome(s, rng) if s.is_chance_node()
                           else progress_choice(s, rng))
            steps += 1
            assert steps < 50 * (g.max_game_length() + 1)
        played += 1
    assert refused > 0 and played > 0
