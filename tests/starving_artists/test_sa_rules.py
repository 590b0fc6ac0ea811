"""Starving Artists: a scenario per rulebook clause (RULINGS.md §N), on both
implementations. Positions are built from the JSON view (sa_helpers), moves
named as the codec writes them, chance outcomes forced."""
from __future__ import annotations

import json
import re

import pytest

from easel import engine
from easel.engine.errors import DataFileError, GameSpecError, StateFormatError
from easel.engine.starving_artists.deck import load_deck
from easel.engine.starving_artists.rules import BOX, CUBE_NAMES, make_rules, rules_of

from sa_helpers import (BAHAMIAN, DECK, card, EXCITING, GRAIN_FIELD, HALL_OF_BULLS, IMPLS, KLEINE_FEE,
                        KUCHING, SIESTA, WATER_LILIES, at_announce, at_turn, cubes, do, draw,
                        give, give_complete, give_painting, idx, load, opening, position,
                        rebalance, set_market, small_deck, squares_of, studio, texts)


@pytest.fixture(params=IMPLS)
def impl(request):
    return request.param


def _total(view):
    tot = {c: view["bag"][c] + view["payday_pile"][c] + view["pending"]["held"][c]
           for c in CUBE_NAMES}
    for st in view["studios"]:
        for c in CUBE_NAMES:
            tot[c] += st["cubes"][c]
        for cv in st["canvases"]:
            for x in cv["cubes"]:
                if x:
                    tot[x] += 1
    return tot


# §1 -------------------------------------------------------------------------
def test_s01_box_holds_150_cubes_by_colour(impl):
    s = load(3, impl).new_initial_state()
    assert s.to_json()["bag"] == dict(zip(CUBE_NAMES, BOX))
    assert sum(BOX) == 150 and BOX[CUBE_NAMES.index("blue")] == 30
    s = opening(load(3, impl))
    assert _total(s.to_json()) == dict(zip(CUBE_NAMES, BOX))


# §2 -------------------------------------------------------------------------
def test_s02_one_wild_per_canvas(impl):
    g = load(2, impl)

    def edit(v):
        v["studios"][0]["cubes"] = cubes(wild=2, blue=1)
        give(v, 0, BAHAMIAN, ["wild", None, None, None, None, None])
        give(v, 0, KUCHING)
    s = do(position(g, edit), "paint")
    t = texts(s)
    assert not any(x.startswith("paint wild on Bahamian View") for x in t)
    assert any(x.startswith("paint wild on View of Kuching") for x in t)
    assert "paint blue on Bahamian View" in t


def test_s02_wilds_pay_for_a_canvas(impl):
    g = load(2, impl)

    def edit(v):
        v["studios"][0]["cubes"] = cubes(wild=1)
    s = do(position(g, edit), "buy canvas 1 (The Parasol)")
    assert texts(s) == ["pay wild"]
    do(s, "pay wild")
    assert s.to_json()["payday_pile"]["wild"] >= 1


# §3 -------------------------------------------------------------------------
def test_s03_default_deck_is_the_rule_38():
    raw = json.load(open(load_deck("all").path))["canvases"]
    ids = sorted(c["id"] for c in raw)
    assert len(ids) == 148
    deck = load_deck("38")
    assert [c.id for c in deck.cards] == [ids[k * 148 // 38] for k in range(38)]
    assert len(load_deck("all").cards) == 148
    assert engine.load_game("starving_artists(deck=all)", "reference").max_chance_outcomes() == 148


def test_s03_deck_file_errors_name_canvas_and_field(tmp_path):
    bad = {"canvases": [{"id": "a", "title": "A", "stars": 2, "food": 1, "paint": 5,
                         "squares": [["red"], ["blue"]]},
                        {"id": "b", "title": "B", "stars": "two", "food": 1, "paint": 5,
                         "squares": [["red"]]}]}
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(bad))
    with pytest.raises(GameSpecError, match=r"canvas 1 \('b'\)\.stars"):
        engine.load_game(f"starving_artists(deck={p})", "reference")
    bad["canvases"][1]["stars"] = 2
    bad["canvases"][1]["squares"] = [["red"], ["mauve"]]
    p.write_text(json.dumps(bad))
    with pytest.raises(DataFileError, match=r"squares\[1\]\[0\].*mauve"):
        load_deck(str(p))
    with pytest.raises(GameSpecError, match="not found"):
        engine.load_game(f"starving_artists(deck={tmp_path / 'none.json'})", "reference")


def test_s03_deck_from_a_path_plays(tmp_path, impl):
    canv = [{"id": f"c{k}", "title": f"Canvas {k}", "stars": 2, "food": 2, "paint": 4,
             "squares": [["red"], ["blue", "green"]]} for k in range(6)]
    p = tmp_path / "my decks" / "six canvases.json"       # spaces in the path
    p.parent.mkdir()
    p.write_text(json.dumps({"source": "test", "canvases": canv}))
    g = engine.load_game(f"starving_artists(deck={p})", implementation=impl)
    s = opening(g)
    assert len(s.to_json()["face_down"]["unseen"]) == 3
    text = s.to_notation()
    assert text.splitlines()[0] == f"starving_artists(deck={p})"
    assert g.state_from_notation(text).to_json() == s.to_json()


# §4 -------------------------------------------------------------------------
def test_s04_six_cubes_each_from_the_first_player(impl):
    s = load(3, impl, start=1).new_initial_state()
    draw(s, *["blue"] * 6)
    assert sum(studio(s, 1)["cubes"].values()) == 6
    assert sum(studio(s, 2)["cubes"].values()) == 0
    draw(s, *["red"] * 6)
    assert studio(s, 2)["cubes"]["red"] == 6
    draw(s, *["black"] * 6)
    assert studio(s, 0)["cubes"]["black"] == 6
    assert s.to_json()["phase"] == "canvas"
    v = s.to_json()
    assert all(st["nutrition"] == 5 for st in v["studios"])
    draw(s, "Bahamian View", "Water Lilies", "The Siesta")
    m = s.to_json()["market"]
    assert [x["canvas"] for x in m] == [BAHAMIAN, WATER_LILIES, SIESTA]


# §5, §12 ------------------------------------------------------------------------
def test_s05_market_costs_by_position(impl):
    g = load(2, impl)

    def edit(v):
        v["studios"][0]["cubes"] = cubes(blue=2)
    s = position(g, edit)
    t = texts(s)
    assert [x.split(" (")[0] for x in t if x.startswith("buy")] == ["buy canvas 1",
                                                                      "buy canvas 2"]
    do(s, "buy canvas 2 (The Siesta)", "pay blue")
    assert s.to_json()["phase"] == "pay"
    do(s, "pay blue")
    assert s.is_chance_node()


def test_s12_buy_shifts_toward_the_cheap_end_and_refills_next_to_the_pile(impl):
    g = load(2, impl)

    def edit(v):
        v["studios"][0]["cubes"] = cubes(red=3)
        set_market(v, [BAHAMIAN, WATER_LILIES, SIESTA])
    s = do(position(g, edit), "buy canvas 1 (Bahamian View)", "pay red")
    v = s.to_json()
    assert [m and m["canvas"] for m in v["market"]] == [WATER_LILIES, SIESTA, None]
    assert v["payday_pile"]["red"] >= 1
    draw(s, "Kleine Fee")
    v = s.to_json()
    assert [m["canvas"] for m in v["market"]] == [WATER_LILIES, SIESTA, KLEINE_FEE]
    assert [c["canvas"] for c in v["studios"][0]["canvases"]] == [BAHAMIAN]


def test_s12_buying_the_costliest_replaces_only_it(impl):
    g = load(2, impl)

    def edit(v):
        v["studios"][0]["cubes"] = cubes(red=3)
        set_market(v, [BAHAMIAN, WATER_LILIES, SIESTA])
    s = do(position(g, edit), "buy canvas 3 (The Siesta)", "pay red", "pay red", "pay red")
    draw(s, "Kleine Fee")
    assert [m["canvas"] for m in s.to_json()["market"]] == [BAHAMIAN, WATER_LILIES, KLEINE_FEE]
    assert s.to_json()["payday_pile"]["red"] >= 3


def test_s12_an_exhausted_pile_leaves_the_slot_empty(impl, tmp_path):
    # a deck of three canvases: the market holds them all, nothing is face down
    deck = small_deck(tmp_path, ["Bahamian View", "Water Lilies", "The Siesta"])
    g = engine.load_game(f"starving_artists(players=2,deck={deck})", implementation=impl)

    def edit(v):
        v["studios"][0]["cubes"] = cubes(red=1)
    st = position(g, edit)
    s = do(st, next(t for t in texts(st) if t.startswith("buy canvas 1 (")), "pay red")
    v = s.to_json()
    assert v["phase"] == "turn" and v["market"][2] is None and v["market"][1] is not None


# §6 -------------------------------------------------------------------------
def test_s06_payday_four_cubes_each_day(impl):
    s = load(2, impl).new_initial_state()
    draw(s, *["blue"] * 12, 0, 1, 2)
    assert s.is_chance_node() and s.to_json()["phase"] == "draw"
    draw(s, "red", "red", "green", "wild")
    v = s.to_json()
    assert v["payday_pile"] == cubes(red=2, green=1, wild=1) and v["phase"] == "turn"


def _finish_day_by_working(s, rng_cube="blue"):
    """Every living player works twice and ends the turn; nobody sells."""
    day = s.to_json()["day"]
    while s.to_json()["phase"] in ("turn", "draw") and s.to_json()["day"] == day:
        if s.is_chance_node():
            draw(s, rng_cube if s.to_json()["bag"][rng_cube] else next(
                c for c, k in s.to_json()["bag"].items() if k))
        elif "work" in texts(s):
            do(s, "work")
        else:
            do(s, "end turn")
    return s


# §7, §8 ------------------------------------------------------------------------
def test_s07_nutrition_falls_from_the_second_day(impl):
    s = opening(load(2, impl))
    assert [st["nutrition"] for st in s.to_json()["studios"]] == [5, 5]
    _finish_day_by_working(s)
    v = s.to_json()
    assert v["day"] == 2 and v["phase"] == "draw"           # §8: payday first
    assert [st["nutrition"] for st in v["studios"]] == [5, 5]
    draw(s, "blue", "blue", "blue", "blue")
    assert [st["nutrition"] for st in s.to_json()["studios"]] == [4, 4]
    assert s.to_json()["first_player"] == 1                 # §25


def test_s07_starving_returns_paint_and_canvases_and_passes_the_carrot(impl):
    g = load(3, impl)

    def edit(v):        # day 5: player 0 has never eaten; players 1 and 2 sold a painting
        v["studios"][0]["nutrition"] = 1
        v["studios"][0]["cubes"] = cubes(red=2, wild=1)
        give(v, 0, BAHAMIAN, ["red", "orange", None, None, None, None])
        for p, canvas in ((1, KLEINE_FEE), (2, SIESTA)):
            give_painting(v, p, canvas)
            v["studios"][p]["nutrition"] = 3
        at_turn(v, 1)
    s = position(g, edit)
    assert s.to_json()["day"] == 5
    _finish_day_by_working(s)
    # Day 6: the carrot went to player 2; player 0, at 1, starves now.
    draw(s, "blue", "blue", "blue", "blue")
    v = s.to_json()
    st0 = v["studios"][0]
    assert st0["alive"] is False and st0["nutrition"] == 0
    assert sum(st0["cubes"].values()) == 0 and st0["canvases"] == []
    assert BAHAMIAN in v["removed"]
    assert _total(v) == dict(zip(CUBE_NAMES, BOX))


def test_s07_a_starved_first_player_passes_the_carrot_at_once(impl):
    g = load(3, impl)

    def edit(v):        # day 5: player 2, who gets the carrot on day 6, has never eaten
        v["studios"][2]["nutrition"] = 1
        for p, canvas in ((0, KLEINE_FEE), (1, SIESTA)):
            give_painting(v, p, canvas)
            v["studios"][p]["nutrition"] = 3
        at_turn(v, 1)
    s = position(g, edit)
    _finish_day_by_working(s)
    draw(s, "blue", "blue", "blue", "blue")
    v = s.to_json()
    assert v["studios"][2]["alive"] is False
    assert v["first_player"] == 0 and v["current_player"] == 0 and v["day"] == 6


# §9 -------------------------------------------------------------------------
def test_s09_work_draws_three_with_the_bag_probabilities(impl):
    s = opening(load(2, impl))
    do(s, "work")
    bag = s.to_json()["bag"]
    total = sum(bag.values())
    assert sorted(s.chance_outcomes()) == [(CUBE_NAMES.index(c), k / total)
                                           for c, k in bag.items() if k]
    before = sum(studio(s, 0)["cubes"].values())
    draw(s, "violet", "violet", "wild")
    assert sum(studio(s, 0)["cubes"].values()) == before + 3
    assert texts(s)[-1] == "end turn" and "work" not in texts(s)


# §10, §11 -----------------------------------------------------------------------
def test_s10_paint_up_to_four_cubes_on_any_own_canvases(impl):
    g = load(2, impl)

    def edit(v):
        v["studios"][0]["cubes"] = cubes(blue=5, yellow=1)
        give(v, 0, BAHAMIAN)
        give(v, 0, KUCHING)
    s = do(position(g, edit), "paint", "paint blue on Bahamian View",
           "paint blue on Bahamian View", "paint yellow on View of Kuching and River, "
           "Sarawak, Borneo", "paint blue on Bahamian View")
    v = s.to_json()
    assert v["phase"] == "turn" and v["studios"][0]["cubes"]["blue"] == 2
    bv = next(c for c in v["studios"][0]["canvases"] if c["canvas"] == BAHAMIAN)
    assert bv["cubes"] == [None, None, None, "blue", "blue", "blue"]


def test_s10_paint_must_match_and_is_offered_only_when_a_cube_fits(impl):
    g = load(2, impl)

    def edit(v):
        v["studios"][0]["cubes"] = cubes(violet=3)
        give(v, 0, BAHAMIAN)
    s = position(g, edit)
    assert "paint" not in texts(s)


def test_s10_stop_painting_only_after_a_cube(impl):
    g = load(2, impl)

    def edit(v):
        v["studios"][0]["cubes"] = cubes(blue=2)
        give(v, 0, BAHAMIAN)
    s = do(position(g, edit), "paint")
    assert "stop painting" not in texts(s)
    do(s, "paint blue on Bahamian View")
    assert "stop painting" in texts(s)
    do(s, "stop painting")
    assert s.to_json()["phase"] == "turn" and "end turn" in texts(s)


def test_s10_split_squares_take_either_colour(impl):
    g = load(2, impl)

    def edit(v):
        v["studios"][0]["cubes"] = cubes(blue=1, red=1)
        give(v, 0, EXCITING)          # red yellow green green green red/blue
    s = do(position(g, edit), "paint")
    t = texts(s)
    assert "paint blue on Exciting Comics no9" in t
    assert "paint red on Exciting Comics no9, square 1 (red)" in t
    assert "paint red on Exciting Comics no9, square 6 (red/blue)" in t


def test_s11_one_move_per_colour_set(impl):
    g = load(2, impl)

    def edit(v):
        v["studios"][0]["cubes"] = cubes(yellow=2)
        give(v, 0, GRAIN_FIELD)   # yellow yellow y/g y/g y/g y/b y/v y/g
    s = do(position(g, edit), "paint")
    t = [x for x in texts(s) if x.startswith("paint yellow")]
    assert t == ["paint yellow on Grain Field, square 1 (yellow)",
                 "paint yellow on Grain Field, square 3 (yellow/green)",
                 "paint yellow on Grain Field, square 6 (yellow/blue)",
                 "paint yellow on Grain Field, square 7 (yellow/violet)"]


# §13 ------------------------------------------------------------------------
def test_s13_two_rounds_round_robin_then_announcements(impl):
    g = load(3, impl, start=2)
    s = opening(g)
    seen = []
    while s.to_json()["phase"] in ("turn", "draw") and s.to_json()["day"] == 1:
        if s.is_chance_node():
            draw(s, s.chance_outcomes()[0][0])
            continue
        if "work" in texts(s):
            seen.append(s.current_player())
            do(s, "work")
        else:
            do(s, "end turn")
    assert seen == [2, 0, 1, 2, 0, 1]


def test_s13_free_action_once_a_day_before_or_after_the_action(impl):
    g = load(2, impl)

    def edit(v):
        v["studios"][0]["cubes"] = cubes(red=6)
        v["payday_pile"] = cubes(blue=4)
    s = do(position(g, edit), "work")
    draw(s, "green", "green", "green")
    assert "trade 2 cubes for 1" in texts(s)            # after the action
    do(s, "trade 2 cubes for 1", "pay red", "pay red", "take blue from the pile")
    assert not any(t.startswith("trade") or t == "reset the market" for t in texts(s))
    do(s, "end turn")
    assert any(t.startswith("trade") for t in texts(s))  # the other player's own


# §14 ------------------------------------------------------------------------
def test_s14_trade_rates(impl):
    g = load(2, impl)

    def edit(v):
        v["studios"][0]["cubes"] = cubes(red=5)
        v["payday_pile"] = cubes(blue=3)
    s = position(g, edit)
    t = texts(s)
    assert "trade 2 cubes for 1" in t and "trade 5 cubes for 2" in t
    assert "trade 9 cubes for 3" not in t
    do(s, "trade 5 cubes for 2", *["pay red"] * 5, "take blue from the pile",
       "take blue from the pile")
    v = s.to_json()
    assert v["studios"][0]["cubes"] == cubes(blue=2)
    assert v["payday_pile"] == cubes(red=5, blue=1)


def test_s14_never_take_a_wild_and_take_from_the_pile_before_payment(impl):
    g = load(2, impl)

    def edit(v):
        v["studios"][0]["cubes"] = cubes(red=2)
        v["payday_pile"] = cubes(wild=3, green=1)
    s = do(position(g, edit), "trade 2 cubes for 1", "pay red", "pay red")
    assert texts(s) == ["take green from the pile"]

    def edit2(v):
        v["studios"][0]["cubes"] = cubes(red=2)
        v["payday_pile"] = cubes(wild=3)
    assert not any(t.startswith("trade") for t in texts(position(g, edit2)))


# §15 ------------------------------------------------------------------------
def test_s15_reset_puts_the_market_under_the_pile_known(impl, tmp_path):
    # five canvases: three in the market, two face down
    deck = small_deck(tmp_path, ["Bahamian View", "Water Lilies", "The Siesta", "Kleine Fee",
                                 "View of Kuching and River, Sarawak, Borneo"])
    g = engine.load_game(f"starving_artists(players=2,deck={deck})", implementation=impl)
    # the view names them by printed id; a draw is the deck index
    bv, wl, si, kf, ku = (c.id for c in rules_of(g).deck.cards)

    def edit(v):
        v["studios"][0]["cubes"] = cubes(red=2)
        v["face_down"]["unseen"] = [kf, ku]
        v["market"] = [{"canvas": i} for i in (bv, wl, si)]
    s = do(position(g, edit), "reset the market", "pay red", "pay red")
    v = s.to_json()
    assert v["face_down"]["known_under"] == [bv, wl, si]
    assert v["payday_pile"]["red"] >= 2
    draw(s, 3, 4)
    v = s.to_json()       # the third comes from under the pile, known: no chance
    assert v["phase"] == "turn"
    assert [m["canvas"] for m in v["market"]] == [kf, ku, bv]
    assert v["face_down"]["known_under"] == [wl, si]


def test_s15_no_reset_in_the_solo_game(impl):
    g = load(1, impl)

    def edit(v):
        v["studios"][0]["cubes"] = cubes(red=4)
    assert "reset the market" not in texts(position(g, edit))


# §16, §17 -----------------------------------------------------------------------
def test_s16_only_completed_canvases_are_sold_and_selling_is_optional(impl):
    g = load(2, impl)

    def edit(v):
        give_complete(v, 0, BAHAMIAN)
        give(v, 0, KUCHING, ["yellow", None, None])
        at_announce(v, 0)
    s = position(g, edit)
    day = s.to_json()["day"]
    assert sorted(texts(s)) == ["sell Bahamian View", "sell nothing more"]
    do(s, "sell nothing more")
    v = s.to_json()
    assert v["day"] == day + 1 and BAHAMIAN in [c["canvas"] for c in v["studios"][0]["canvases"]]


def test_s17_announcements_go_from_the_first_player(impl):
    g = load(3, impl, start=1)

    def edit(v):
        give_complete(v, 0, BAHAMIAN)
        give_complete(v, 1, KUCHING)
        give_complete(v, 2, KLEINE_FEE)
        at_announce(v, 1, nutrition=2)          # day 4: player 1 holds the carrot
    s = position(g, edit)
    order = []
    while s.to_json()["phase"] == "announce":
        order.append(s.current_player())
        do(s, "sell nothing more")
    assert order == [1, 2, 0]


# §18-§20 ------------------------------------------------------------------------
def test_s19_feeding_to_full_and_four_cubes_per_excess_food(impl):
    g = load(2, impl)

    def edit(v):
        give_complete(v, 0, idx("The Alarm Clock"))      # food 3
        v["payday_pile"] = cubes()
        v["studios"][0]["cubes"] = cubes()
        at_announce(v, 0, nutrition=3)                   # 3 + 3: one over full
    s = do(position(g, edit), "sell The Alarm Clock", "sell nothing more")
    v = s.to_json()
    assert v["phase"] == "draw" and v["studios"][0]["nutrition"] == 5
    assert v["pending"]["draws_left"] == 4 and v["pending"]["draw_to"] == 0
    assert v["studios"][0]["food_earned"] == 3
    # §19: drawn before the paint goes back (the canvas still holds its cubes)
    assert all(v["studios"][0]["canvases"][0]["cubes"])
    draw(s, *["black"] * 4)
    v = s.to_json()
    assert v["studios"][0]["cubes"]["black"] == 4 + 0
    assert v["studios"][0]["paintings"] == [idx("The Alarm Clock")]


def test_s20_sold_paint_goes_back_to_the_bag(impl):
    g = load(2, impl)

    def edit(v):
        give(v, 0, KUCHING, ["yellow", "green", "wild"])
        v["payday_pile"] = cubes()
        at_announce(v, 0)
    s = position(g, edit)
    bag = s.to_json()["bag"]
    do(s, "sell View of Kuching and River, Sarawak, Borneo", "sell nothing more")
    after = s.to_json()["bag"]
    assert after["yellow"] == bag["yellow"] + 1 and after["wild"] == bag["wild"] + 1
    assert after["green"] == bag["green"] + 1


# §21-§23 ------------------------------------------------------------------------
def _collect_all(s, prefer=None):
    """Play the collection: each pick prefers colours in `prefer` order."""
    log = []
    while s.to_json()["phase"] == "collect":
        t = texts(s)
        pick = t[0]
        for c in prefer or []:
            if f"take {c} from the pile" in t:
                pick = f"take {c} from the pile"
                break
        log.append((s.current_player(), pick.split()[1]))
        do(s, pick)
    return log


def test_s21_payout_example_worked_by_hand(impl):
    """FAQ: each painting collects separately, in value order, 4 / 2 / 1 per
    collection turn, round after round until the pile is empty or each
    painting has its value. Pile 12 cubes; Water Lilies (value 10, player 1),
    Bahamian View (7, player 0), Kuching (4, player 1). Round 1: 4, 2, 1
    (7 taken, 5 left); round 2: Water Lilies 4 (1 left), Bahamian View 1.
    Totals 8, 3, 1."""
    g = load(2, impl)

    def edit(v):
        give_complete(v, 0, BAHAMIAN)
        give_complete(v, 1, WATER_LILIES)
        give_complete(v, 1, KUCHING)
        v["payday_pile"] = cubes(blue=12)
        for st in v["studios"]:
            st["cubes"] = cubes()
        at_announce(v, 0, nutrition=1)
    s = do(position(g, edit), "sell Bahamian View", "sell nothing more", "sell Water Lilies",
           "sell View of Kuching and River, Sarawak, Borneo", "sell nothing more")
    log = _collect_all(s)
    players = [p for p, _ in log]
    assert players == [1] * 4 + [0] * 2 + [1] + [1] * 4 + [0]
    v = s.to_json()
    assert v["payday_pile"] == cubes()
    assert v["studios"][0]["cubes"]["blue"] == 3 and v["studios"][1]["cubes"]["blue"] == 9
    assert v["studios"][0]["stars"] == 2 and v["studios"][1]["stars"] == 5


def test_s21_each_painting_takes_its_value_at_most(impl):
    g = load(2, impl)

    def edit(v):
        give_complete(v, 0, SIESTA)             # paint 3
        v["payday_pile"] = cubes(blue=10)
        for st in v["studios"]:
            st["cubes"] = cubes()
        at_announce(v, 0)
    s = do(position(g, edit), "sell The Siesta", "sell nothing more")
    _collect_all(s)
    v = s.to_json()
    assert v["studios"][0]["cubes"]["blue"] == 3 and v["payday_pile"]["blue"] == 7


def test_s22_ties_by_seat_from_the_first_player(impl):
    g = load(3, impl, start=2)
    twin = [c.id for c in DECK.cards if c.paint == 7][:2]

    def edit(v):
        give_complete(v, 0, twin[0])
        give_complete(v, 1, twin[1])
        v["payday_pile"] = cubes(blue=20)
        for st in v["studios"]:
            st["cubes"] = cubes()
        at_announce(v, 0, nutrition=2)         # day 4: player 2 holds the carrot
        v["first_player"] = 2
        v["pending"]["turn_k"] = 1
    s = position(g, edit)
    do(s, f"sell {card(twin[0]).title}", "sell nothing more",
       f"sell {card(twin[1]).title}", "sell nothing more")
    log = _collect_all(s)
    assert [p for p, _ in log][:6] == [0, 0, 0, 0, 1, 1]   # player 0 sits nearer player 2


def test_s23_one_wild_per_collection_turn_rulebook_example(impl):
    """Rulebook: the only seller of a painting worth 8 takes at most 2 wilds;
    worth 9, at most 3 (three collection turns: 4, 4, 1)."""
    for canvas, wilds in ((KLEINE_FEE, 2), (HALL_OF_BULLS, 3)):
        g = load(2, impl)

        def edit(v):
            give_complete(v, 0, canvas)
            v["payday_pile"] = cubes(wild=8, red=15)
            for st in v["studios"]:
                st["cubes"] = cubes()
            at_announce(v, 0)
        s = do(position(g, edit), f"sell {card(canvas).title}", "sell nothing more")
        log = _collect_all(s, prefer=["wild"])
        assert sum(1 for _, c in log if c == "wild") == wilds
        assert len(log) == card(canvas).paint


# §24, §25 --------------------------------------------------------------------------
def test_s24_sold_canvases_score_stars_and_count(impl):
    g = load(2, impl)

    def edit(v):
        give_complete(v, 1, BAHAMIAN)
        v["payday_pile"] = cubes()
        at_announce(v, 1)
        v["pending"]["turn_k"] = 1
    s = position(g, edit)
    day = s.to_json()["day"]
    do(s, "sell Bahamian View", "sell nothing more")
    st = studio(s, 1)
    assert st["paintings"] == [BAHAMIAN] and st["stars"] == 2 and st["canvases"] == []
    assert s.to_json()["first_player"] == 1 and s.to_json()["day"] == day + 1


# §26 ------------------------------------------------------------------------
def test_s26_starvation_ends_the_game_after_that_day(impl):
    g = load(3, impl)

    def edit(v):        # day 5: player 2 has never eaten, the others sold a painting
        v["studios"][2]["nutrition"] = 1
        for p, canvas in ((0, KLEINE_FEE), (1, SIESTA)):
            give_painting(v, p, canvas)
            v["studios"][p]["nutrition"] = 3
        at_turn(v, 1)
    s = position(g, edit)
    _finish_day_by_working(s)
    draw(s, "blue", "blue", "blue", "blue")
    v = s.to_json()
    assert v["studios"][2]["alive"] is False and v["phase"] == "turn" and v["day"] == 6
    _finish_day_by_working(s)
    assert s.is_terminal() and s.to_json()["day"] == 6


def test_s26_everybody_starving_ends_the_game_at_once(impl):
    g = load(2, impl)

    def edit(v):
        for st in v["studios"]:
            st["nutrition"] = 1
    s = position(g, edit)
    _finish_day_by_working(s)
    draw(s, "blue", "blue", "blue", "blue")
    assert s.is_terminal()
    assert s.returns() == [0.0, 0.0]


# §27 ------------------------------------------------------------------------
@pytest.mark.parametrize("n,stars,paintings", [(2, 20, 10), (3, 18, 9), (4, 15, 7), (1, 20, 10)])
def test_s27_fame_thresholds_by_player_count(n, stars, paintings):
    r = make_rules({"players": n, "start": 0, "deck": "38", "famestars": 0,
                    "famepaintings": 0, "colourstudy": False, "lastsupper": False,
                    "setaside": 15})
    assert (r.fame_stars, r.fame_paintings) == (stars, paintings)


def test_s27_fame_is_checked_at_the_end_of_the_day_after_sales(impl):
    g = load(2, impl, famestars=4)

    def edit(v):
        give_painting(v, 0, KLEINE_FEE)            # 2 stars
        give_complete(v, 0, BAHAMIAN)              # 2 stars
        v["payday_pile"] = cubes()
        at_announce(v, 0)
    s = position(g, edit)
    assert not s.is_terminal()
    do(s, "sell Bahamian View", "sell nothing more")
    assert s.is_terminal() and s.returns() == [1.0, -1.0]


def test_s27_paintings_threshold_option(impl):
    g = load(2, impl, famepaintings=2)

    def edit(v):
        give_painting(v, 1, KLEINE_FEE)
        give_complete(v, 1, SIESTA)
        v["payday_pile"] = cubes()
        at_announce(v, 1)
        v["pending"]["turn_k"] = 1
    s = do(position(g, edit), "sell The Siesta", "sell nothing more")
    assert s.is_terminal() and s.returns() == [-1.0, 1.0]


# §28 ------------------------------------------------------------------------
def test_s28_the_winner_by_stars_then_paintings_then_food(impl):
    g = load(3, impl, famepaintings=2)

    def edit(v):
        give_painting(v, 0, idx("The Alarm Clock"))    # 2 stars, food 3
        give_complete(v, 0, SIESTA)                    # 2 stars, food 2
        give_painting(v, 1, idx("Starry Night"))       # 4 stars, 1 painting
        give_painting(v, 2, BAHAMIAN)                  # 2 stars, food 2
        give_complete(v, 2, KUCHING)                   # 2 stars, food 2
        v["payday_pile"] = cubes()
        at_announce(v, 0, nutrition=2)                 # day 4: player 0 holds the carrot
    s = do(position(g, edit), "sell The Siesta", "sell nothing more",
           "sell View of Kuching and River, Sarawak, Borneo", "sell nothing more")
    assert s.is_terminal()
    # 4 stars each; players 0 and 2 have 2 paintings, player 1 one; food 5 > 4.
    assert [st["stars"] for st in s.to_json()["studios"]] == [4, 4, 4]
    assert s.returns() == [1.0, -1.0, 0.0]


def test_s28_a_starved_player_can_win(impl):
    g = load(2, impl)

    def edit(v):        # day 5: player 0 (2 stars) ate too little, player 1 (1 star) enough
        give_painting(v, 0, KLEINE_FEE)
        v["studios"][0]["nutrition"] = 1
        give_painting(v, 1, idx("The Accolade"))
        v["studios"][1]["nutrition"] = 3
    s = position(g, edit)
    _finish_day_by_working(s)
    draw(s, "blue", "blue", "blue", "blue")
    assert s.to_json()["studios"][0]["alive"] is False
    _finish_day_by_working(s)
    assert s.is_terminal() and s.returns() == [1.0, -1.0]


# §29, §30 --------------------------------------------------------------------------
def test_s29_colour_study(impl):
    g = load(2, impl, colourstudy=True)

    def edit(v):
        v["studios"][0]["cubes"] = cubes(red=4, blue=3)
    s = position(g, edit)
    t = texts(s)
    assert "colour study: 4 red for 1 violet" in t
    assert not any("4 blue" in x for x in t) and "colour study: 4 red for 1 red" not in t
    bag = s.to_json()["bag"]
    do(s, "colour study: 4 red for 1 violet")
    v = s.to_json()
    assert v["studios"][0]["cubes"] == cubes(blue=3, violet=1)
    assert v["bag"]["red"] == bag["red"] + 4 and v["bag"]["violet"] == bag["violet"] - 1
    assert not any(x.startswith(("trade", "colour study")) for x in texts(s))
    assert "colour study: 4 red for 1 violet" not in texts(position(load(2, impl), edit))


def test_s30_last_supper(impl):
    g = load(2, impl, lastsupper=True)

    def edit(v):
        give_painting(v, 0, idx("Starry Night"))   # 4 stars
        v["studios"][0]["nutrition"] = 1
    s = position(g, edit)
    _finish_day_by_working(s)
    draw(s, "blue", "blue", "blue", "blue")
    assert s.to_json()["phase"] == "supper" and s.current_player() == 0
    assert sorted(texts(s)) == ["last supper: discard Starry Night", "no last supper"]
    do(s, "last supper: discard Starry Night")
    st = studio(s, 0)
    assert st["alive"] and st["nutrition"] == 4 and st["stars"] == 0 and st["paintings"] == []
    # Declined, the player starves.
    s = position(g, edit)
    _finish_day_by_working(s)
    draw(s, "blue", "blue", "blue", "blue")
    do(s, "no last supper")
    assert studio(s, 0)["alive"] is False and studio(s, 0)["stars"] == 4


def test_s31_player_trades_are_not_offered():
    entry = engine.game_entry("starving_artists")
    assert "player-to-player trades are not supported" in entry.description


# §32-§36 solo --------------------------------------------------------------------
def test_s32_solo_setup_two_cubes_and_fifteen_set_aside(impl):
    g = load(1, impl)
    s = g.new_initial_state()
    draw(s, "blue", "red")
    assert s.to_json()["phase"] == "canvas"
    draw(s, 0, 1, 2)
    v = s.to_json()
    assert v["phase"] == "draw" and v["face_down"]["set_aside"] == 15  # payday after nutrition
    draw(s, "green", "green", "green", "green")
    v = s.to_json()
    assert v["phase"] == "turn" and v["studios"][0]["cubes"] == cubes(blue=1, red=1)
    assert v["pending"]["actions_left"] == 2


def test_s32_solo_pile_stops_at_the_set_aside_canvases(impl):
    g = load(1, impl)

    def edit(v):        # 16 canvases face down: a day's end removed each of the others
        keep = v["face_down"]["unseen"][:16]
        v["removed"] += v["face_down"]["unseen"][16:]
        v["face_down"]["unseen"] = keep
        v["studios"][0]["cubes"] = cubes(red=2)
        give_painting(v, 0, v["removed"].pop())       # eaten to last so long
        v["studios"][0]["nutrition"] = 3
    s = do(position(g, edit), "buy canvas 1 (On the Island of Crete)", "pay red")
    assert s.is_chance_node()
    draw(s, s.chance_outcomes()[0][0])
    # the canvas that slid into slot 1, by the text the codec writes for it
    do(s, next(t for t in texts(s) if t.startswith("buy canvas 1 (")), "pay red")
    v = s.to_json()
    assert not s.is_chance_node() and v["market"][2] is None
    assert len(v["face_down"]["unseen"]) == 15


def test_s32_solo_dawn_lowers_nutrition_before_payday(impl):
    g = load(1, impl)
    s = do(opening(g), "work")
    draw(s, "blue", "blue", "blue")
    do(s, "work")
    draw(s, "blue", "blue", "blue")
    do(s, "end the day")
    while s.to_json()["phase"] == "advance":
        do(s, texts(s)[0])
    if s.to_json()["phase"] == "canvas":
        draw(s, s.chance_outcomes()[0][0])
    v = s.to_json()
    assert v["day"] == 2 and v["phase"] == "draw" and v["studios"][0]["nutrition"] == 4


def test_s33_solo_two_actions_then_end_the_day(impl):
    g = load(1, impl)

    def edit(v):
        v["studios"][0]["cubes"] = cubes(red=4)
        v["payday_pile"] = cubes(blue=4)
    s = position(g, edit)
    t = texts(s)
    assert "trade 2 cubes for 1" in t and "trade 5 cubes for 2" not in t
    assert "end the day" not in t
    do(s, "work")
    draw(s, "green", "green", "green")
    do(s, "work")
    draw(s, "green", "green", "green")
    t = texts(s)
    assert "work" not in t and "end the day" in t and "trade 2 cubes for 1" in t


def test_s34_solo_sell_any_time_takes_up_to_value_without_wild_limit(impl):
    g = load(1, impl)

    def edit(v):
        give_complete(v, 0, SIESTA)      # paint 3, food 2
        v["studios"][0]["nutrition"] = 3
        v["payday_pile"] = cubes(wild=3, blue=2)
    s = position(g, edit)
    assert "sell The Siesta" in texts(s)
    do(s, "sell The Siesta")
    for _ in range(3):
        do(s, "take wild from the pile")
    v = s.to_json()
    assert v["phase"] == "turn" and v["pending"]["actions_left"] == 2
    assert v["studios"][0]["cubes"]["wild"] == 3 and v["studios"][0]["nutrition"] == 5
    assert v["studios"][0]["paintings"] == [SIESTA]


def test_s35_solo_market_advance(impl):
    g = load(1, impl)

    def edit(v):
        set_market(v, [EXCITING, BAHAMIAN, WATER_LILIES])   # red yellow green green green red/blue
        v["payday_pile"] = cubes(red=2, green=1, blue=1, wild=1)
        v["pending"]["actions_left"] = 0
    s = do(position(g, edit), "end the day")
    # singles: red, yellow (none), green x3 (one in the pile); then red/blue: both left?
    v = s.to_json()
    assert v["phase"] == "advance"
    assert texts(s) == ["return red to the bag", "return blue to the bag"]
    do(s, "return blue to the bag")
    v = s.to_json()
    assert v["payday_pile"] == cubes(red=1, wild=1)
    assert EXCITING in v["removed"]
    assert [m and m["canvas"] for m in v["market"]] == [BAHAMIAN, WATER_LILIES, None]
    assert s.is_chance_node()


def test_s36_solo_win_at_once(impl):
    g = load(1, impl, famepaintings=2)

    def edit(v):
        give_painting(v, 0, KLEINE_FEE)
        give_complete(v, 0, SIESTA)
        v["payday_pile"] = cubes()
        v["studios"][0]["nutrition"] = 3
    s = do(position(g, edit), "sell The Siesta")
    assert s.is_terminal() and s.returns() == [1.0] and s.to_json()["result"] == 1


def test_s36_solo_loses_by_starving_and_by_an_empty_market(impl):
    g = load(1, impl)

    def edit(v):
        v["studios"][0]["nutrition"] = 1
        v["pending"]["actions_left"] = 0
        v["payday_pile"] = cubes()
    s = do(position(g, edit), "end the day")
    if s.is_chance_node():
        draw(s, s.chance_outcomes()[0][0])
    assert s.is_terminal() and s.to_json()["result"] == -1
    assert s.returns() == [-1.0]

    def edit2(v):
        v["removed"] += [m["canvas"] for m in v["market"][1:]] + v["face_down"]["unseen"][15:]
        v["face_down"]["unseen"] = v["face_down"]["unseen"][:15]
        v["market"][1] = v["market"][2] = None
        v["pending"]["actions_left"] = 0
        v["payday_pile"] = cubes()
        give_painting(v, 0, v["removed"].pop())       # eaten to last so long
        v["studios"][0]["nutrition"] = 3
    s = do(position(g, edit2), "end the day")
    assert s.is_terminal() and s.to_json()["result"] == -1


# §37 ------------------------------------------------------------------------
def test_s37_draws_stop_when_the_bag_is_empty(impl):
    g = load(2, impl)

    def edit(v):
        v["payday_pile"] = dict(zip(CUBE_NAMES, BOX))
        v["payday_pile"]["blue"] -= 2
        for st in v["studios"]:
            st["cubes"] = cubes()
        v["studios"][0]["cubes"] = cubes(blue=1)
    s = position(g, edit)
    assert sum(s.to_json()["bag"].values()) == 1
    do(s, "work")
    draw(s, "blue")
    assert s.to_json()["phase"] == "turn" and studio(s, 0)["cubes"]["blue"] == 2


# The JSON loader -------------------------------------------------------------
@pytest.mark.parametrize("mutate,field", [
    (lambda v: v["bag"].__setitem__("blue", v["bag"]["blue"] + 1), "bag.blue"),
    (lambda v: v["studios"][0].__setitem__("nutrition", 6), "studios[0].nutrition"),
    (lambda v: v.__setitem__("phase", "lunch"), "phase"),
    (lambda v: v["studios"][1].__setitem__("stars", 3), "studios[1].stars"),
    (lambda v: v["market"].__setitem__(0, {"canvas": v["market"][1]["canvas"]}), "market[1]"),
    (lambda v: v["pending"].__setitem__("actor", 7), "pending.actor"),
    (lambda v: v.__setitem__("extra", 1), "extra"),
    (lambda v: v["studios"][0].pop("cubes"), "studios[0].cubes"),
    (lambda v: v.__setitem__("phase", "feed"), "phase"),
])
def test_loader_names_the_bad_field(impl, mutate, field):
    g = load(2, impl)
    v = opening(g).to_json()
    mutate(v)
    with pytest.raises(StateFormatError, match="field '" + re.escape(field)):
        g.state_from_json(v)


def test_loader_refuses_two_wilds_and_wrong_colours(impl):
    g = load(2, impl)
    for cubes_on, fragment in ((["wild", "wild", None, None, None, None], "one wild"),
                               (["blue", None, None, None, None, None], "cannot lie")):
        with pytest.raises(StateFormatError, match=fragment):
            position(g, lambda v: give(v, 0, BAHAMIAN, cubes_on))


def test_json_round_trip(impl):
    g = load(3, impl)
    s = opening(g, seed=5)
    assert g.state_from_json(s.to_json()).to_json() == s.to_json()


# The loader refuses positions play cannot reach (RULINGS.md "Invariants of play")
def test_a_painting_sold_on_day_1_is_refused(impl):
    """Canvases are sold at a day's end (§16), so no painting exists on day 1
    (I8): refused from the JSON view and from the notation alike."""
    g = load(2, impl)
    v = opening(g).to_json()
    give_painting(v, 0, KUCHING)
    rebalance(v)
    with pytest.raises(StateFormatError, match=r"field 'studios\[0\]\.paintings' \(with 'day'\)"):
        g.state_from_json(v)
    lines = g.notation_of(opening(g)).splitlines()
    k = lines.index("player 1")
    face_down = opening(g).to_json()["face_down"]["unseen"][-1]
    lines.insert(k + 1, f"  paintings {card(face_down).title}")   # a face-down canvas, sold
    text = "\n".join(lines) + "\n"
    with pytest.raises(StateFormatError, match=r"line \d+ \(player 1 paintings\) \(with line "
                                               r"\d+ \(day\)\)"):
        g.state_from_notation(text)


def test_what_the_day_allows(impl):
    """Nutrition falls once a dawn from day 2 (I4); the carrot passes once a
    day (I5); two actions a day buy and paint the canvases (I8)."""
    g = load(2, impl)
    v = opening(g).to_json()
    v["studios"][1]["nutrition"] = 4
    with pytest.raises(StateFormatError,
                       match=r"field 'studios\[1\]\.nutrition'.*consistent value: 5"):
        g.state_from_json(v)
    v = opening(g).to_json()
    v["first_player"] = 1
    v["current_player"] = 1
    v["pending"]["actor"] = 1
    with pytest.raises(StateFormatError, match="field 'first_player'.*consistent value: 0"):
        g.state_from_json(v)
    v = opening(g).to_json()
    give_complete(v, 0, BAHAMIAN)          # 6 cubes: a buy and two paint actions
    rebalance(v)
    with pytest.raises(StateFormatError, match=r"field 'studios\[0\]\.canvases'"):
        g.state_from_json(v)


def test_every_broken_invariant_is_named_in_one_error(impl):
    from easel.engine import UnreachablePositionError
    g = load(2, impl)
    v = opening(g).to_json()
    v["bag"]["blue"] += 1
    v["studios"][0]["food_earned"] = 3
    v["pending"]["paints_left"] = 2
    with pytest.raises(UnreachablePositionError) as e:
        g.state_from_json(v)
    text = str(e.value)
    assert "3 problems" in text
    for field in ("bag.blue", "studios[0].food_earned", "pending.paints_left"):
        assert f"field '{field}'" in text, field
    assert f"bag.blue = {v['bag']['blue'] - 1}" in text

