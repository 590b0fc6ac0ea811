"""Table notation, generic over every game whose entry declares one.

For each variant and both implementations, random games are played and, at
every state (decisions where a turn begins, mid-turn sub-steps and chance
nodes alike), the notation is written, read back into a state through
`game.state_from_notation`, and that state must be the same position: the
same JSON view, and the same notation written again. Games without a
notation must say so by name.
"""
from __future__ import annotations

import random

import pytest

from easel import engine
from easel.engine.errors import StateFormatError

from game_variants import all_variants, seed_for

# Every position of each game. The notation's reader and writer are the
# game's own Python, whichever implementation holds the state, and the
# differential suite holds the two implementations' views equal: the core
# plays one game, for its own loading from the view.
GAMES_PER_VARIANT = {"core": 1, "reference": 2}


def declares_notation(entry) -> bool:
    return entry.capabilities.notation


def _params():
    out = []
    for entry, spec in all_variants():
        if not declares_notation(entry):
            continue
        for impl in ("core", "reference"):
            if impl == "core" and not entry.has_core:
                continue
            out.append(pytest.param(spec, impl, id=f"{spec}-{impl}"))
    return out


NOTATION_PARAMS = _params()
WITHOUT_NOTATION = [e.name for e in engine.registered_games() if not declares_notation(e)]


def test_some_game_declares_notation():
    assert NOTATION_PARAMS, "no registered game declares a table notation"


@pytest.mark.parametrize("spec,impl", NOTATION_PARAMS)
def test_round_trip_in_random_play(spec, impl):
    game = engine.load_game(spec, impl)
    rng = random.Random(seed_for("notation", spec, impl))
    checked = 0
    for g in range(GAMES_PER_VARIANT[impl]):
        state = game.new_initial_state()
        while True:
            text = state.to_notation()
            assert isinstance(text, str) and text.strip()
            where = f"{spec} ({impl}) game {g}, history {state.history()}:\n{text}"
            back = game.state_from_notation(text)
            assert back.to_json() == state.to_json(), where
            assert back.to_notation() == text, where
            assert back.current_player() == state.current_player(), where
            assert back.legal_actions() == state.legal_actions(), where
            assert back.chance_outcomes() == state.chance_outcomes(), where
            checked += 1
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(engine.draw_outcome(state, rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 0


@pytest.mark.parametrize("spec,impl", NOTATION_PARAMS)
def test_notation_state_plays_on_like_the_original(spec, impl):
    """A state read from notation continues exactly as the original does."""
    game = engine.load_game(spec, impl)
    rng = random.Random(seed_for("notation-continue", spec, impl))
    state = game.new_initial_state()
    for _ in range(40):
        if state.is_terminal():
            break
        state.apply_action(engine.draw_outcome(state, rng) if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
    back = game.state_from_notation(state.to_notation())
    steps = 0
    while not state.is_terminal():
        a = (engine.draw_outcome(state, rng) if state.is_chance_node()
             else rng.choice(state.legal_actions()))
        state.apply_action(a)
        back.apply_action(a)
        assert back.to_json() == state.to_json()
        steps += 1
    assert back.is_terminal() and back.returns() == state.returns()


@pytest.mark.parametrize("spec,impl", NOTATION_PARAMS[:2])
@pytest.mark.parametrize("text", [42, "", "nonsense words", "round x"])
def test_bad_text_is_refused_with_a_named_error(spec, impl, text):
    game = engine.load_game(spec, impl)
    with pytest.raises(StateFormatError) as e:
        game.state_from_notation(text)
    assert str(e.value)


@pytest.mark.parametrize("name", WITHOUT_NOTATION)
@pytest.mark.parametrize("impl", ["core", "reference"])
def test_games_without_notation_say_so(name, impl):
    entry = engine.game_entry(name)
    if impl == "core" and not entry.has_core:
        pytest.skip(f"{name} has no core")
    game = engine.load_game(name, impl)
    with pytest.raises(StateFormatError, match=f"{name} has no table notation"):
        game.new_initial_state().to_notation()
    with pytest.raises(StateFormatError, match=f"{name} has no table notation"):
        game.state_from_notation("anything")


def _writes_derived(spec) -> bool:
    """Whether the game's notation writer can also write the derived parts
    (`write(game, view, derived=True)`, docs/table-notation.md)."""
    import inspect
    from easel.engine.kit import load_hook
    entry = engine.parse_game_string(spec)[0]
    return "derived" in inspect.signature(load_hook(entry, "notation").write).parameters


@pytest.mark.parametrize("spec,impl", NOTATION_PARAMS)
def test_derived_parts_written_anyway_load_the_same_position(spec, impl):
    """docs/table-notation.md: `to_notation()` writes the shortest form (the
    round trip above); a person may write the derived parts too, and the
    notation then loads the same position (and is never the shorter)."""
    if not _writes_derived(spec):
        pytest.skip(f"{spec}: the notation's writer does not write the derived parts")
    from easel.engine.kit import load_hook
    game = engine.load_game(spec, impl)
    hook = load_hook(game.entry, "notation")
    rng = random.Random(seed_for("notation-derived", spec, impl))
    state = game.new_initial_state()
    k = 0
    while True:
        if k % 4 == 0:
            view = state.to_json()
            full = hook.write(game, view, derived=True)
            short = state.to_notation()
            assert len(short) <= len(full), f"{spec}: the shortest form is longer:\n{short}"
            assert game.state_from_notation(full).to_json() == view, full
        if state.is_terminal():
            break
        state.apply_action(engine.draw_outcome(state, rng) if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
        k += 1


# -- what a person need not write (docs/table-notation.md) ----------------------------

def _derived_keywords(entry):
    """The keywords of the parts a game's notation derives (its module's
    DERIVED), or None for a notation that does not say."""
    if not declares_notation(entry):
        return None
    from easel.engine.kit import load_hook
    return getattr(load_hook(entry, "notation"), "DERIVED", None)


DERIVING = [pytest.param(e.name, n, id=f"{e.name}-{n}") for e in engine.registered_games()
            if _derived_keywords(e) for n in range(e.min_players, e.max_players + 1)]


@pytest.mark.parametrize("name,players", DERIVING)
def test_derived_parts_are_left_out_and_come_back(name, players):
    """For every player count: the notation of random reachable positions
    writes none of the derived parts, and reads back to the same position up
    to hidden order (the game's `canonical`, when its view holds an order
    nobody at the table sees)."""
    entry = engine.game_entry(name)
    game = engine.load_game(f"{name}(players={players})", "reference")
    module = __import__(entry.hooks.notation, fromlist=["DERIVED"])
    same = getattr(module, "canonical", lambda view: view)
    rng = random.Random(seed_for("notation-derived", name, str(players)))
    state, k = game.new_initial_state(), 0
    while not state.is_terminal():
        if k % 11 == 0:
            text = state.to_notation()
            keys = {line.split()[0].lower() for line in text.splitlines() if line.strip()}
            assert not keys & set(module.DERIVED), text
            assert same(game.state_from_notation(text).to_json()) == same(state.to_json()), text
        state.apply_action(engine.draw_outcome(state, rng) if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
        k += 1
