"""Game strings and the registry: every bad string is refused with a
GameSpecError whose message names the problem; good strings have one
canonical form, the same for both implementations."""
from __future__ import annotations

import dataclasses

import pytest

from easel import engine
from easel.engine import GameSpecError
from easel.engine.kit import GameEntry, Option

from game_variants import all_variants


@pytest.mark.parametrize("spec, named", [
    ("", "malformed"),
    ("   ", "malformed"),
    ("pig(players=3", "malformed"),
    ("pig)players=3(", "malformed"),
    ("pig(players=3)(piglet=true)", r"3\)\(piglet=true"),
    ("pig players=3", "malformed"),
    ("pig-game", "malformed"),
    ("Pig", "malformed game name"),
    ("2pig", "malformed game name"),
    ("pig(players)", "expected option=value"),
    ("pig(players=3,,piglet=true)", "expected option=value"),
    ("pig(=3)", "unknown option ''"),
])
def test_malformed_strings(spec, named):
    with pytest.raises(GameSpecError, match=named) as info:
        engine.load_game(spec)
    message = str(info.value)
    assert repr(spec) in message or repr(spec.split("(")[0]) in message or \
        message.startswith(spec.split("(")[0] + ":"), message


def test_not_a_string():
    for spec in (None, 3, b"pig", ["pig"]):
        with pytest.raises(GameSpecError, match="must be text"):
            engine.load_game(spec)


def test_unknown_game_names_it_and_lists_the_known_ones():
    with pytest.raises(GameSpecError) as info:
        engine.load_game("chess(players=2)")
    message = str(info.value)
    assert "unknown game 'chess'" in message
    for entry in engine.registered_games():
        assert entry.name in message


@pytest.mark.parametrize("spec, fragments", [
    ("pig(colour=red)", ["unknown option 'colour'", "players", "piglet"]),
    ("connect_four(players=2)", ["unknown option 'players'", "none"]),
    ("pig(players=three)", ["players", "needs an int", "'three'"]),
    ("pig(players=2.5)", ["players", "needs an int"]),
    ("pig(piglet=maybe)", ["piglet", "needs a bool", "'maybe'"]),
    ("pig(players=1)", ["players", "between 2 and 10"]),
    ("pig(players=11)", ["players", "between 2 and 10"]),
    ("pig(diceoutcomes=1)", ["diceoutcomes", "between 2 and 64"]),
    ("pig(players=2,players=3)", ["'players' given twice"]),
    ("pig(players=3, players=3)", ["'players' given twice"]),
])
def test_bad_options_name_the_problem(spec, fragments):
    with pytest.raises(GameSpecError) as info:
        engine.parse_game_string(spec)
    for fragment in fragments:
        assert fragment in str(info.value), f"{spec}: {fragment!r} not in {str(info.value)!r}"


def test_game_spec_error_is_a_value_error():
    # Callers that only know ValueError still catch it; EaselError marks it ours.
    assert issubclass(GameSpecError, ValueError)
    assert issubclass(GameSpecError, engine.EaselError)


@pytest.mark.parametrize("spec, canonical", [
    ("pig", "pig"),
    ("pig()", "pig"),
    ("  pig  ", "pig"),
    ("pig(players=2)", "pig"),                          # a default is left out
    ("pig(players=3)", "pig(players=3)"),
    ("pig( piglet = TRUE , players=3 )", "pig(piglet=true,players=3)"),
    ("pig(players=3,piglet=yes)", "pig(piglet=true,players=3)"),
    ("pig(piglet=false)", "pig"),
    ("pig(winscore=20,diceoutcomes=3)", "pig(diceoutcomes=3,winscore=20)"),
    ("connect_four", "connect_four"),
    ("connect_four()", "connect_four"),
])
def test_canonical_strings(spec, canonical):
    entry, params = engine.parse_game_string(spec)
    assert entry.canonical_string(params) == canonical
    for implementation in ("core", "reference"):
        assert engine.load_game(spec, implementation=implementation).spec == canonical


@pytest.mark.parametrize("entry, spec", [pytest.param(e, s, id=s) for e, s in all_variants()])
def test_canonical_string_round_trip(entry, spec):
    """The canonical string reads back to the same parameters, for every variant
    the randomized suites run, whichever implementation loads it."""
    parsed_entry, params = engine.parse_game_string(spec)
    assert parsed_entry is entry
    assert entry.canonical_string(params) == spec
    assert engine.parse_game_string(spec)[1] == params
    impls = ["reference"] + (["core"] if entry.has_core else [])
    for implementation in impls:
        game = engine.load_game(spec, implementation=implementation)
        assert game.spec == spec and game.params == params and game.name == entry.name


def test_every_registered_game_is_described():
    entries = engine.registered_games()
    assert [e.name for e in entries] == sorted(e.name for e in entries)
    assert {"connect_four", "pig"} <= {e.name for e in entries}
    for e in entries:
        assert engine.game_entry(e.name) is e
        assert e.long_name and e.description
        assert 1 <= e.min_players <= e.max_players <= 10
        for name, option in e.options.items():
            assert option.doc, f"{e.name}: option {name} has no description"
            assert option.type in (int, float, bool, str)
            option.validate(e.name, name, option.default)      # the default is valid
        if e.players_option is not None:
            assert e.players_option in e.options


@pytest.mark.parametrize("implementation", ["fast", "Core", "", None, "python"])
def test_bad_implementation(implementation):
    with pytest.raises(GameSpecError, match="unknown implementation") as info:
        engine.load_game("pig", implementation=implementation)
    assert repr(implementation) in str(info.value)
    assert "'core'" in str(info.value) and "'reference'" in str(info.value)


def test_both_implementations_load():
    for implementation in ("core", "reference"):
        game = engine.load_game("pig(players=3)", implementation=implementation)
        assert game.implementation == implementation
        assert game.num_players() == 3


def test_missing_core_points_to_the_reference():
    from kit_fakes import fake_game
    with fake_game("only_reference"):
        with pytest.raises(GameSpecError, match="no core implementation") as info:
            engine.load_game("only_reference")
    assert "reference" in str(info.value)


def test_cross_option_check(monkeypatch):
    from easel.engine import registry
    pig = engine.game_entry("pig")
    checked = dataclasses.replace(
        pig, name="checked_pig",
        check=lambda p: "winscore must exceed diceoutcomes"
        if p["winscore"] <= p["diceoutcomes"] else None)
    monkeypatch.setitem(registry._REGISTRY, "checked_pig", checked)
    assert engine.parse_game_string("checked_pig(winscore=7)")[1]["winscore"] == 7
    with pytest.raises(GameSpecError, match="checked_pig: winscore must exceed diceoutcomes"):
        engine.parse_game_string("checked_pig(winscore=6)")


def test_register_twice_is_refused():
    from easel.engine import registry
    with pytest.raises(ValueError, match="registered twice"):
        registry.register(engine.game_entry("pig"))


def test_unbalanced_parentheses_are_malformed():
    from easel import engine
    for spec in ("pig(players=3)(piglet=true)", "pig(players=(3)", "pig(players=3))"):
        with pytest.raises(engine.GameSpecError, match="misplaced parentheses"):
            engine.load_game(spec)
