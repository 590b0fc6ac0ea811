"""The Couleurs de Paris loader against mutated positions: a valid view with
one value changed (a count, a player, a flag, a list entry) is either refused
with a StateFormatError naming a field, or loads into a position that plays
on to a proper end without any other error (the shared property test does
the same with hypothesis once it covers every game)."""
from __future__ import annotations

import copy
import random

import pytest

from easel import engine
from easel.engine import StateFormatError
from easel.engine.couleurs_de_paris import from_json

from cdp_helpers import IMPLS, load

SPEC = "couleurs_de_paris(players=3,maxrounds=3)"


def _paths(v, prefix=()):
    if isinstance(v, dict):
        for k, x in v.items():
            yield from _paths(x, prefix + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _paths(x, prefix + (i,))
        yield prefix + ("append",)
    else:
        yield prefix


def _mutate(view, rng):
    v = copy.deepcopy(view)
    paths = list(_paths(v))
    path = rng.choice(paths)
    parent = v
    for k in path[:-1]:
        parent = parent[k]
    key = path[-1]
    if key == "append":
        parent.append(rng.choice([0, 1, None, "red", 2]))
        return v
    old = parent[key]
    if isinstance(old, bool):
        parent[key] = not old
    elif isinstance(old, int):
        parent[key] = old + rng.choice([-2, -1, 1, 2, 7])
    elif old is None:
        parent[key] = rng.choice([0, 1, "white", "red"])
    else:
        parent[key] = rng.choice([None, "white", "green", 3, "paint"])
    return v


@pytest.mark.parametrize("impl", IMPLS)
def test_mutated_positions_are_refused_or_play_on(impl):
    g = load(SPEC, impl)
    rng = random.Random(11)
    refused = loaded = 0
    for k in range(40):
        s = g.new_initial_state()
        target = rng.randrange(5, 400)
        for _ in range(target):
            if s.is_terminal():
                break
            if s.is_chance_node():
                s.apply_action(engine.draw_outcome(s, rng))
            else:
                s.apply_action(rng.choice(s.legal_actions()))
        view = s.to_json()
        for _ in range(10):
            bad = _mutate(view, rng)
            try:
                t = from_json(g, bad)
            except StateFormatError as e:
                assert "field '" in str(e)
                refused += 1
                continue
            loaded += 1
            for _ in range(5000):
                if t.is_terminal():
                    break
                if t.is_chance_node():
                    t.apply_action(engine.draw_outcome(t, rng))
                else:
                    legal = t.legal_actions()
                    assert legal
                    t.apply_action(rng.choice(legal))
            assert t.is_terminal()
    assert refused > 0 and loaded > 0, (refused, loaded)
