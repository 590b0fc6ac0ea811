"""Action text is read by exact match against the legal actions' texts
(engine/textio.py string_to_action), for every game and both
implementations: case and spacing are the only things forgiven. Text that
names no legal action -- a number shifted out of range, 0 where counting is
1-based, a word cut short, a bare action id -- is refused with the legal
texts listed (the first few and their count) and, when one is close, the
closest.

The property: in positions reached by random play of every game variant,
every legal action's text reads back as that action, and each mutation of
it is refused unless it is another legal action's text (then it reads as
that one)."""
from __future__ import annotations

import random
import re
import sys
import types

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from easel import engine
from easel.engine import textio
from easel.engine.errors import GameSpecError, IllegalActionError

from game_variants import all_variants, implementation_params, seed_for

EXAMPLES = 12          # hypothesis examples per (variant, implementation)


def _legal(state) -> list[int]:
    return ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
            else state.legal_actions())


def _step(state, rng):
    state.apply_action(engine.draw_outcome(state, rng) if state.is_chance_node()
                       else rng.choice(state.legal_actions()))


def _reach(spec, implementation, condition, seed=0, games=20):
    """The first state of random play (seeded) that meets `condition`."""
    game = engine.load_game(spec, implementation)
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if condition(state):
                return state
            _step(state, rng)
    raise AssertionError(f"{spec}: no state met the condition in {games} games")


def _texts(state) -> dict[str, int]:
    return {state.action_to_string(a): a for a in _legal(state)}


# -- the issue's cases, and the same class in every game -------------------------

@pytest.fixture(params=["core", "reference"])
def impl(request):
    return request.param


def _market_turn(state):
    return (not state.is_chance_node()
            and any(t.startswith("buy canvas ") for t in _texts(state)))


def test_starving_artists_buy_canvas_out_of_range_is_refused(impl):
    state = _reach("starving_artists", impl, _market_turn)
    texts = _texts(state)
    buys = sorted(t for t in texts if t.startswith("buy canvas "))
    for t in buys:
        assert state.string_to_action(t) == texts[t]
    for typed in ("buy canvas 0", "buy canvas 35", "buy canvas 4", "buy 1", "buy canvas 1",
                  "buy canvas #0", "buy " + buys[0].split("(")[-1].rstrip(")")):
        with pytest.raises(IllegalActionError) as e:
            state.string_to_action(typed)
        message = str(e.value)
        assert f"{typed!r} is not a legal move here" in message, message
        assert "legal moves: " in message and buys[0] in message, message
    with pytest.raises(IllegalActionError, match=re.escape(f"closest: {buys[0]!r}")):
        state.string_to_action(buys[0].replace("(", "( ").upper() + "x")


def test_the_refusal_lists_a_bounded_number_of_legal_texts(impl):
    state = _reach("vangogh", impl, lambda s: len(_legal(s)) > textio.LISTED_TEXTS + 5)
    texts = [state.action_to_string(a) for a in _legal(state)]
    with pytest.raises(IllegalActionError) as e:
        state.string_to_action("x" * 10_000)
    message = str(e.value)
    assert f"; ... ({len(texts)} in all)" in message
    assert all(t in message for t in texts[:textio.LISTED_TEXTS])
    assert texts[textio.LISTED_TEXTS] not in message
    assert len(message) < 200 + sum(len(t) + 2 for t in texts[:textio.LISTED_TEXTS])


@pytest.mark.parametrize("spec, condition, typed", [
    # bare action ids are not text
    ("connect_four", lambda s: True, "3"),
    ("pig", lambda s: not s.is_chance_node(), "0"),
    ("pig", lambda s: s.is_chance_node(), "4"),
    # Pig's die faces count from 1: "Roll 0" is no face, "Roll 7" none of a d6
    ("pig", lambda s: s.is_chance_node(), "Roll 0"),
    ("pig", lambda s: s.is_chance_node(), "Roll 7"),
    # looser forms the codecs used to read
    ("connect_four", lambda s: True, "x 3"),
    ("vangogh", lambda s: s.is_chance_node() and s.to_json()["phase"] == "setup_cards", "#3"),
    ("vangogh", lambda s: s.is_chance_node() and s.to_json()["phase"] == "setup_cards",
     "card #3"),
    ("vangogh", lambda s: s.is_chance_node() and s.to_json()["phase"] == "setup_cards",
     "placeholder painting 4"),
    ("couleurs_de_paris", lambda s: not s.is_chance_node() and s.to_json()["phase"] == "place",
     "mix orange"),
])
def test_text_that_names_no_legal_action_is_refused(impl, spec, condition, typed):
    state = _reach(spec, impl, condition)
    assert textio.normalise_text(typed) not in {textio.normalise_text(t) for t in _texts(state)}
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="is not a (legal move|possible outcome) here"):
        state.string_to_action(typed)
    assert state.to_json() == before


def test_case_and_spacing_are_forgiven(impl):
    state = _reach("pig", impl, lambda s: s.is_chance_node())
    assert state.string_to_action("  ROLL   4 ") == state.string_to_action("Roll 4") == 3
    state = _reach("couleurs_de_paris", impl,
                   lambda s: any(", " in t for t in _texts(s)))
    text, action = next((t, a) for t, a in _texts(state).items() if ", " in t)
    assert state.string_to_action(text.replace(", ", " ,")) == action
    assert state.string_to_action(text.replace(", ", ",").upper()) == action


def test_a_terminal_state_refuses_every_text(impl):
    game = engine.load_game("connect_four", impl)
    state = game.new_initial_state()
    for a in (0, 1, 0, 1, 0, 1, 0):
        state.apply_action(a)
    assert state.is_terminal()
    with pytest.raises(IllegalActionError, match="'x in column 4' cannot be applied: the game is over"):
        state.string_to_action("x in column 4")


def test_a_codec_that_reads_loose_text_cannot_register():
    from easel.engine.kit import Capabilities, GameEntry, GameHooks
    from easel.engine.registry import register, unregister

    from kit_fakes import facts
    loose = types.ModuleType("loose_codec_for_test")
    loose.action_to_string = lambda view, a: str(a)
    loose.state_to_string = lambda view: ""
    loose.string_to_action = lambda view, text: 0
    sys.modules[loose.__name__] = loose
    try:
        with pytest.raises(GameSpecError, match="defines string_to_action; action text is read "
                                                "by exact match"):
            register(GameEntry(name="loose_nim", long_name="T", description="t",
                               min_players=2, max_players=2, options={},
                               players_option=None, facts=facts,
                               capabilities=Capabilities(),
                               hooks=GameHooks(reference="kit_fakes:NimState",
                                               codec=loose.__name__)))
    finally:
        unregister("loose_nim")
        del sys.modules[loose.__name__]


# -- the property ---------------------------------------------------------------

_POSITIONS: dict = {}


def positions(spec, implementation) -> list:
    """States met in random play (every 5th, ends excluded), a few games."""
    key = (spec, implementation)
    if key not in _POSITIONS:
        game = engine.load_game(spec, implementation)
        rng = random.Random(seed_for("action-text", spec, implementation))
        out = []
        for _ in range(2):
            state = game.new_initial_state()
            k = 0
            while not state.is_terminal() and len(out) < 400:
                if k % 5 == 0:
                    out.append(state.clone())
                _step(state, rng)
                k += 1
        _POSITIONS[key] = out
    return _POSITIONS[key]


_NUMBER = re.compile(r"\d+")


def mutations(text: str, action: int) -> list[str]:
    """Texts a person might type for `text` that are not it: each number
    shifted (by one either way, out of any range), made 0, or dropped; each
    word cut short or dropped; the bare action id."""
    out = {str(action), text + " 1"}
    for m in _NUMBER.finditer(text):
        n = int(m.group())
        for k in {0, n - 1, n + 1, n + 35, n + 1000} - {n}:
            if k >= 0:
                out.add(text[:m.start()] + str(k) + text[m.end():])
        out.add((text[:m.start()] + text[m.end():]).strip())
    words = text.split(" ")
    for i, w in enumerate(words):
        if len(words) > 1:
            out.add(" ".join(words[:i] + words[i + 1:]))
        if len(w) > 1:
            out.add(" ".join(words[:i] + [w[:-1]] + words[i + 1:]))
    out.discard(text)
    return sorted(t for t in out if t.strip())


def check_position(state, data=None):
    legal = _legal(state)
    texts = [state.action_to_string(a) for a in legal]
    normal = {}
    for a, t in zip(legal, texts):
        key = textio.normalise_text(t)
        assert key not in normal, f"{t!r} and {texts[legal.index(normal[key])]!r} read alike"
        normal[key] = a
    for a, t in zip(legal, texts):
        assert state.string_to_action(t) == a, t
        assert state.string_to_action("  " + t.upper().replace(" ", "   ") + "\t") == a, t
    picks = legal if data is None else [data.draw(st.sampled_from(legal), label="action")]
    for a in picks:
        t = state.action_to_string(a)
        for m in mutations(t, a):
            other = normal.get(textio.normalise_text(m))
            if other is not None:
                assert state.string_to_action(m) == other, (t, m)
                continue
            with pytest.raises(IllegalActionError) as e:
                state.string_to_action(m)
            message = str(e.value)
            assert "is not a legal move here" in message or \
                "is not a possible outcome here" in message, message
            assert texts[0] in message, message
            if len(texts) > textio.LISTED_TEXTS:
                assert f"({len(texts)} in all)" in message, message


_SETTINGS = settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
                     suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.mark.parametrize("spec, implementation", implementation_params())
@_SETTINGS
@given(data=st.data())
def test_legal_texts_read_back_and_mutations_are_refused(spec, implementation, data):
    state = data.draw(st.sampled_from(positions(spec, implementation)), label="position")
    check_position(state, data)


def test_the_property_covers_every_game():
    covered = {spec.split("(")[0] for _, spec in all_variants()}
    assert covered == {e.name for e in engine.registered_games()}
    assert {"vangogh", "couleurs_de_paris", "starving_artists", "pig",
            "connect_four"} <= covered


def test_mutations_cover_the_issue_cases():
    m = mutations("buy canvas 1 (Kleine Fee)", 12)
    assert {"buy canvas 0 (Kleine Fee)", "buy canvas 36 (Kleine Fee)",
            "buy canvas 2 (Kleine Fee)", "buy canvas (Kleine Fee)", "buy canvas 1 (Kleine",
            "buy canva 1 (Kleine Fee)", "12"} <= set(m)


def test_a_text_cut_short_names_the_one_it_begins(impl):
    state = _reach("starving_artists(players=1)", impl, _market_turn)
    buy1 = next(t for t in _texts(state) if t.startswith("buy canvas 1 ("))
    with pytest.raises(IllegalActionError, match=re.escape(f"closest: {buy1!r}")):
        state.string_to_action("buy canvas 1")
