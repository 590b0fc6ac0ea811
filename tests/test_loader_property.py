"""The position loaders accept only positions that play on to a proper end.

For every game that reads structured states (and, where it has one, its table
notation), hypothesis takes a position reached in random play and changes one
thing in one of its forms:
  * JSON: one field of the view (a number nudged or replaced, a value of the
    wrong type, a list entry dropped or repeated, a name swapped for another);
  * notation: one token of the text replaced, dropped or repeated;
  * serialized: one line of the record changed, dropped or repeated.
Each result must either be refused with a StateFormatError whose message
names what is wrong, or be accepted and then play on, with random moves, to
a terminal state within the game's length bound, the core and the reference
agreeing at every step. Any other exception, a hang or a disagreement fails.
"""
from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from easel import engine
from easel.engine.errors import StateFormatError

from game_variants import all_variants

EXAMPLES = 60


def _declares(entry, capability: str) -> bool:
    return bool(getattr(entry.capabilities, capability))


STRUCTURED = [(e, spec) for e, spec in all_variants() if _declares(e, "structured_states")]
NOTATION = [(e, spec) for e, spec in STRUCTURED if _declares(e, "notation")]


def test_some_game_reads_structured_states():
    assert STRUCTURED, "no registered game reads structured states"


# -- positions to start from ----------------------------------------------

_POSITIONS: dict[str, list] = {}


def positions(spec: str) -> list:
    """States met in a few random games (every 3rd one, the ends included)."""
    if spec not in _POSITIONS:
        game = engine.load_game(spec, "reference")
        rng = random.Random(spec)
        out = []
        for _ in range(3):
            state = game.new_initial_state()
            k = 0
            while not state.is_terminal():
                if k % 3 == 0:
                    out.append(state.clone())
                state.apply_action(engine.draw_outcome(state, rng) if state.is_chance_node()
                                   else rng.choice(state.legal_actions()))
                k += 1
            out.append(state)
        _POSITIONS[spec] = out
    return _POSITIONS[spec]


# -- mutations ---------------------------------------------------------------

def _paths(node, prefix=()):
    """Every place in a JSON tree: (path, value)."""
    yield prefix, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, prefix + (i,))


def _names(view):
    return sorted({v for _, v in _paths(view) if isinstance(v, str)})


def _new_values(data, old, view):
    """A replacement for `old` (hypothesis draws from values play can meet and
    values it cannot)."""
    choices = [st.none(), st.booleans(), st.text(max_size=6),
               st.integers(-3, 12), st.integers(-(2 ** 40), 2 ** 40),
               st.floats(allow_nan=True, allow_infinity=True), st.sampled_from(_names(view))]
    if isinstance(old, bool) or isinstance(old, int):
        choices += [st.sampled_from([old - 1, old + 1, -old, old * 2 + 1])] * 3
    if isinstance(old, list):
        choices += [st.just(old[:-1]), st.just(old + old[-1:]), st.just(list(reversed(old))),
                    st.just([])]
    if isinstance(old, dict):
        choices += [st.just({k: v for k, v in list(old.items())[1:]}),
                    st.just(dict(old, extra=1))]
    return data.draw(st.one_of(*choices))


def mutate_json(data, view):
    view = copy.deepcopy(view)
    paths = [p for p, _ in _paths(view) if p]
    path = data.draw(st.sampled_from(paths))
    parent = view
    for k in path[:-1]:
        parent = parent[k]
    old = parent[path[-1]]
    action = data.draw(st.sampled_from(["replace"] * 4 + ["delete"]))
    if action == "delete" and isinstance(parent, dict):
        del parent[path[-1]]
    elif action == "delete":
        parent.pop(path[-1])
    else:
        parent[path[-1]] = _new_values(data, old, view)
    return view, path


def mutate_text(data, text, vocabulary):
    """One token of a text replaced, dropped or repeated (tokens: runs
    of non-space characters, line breaks kept)."""
    lines = [ln.split(" ") for ln in text.split("\n")]
    spots = [(i, j) for i, ln in enumerate(lines) for j in range(len(ln))]
    i, j = data.draw(st.sampled_from(spots))
    action = data.draw(st.sampled_from(["replace", "replace", "drop", "repeat"]))
    if action == "drop":
        del lines[i][j]
    elif action == "repeat":
        lines[i].insert(j, lines[i][j])
    else:
        lines[i][j] = data.draw(st.one_of(st.sampled_from(vocabulary), st.text(max_size=4),
                                          st.integers(-2, 40).map(str)))
    return "\n".join(" ".join(ln) for ln in lines)


# -- the property -----------------------------------------------------------

def play_to_end(spec, loaded_ref, view, seed):
    """Random play from the loaded position to the end: the core (if any)
    loads the same view and must agree at every step."""
    ref_game = loaded_ref.get_game()
    entry = engine.game_entry(ref_game.name)
    core = None
    if entry.has_core:
        core = engine.load_game(spec, "core").state_from_json(view)
    rng = random.Random(seed)
    state = loaded_ref
    bound = ref_game.max_game_length() * 20 + 200     # steps, chance included
    steps = 0
    while not state.is_terminal():
        assert steps < bound, f"{spec}: no end after {steps} steps from {view}"
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert outcomes, f"{spec}: a chance node with no outcomes"
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            action = engine.draw_outcome(state, rng)
        else:
            legal = state.legal_actions()
            assert legal, f"{spec}: a decision with no legal action"
            action = rng.choice(legal)
        state.apply_action(action)
        if core is not None:
            core.apply_action(action)
            assert core.to_json() == state.to_json(), f"{spec}: core and reference differ"
        steps += 1
    lo, hi = ref_game.min_utility(), ref_game.max_utility()
    assert all(lo - 1e-9 <= x <= hi + 1e-9 for x in state.returns())


STATS: dict = {}


def _refused_or_playable(spec, load, form, seed):
    """load() -> a reference state (or StateFormatError)."""
    try:
        state = load()
    except StateFormatError as e:
        assert str(e).strip(), f"{form}: an empty message"
        STATS[form, "refused"] = STATS.get((form, "refused"), 0) + 1
        return "refused"
    view = state.to_json()
    play_to_end(spec, state, view, seed)
    STATS[form, "played"] = STATS.get((form, "played"), 0) + 1
    return "played"


_SETTINGS = settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
                     suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.mark.parametrize("spec", [s for _, s in STRUCTURED])
@_SETTINGS
@given(data=st.data())
def test_json_mutations_are_refused_or_playable(spec, data):
    game = engine.load_game(spec, "reference")
    base = data.draw(st.sampled_from(positions(spec)))
    view, path = mutate_json(data, base.to_json())
    seed = data.draw(st.integers(0, 2 ** 16))
    try:
        _refused_or_playable(spec, lambda: game.state_from_json(view), "json", seed)
    except StateFormatError:
        raise
    except AssertionError:
        raise
    except Exception as e:
        raise AssertionError(f"{spec}: changing {'.'.join(map(str, path))} raised "
                             f"{type(e).__name__}: {e}") from e


@pytest.mark.parametrize("spec", [s for _, s in STRUCTURED])
@_SETTINGS
@given(data=st.data())
def test_json_refusals_name_a_field(spec, data):
    """A refused JSON position names a field of the view in its message."""
    game = engine.load_game(spec, "reference")
    base = data.draw(st.sampled_from(positions(spec)))
    view, path = mutate_json(data, base.to_json())
    try:
        game.state_from_json(view)
    except StateFormatError as e:
        keys = {str(k) for p, _ in _paths(base.to_json()) for k in p if isinstance(k, str)}
        assert any(k in str(e) for k in keys), f"{e} names no field"


@pytest.mark.parametrize("spec", [s for _, s in NOTATION])
@_SETTINGS
@given(data=st.data())
def test_notation_mutations_are_refused_or_playable(spec, data):
    game = engine.load_game(spec, "reference")
    base = data.draw(st.sampled_from(positions(spec)))
    text = base.to_notation()
    vocabulary = sorted({t for p in positions(spec)[:20] for t in p.to_notation().split()})
    changed = mutate_text(data, text, vocabulary)
    seed = data.draw(st.integers(0, 2 ** 16))
    _refused_or_playable(spec, lambda: game.state_from_notation(changed), "notation", seed)


@pytest.mark.parametrize("spec", [s for _, s in STRUCTURED])
@_SETTINGS
@given(data=st.data())
def test_serialized_mutations_are_refused_or_playable(spec, data):
    """The serialized form of a loaded position (a position line, then steps)."""
    game = engine.load_game(spec, "reference")
    base = data.draw(st.sampled_from(positions(spec)))
    loaded = game.state_from_json(base.to_json())
    rng = random.Random(data.draw(st.integers(0, 1000)))
    for _ in range(data.draw(st.integers(0, 4))):
        if loaded.is_terminal():
            break
        loaded.apply_action(engine.draw_outcome(loaded, rng) if loaded.is_chance_node()
                            else rng.choice(loaded.legal_actions()))
    lines = loaded.serialize().rstrip("\n").split("\n")
    i = data.draw(st.integers(1, len(lines) - 1))
    how = data.draw(st.sampled_from(["json", "line", "drop", "repeat"]))
    if how == "json" and lines[i].startswith("position "):
        view, _ = mutate_json(data, json.loads(lines[i][len("position "):]))
        lines[i] = "position " + json.dumps(view)
    elif how == "drop":
        del lines[i]
    elif how == "repeat":
        lines.insert(i, lines[i])
    else:
        lines[i] = data.draw(st.one_of(st.integers(-2, 800).map(str), st.text(max_size=5)))
    text = "\n".join(lines) + "\n"
    seed = data.draw(st.integers(0, 2 ** 16))
    _refused_or_playable(spec, lambda: game.deserialize_state(text), "serialized", seed)


def test_both_outcomes_were_exercised():
    """Run after the property tests (file order): the mutations must produce
    both refusals and accepted positions, or the property says little."""
    if not STATS:
        pytest.skip("the property tests did not run in this session")
    print("loader property outcomes:", STATS)
    for form in ("json", "notation", "serialized"):
        if any(f == form for f, _ in STATS):
            assert STATS.get((form, "refused"), 0) > 0, STATS
            assert STATS.get((form, "played"), 0) > 0, STATS
