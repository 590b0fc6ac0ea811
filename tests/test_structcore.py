"""The shared face of the field-table struct cores (engine/structcore.py):
the player read from struct bytes, the rules made once a game, and the view
both ways for every such game. The views' agreement with the reference,
field by field, is the fields suites' (tests/*/test_*fields.py)."""
import pytest

from easel import engine
from easel.engine.structcore import RulesOnly, cached_rules
from reachable import positions_in_play

STRUCT_GAMES = ["vangogh(players=2)", "couleurs_de_paris(players=3)",
                "starving_artists(players=1)", "starving_artists(players=4)"]


def _positions(game):
    """States along two random games, their ends included."""
    return positions_in_play(game, lambda s, rng: rng.choice(s.legal_actions()), every=11)


@pytest.mark.parametrize("spec", STRUCT_GAMES)
def test_player_of_reads_the_struct(spec):
    game = engine.load_game(spec, implementation="core")
    for s in _positions(game):
        assert game.core.player_of(s.raw()) == s.current_player()


@pytest.mark.parametrize("spec", STRUCT_GAMES)
def test_player_of_refuses_bytes_of_another_size(spec):
    game = engine.load_game(spec, implementation="core")
    raw = game.new_initial_state().raw()
    with pytest.raises(ValueError, match=f"expected {len(raw)}"):
        game.core.player_of(raw[:-1])


@pytest.mark.parametrize("spec", STRUCT_GAMES)
def test_view_round_trips_through_the_face(spec):
    game = engine.load_game(spec, implementation="core")
    for s in _positions(game):
        view = s.to_json()
        again = game.state_from_json(view)
        assert again.to_json() == view
        if s.current_player() >= 0:
            # At a chance node or the end a struct may keep a field the
            # rules do not read there (Couleurs de Paris' `cur`, which the
            # view shows only at a decision); at a decision every byte counts.
            assert again.raw() == s.raw()


def test_rules_are_made_once_a_game():
    made = []

    def make(params):
        made.append(params)
        return object()

    class Game:
        params = {"players": 2}

    g = Game()
    assert cached_rules(g, make) is cached_rules(g, make)
    assert len(made) == 1
    held = object()
    assert cached_rules(RulesOnly({}, held), make) is held
    assert len(made) == 1
