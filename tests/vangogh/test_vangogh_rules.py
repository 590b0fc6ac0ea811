"""Van Gogh rule scenarios: one test (or a few) per rulebook clause and per
ruling in engine/vangogh/RULINGS.md, the rulebook's worked examples verbatim.
Each runs on every available implementation (the reference, and the core
once it exists)."""
from __future__ import annotations

import json

import pytest

from easel import engine
from easel.engine import DataFileError, GameSpecError, IllegalActionError, StateFormatError
from easel.engine.vangogh.reference import majority_points, solo_utility

from vg_helpers import (frame_cards, IMPLS, act, chance, edit, legal_texts, load, phase, set_painting,
                        start)

pytestmark = pytest.mark.parametrize("impl", IMPLS)


def _table(view, pieces):
    view["table"] = list(pieces)


def _clear(view):
    """An empty, predictable table: paintings 3/0/1 empty, palettes and table given later."""
    set_painting(view, 0, 3)   # lying, sideway, upright, lying, sideway; frame 7/4/2
    set_painting(view, 1, 0)   # upright, upright, lying, sideway; frame 5/3/1
    set_painting(view, 2, 1)   # upright, lying, lying, upside down; frame 5/3/1
    for pal in view["palettes"]:
        pal["active"] = []
    view["table"] = ["yellow-lying down", "blue-lying down", "pink-lying down",
                     "green-lying down", "purple-lying down"]
    for ch in view["characters"]:
        ch["waiting"] = []


def scene(impl, spec="vangogh", fn=None, seed=0):
    s = start(spec, impl, seed)

    def change(v):
        _clear(v)
        if fn:
            fn(v)
    return edit(s, change)


def done_all(s):
    """Decline every remaining step of the current turn's actions."""
    while phase(s) == "step":
        act(s, "done")


# -------------------------------------------------------------------- setup
def test_setup_components(impl):
    s = start("vangogh(players=3)", impl)
    v = s.to_json()
    assert v["phase"] == "choose" and v["round"] == 1 and v["turn_player"] == 0
    assert all(p["card"] >= 0 for p in v["paintings"]) and len(v["deck"]) == 12
    assert len(v["table"]) == 5
    for p, pal in enumerate(v["palettes"]):
        assert len(pal["active"]) == 2
        colour = pal["color"]
        # R14: inactive spaces hold the player's colour, lying down / sideway / upright.
        assert pal["inactive"] == [f"{colour}-lying down", f"{colour}-sideway",
                                   f"{colour}-upright"]
    assert v["whites"] == 5 and v["scores"] == [0, 0, 0] and v["token_holder"] == -1
    # R1: 11 per colour = score token + 10 in play; played colours put 3 on the palette.
    assert sum(v["bag"].values()) == 3 * 7 + 2 * 10 - 5 - 6


def test_setup_chance_probabilities(impl):
    g = load("vangogh(players=2,roll=4-2-1-1)", impl)
    s = g.new_initial_state()
    cards = s.chance_outcomes()
    assert [a for a, _ in cards] == list(range(15))
    assert all(abs(p - 1 / 15) < 1e-12 for _, p in cards)
    for a in (4, 9, 14):
        s.apply_action(a)
    assert phase(s) == "setup_table"
    out = dict(s.chance_outcomes())
    # bag: yellow 7, blue 7, pink 10, green 10, purple 10 = 44
    assert abs(out[0 * 4 + 0] - 7 / 44 * 0.5) < 1e-12        # yellow lying down
    assert abs(out[2 * 4 + 3] - 10 / 44 * 0.125) < 1e-12     # pink upside down
    assert abs(sum(out.values()) - 1) < 1e-12
    assert [p["card"] for p in s.to_json()["paintings"]] == [4, 9, 14]


def test_starting_player_option_and_round_one_without_token(impl):
    s = start("vangogh(players=3,start=2)", impl)
    assert s.current_player() == 2
    assert "choose Anna" in legal_texts(s)      # R7: nobody holds the token in round 1


# ------------------------------------------------------------ rounds, turns
def test_two_players_choose_twice_a_round(impl):
    s = scene(impl)
    choosers = []
    for _ in range(4):
        choosers.append(s.current_player())
        act(s, "choose Dr. Gachet" if "choose Dr. Gachet" in legal_texts(s) else
            next(t for t in legal_texts(s) if t.startswith("choose") and "Ginoux" not in t
                 and "Eugene" not in t))
        done_all(s)
    assert choosers == [0, 1, 0, 1]
    assert s.to_json()["round"] == 1 and phase(s) == "eor"


def test_each_character_once_per_round(impl):
    s = scene(impl, "vangogh(players=3)")
    act(s, "choose Dr. Gachet")
    done_all(s)
    assert s.current_player() == 1 and "choose Dr. Gachet" not in legal_texts(s)


def test_secondary_actions_clockwise(impl):
    def fn(v):
        for pal in v["palettes"]:
            pal["active"] = ["pink-upright"]
    s = scene(impl, "vangogh(players=4,start=2)", fn)
    act(s, "choose Dr. Gachet")
    order = [s.current_player()]
    act(s, "done")
    while phase(s) == "step":
        order.append(s.current_player())
        act(s, "done")
    assert order == [2, 3, 0, 1]
    assert s.current_player() == 3 and phase(s) == "choose"


# --------------------------------------------------------------- characters
def test_van_gogh_primary_two_paints_secondary_one(impl):
    def fn(v):
        v["palettes"][0]["active"] = ["yellow-lying down", "blue-upright"]
        v["palettes"][1]["active"] = ["pink-sideway"]
    s = scene(impl, "vangogh", fn)
    act(s, "choose Van Gogh")
    act(s, "Van Gogh: paint yellow-lying down on painting 1, space 1")
    act(s, "Van Gogh: paint blue-upright on painting 1, space 3")
    assert s.current_player() == 1                  # secondary: player 1 paints once
    act(s, "Van Gogh: paint pink-sideway on painting 1, space 2")
    v = s.to_json()
    assert v["scores"] == [3 + 4, 2]                # own 3, opponent 4, uncontrolled 2
    assert v["paintings"][0]["occupants"][:3] == ["yellow-lying down", "pink-sideway",
                                                  "blue-upright"]
    assert v["phase"] == "choose" and v["turn_player"] == 1


def test_paint_needs_the_orientation(impl):
    def fn(v):
        v["palettes"][0]["active"] = ["yellow-lying down"]
    s = scene(impl, "vangogh", fn)
    act(s, "choose Van Gogh")
    texts = legal_texts(s)
    assert "Van Gogh: paint yellow-lying down on painting 1, space 1" in texts
    assert not any("painting 1, space 2" in t for t in texts)     # sideway space
    assert not any("painting 2, space 1" in t for t in texts)     # upright space
    with pytest.raises(IllegalActionError):
        act(s, "Van Gogh: paint yellow-lying down on painting 1, space 3")


def test_van_gogh_may_stop_after_one(impl):
    def fn(v):
        v["palettes"][0]["active"] = ["yellow-lying down", "yellow-lying down"]
    s = scene(impl, "vangogh", fn)
    act(s, "choose Van Gogh")
    act(s, "Van Gogh: paint yellow-lying down on painting 1, space 1")
    act(s, "done")
    assert s.to_json()["palettes"][0]["active"] == ["yellow-lying down"]


def test_gachet_reorients_two_then_one(impl):
    def fn(v):
        v["palettes"][0]["active"] = ["yellow-lying down", "blue-sideway"]
        v["palettes"][1]["active"] = ["pink-upright"]
    s = scene(impl, "vangogh", fn)
    act(s, "choose Dr. Gachet")
    act(s, "reorient yellow-lying down to upside down")
    act(s, "reorient blue-sideway to upright")
    act(s, "reorient pink-upright to lying down")
    v = s.to_json()
    assert v["palettes"][0]["active"] == ["yellow-upside down", "blue-upright"]
    assert v["palettes"][1]["active"] == ["pink-lying down"]
    assert v["phase"] == "choose"


def test_ginoux_primary_draw_three_keep_two_roll(impl):
    s = scene(impl)
    bag_before = s.to_json()["bag"]
    act(s, "choose Madame Ginoux")
    assert phase(s) == "ginoux_draw"
    total = sum(bag_before.values())
    probs = dict(s.chance_outcomes())
    assert abs(probs[2] - bag_before["pink"] / total) < 1e-12
    chance(s, "blue")
    chance(s, "pink")
    chance(s, "green")
    assert legal_texts(s) == ["keep blue", "keep pink", "keep green"]
    act(s, "keep blue")
    act(s, "keep green")
    assert phase(s) == "roll"
    chance(s, 2)            # blue upright
    chance(s, 0)            # green lying down
    v = s.to_json()
    assert v["palettes"][0]["active"] == ["blue-upright", "green-lying down"]
    assert v["bag"]["pink"] == bag_before["pink"]               # the excess went back
    assert v["bag"]["blue"] == bag_before["blue"] - 1
    assert phase(s) == "sec_draw" and v["pending"]["act_player"] == 1
    chance(s, "yellow-sideway")
    assert s.to_json()["palettes"][1]["active"] == ["yellow-sideway"]
    assert phase(s) == "choose"


def test_ginoux_one_free_space_keeps_one(impl):
    def fn(v):
        v["palettes"][0]["active"] = ["pink-upright"] * 3 + ["purple-upright"] * 3
        v["palettes"][1]["active"] = ["pink-upright"] * 4 + ["purple-upright"] * 3   # full
    s = scene(impl, "vangogh", fn)
    act(s, "choose Madame Ginoux")
    for c in ("blue", "blue", "green"):
        chance(s, c)
    act(s, "keep blue")
    assert phase(s) == "roll"
    chance(s, 1)
    assert phase(s) == "choose"                 # player 1 had no space: no draw
    assert s.to_json()["palettes"][0]["active"].count("blue-sideway") == 1


def test_eugene_takes_and_refills_at_once(impl):
    def fn(v):
        v["table"] = ["blue-upright", "pink-sideway", "pink-sideway", "green-lying down",
                      "purple-upside down"]
    s = scene(impl, "vangogh", fn)
    act(s, "choose Eugene")
    assert legal_texts(s) == ["take blue-upright", "take pink-sideway",
                              "take green-lying down", "take purple-upside down"]
    act(s, "take blue-upright")
    act(s, "take pink-sideway")
    assert phase(s) == "refill"                 # before player 1's secondary (R11)
    chance(s, "yellow-upright")
    chance(s, "yellow-upright")
    assert len(s.to_json()["table"]) == 5 and s.current_player() == 1
    act(s, "take yellow-upright")
    chance(s, "purple-lying down")
    v = s.to_json()
    assert v["palettes"][0]["active"] == ["blue-upright", "pink-sideway"]
    assert v["palettes"][1]["active"] == ["yellow-upright"]
    assert len(v["table"]) == 5 and v["phase"] == "choose"


def test_anna_paints_takes_token_no_secondary(impl):
    def fn(v):
        v["palettes"][0]["active"] = ["yellow-upright"]
        v["palettes"][1]["active"] = ["blue-upright"]
    s = scene(impl, "vangogh(players=3)", fn)
    act(s, "choose Anna")
    act(s, "Anna: paint yellow-upright on painting 2, space 1")
    v = s.to_json()
    assert v["token_holder"] == 0 and v["scores"] == [3, 0, 0]
    assert v["phase"] == "choose" and v["turn_player"] == 1     # nobody else acts


def test_token_holder_cannot_choose_anna_and_starts_next_round(impl):
    def fn(v):                  # round 2: player 1 took Anna in round 1, so starts it (R7)
        v["round"] = 2
        v["token_holder"] = 1
        v["round_starter"] = 1
        v["turn_player"] = 1
    s = scene(impl, "vangogh(players=2)", fn)
    assert "choose Anna" not in legal_texts(s)
    act(s, "choose Dr. Gachet")
    done_all(s)
    assert s.current_player() == 0 and "choose Anna" in legal_texts(s)
    act(s, "choose Postman")
    done_all(s)
    act(s, "choose Eugene")
    while s.is_chance_node() or phase(s) == "eugene_take":
        if s.is_chance_node():
            chance(s, s.chance_outcomes()[0][0])
        else:
            act(s, legal_texts(s)[0])
    act(s, "choose Van Gogh")
    done_all(s)
    while s.is_chance_node():                   # end of round: waiting Minigoghs
        chance(s, s.chance_outcomes()[0][0])
    v = s.to_json()
    assert v["round"] == 3 and v["turn_player"] == 1 and v["round_starter"] == 1


def test_postman_two_different_palette_actions(impl):
    def fn(v):
        v["palettes"][0]["active"] = ["yellow-sideway", "pink-upright"]
    s = scene(impl, "vangogh", fn)
    act(s, "choose Postman")
    texts = legal_texts(s)
    assert "restart yellow-sideway" in texts and "epiphany" in texts
    act(s, "restart yellow-sideway")
    v = s.to_json()
    assert v["palettes"][0]["active"] == ["pink-upright", "white-sideway"]    # R9
    assert v["whites"] == 4
    assert not any(t.startswith("restart") for t in legal_texts(s))          # differ (R9)
    act(s, "epiphany")
    v = s.to_json()
    # R4: the leftmost inactive Minigogh, keeping its orientation.
    assert v["palettes"][0]["inactive"] == [None, "yellow-sideway", "yellow-upright"]
    assert "yellow-lying down" in v["palettes"][0]["active"]
    assert v["pending"]["act_player"] == 1                                    # secondary


def test_restart_needs_a_white_epiphany_needs_space(impl):
    def fn(v):
        v["palettes"][0]["active"] = ["yellow-sideway"] * 2 + ["pink-sideway"] * 5
        v["palettes"][1]["active"] = ["white-upright"] * 5
    s = scene(impl, "vangogh", fn)
    act(s, "choose Postman")
    texts = legal_texts(s)
    assert not any(t.startswith("restart") for t in texts)
    assert "epiphany" not in texts


def test_waiting_minigoghs_go_to_the_chooser(impl):
    def fn(v):
        v["characters"][1]["waiting"] = ["blue-upright", "pink-sideway"]
    s = scene(impl, "vangogh", fn)
    act(s, "choose Dr. Gachet")
    v = s.to_json()
    assert v["palettes"][0]["active"] == ["blue-upright", "pink-sideway"]
    assert v["characters"][1]["waiting"] == []


def test_waiting_with_one_space_choose_which(impl):
    def fn(v):
        v["characters"][1]["waiting"] = ["blue-upright", "pink-sideway"]
        v["palettes"][0]["active"] = ["green-upright"] * 6
    s = scene(impl, "vangogh", fn)
    bag = s.to_json()["bag"]["blue"]
    act(s, "choose Dr. Gachet")
    assert phase(s) == "wait_keep"
    assert legal_texts(s) == ["take blue-upright", "take pink-sideway"]
    act(s, "take pink-sideway")
    v = s.to_json()
    assert "pink-sideway" in v["palettes"][0]["active"] and v["bag"]["blue"] == bag + 1
    assert phase(s) == "step"


def test_waiting_without_space_returns_to_bag(impl):
    def fn(v):
        v["characters"][1]["waiting"] = ["blue-upright"]
        v["palettes"][0]["active"] = ["green-upright"] * 7
    s = scene(impl, "vangogh", fn)
    bag = s.to_json()["bag"]["blue"]
    act(s, "choose Dr. Gachet")
    assert s.to_json()["bag"]["blue"] == bag + 1


def test_unchosen_characters_gain_a_minigogh_at_most_two(impl):
    def fn(v):
        v["turn"] = 4
        v["turn_player"] = 1
        for c in (0, 1, 2):
            v["characters"][c]["taken"] = 1
        v["characters"][3]["waiting"] = ["blue-upright", "blue-upright"]
        v["characters"][5]["waiting"] = ["pink-upright"]
    s = scene(impl, "vangogh", fn)
    act(s, "choose Postman")
    done_all(s)
    assert phase(s) == "eor"
    chance(s, "green-sideway")                  # only Eugene: Anna already has 2
    v = s.to_json()
    assert v["characters"][5]["waiting"] == ["pink-upright", "green-sideway"]
    assert v["characters"][3]["waiting"] == ["blue-upright", "blue-upright"]
    assert v["round"] == 2 and v["phase"] == "choose" and v["turn_player"] == 0
    assert all(c["taken"] == 0 for c in v["characters"])


# ------------------------------------------------------ paintings and scores
def test_majority_example_verbatim(impl):
    """Rulebook: yellow 3 spaces, 'brown' and pink 1 each, card 7/4/2 -> 7, 3, 3 (R2)."""
    assert majority_points([0, 1, 2, 8, 12], (7, 4, 2)) == [7, 0, 3, 3, 0]

    def fn(v):
        v["paintings"][0]["occupants"] = ["yellow-lying down", "yellow-sideway",
                                          "yellow-upright", "pink-lying down", None]
        v["palettes"][0]["active"] = ["green-sideway"]
    s = scene(impl, "vangogh(players=3,colors=yellow-pink-green)", fn)
    act(s, "choose Van Gogh")
    act(s, "Van Gogh: paint green-sideway on painting 1, space 5")
    v = s.to_json()
    assert v["scores"] == [4 + 7, 3, 3]
    assert v["finished"] == 1 and phase(s) == "card"


def test_majority_uncontrolled_and_whites(impl):
    # R3: uncontrolled purple takes first place (its 7 lost); whites never rank.
    assert majority_points([16, 16, 20, 21, 0], (7, 4, 2)) == [4, 0, 0, 0, 7]
    # three whites outnumber nobody: yellow and blue tie for first, (7+4)//2 each
    assert majority_points([0, 4, 20, 21, 22], (7, 4, 2)) == [5, 5, 0, 0, 0]
    # pink and green tie for first: (7+4)//2 each; three colours share places 3-5: 2//3 = 0
    assert majority_points([0, 4, 8, 8, 12, 12, 16], (7, 4, 2)) == [0, 0, 5, 5, 0]
    # a four-way tie pools places 1-4: (7+4+2+0)//4 = 3 each
    assert majority_points([0, 4, 8, 12], (7, 4, 2)) == [3, 3, 3, 3, 0]


def test_finished_painting_returns_minigoghs_and_draws(impl):
    def fn(v):
        v["paintings"][1]["occupants"] = ["white-upright", "blue-upright", "pink-lying down",
                                          None]
        v["palettes"][0]["active"] = ["pink-sideway"]
    s = scene(impl, "vangogh", fn)
    before = s.to_json()
    act(s, "choose Van Gogh")
    act(s, "Van Gogh: paint pink-sideway on painting 2, space 4")
    v = s.to_json()
    assert v["whites"] == before["whites"] + 1
    assert v["bag"]["pink"] == before["bag"]["pink"] + 2
    assert v["paintings"][1]["card"] == -1 and v["finished"] == 1
    # pink (uncontrolled) 2 spaces: first; blue 1: second -> player 1 gets 3
    assert v["scores"] == [2, 3]
    deck = v["deck"]
    outs = s.chance_outcomes()
    assert [a for a, _ in outs] == deck and abs(sum(p for _, p in outs) - 1) < 1e-12
    chance(s, deck[0])
    v = s.to_json()
    # back to Van Gogh's second step: nothing left to paint, so the turn moves on
    assert v["paintings"][1]["card"] == deck[0] and v["phase"] == "choose"


def test_white_on_plus_one_scores_six(impl):
    def fn(v):
        set_painting(v, 2, 2)                          # space 1: upright, +1
        v["palettes"][0]["active"] = ["white-upright"]
    s = scene(impl, "vangogh", fn)
    act(s, "choose Van Gogh")
    act(s, "Van Gogh: paint white-upright on painting 3, space 1")
    assert s.to_json()["scores"][0] == 6


def test_game_ends_after_the_round_of_the_third_painting(impl):
    def fn(v):
        frame_cards(v, 2)
        v["turn"] = 2
        v["turn_player"] = 1
        v["characters"][2]["taken"] = 1
        v["paintings"][1]["occupants"] = ["white-upright", "blue-upright", "pink-lying down",
                                          None]
        v["palettes"][1]["active"] = ["pink-sideway"]
    s = scene(impl, "vangogh", fn)
    act(s, "choose Van Gogh")
    act(s, "Van Gogh: paint pink-sideway on painting 2, space 4")
    chance(s, s.chance_outcomes()[0][0])
    done_all(s)
    assert s.to_json()["finished"] == 3
    assert phase(s) == "choose" and not s.is_terminal()     # the round goes on
    act(s, "choose Dr. Gachet")
    done_all(s)
    act(s, "choose Postman")
    done_all(s)
    assert s.is_terminal()


def test_end_scoring(impl):
    def fn(v):
        v["turn"] = 4
        v["turn_player"] = 1
        frame_cards(v, 3)
        for c in (0, 1, 2):
            v["characters"][c]["taken"] = 1
        v["palettes"][0]["active"] = ["pink-upright", "white-sideway", "blue-upright"]
        v["palettes"][0]["inactive"] = [None, None, "yellow-upright"]
        v["palettes"][1]["active"] = []
        v["palettes"][1]["inactive"] = [None, None, None]
        v["scores"] = [10, 20]
    s = scene(impl, "vangogh", fn)
    act(s, "choose Postman")
    done_all(s)
    assert s.is_terminal()
    # player 0: 1 + 3 + 1 active, empty spaces 1 + 3; player 1: 1 + 3 + 5
    assert s.to_json()["scores"] == [10 + 5 + 4, 20 + 9]
    assert s.returns() == [-1.0, 1.0]


@pytest.mark.parametrize("purple_active,expected", [(True, 4), (False, 2)])
def test_purple_end_scoring(impl, purple_active, expected):
    def fn(v):
        v["turn"] = 4
        v["turn_player"] = 1
        frame_cards(v, 3)
        for c in (0, 1, 2):
            v["characters"][c]["taken"] = 1
        v["palettes"][0]["active"] = ["pink-upright", "blue-upright"]
        v["palettes"][0]["inactive"] = [None, "purple-sideway", "purple-upright"]
    flag = "true" if purple_active else "false"
    s = scene(impl, f"vangogh(colors=purple-yellow,purpleactive={flag})", fn)
    act(s, "choose Postman")
    done_all(s)
    assert s.is_terminal()
    # no EP for purple's empty space (R5); its 2 inactive Minigoghs count when the option is on
    assert s.to_json()["scores"][0] == expected


def test_purple_paints_from_inactive_left_to_right(impl):
    s = scene(impl, "vangogh(colors=purple-yellow)")
    act(s, "choose Van Gogh")
    texts = legal_texts(s)
    assert "Van Gogh: paint inactive purple-lying down on painting 1, space 1" in texts
    assert not any("inactive purple-sideway" in t for t in texts)
    act(s, "Van Gogh: paint inactive purple-lying down on painting 1, space 1")
    v = s.to_json()
    assert v["palettes"][0]["inactive"] == [None, "purple-sideway", "purple-upright"]
    assert v["scores"][0] == 3
    assert "Van Gogh: paint inactive purple-sideway on painting 1, space 2" in legal_texts(s)


def test_yellow_ability_only_in_anna_round_once(impl):
    def fn(v):
        v["palettes"][0]["active"] = ["yellow-lying down"]
    s = scene(impl, "vangogh", fn)
    assert not any("ability" in t for t in legal_texts(s))
    act(s, "choose Anna")
    assert "yellow ability: yellow-lying down to upright" in legal_texts(s)
    assert ("yellow ability: yellow-lying down on inactive space 1 to upside down"
            in legal_texts(s))
    act(s, "yellow ability: yellow-lying down to upright")
    assert s.to_json()["palettes"][0]["active"] == ["yellow-upright"]
    assert not any("ability" in t for t in legal_texts(s))
    assert phase(s) == "step"


def test_ability_usable_later_in_the_round(impl):
    def fn(v):
        v["palettes"][0]["active"] = ["yellow-lying down"]
    s = scene(impl, "vangogh", fn)
    act(s, "choose Anna")
    act(s, "done")
    act(s, "choose Dr. Gachet")
    done_all(s)
    assert s.current_player() == 0
    assert "yellow ability: yellow-lying down to sideway" in legal_texts(s)
    act(s, "yellow ability: yellow-lying down to sideway")
    assert phase(s) == "choose" and s.current_player() == 0


def test_blue_ability_draw_orient_discard(impl):
    def fn(v):
        v["palettes"][0]["active"] = ["yellow-lying down"]
    s = scene(impl, "vangogh(colors=blue-yellow)", fn)
    act(s, "choose Anna")
    act(s, "blue ability: draw")
    assert phase(s) == "blue_draw"
    chance(s, "green")
    assert len(s.legal_actions()) == 4
    act(s, "blue ability: place upside down")
    assert legal_texts(s) == ["blue ability: discard yellow-lying down",
                              "blue ability: discard green-upside down"]
    bag = s.to_json()["bag"]["yellow"]
    act(s, "blue ability: discard yellow-lying down")
    v = s.to_json()
    assert v["palettes"][0]["active"] == ["green-upside down"]
    assert v["bag"]["yellow"] == bag + 1 and v["phase"] == "step"


@pytest.mark.parametrize("before,after", [("lying down", "upright"), ("upright", "sideway"),
                                          ("sideway", "upside down"),
                                          ("upside down", "lying down")])
def test_pink_ability_cycle(impl, before, after):
    def fn(v):
        v["palettes"][0]["active"] = [f"blue-{before}"]
    s = scene(impl, "vangogh(colors=pink-yellow)", fn)
    act(s, "choose Anna")
    act(s, f"pink ability: turn blue-{before} to {after}")
    assert s.to_json()["palettes"][0]["active"] == [f"blue-{after}"]


def test_green_ability_ignores_orientation_minus_one(impl):
    def fn(v):
        v["palettes"][0]["active"] = ["white-upright", "yellow-upright"]
    s = scene(impl, "vangogh(colors=green-yellow)", fn)
    act(s, "choose Anna")
    # painting 1 space 1 wants lying down: only the green ability allows it
    act(s, "Anna: paint white-upright on painting 1, space 1")
    assert s.to_json()["scores"][0] == 4                 # rulebook: 5 EP - 1 EP
    assert s.to_json()["ability_spent"] == 1


def test_green_without_ability_needs_orientation(impl):
    def fn(v):
        v["palettes"][0]["active"] = ["white-upright"]
    s = scene(impl, "vangogh(colors=green-yellow)", fn)
    act(s, "choose Van Gogh")
    assert not any("painting 1, space 1" in t for t in legal_texts(s))


def test_tie_breaks(impl):
    s = scene(impl, "vangogh(players=3)")
    v = s.to_json()
    v["phase"] = "end"          # after the round in which the 4th painting was finished
    v["turn"] = 4
    for c in (0, 1, 2):
        v["characters"][c]["taken"] = 1
    frame_cards(v, 4)
    v["turn_player"] = 2
    v["current_player"] = -4
    v["scores"] = [10, 10, 5]
    v["paintings"][1]["occupants"] = ["yellow-upright", None, None, None]
    from vg_helpers import rebalance
    rebalance(v)
    e = s.get_game().state_from_json(v)
    assert e.is_terminal() and e.returns() == [1.0, 0.0, -1.0]
    v["paintings"][1]["occupants"] = [None] * 4
    v["palettes"][0]["active"] = []
    v["palettes"][1]["active"] = []
    rebalance(v)
    e = s.get_game().state_from_json(v)
    assert e.returns() == [0.5, 0.5, -1.0]            # shared


def test_round_cap_ends_the_game(impl):
    s = start("vangogh(maxrounds=1)", impl)
    for _ in range(4):
        act(s, next(t for t in legal_texts(s) if t in ("choose Dr. Gachet", "choose Postman",
                                                       "choose Van Gogh", "choose Anna")))
        done_all(s)
    assert s.is_terminal()


# --------------------------------------------------------------------- solo
def test_solo_round(impl):
    def fn(v):
        v["palettes"][0]["active"] = ["yellow-lying down", "blue-lying down",
                                      "white-upright", "pink-upright"]
    s = scene(impl, "vangogh(players=1)", fn)
    texts = legal_texts(s)
    assert "choose Anna" not in texts and "brush: paint once more" in texts
    act(s, "choose Van Gogh")
    act(s, "Van Gogh: paint yellow-lying down on painting 1, space 1")      # own colour 2
    act(s, "Van Gogh: paint blue-lying down on painting 1, space 4")        # other 4
    assert s.current_player() == 0 and phase(s) == "step"                  # the secondary
    act(s, "Van Gogh: paint white-upright on painting 2, space 1")          # white 5
    assert s.to_json()["scores"] == [11]
    act(s, "brush: paint once more")
    act(s, "brush: paint pink-upright on painting 2, space 2")
    assert s.to_json()["scores"] == [15]
    assert "brush: paint once more" not in legal_texts(s)
    assert phase(s) == "choose"


def test_solo_ends_after_five_rounds(impl):
    def fn(v):
        v["round"] = 5
        v["turn"] = 3
        v["characters"][0]["taken"] = 1
        v["characters"][1]["taken"] = 1
        v["finished"] = 0
        v["scores"] = [90]
    s = scene(impl, "vangogh(players=1)", fn)
    act(s, "choose Postman")
    done_all(s)
    assert s.is_terminal()
    score = s.to_json()["scores"][0]
    assert score == 90 + 0 + 0          # empty palette, full inactive area
    assert s.returns() == [pytest.approx(solo_utility(90))]
    assert solo_utility(100) == 0.5 and solo_utility(0) == -1 and solo_utility(250) == 1


# ---------------------------------------------------------- data and errors
def test_from_json_names_the_bad_field(impl):
    s = start("vangogh", impl)
    v = s.to_json()
    v["palettes"][0]["active"] = ["orange-upright"]
    with pytest.raises(StateFormatError, match=r"palettes\[0\]\.active\[0\]"):
        s.get_game().state_from_json(v)
    v = s.to_json()
    v["bag"]["blue"] += 1
    with pytest.raises(StateFormatError, match="bag.blue"):
        s.get_game().state_from_json(v)
    v = s.to_json()
    del v["pending"]["steps_left"]
    with pytest.raises(StateFormatError, match="pending.steps_left"):
        s.get_game().state_from_json(v)
    v = s.to_json()
    assert s.get_game().state_from_json(v).to_json() == v
    # card_names is shown, not state: a view without it loads the same position
    del v["card_names"]
    assert s.get_game().state_from_json(v).to_json() == s.to_json()


def test_deck_file_errors(impl, tmp_path):
    bad = tmp_path / "deck.json"
    cards = [{"id": i, "frame": [5, 3, 1], "spaces": [{"orientation": "upright"}]}
             for i in range(3)]
    cards[1]["spaces"][0]["orientation"] = "diagonal"
    bad.write_text(json.dumps({"cards": cards}))
    with pytest.raises(GameSpecError, match=r"cards\[1\]\.spaces\[0\]\.orientation"):
        load(f"vangogh(deck={bad})", impl)
    with pytest.raises(GameSpecError, match="not found"):
        load(f"vangogh(deck={tmp_path}/none.json)", impl)
    from easel.engine.vangogh.deck import parse_deck
    with pytest.raises(DataFileError, match="frame"):
        parse_deck({"cards": [{"frame": [1], "spaces": []}] * 3})


def test_option_errors(impl):
    with pytest.raises(GameSpecError, match="colors"):
        load("vangogh(players=2,colors=yellow-yellow)", impl)
    with pytest.raises(GameSpecError, match="colors"):
        load("vangogh(players=3,colors=yellow-blue)", impl)
    with pytest.raises(GameSpecError, match="purple"):
        load("vangogh(players=1,colors=purple)", impl)
    with pytest.raises(GameSpecError, match="roll"):
        load("vangogh(roll=1-1)", impl)
    with pytest.raises(GameSpecError, match="start"):
        load("vangogh(players=2,start=3)", impl)


def test_codec_paint_text_is_read_exactly(impl):
    def fn(v):
        v["palettes"][0]["active"] = ["yellow-lying down"]
    s = scene(impl, "vangogh", fn)
    act(s, "choose Van Gogh")
    text = "Van Gogh: paint yellow-lying down on painting 1, space 1"
    a = s.string_to_action(text)
    assert s.action_to_string(a) == text
    assert s.string_to_action(text.upper().replace(", ", " ,")) == a
    # the short forms once read are no legal move's text (engine/textio.py)
    for typed in ("paint yellow lying down 1 1", "Van Gogh", "paint yellow-lying down 1 1"):
        with pytest.raises(IllegalActionError, match="is not a legal move here"):
            s.string_to_action(typed)
    assert "painting 1" in str(s)
