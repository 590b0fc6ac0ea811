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


# -- positions play cannot reach (RULINGS.md "Invariants of play") ----------------------
def _opening_view(impl, spec="couleurs_de_paris"):
    s = engine.play_chance(load(spec, impl).new_initial_state(), random.Random(3))
    return s.get_game(), s.to_json()


@pytest.mark.parametrize("impl", IMPLS)
def test_a_board_turned_in_round_1_is_refused(impl):
    """The board turns only in phase 3 (I3): round 1's placement at rotation
    2 is refused, from the JSON view and from the notation alike."""
    from cdp_helpers import rotate_view
    g, view = _opening_view(impl)
    rotate_view(view, 2)
    with pytest.raises(StateFormatError, match="field 'rotation' \\(with 'round'"):
        from_json(g, view)
    text = g.notation_of(from_json(g, _opening_view(impl)[1])) + "rotation 2\n"
    with pytest.raises(StateFormatError, match=r"line \d+ \(rotation\) \(with line \d+ "
                                               r"\(round\)\)"):
        g.state_from_notation(text)


@pytest.mark.parametrize("impl", IMPLS)
def test_more_done_than_round_1_allows_is_refused(impl):
    """Tool steps, paintings and black pigments take actions (I9); the first
    player is the option's all round 1 (I2); the player to move follows turn
    order (I11)."""
    g, view = _opening_view(impl)
    view["boards"][1]["tools"]["brush"] = 3
    with pytest.raises(StateFormatError, match=r"field 'boards\[1\]\.tools'"):
        from_json(g, view)
    g, view = _opening_view(impl)
    view["first_player"] = 1
    with pytest.raises(StateFormatError, match="field 'first_player'.*consistent value: 0"):
        from_json(g, view)
    g, view = _opening_view(impl)
    view["current_player"] = 1
    with pytest.raises(StateFormatError, match="field 'current_player'.*consistent value: 0"):
        from_json(g, view)


@pytest.mark.parametrize("impl", IMPLS)
def test_every_broken_invariant_is_named_in_one_error(impl):
    from easel.engine import UnreachablePositionError
    from cdp_helpers import rotate_view
    g, view = _opening_view(impl)
    rotate_view(view, 1)
    view["supply"]["red"] += 2
    view["boards"][0]["bonus"]["palette"] = "points"
    view["scores"][0] += 6
    with pytest.raises(UnreachablePositionError) as e:
        from_json(g, view)
    text = str(e.value)
    assert "3 problems" in text
    for field in ("rotation", "supply.red", "boards[0].bonus.palette"):
        assert f"field '{field}'" in text, field
    assert f"supply.red = {view['supply']['red'] - 2}" in text
    assert [p[0][0] for p in e.value.problems] == ["supply.red", "rotation",
                                                  "boards[0].bonus.palette"]
