"""Van Gogh positions as a client sends them: loaded states serialize and
round-trip, the loader refuses what play cannot reach (naming the field), the
roll option refuses bad weights, Eugene's excess is the player's choice, and
every id has a text."""
from __future__ import annotations

import random
import re

import pytest

from easel import engine
from easel.engine import GameSpecError, IllegalActionError, StateFormatError
from easel.engine.vangogh.rules import parse_roll

from vg_helpers import IMPLS, act, chance, edit, frame_cards, legal_texts, phase, start


@pytest.fixture(params=IMPLS)
def impl(request):
    return request.param


def _played(spec, impl, steps, seed=1):
    game = engine.load_game(spec, impl)
    s = game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        s.apply_action(engine.draw_outcome(s, rng) if s.is_chance_node()
                       else rng.choice(s.legal_actions()))
    return game, s


# ---------------------------------------------------------- serialize, history
def test_loaded_state_serializes_and_round_trips(impl):
    game, s = _played("vangogh", impl, 60)
    loaded = game.state_from_json(s.to_json())
    assert loaded.history() == [] and loaded.move_number() is None     # unknown, not 0
    text = loaded.serialize()
    assert "\nposition {" in text
    back = game.deserialize_state(text)
    assert back == loaded and back.to_json() == s.to_json()
    rng = random.Random(2)
    for _ in range(10):
        a = (engine.draw_outcome(loaded, rng) if loaded.is_chance_node()
             else rng.choice(loaded.legal_actions()))
        loaded.apply_action(a)
        s.apply_action(a)
    back = game.deserialize_state(loaded.serialize())
    assert back.to_json() == s.to_json() and back.history() == loaded.history()
    assert back.serialize() == loaded.serialize()


def test_move_number_carried_by_the_position(impl):
    game, s = _played("vangogh", impl, 30)
    view = dict(s.to_json(), move_number=30)
    loaded = game.state_from_json(view)
    assert loaded.move_number() == 30 == s.move_number()
    loaded.apply_action(loaded.legal_actions()[0] if not loaded.is_chance_node()
                        else loaded.chance_outcomes()[0][0])
    again = game.deserialize_state(loaded.serialize())
    assert again.move_number() == 31 and again.to_json() == loaded.to_json()
    with pytest.raises(StateFormatError, match="move_number"):
        game.state_from_json(dict(s.to_json(), move_number=-1))


def test_played_state_serializes_as_a_record(impl):
    game, s = _played("vangogh", impl, 25)
    assert "position" not in s.serialize() and s.move_number() == 25
    assert game.deserialize_state(s.serialize()) == s


# ------------------------------------------------------------------ the loader
def _refused(impl, fn, field, spec="vangogh"):
    s = start(spec, impl)
    with pytest.raises(StateFormatError, match=re.escape(f"field '{field}'")):
        edit(s, fn)


def test_too_many_active_minigoghs(impl):
    def fn(v):
        v["palettes"][0]["active"] = ["yellow-upright"] * 4 + ["blue-upright"] * 4
    _refused(impl, fn, "palettes[0].active")


def test_turn_past_the_end_of_the_round(impl):
    def fn(v):
        v["turn"] = 5
    _refused(impl, fn, "turn")


def test_end_phase_in_round_one_without_the_end(impl):
    def fn(v):
        v["phase"] = "end"
        v["turn"] = 5
        for c in (0, 1, 4, 5):
            v["characters"][c]["taken"] = 1
        v["turn_player"] = 1
    _refused(impl, fn, "phase")


def test_no_open_painting_while_the_deck_has_cards(impl):
    def fn(v):
        v["deck"].append(v["paintings"][0]["card"])
        v["deck"].sort()
        v["paintings"][0] = {"card": -1, "occupants": []}
    _refused(impl, fn, "paintings[0].card")


def test_solo_only_phase_in_multiplayer(impl):
    def fn(v):
        v["phase"] = "brush"
        v["pending"]["resume"] = "choose"
        v["pending"]["act_player"] = 0
        v["brush_used"] = 1
    _refused(impl, fn, "phase")


def test_ability_open_to_a_player_who_never_took_anna(impl):
    def fn(v):
        v["ability_player"] = 0
    _refused(impl, fn, "ability_player")


def test_step_with_nothing_to_do_is_refused(impl):
    def fn(v):      # Van Gogh's step with nothing to paint: the action would have ended
        v["phase"] = "step"
        v["characters"][0]["taken"] = 1
        v["pending"].update(act_player=0, act_char="Van Gogh", act_primary=1, steps_left=2)
        v["palettes"][0]["active"] = []
    _refused(impl, fn, "phase")


def test_chance_node_with_nothing_to_draw_is_refused(impl):
    def fn(v):      # Madame Ginoux's roll with nothing kept to roll
        v["phase"] = "roll"
        v["characters"][2]["taken"] = 1
        v["pending"].update(act_player=0, act_char="Madame Ginoux", act_primary=1)
    _refused(impl, fn, "phase")


def test_score_no_game_reaches(impl):
    def fn(v):
        v["scores"] = [99999, 0]
    _refused(impl, fn, "scores[0]")


def test_current_player_must_agree(impl):
    s = start("vangogh", impl)
    view = s.to_json()
    view["current_player"] = 1
    with pytest.raises(StateFormatError, match="field 'current_player'"):
        s.get_game().state_from_json(view)


def test_finished_count_must_match_the_framed_cards(impl):
    def fn(v):
        v["finished"] = 2
    _refused(impl, fn, "finished")


# ---------------------------------------------------------------- roll option
@pytest.mark.parametrize("text,why", [
    ("1--2-1-1", "empty"), ("-1-1-1-1", "empty"), ("1-1-1-", "empty"), ("1-1-1", "4 weights"),
    ("inf-1-1-1", "not finite"), ("nan-1-1-1", "not finite"), ("1e400-1-1-1", "not finite"),
    ("1e308-1e308-1e308-1e308", "overflows"), ("0-0-0-0", "positive"), ("a-1-1-1", "number")])
def test_roll_weights_refused_with_a_named_error(text, why):
    with pytest.raises(GameSpecError, match=f"option 'roll'.*{why}"):
        engine.load_game(f"vangogh(roll={text})")


def test_roll_canonical_string_reads_as_the_weights():
    game = engine.load_game("vangogh(roll=4;2;1;0)")
    again = engine.load_game(game.spec)
    assert parse_roll(again.params["roll"]) == parse_roll("4-2-1-0") == (4 / 7, 2 / 7, 1 / 7, 0.0)


# ------------------------------------------------------- Eugene's excess (R16)
def _eugene_scene(impl, free):
    def fn(v):
        v["table"] = ["blue-upright", "pink-sideway", "green-lying down", "green-lying down",
                      "purple-upside down"]
        v["palettes"][0]["active"] = (["white-upright"] * 3 + ["yellow-sideway"] * 4)[free:]
        for pal in v["palettes"][1:]:
            pal["active"] = []
    from test_vangogh_rules import _clear
    s = start("vangogh", impl)
    return edit(s, lambda v: (_clear(v), fn(v)))


def test_eugene_keeps_one_returns_the_other_of_his_choice(impl):
    s = _eugene_scene(impl, free=1)
    act(s, "choose Eugene")
    assert phase(s) == "eugene_take" and "take pink-sideway" in legal_texts(s)
    bag = s.to_json()["bag"]["blue"]
    act(s, "take pink-sideway")                       # kept
    assert "take blue-upright and return it to the bag" in legal_texts(s)
    act(s, "take blue-upright and return it to the bag")
    v = s.to_json()
    assert v["palettes"][0]["active"].count("pink-sideway") == 1
    assert "blue-upright" not in v["palettes"][0]["active"]
    assert v["bag"]["blue"] == bag + 1 and phase(s) == "refill"


def test_eugene_with_a_full_palette_churns_the_table(impl):
    s = _eugene_scene(impl, free=0)
    act(s, "choose Eugene")
    assert phase(s) == "eugene_take"
    act(s, "take green-lying down and return it to the bag")
    act(s, "take purple-upside down and return it to the bag")
    v = s.to_json()
    assert len(v["table"]) == 3 and phase(s) == "refill"
    chance(s, "yellow-upright")
    chance(s, "yellow-upright")
    assert len(s.to_json()["table"]) == 5


def test_eugene_secondary_needs_a_free_space(impl):
    s = _eugene_scene(impl, free=2)
    v = s.to_json()
    assert v["palettes"][1]["active"] == []
    act(s, "choose Eugene")
    act(s, "take blue-upright")
    act(s, "take pink-sideway")
    while s.is_chance_node():
        chance(s, s.chance_outcomes()[0][0])
    assert s.current_player() == 1 and phase(s) == "eugene_take"


# ----------------------------------------------------------------- texts
def test_every_id_has_a_text_on_both_implementations():
    game_c = engine.load_game("vangogh(players=3,colors=yellow-pink-blue)", "core")
    game_r = engine.load_game("vangogh(players=3,colors=yellow-pink-blue)", "reference")
    rng = random.Random(7)
    c, r = game_c.new_initial_state(), game_r.new_initial_state()
    seen = 0
    while not c.is_terminal():
        if rng.random() < 0.08 or c.is_chance_node() and rng.random() < 0.1:
            size = (game_c.max_chance_outcomes() if c.is_chance_node()
                    else game_c.num_distinct_actions())
            for a in range(size):
                text = c.action_to_string(a)
                assert text and text == r.action_to_string(a), a
            for bad in (-1, size):
                with pytest.raises(IllegalActionError):
                    c.action_to_string(bad)
                with pytest.raises(IllegalActionError):
                    r.action_to_string(bad)
            seen += 1
        a = engine.draw_outcome(c, rng) if c.is_chance_node() else rng.choice(c.legal_actions())
        c.apply_action(a)
        r.apply_action(a)
    assert seen > 3
    for a in range(game_c.num_distinct_actions()):
        assert c.action_to_string(a) == r.action_to_string(a)


def test_chance_texts_name_the_card_and_the_slot(impl):
    s = engine.load_game("vangogh", impl).new_initial_state()
    a = s.chance_outcomes()[3][0]
    name = s.to_json()["card_names"][a]
    assert name == f"Placeholder painting {a + 1}"      # the shipped deck file's name
    text = s.action_to_string(a)
    assert text == f'deck: "{name}" (#{a}) onto painting 1'
    assert s.string_to_action(text) == a
    assert s.string_to_action(text.upper()) == a
    # only the text itself reads (engine/textio.py): an id, a name alone or
    # another slot's text is refused, naming the closest
    for typed in (f"#{a}", f"card #{a}", f"deck: card #{a} onto painting 1", name.upper(),
                  text.replace("painting 1", "painting 2")):
        with pytest.raises(IllegalActionError, match="is not a possible outcome here"):
            s.string_to_action(typed)
    last = s.get_game().max_chance_outcomes() - 1        # an id past the deck file
    assert s.action_to_string(last) == f"deck: card #{last} (not in the deck file) onto painting 1"


def test_chance_texts_name_cards_of_a_deck_file_unambiguously(impl, tmp_path):
    # two cards share a name, one has quotes in it: the texts stay one per
    # outcome and read back; a name alone reads as none
    import json
    cards = [{"id": i, "name": name, "frame": [5, 3, 1],
              "spaces": [{"orientation": "upright"}, {"orientation": "lying down"},
                         {"orientation": "sideway"}, {"orientation": "upside down"}]}
             for i, name in enumerate(["Sunflowers", "Sunflowers", 'The "Yellow" House',
                                       "Irises", "Wheatfield"])]
    deck = tmp_path / "deck.json"
    deck.write_text(json.dumps({"cards": cards}))
    s = engine.load_game(f"vangogh(deck={deck})", impl).new_initial_state()
    outcomes = [a for a, _ in s.chance_outcomes()]
    texts = [s.action_to_string(a) for a in outcomes]
    assert len(set(texts)) == len(texts) == 5
    assert 'deck: "Sunflowers" (#0) onto painting 1' in texts
    assert 'deck: "The \\"Yellow\\" House" (#2) onto painting 1' in texts
    assert [s.string_to_action(t) for t in texts] == outcomes
    for typed in ("irises", "Sunflowers"):              # a name alone is no outcome's text
        with pytest.raises(IllegalActionError, match="is not a possible outcome here"):
            s.string_to_action(typed)
    # the view carries the deck's names; a view of another deck is refused
    v = s.to_json()
    assert v["card_names"] == [c["name"] for c in cards]
    v["card_names"][3] = "Starry Night"
    with pytest.raises(StateFormatError, match="field 'card_names'"):
        s.get_game().state_from_json(v)


def test_ginoux_roll_names_the_colour(impl):
    def fn(v):
        v["palettes"][0]["active"] = []
    s = edit(start("vangogh", impl), fn)
    act(s, "choose Madame Ginoux")
    chance(s, "blue")
    chance(s, "green")
    chance(s, "blue")
    act(s, "keep green")
    act(s, "keep blue")
    assert phase(s) == "roll"
    assert s.action_to_string(2) == "roll blue: upright"
    chance(s, 2)
    assert s.action_to_string(0) == "roll green: lying down"


def test_pink_text_names_the_minigogh_and_where_it_goes(impl):
    s = edit(start("vangogh(colors=pink-yellow)", impl),
             lambda v: v["palettes"][0].update(active=["blue-upright"]))
    act(s, "choose Anna")
    texts = legal_texts(s)
    assert "pink ability: turn blue-upright to sideway" in texts
    assert "pink ability: turn pink-lying down on inactive space 1 to upright" in texts


def test_encoding_examples_load():
    """The notation examples in ENCODING.md are positions the loader accepts."""
    import os
    import re as _re
    here = os.path.dirname(os.path.abspath(engine.__file__))
    text = open(os.path.join(here, "vangogh", "ENCODING.md")).read()
    part = text[text.index("Examples (positions"):text.index("### Before and after")]
    blocks = _re.findall(r"```\n(.*?)```", part, _re.S)
    assert len(blocks) == 3
    for block, spec in zip(blocks, ["vangogh", "vangogh", "vangogh(players=1)"]):
        for impl in IMPLS:
            s = engine.load_game(spec, impl).state_from_notation(block)
            assert s.to_notation() == block


def test_mcts_does_not_reuse_a_tree_across_loaded_positions():
    """Two loaded positions both have an empty history; the bot must not take
    the second for a continuation of the first."""
    from easel.search.mcts import MCTSBot
    game, a = _played("vangogh", "core", 40, seed=3)
    _, b = _played("vangogh", "core", 70, seed=4)
    a = engine.play_chance(game.state_from_json(a.to_json()), random.Random(1))
    b = engine.play_chance(game.state_from_json(b.to_json()), random.Random(1))
    assert a.history() == b.history() == [] and a != b
    bot = MCTSBot(game, iterations=50, seed=1)
    bot.step(a)
    move = bot.step(b)
    assert move in b.legal_actions() and bot._searches == 2
    b.apply_action(move)                # a continuation of b (no chance): the tree is reused
    if not b.is_terminal() and not b.is_chance_node():
        bot.step(b)
        assert bot._searches == 2
