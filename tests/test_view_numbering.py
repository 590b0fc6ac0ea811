"""Numbers a person counts are 1-based in every JSON view, and cards are named
by what is printed on them (docs/table-notation.md, "Names and numbers"),
whichever implementation writes the view: random games on each, every view
along them held to the game's rules of numbering."""
from __future__ import annotations

import random
import re

import pytest

from easel import engine


def _impls(game):
    return ["reference"] + (["core"] if engine.game_entry(game).has_core else [])


def _views(spec, impl, games=2, seed=0, limit=4000):
    """Every view along `games` random games of `spec` on `impl`."""
    rng = random.Random(seed)
    g = engine.load_game(spec, implementation=impl)
    for _ in range(games):
        s = g.new_initial_state()
        for _ in range(limit):
            yield s, s.to_json()
            if s.is_terminal():
                break
            if s.is_chance_node():
                outcomes, probs = zip(*s.chance_outcomes())
                s.apply_action(rng.choices(outcomes, probs)[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))


@pytest.mark.parametrize("impl", _impls("vangogh"))
@pytest.mark.parametrize("spec", ["vangogh", "vangogh(players=1)"])
def test_vangogh_counts_turns_and_slots_from_1(spec, impl):
    seen_card = 0
    for s, v in _views(spec, impl):
        assert v["turn"] >= 1, v["turn"]
        slot = v["pending"]["card_slot"]
        if v["phase"] == "card":
            seen_card += 1
            assert 1 <= slot <= 3 and v["paintings"][slot - 1]["card"] == -1
            # the chance text names the same slot as the view
            a = s.chance_outcomes()[0][0]
            assert s.action_to_string(a).endswith(f"onto painting {slot}")
        else:
            assert slot is None
    assert seen_card, "no painting was finished: the test saw no 'card' phase"


@pytest.mark.parametrize("impl", _impls("vangogh"))
def test_vangogh_names_the_next_character_the_end_of_round_checks(impl):
    # pending.eor_char names a character as the notation's `eor` line does,
    # never by its index: null before the first, "end" when all are checked
    from easel.engine.vangogh.rules import CHARS
    g = engine.load_game("vangogh", implementation=impl)
    seen = set()
    for s, v in _views("vangogh", impl, games=3):
        nxt = v["pending"]["eor_char"]
        assert nxt is None or nxt in CHARS + ("end",), nxt
        if v["phase"] != "eor":
            assert nxt is None
        elif nxt is not None:
            seen.add(nxt)
            assert g.state_from_json(v).to_json() == v
            text = g.notation_of(s)
            assert "eor " + nxt.replace(" ", "").replace(".", "") in text.split("\n")
            assert g.state_from_notation(text).to_json()["pending"]["eor_char"] == nxt
    assert seen, "no end of round stopped on a waiting Minigogh: the test saw no eor_char"


def test_vangogh_refuses_a_character_given_by_its_old_index():
    g = engine.load_game("vangogh")
    s, rng = g.new_initial_state(), random.Random(0)
    while s.is_chance_node():
        outcomes, probs = zip(*s.chance_outcomes())
        s.apply_action(rng.choices(outcomes, probs)[0])
    v = s.to_json()
    v["pending"]["eor_char"] = 3
    with pytest.raises(engine.StateFormatError, match=r"pending\.eor_char.*character"):
        g.state_from_json(v)


@pytest.mark.parametrize("impl", _impls("couleurs_de_paris"))
@pytest.mark.parametrize("spec", ["couleurs_de_paris", "couleurs_de_paris(players=4)"])
def test_couleurs_de_paris_counts_positions_from_1_and_names_paintings_by_id(spec, impl):
    kept = 0
    for s, v in _views(spec, impl, games=1):
        assert [lv["position"] for lv in v["lower_board"]] == list(range(1, 11))
        for q in v["pending"]["keep"]:
            kept += q is not None
            assert q is None or 1 <= q <= 10
        if s.is_chance_node():
            a = s.chance_outcomes()[0][0]
            assert s.action_to_string(a) == f"turn up painting #{a}"
        elif not s.is_terminal():
            for a in s.legal_actions():
                # a card by its printed id (#12), as the notation writes it
                text = s.action_to_string(a)
                assert not re.search(r"painting \d", text), text
    assert kept, "no assistant was stood up: the test saw no phase 3"


@pytest.mark.parametrize("impl", _impls("starving_artists"))
@pytest.mark.parametrize("spec", ["starving_artists", "starving_artists(players=1)"])
def test_starving_artists_names_canvases_by_printed_id(spec, impl):
    from easel.engine.starving_artists.rules import rules_of
    g = engine.load_game(spec, implementation=impl)
    ids = {c.id for c in rules_of(g).deck.cards}
    for s, v in _views(spec, impl, games=1):
        pend = v["pending"]
        named = ([m["canvas"] for m in v["market"] if m] + v["face_down"]["unseen"]
                 + v["face_down"]["known_under"] + v["removed"] + pend["selling"]
                 + pend["order"] + [x for x in [pend["adv_card"]] if x is not None])
        # the collection order names the canvases sold, each once
        assert not pend["order"] or sorted(pend["order"]) == sorted(pend["selling"]), pend
        for st in v["studios"]:
            named += [cv["canvas"] for cv in st["canvases"]] + st["paintings"]
        assert named and all(x in ids for x in named), named
        # the table's text counts players from 1, as the notation does
        assert "player 0" not in str(s), str(s)


@pytest.mark.parametrize("impl", _impls("starving_artists"))
def test_starving_artists_refuses_a_deck_index_and_proposes_the_printed_id(impl):
    from easel.engine.errors import StateFormatError
    g = engine.load_game("starving_artists", implementation=impl)
    s = next(s for s, v in _views("starving_artists", impl, games=1) if not s.is_chance_node()
             and v["market"][0] is not None)
    v = s.to_json()
    printed = v["market"][0]["canvas"]
    assert g.state_from_json(v).to_json() == v
    v["market"][0]["canvas"] = printed[:-1]                 # a typo
    with pytest.raises(StateFormatError, match=rf"market\[0\]\.canvas.*write one of: "
                                               rf"'{re.escape(printed)}'"):
        g.state_from_json(v)
    v["market"][0]["canvas"] = 24                           # a deck index, as views had
    with pytest.raises(StateFormatError, match=r"market\[0\]\.canvas.*printed id"):
        g.state_from_json(v)


@pytest.mark.parametrize("impl", _impls("starving_artists"))
def test_starving_artists_counts_the_slot_being_paid_for_from_1(impl):
    """pending.pay_arg names the market slot a purchase is paying for as the
    notation's `slot=` does (1..3), and is null when nothing is being paid
    for a slot or a trade."""
    seen = 0
    for s, v in _views("starving_artists", impl, games=3, seed=4):
        pend = v["pending"]
        if v["phase"] == "pay" and pend["pay_for"] == "buy":
            assert pend["pay_arg"] in (1, 2, 3), pend
            # a purchase of slot k costs k cubes (the nearest slot 1)
            assert pend["pay_left"] <= pend["pay_arg"], pend
            seen += 1
        elif pend["pay_for"] in (None, "reset"):
            assert pend["pay_arg"] is None, pend
    assert seen
