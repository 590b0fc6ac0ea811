"""Couleurs de Paris rule scenarios: one test (or a few) per clause of
engine/couleurs_de_paris/RULINGS.md (named test_sN_...), each setting up the
situation from the JSON view and checking the outcome; worked scoring
examples computed by hand. Each runs on every available implementation."""
from __future__ import annotations

import json

import pytest

from easel import engine
from easel.engine import DataFileError, GameSpecError, IllegalActionError, StateFormatError
from easel.engine.couleurs_de_paris import from_json
from easel.engine.couleurs_de_paris.data import PLACEHOLDER_PATH

from cdp_helpers import (IMPLS, acting, board, chance, colours_of, do, edit, give, hold, load,
                         phase, rotate_view, scene, spot, start, texts, value)

pytestmark = pytest.mark.parametrize("impl", IMPLS)
CDP = "couleurs_de_paris"


def pigments(state, p):
    return {k: v for k, v in board(state, p)["pigments"].items() if v}


def act_scene(impl, player, standing, fn=None, spec=CDP, rot=0, lying=()):
    def change(v):
        rotate_view(v, rot)
        acting(v, player, standing, lying)
        if fn:
            fn(v)
    return scene(impl, spec, change)


def finish_phase2(state):
    """Lay down every remaining assistant without acting."""
    while phase(state) == "act":
        lay = [t for t in texts(state) if t.startswith("lay down")]
        do(state, lay[0])
    return state


# ------------------------------------------------------------------ setup
def test_s2_s4_easels_and_deck(impl):
    for n, easels in ((2, 3), (3, 4), (4, 4)):
        v = start(f"{CDP}(players={n})", impl).to_json()
        assert len(v["easels"]) == easels and None not in v["easels"]
        assert len(v["deck"]) == 32 - easels and v["removed"] == []


def test_s3_player_setup(impl):
    v = start(f"{CDP}(players=4)", impl).to_json()
    for b in v["boards"]:
        assert {k: x for k, x in b["pigments"].items() if x} == {"red": 1, "yellow": 1, "blue": 1}
        assert b["tools"] == {"paint tube": 1, "palette": 1, "brush": 1}
        assert b["assistants"] == 3 and b["to_place"] == 3 and b["paintings"] == []
    assert v["supply"] == {"red": 32, "orange": 26, "yellow": 32, "green": 26, "blue": 32,
                           "violet": 26, "white": 20, "black": 5}
    assert (v["phase"], v["round"], v["current_player"], v["rotation"]) == ("place", 1, 0, 0)


def test_s4_each_card_turned_up_is_a_chance_node(impl):
    s = load(CDP, impl).new_initial_state()
    out = s.chance_outcomes()
    assert [a for a, _ in out] == list(range(32))
    assert all(abs(p - 1 / 32) < 1e-12 for _, p in out)
    assert s.action_to_string(7) == "turn up painting #7"
    s.apply_action(7)
    out = s.chance_outcomes()
    assert 7 not in [a for a, _ in out] and all(abs(p - 1 / 31) < 1e-12 for _, p in out)
    s.apply_action(3)
    s.apply_action(30)
    assert s.to_json()["easels"] == [7, 3, 30] and not s.is_chance_node()


def test_first_player_option(impl):
    v = start(f"{CDP}(players=3,first=2)", impl).to_json()
    assert v["first_player"] == 2 and v["current_player"] == 2
    with pytest.raises(GameSpecError, match="first"):
        load(f"{CDP}(players=2,first=3)", impl)


def test_s1_s2_forbidden_spaces_per_player_count(impl):
    spaces = {4: [0, 1, 2, 3, 2, 0, 1, 2, 3, 2], 3: [0, 1, 2, 2, 2, 0, 1, 2, 2, 2],
              2: [0, 1, 2, 1, 2, 0, 1, 2, 1, 2]}
    for n, want in spaces.items():
        v = start(f"{CDP}(players={n})", impl).to_json()
        assert [lv["spaces"] for lv in v["lower_board"]] == want


def test_s1_red_starts_facing_a_forbidden_action(impl):
    s = start(CDP, impl)
    v = s.to_json()
    assert v["lower_board"][0]["action"] == "red" and v["lower_board"][5]["action"] == "violet"
    t = texts(s)
    assert "place assistant on acquire red" not in t and "place assistant on mix violet" not in t
    assert "place assistant on acquire yellow" in t


# -------------------------------------------------------------- placement
def test_s5_one_assistant_per_space(impl):
    s = start(CDP, impl)
    do(s, "place assistant on mix orange")        # position 1: one space
    assert "place assistant on mix orange" not in texts(s)
    assert spot(s.to_json(), "orange")["standing"] == [0]


def test_s5_one_player_may_fill_every_space_of_an_action(impl):
    s = start(f"{CDP}(players=4)", impl)
    for _ in range(3):
        do(s, "place assistant on mix green")       # position 3: three spaces with 4 players
        for _ in range(3):
            do(s, "place assistant on acquire white")
    v = s.to_json()
    assert spot(v, "green")["standing"] == [0, 0, 0]
    assert v["phase"] == "act"


def test_s5_covered_spaces_with_two_players(impl):
    s = start(CDP, impl)
    do(s, "place assistant on mix green")           # 3 printed spaces, 2 covered
    assert "place assistant on mix green" not in texts(s)


def test_s5_white_space_unlimited(impl):
    s = start(CDP, impl)
    for _ in range(6):
        assert "place assistant on acquire white" in texts(s)
        do(s, "place assistant on acquire white")
    assert spot(s.to_json(), "white")["standing"] == [0, 0, 0, 1, 1, 1]


def test_s5_first_player_space_refused_to_its_holder(impl):
    s = start(CDP, impl)
    assert "place assistant on first player" not in texts(s)        # player 0 holds the token
    do(s, "place assistant on imitator")
    assert "place assistant on first player" in texts(s)
    with pytest.raises(IllegalActionError):
        do(scene(impl), "place assistant on first player")


def test_s5_centre_spaces_take_one_assistant(impl):
    s = start(CDP, impl)
    do(s, "place assistant on imitator")
    assert "place assistant on imitator" not in texts(s)
    do(s, "place assistant on rotate the board")
    assert "place assistant on rotate the board" not in texts(s)


def test_s6_turn_order_and_passing(impl):
    def four(v):
        b = v["boards"][0]
        b["tools"]["brush"] = 6
        b["bonus"]["brush"] = "assistant"
        b["assistants"] = 4
        b["to_place"] = 4
    s = scene(impl, fn=four)
    movers = []
    while phase(s) == "place":
        movers.append(s.current_player())
        do(s, "place assistant on acquire white")
    assert movers == [0, 1, 0, 1, 0, 1, 0]
    assert phase(s) == "act" and s.current_player() == 0


# ---------------------------------------------------------------- actions
def test_s7_actions_in_turn_order_skipping_players_done(impl):
    s = act_scene(impl, 0, [("white", 0), ("white", 0), ("white", 1)])
    before = s.to_json()        # player 1 first: player 0 has acted once, player 1 twice
    movers = []
    while phase(s) == "act":
        movers.append(s.current_player())
        do(s, "act on acquire white")
    assert movers == [0, 1, 0]
    v = s.to_json()
    assert (v["round"], v["phase"], v["rotation"], v["first_player"]) == \
        (before["round"] + 1, "place", before["rotation"] + 1, before["first_player"])
    assert board(s, 0)["pigments"]["white"] == 6 and board(s, 1)["pigments"]["white"] == 3


def test_s8_acquire_primary_by_paint_tube(impl):
    s = act_scene(impl, 0, [("red", 0), ("yellow", 0)], rot=2,
                  fn=lambda v: v["boards"][0]["tools"].update({"paint tube": 3}))
    do(s, "act on acquire red")
    assert board(s, 0)["pigments"]["red"] == 1 + 4        # level 3: 4 pigments
    s = act_scene(impl, 0, [("red", 0)], rot=2)
    do(s, "act on acquire red")
    assert board(s, 0)["pigments"]["red"] == 1 + 3        # level 1: 3 pigments


def test_s27_short_supply_gives_what_is_left(impl):
    def fn(v):          # the supply keeps 1 red: 1 + 24 held + 10 on paintings are out
        give(v, 1, red=24, yellow=0, blue=0)
        hold(v, 1, 6, ["red", None, "red", "red", None, "red", "red", None, "red"])
        hold(v, 1, 24, ["red", None, "red", None, None, None, "red", None, "red"])
    s = act_scene(impl, 0, [("red", 0), ("red", 0)], rot=2, fn=fn)
    assert s.to_json()["supply"]["red"] == 1
    do(s, "act on acquire red")
    assert board(s, 0)["pigments"]["red"] == 2 and s.to_json()["supply"]["red"] == 0
    while s.current_player() != 0:          # the others' turns: they lay down
        do(s, next(t for t in texts(s) if t.startswith("lay down")))
    # With nothing left, acting there would do nothing: only laying down remains.
    assert texts(s) == ["lay down from acquire red without acting"]


def test_s9_mix_two_primaries_by_palette(impl):
    s = act_scene(impl, 0, [("orange", 0)])
    do(s, "act on mix orange")
    assert pigments(s, 0) == {"orange": 2, "blue": 1}            # palette level 1: 2
    s = act_scene(impl, 0, [("green", 0)],
                  fn=lambda v: v["boards"][0]["tools"].update({"palette": 3}))
    do(s, "act on mix green")
    assert pigments(s, 0) == {"red": 1, "green": 3}              # level 3: 3


def test_s9_s13_mixing_needs_both_primaries_white_never_replaces(impl):
    s = act_scene(impl, 0, [("orange", 0)], fn=lambda v: give(v, 0, yellow=0, white=3))
    assert texts(s) == ["lay down from mix orange without acting"]


def test_s10_mix_black(impl):
    s = act_scene(impl, 0, [("black", 0)],
                  fn=lambda v: give(v, 0, orange=1, green=1, violet=1))
    score = s.to_json()["scores"][0]
    do(s, "act on mix black")
    assert pigments(s, 0) == {"red": 1, "yellow": 1, "blue": 1, "black": 1}
    assert s.to_json()["scores"][0] == score + 6 and s.to_json()["supply"]["black"] == 4


def test_s10_black_needs_the_three_secondaries(impl):
    s = act_scene(impl, 0, [("black", 0)], fn=lambda v: give(v, 0, orange=1, green=1, white=4))
    assert texts(s) == ["lay down from mix black without acting"]


def test_s11_s13_improve_with_white(impl):
    s = act_scene(impl, 0, [("improve", 0)], fn=lambda v: give(v, 0, yellow=0, blue=0, white=1))
    do(s, "act on improve a tool")
    assert texts(s) == ["improve paint tube", "improve palette", "improve brush"]
    do(s, "improve brush")
    assert texts(s) == ["pay red"]          # white first would leave nothing at or after it
    do(s, "pay red")
    assert texts(s) == ["pay white"]                    # payments are named in colour order
    do(s, "pay white")
    assert board(s, 0)["tools"]["brush"] == 2 and pigments(s, 0) == {}


def test_s11_payments_in_colour_order(impl):
    s = act_scene(impl, 0, [("improve", 0)], fn=lambda v: give(v, 0, red=2, yellow=0, blue=1))
    do(s, "act on improve a tool", "improve palette")
    assert texts(s) == ["pay red"]          # blue first would leave nothing at or after blue
    do(s, "pay red")
    assert texts(s) == ["pay red", "pay blue"]


def test_s11_improve_needs_two_pigments_not_black(impl):
    s = act_scene(impl, 0, [("improve", 0)],
                  fn=lambda v: give(v, 0, yellow=0, blue=0, black=3))
    assert texts(s) == ["lay down from improve a tool without acting"]


def test_s11_tool_at_its_end_cannot_improve(impl):
    def fn(v):
        v["boards"][0]["tools"]["brush"] = 8
        v["boards"][0]["bonus"]["brush"] = "points"
    s = act_scene(impl, 0, [("improve", 0)], fn=fn)
    do(s, "act on improve a tool")
    assert texts(s) == ["improve paint tube", "improve palette"]


def _to_bonus(impl, level=5, bonus=None):
    def fn(v):
        v["boards"][0]["tools"]["brush"] = level
        v["boards"][0]["bonus"]["brush"] = bonus
        v["boards"][0]["assistants"] = 4 if bonus == "assistant" else 3
    s = act_scene(impl, 0, [("improve", 0)], fn=fn)
    return do(s, "act on improve a tool", "improve brush", "pay red", "pay yellow")


def test_s12_bonus_assistant_used_from_next_round(impl):
    s = _to_bonus(impl)
    assert texts(s) == ["bonus: hire an assistant", "bonus: 6 points"]
    assert from_json(s.get_game(), s.to_json()).to_json() == s.to_json()   # loads mid-bonus
    do(s, "bonus: hire an assistant")
    b = board(s, 0)
    assert b["assistants"] == 4 and b["bonus"]["brush"] == "assistant"
    assert s.to_json()["scores"][0] == 0
    assert phase(s) == "stand"
    do(s, texts(s)[0])
    assert phase(s) == "place" and board(s, 0)["to_place"] == 3   # 4, one already standing


def test_s12_bonus_points(impl):
    s = do(_to_bonus(impl), "bonus: 6 points")
    assert board(s, 0)["assistants"] == 3 and s.to_json()["scores"][0] == 6


def test_s12_track_end_after_the_assistant_scores_10(impl):
    s = _to_bonus(impl, 7, "assistant")
    assert board(s, 0)["tools"]["brush"] == 8 and s.to_json()["scores"][0] == 10


def test_s12_track_end_after_points_flips_the_token(impl):
    s = _to_bonus(impl, 7, "points")
    assert s.to_json()["scores"][0] == 10           # 6 before, +4 for the flip


def test_s14_take_a_painting(impl):
    s = act_scene(impl, 0, [("take painting", 0)])
    easels = s.to_json()["easels"]
    do(s, "act on take a painting")
    assert texts(s) == [f"take painting #{c} from easel {e + 1}" for e, c in enumerate(easels)]
    do(s, f"take painting #{easels[1]} from easel 2")
    v = s.to_json()
    assert v["easels"][1] is None and [pv["card"] for pv in v["boards"][0]["paintings"]] == \
        [easels[1]]
    assert s.is_chance_node()          # phase 3 turns up a card for easel 2
    assert len(s.chance_outcomes()) == len(v["deck"])


def test_s14_no_painting_to_take(impl):
    def fn(v):          # every card gone (half-turns removed them, §20)
        v["deck"] = []
        v["easels"] = [None, None, None]
    s = act_scene(impl, 0, [("take painting", 0)], fn=fn)
    assert texts(s) == ["lay down from take a painting without acting"]


def _painter(impl, card, filled=None, brush=1, **pig):
    def fn(v):
        hold(v, 0, card, filled)
        give(v, 0, red=0, yellow=0, blue=0)
        give(v, 0, **pig)
        v["boards"][0]["tools"]["brush"] = brush
    return act_scene(impl, 0, [("paint", 0), ("white", 1)], fn=fn)


def test_s15_paint_matching_colours_up_to_the_brush(impl):
    s = _painter(impl, 6, red=5)                      # card 6: r b r r b r r b r
    do(s, "act on paint")
    assert texts(s) == [f"paint red on painting #6, space {j}" for j in (1, 3, 4, 6, 7, 9)]
    do(s, "paint red on painting #6, space 1")
    assert "stop painting" in texts(s)
    do(s, "paint red on painting #6, space 3")        # brush level 1: 2 pigments, then done
    assert phase(s) == "act" and s.current_player() == 1
    assert board(s, 0)["paintings"][0]["filled"][:3] == ["red", None, "red"]


def test_s15_stop_painting_only_after_a_pigment(impl):
    s = do(_painter(impl, 6, brush=5, red=5), "act on paint")
    assert "stop painting" not in texts(s)
    do(s, "paint red on painting #6, space 1", "stop painting")
    assert s.current_player() == 1 and pigments(s, 0) == {"red": 4}


def test_s13_s15_white_on_any_space_at_most_three(impl):
    s = _painter(impl, 6, filled=["white", "white"] + [None] * 7, brush=5, white=4)
    do(s, "act on paint")
    assert texts(s) == [f"paint white on painting #6, space {j}" for j in range(3, 10)]
    do(s, "paint white on painting #6, space 9")
    assert phase(s) == "act" and s.current_player() == 1    # nothing more can go on
    assert pigments(s, 0) == {"white": 3}


def test_s15_s24_finishing_a_painting(impl):
    filled = colours_of(0)[:8] + [None]
    filled[2] = "white"
    s = _painter(impl, 0, filled=filled, yellow=1)        # card 0 (value 17) ends in yellow
    supply = s.to_json()["supply"]
    do(s, "act on paint", "paint yellow on painting #0, space 9")
    v = s.to_json()
    assert v["boards"][0]["paintings"][0]["finished"] is True
    assert v["scores"][0] == 17 - 2                      # one white: -2
    # its 9 cubes go back to the supply (§27): 2 red, 2 orange, 1 yellow (the 2nd is white),
    # green, blue, violet, and the white.
    back = {"red": 2, "orange": 2, "yellow": 1, "green": 1, "blue": 1, "violet": 1, "white": 1}
    for c, k in back.items():
        assert v["supply"][c] == supply[c] + k, c


def test_s16_first_player_space(impl):
    s = act_scene(impl, 1, [("first player", 1)])
    do(s, "act on first player")
    v = s.to_json()           # phase 3 has run: player 1 was the last to act
    assert v["boards"][1]["pigments"]["white"] == 1 and v["claims"]["first player"] is None
    assert v["phase"] == "place" and v["first_player"] == 1 and v["current_player"] == 1
    assert "place assistant on first player" not in texts(s)


def test_s16_s22_first_player_laid_down_gives_up_the_claim(impl):
    s = act_scene(impl, 1, [("first player", 1)])
    do(s, "lay down from first player without acting")
    v = s.to_json()
    assert v["first_player"] == 0 and v["boards"][1]["pigments"]["white"] == 0


def test_s17_imitator_copies_a_standing_assistant_with_own_tools(impl):
    s = act_scene(impl, 0, [("imitator", 0), ("red", 1), ("white", 1)], rot=2,
                  fn=lambda v: v["boards"][0]["tools"].update({"paint tube": 3}))
    do(s, "act on imitator")
    assert texts(s) == ["imitate acquire red"]                 # not the upper-board white
    do(s, "imitate acquire red")
    assert board(s, 0)["pigments"]["red"] == 1 + 4


def test_s17_imitator_needs_an_assistant_still_standing(impl):
    s = act_scene(impl, 0, [("imitator", 0), ("white", 1)], rot=2, lying=[("red", 1)])
    assert texts(s) == ["lay down from imitator without acting"]


def test_s17_imitator_only_what_the_imitator_can_perform(impl):
    s = act_scene(impl, 0, [("imitator", 0), ("orange", 1), ("improve", 1)],
                  fn=lambda v: give(v, 0, yellow=0, blue=0))
    assert "act on imitator" not in texts(s)          # one red: no mix, no improvement


def _rotate_scene(impl, rot, choice):
    s = act_scene(impl, 0, [("rotate", 0)], rot=rot)
    do(s, "act on rotate the board")
    assert phase(s) == "rotate" and texts(s) == ["rotate the board 0 steps",
                                                 "rotate the board 2 steps"]
    return do(s, choice)


def test_s18_rotate_two_steps(impl):
    s = _rotate_scene(impl, 1, "rotate the board 2 steps")
    assert s.to_json()["rotation"] == 3 and s.to_json()["lower_board"][3]["action"] == "red"


def test_s18_rotate_zero_steps(impl):
    s = _rotate_scene(impl, 1, "rotate the board 0 steps")
    assert s.to_json()["rotation"] == 1


def test_s19_acquire_white_by_paint_tube(impl):
    s = act_scene(impl, 0, [("white", 0)],
                  fn=lambda v: v["boards"][0]["tools"].update({"paint tube": 5}))
    do(s, "act on acquire white")
    assert board(s, 0)["pigments"]["white"] == 5


def test_s22_lay_down_without_acting(impl):
    s = act_scene(impl, 0, [("red", 0), ("white", 1)], rot=2)
    assert texts(s) == ["act on acquire red", "lay down from acquire red without acting"]
    do(s, "lay down from acquire red without acting")
    assert pigments(s, 0) == {"red": 1, "yellow": 1, "blue": 1}
    assert spot(s.to_json(), "red")["lying"] == [0]


# ---------------------------------------------------------------- phase 3
def test_s20_rotation_one_step_and_refill(impl):
    s = act_scene(impl, 0, [("take painting", 0)], rot=6)
    do(s, "act on take a painting")
    do(s, texts(s)[0])
    assert s.to_json()["rotation"] == 7 and s.is_chance_node()
    deck = s.to_json()["deck"]
    assert [a for a, _ in s.chance_outcomes()] == deck
    chance(s, deck[-1])
    assert s.to_json()["easels"][0] == deck[-1] and phase(s) == "stand"


@pytest.mark.parametrize("rot,steps,refresh", [(4, 1, True), (9, 1, True), (1, 1, False),
                                               (4, 2, True), (3, 2, True), (2, 2, False),
                                               (5, 0, False), (0, 0, False)])
def test_s20_half_turn_replaces_the_paintings(impl, rot, steps, refresh):
    if steps == 1:
        s = act_scene(impl, 0, [("white", 0)], rot=rot)
        do(s, "act on acquire white")
    else:
        s = act_scene(impl, 0, [("rotate", 0)], rot=rot)
        do(s, "act on rotate the board", f"rotate the board {steps} steps")
    v = s.to_json()
    assert v["rotation"] == (rot + steps) % 10
    if refresh:
        assert v["easels"] == [None, None, None] and len(v["removed"]) == 3
        for _ in range(3):
            chance(s, s.chance_outcomes()[0][0])
        assert None not in s.to_json()["easels"] and phase(s) == "place"
    else:
        assert not s.is_chance_node() and v["removed"] == []


def test_s20_empty_deck_leaves_easels_empty(impl):
    def fn(v):
        hold(v, 1, v["easels"][0])
        v["deck"] = []
    s = act_scene(impl, 0, [("white", 0)], fn=fn)
    do(s, "act on acquire white")
    assert not s.is_chance_node() and s.to_json()["easels"][0] is None


def test_s20_dried_pigments_down_to_twelve_black_excluded(impl):
    def fn(v):
        give(v, 0, red=10, yellow=4, blue=0, black=2)
        give(v, 1, red=0, yellow=0, blue=13)
    s = act_scene(impl, 1, [("rotate", 1)], fn=fn)
    do(s, "act on rotate the board", "rotate the board 0 steps")
    assert phase(s) == "discard" and s.current_player() == 0   # from the first player
    assert texts(s) == ["discard red", "discard yellow"]
    do(s, "discard yellow", "discard yellow")
    assert s.current_player() == 1 and texts(s) == ["discard blue"]
    do(s, "discard blue")
    assert phase(s) == "stand" or phase(s) == "place"
    assert pigments(s, 0) == {"red": 10, "yellow": 2, "black": 2}


def test_s20_twelve_pigments_are_kept(impl):
    s = act_scene(impl, 0, [("rotate", 0)], fn=lambda v: give(v, 0, red=12, yellow=0, blue=0))
    do(s, "act on rotate the board", "rotate the board 0 steps")
    assert phase(s) != "discard"


def test_s21_stand_one_assistant_for_the_next_round(impl):
    s = act_scene(impl, 1, [("white", 1)], rot=2,
                  lying=[("red", 0), ("blue", 0), ("white", 0), ("yellow", 1)])
    rnd, first = s.to_json()["round"], s.to_json()["first_player"]
    do(s, "act on acquire white")              # player 1's last assistant; rotation 2 -> 3
    assert phase(s) == "stand" and s.current_player() == first == 0
    # red stood on position 2, which now faces paint; blue's position 6 faces green
    assert texts(s) == ["stand assistant facing mix green", "stand assistant facing paint"]
    do(s, "stand assistant facing paint")
    # player 1's yellow on position 4 now faces orange
    assert s.current_player() == 1 and texts(s) == ["stand assistant facing mix orange"]
    do(s, "stand assistant facing mix orange")
    v = s.to_json()
    assert v["phase"] == "place" and v["round"] == rnd + 1
    assert spot(v, "paint")["standing"] == [0] and spot(v, "orange")["standing"] == [1]
    assert v["upper_board"]["white"] == {"standing": [], "lying": []}
    assert [b["to_place"] for b in v["boards"]] == [2, 2]


def test_s21_nothing_on_the_lower_board_nothing_stands(impl):
    s = act_scene(impl, 0, [("white", 0)], lying=[("white", 1)])
    do(s, "act on acquire white")
    v = s.to_json()
    assert v["phase"] == "place" and [b["to_place"] for b in v["boards"]] == [3, 3]


# ---------------------------------------------------------------- the end
def test_s23_second_painting_ends_the_game_after_phase_2(impl):
    def fn(v):
        hold(v, 0, 6, ["red", "blue", "red", "red", "blue", "red", "red", "blue", "red"])
        hold(v, 0, 8, ["yellow", "red", "blue", "yellow", "blue", "red", "yellow", "yellow",
                       None])
        give(v, 0, yellow=1, red=0, blue=0)
    s = act_scene(impl, 0, [("paint", 0), ("white", 1), ("white", 0)], fn=fn)
    rnd = s.to_json()["round"]
    assert not s.to_json()["final_round"]
    do(s, "act on paint", "paint yellow on painting #8, space 9")
    v = s.to_json()
    assert v["final_round"] and v["phase"] == "act" and v["current_player"] == 1
    do(s, "act on acquire white", "act on acquire white")     # the round's phase 2 finishes
    assert s.is_terminal() and s.to_json()["round"] == rnd
    assert s.to_json()["scores"] == [13 + 13, 0] and s.returns() == [1.0, -1.0]


def test_s23_last_black_pigment_ends_the_game(impl):
    def fn(v):
        give(v, 1, black=4)
        give(v, 0, orange=1, green=1, violet=1)
    s = act_scene(impl, 0, [("black", 0), ("white", 1)], fn=fn)
    do(s, "act on mix black")
    assert s.to_json()["final_round"] and s.current_player() == 1
    do(s, "lay down from acquire white without acting")
    assert s.is_terminal() and s.to_json()["scores"] == [6, 24] and s.returns() == [-1.0, 1.0]


def test_s28_round_limit(impl):
    s = act_scene(impl, 0, [("white", 0)], spec=f"{CDP}(maxrounds=1)")
    assert s.to_json()["round"] == 1
    do(s, "act on acquire white")
    finish_phase2(s)
    assert s.is_terminal() and s.to_json()["round"] == 1


def _final(impl, spec, fn):
    def change(v):
        from cdp_helpers import clear_assistants
        clear_assistants(v)
        for b in v["boards"]:
            b["to_place"] = 0
        v["phase"] = "end"
        v["current_player"] = -4
        fn(v)
    return scene(impl, spec, change)


def _card_with(value, taken=()):
    from cdp_helpers import DATA
    return next(p.id for p in DATA.paintings if p.value == value and p.id not in taken)


def test_s24_worked_scoring_example(impl):
    # Player 0: painting 0 (17) with 2 whites, painting 6 (13), an unfinished painting 1,
    # 1 black, brush at the end after the assistant (10), palette bonus points (6):
    # 17 - 2*2 + 13 + 6 + 10 + 6 = 48. Player 1: 2 black and the paint tube at 8 after
    # points (10): 12 + 10 = 22.
    def fn(v):
        a = colours_of(0)
        a[0] = a[4] = "white"
        hold(v, 0, 0, a)
        hold(v, 0, 6, colours_of(6))
        hold(v, 0, 1, ["orange"] + [None] * 8)
        give(v, 0, black=1)
        b0 = v["boards"][0]
        b0["tools"].update({"brush": 8, "palette": 6})
        b0["bonus"].update({"brush": "assistant", "palette": "points"})
        b0["assistants"] = 4
        give(v, 1, black=2)
        v["boards"][1]["tools"]["paint tube"] = 8
        v["boards"][1]["bonus"]["paint tube"] = "points"
    s = _final(impl, CDP, fn)
    assert s.to_json()["scores"] == [48, 22] and s.returns() == [1.0, -1.0]


def test_s25_tie_fewer_whites_wins(impl):
    c16, c18 = _card_with(16), _card_with(18)

    def fn(v):
        hold(v, 0, c16, colours_of(c16))
        f = colours_of(c18)
        f[0] = "white"
        hold(v, 1, c18, f)
    s = _final(impl, f"{CDP}(maxrounds=2)", fn)     # 2 rounds: 5 cards out of the deck
    assert s.to_json()["scores"] == [16, 16] and s.returns() == [1.0, -1.0]


def test_s25_tie_most_valuable_painting_wins(impl):
    c16, c18 = _card_with(16), _card_with(18)
    a17 = _card_with(17)
    b17 = _card_with(17, (a17,))

    def fn(v):
        for p, cards in ((0, (a17, b17)), (1, (c16, c18))):
            for c in cards:
                hold(v, p, c, colours_of(c))
    s = _final(impl, CDP, fn)
    assert s.to_json()["scores"] == [34, 34] and s.returns() == [-1.0, 1.0]


def test_s25_full_tie_is_shared(impl):
    s = _final(impl, f"{CDP}(players=3,maxrounds=1)",
               lambda v: (give(v, 0, black=1), give(v, 2, black=1)))
    assert s.returns() == [0.5, -1.0, 0.5]


def test_s26_bonus_cards_and_painter_tiles_are_left_out(impl):
    s = start(CDP, impl)
    assert all(a < 680 for a in s.legal_actions())
    assert "left out" in engine.game_entry(CDP).description.lower()
    assert "reserved" in s.get_game().codec.action_to_string(s.to_json(), 700)


# --------------------------------------------------------- data and loader
def test_data_option_loads_another_file(impl, tmp_path):
    data = json.load(open(PLACEHOLDER_PATH))
    data["tracks"]["paint tube"] = [7] * 8
    path = tmp_path / "real.json"
    path.write_text(json.dumps(data))
    s = act_scene(impl, 0, [("white", 0)], spec=f"{CDP}(data={path})")
    do(s, "act on acquire white")
    assert board(s, 0)["pigments"]["white"] == 7


@pytest.mark.parametrize("change,words", [
    (lambda d: d["paintings"][3].update(spaces=["red"] * 8), "paintings[3].spaces"),
    (lambda d: d["paintings"][5]["spaces"].__setitem__(2, "pink"), "paintings[5].spaces[2]"),
    (lambda d: d["paintings"][1].update(value="x"), "paintings[1].value"),
    (lambda d: d["tracks"].update(brush=[1, 2]), "tracks.brush"),
    (lambda d: d["supply"].pop("white"), "supply"),
    (lambda d: d.update(wheel=["red"] * 10), "wheel"),
    (lambda d: d["lower_spaces"].__setitem__(0, 2), "lower_spaces"),
    (lambda d: d["forbidden_tiles"].update({"2": [0, 0, 0, 3, 0, 0, 0, 0, 3, 0]}),
     "forbidden_tiles.2"),
])
def test_data_errors_name_file_item_and_field(impl, tmp_path, change, words):
    data = json.load(open(PLACEHOLDER_PATH))
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(GameSpecError) as e:
        load(f"{CDP}(data={path})", impl)
    assert str(path) in str(e.value) and words in str(e.value)


def test_data_file_missing_or_not_json(impl, tmp_path):
    with pytest.raises(GameSpecError, match="not found"):
        load(f"{CDP}(data={tmp_path / 'none.json'})", impl)
    (tmp_path / "x.json").write_text("{")
    with pytest.raises(GameSpecError, match="not valid JSON"):
        load(f"{CDP}(data={tmp_path / 'x.json'})", impl)


@pytest.mark.parametrize("change,field", [
    (lambda v: v["boards"][0]["pigments"].update(red=5), "supply.red"),
    (lambda v: v["boards"][0]["bonus"].update(brush="points"), "boards[0].bonus.brush"),
    (lambda v: v["claims"].update({"rotate": 1}), "claims.rotate"),
    (lambda v: v.update(colour=1), "colour"),
    (lambda v: v["lower_board"][0]["standing"].append(1), "lower_board[0].standing"),
    (lambda v: v["boards"][1].update(assistants=4), "boards[1].assistants"),
    (lambda v: v["boards"][1].update(to_place=1), "boards[1].to_place"),
    (lambda v: v.update(scores=[3, 0]), "scores"),
    (lambda v: v.update(final_round=True), "final_round"),
    (lambda v: v["boards"][0]["paintings"].append(
        {"card": v["deck"][0], "filled": [None] * 9, "finished": False}),
     "deck[0]"),
    (lambda v: v["upper_board"]["first player"]["standing"].append(0),
     "upper_board.first player"),
])
def test_loader_refuses_unreachable_positions_naming_the_field(impl, change, field):
    s = start(CDP, impl)
    view = s.to_json()
    change(view)
    with pytest.raises(StateFormatError) as e:
        from_json(s.get_game(), view)
    assert f"'{field}'" in str(e.value)


def test_json_round_trip_mid_game(impl):
    from cdp_helpers import play_random
    import random
    s = start(f"{CDP}(players=3)", impl)
    play_random(s, random.Random(5), until=lambda x: x.to_json()["round"] == 4)
    s2 = from_json(s.get_game(), s.to_json())
    assert s2.to_json() == s.to_json() and s2.legal_actions() == s.legal_actions()


# ------------------------------------------------------------------ texts
def test_every_action_id_has_a_text(impl):
    s = start(CDP, impl)
    view = s.to_json()
    codec = s.get_game().codec
    seen = set()
    for a in range(s.get_game().num_distinct_actions()):
        t = codec.action_to_string(view, a)
        assert t and isinstance(t, str)
        if not t.startswith(("unused", "reserved", "paint its colour")):
            assert t not in seen or t.startswith("paint"), t
            seen.add(t)


def test_texts_parse_back(impl):
    from cdp_helpers import play_random
    import random
    s = start(CDP, impl)
    rng = random.Random(2)
    for _ in range(400):
        if s.is_terminal():
            break
        if not s.is_chance_node():
            for a in s.legal_actions():
                assert s.string_to_action(s.action_to_string(a)) == a
        play_random(s, rng, until=lambda x, n=[0]: n.__setitem__(0, n[0] + 1) or n[0] > 1)
