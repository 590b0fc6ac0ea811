"""Starving Artists table notation as a person writes it (ENCODING.md "Table
notation", docs/table-notation.md): the derived parts are left out and come
back the same; written anyway they are checked; a refusal names every wrong
line and field and says what to write."""
from __future__ import annotations

import re

import pytest

from easel.engine.errors import StateFormatError, UnreachablePositionError
from easel.engine.starving_artists import notation

from reachable import positions_in_play
from sa_helpers import load, opening
from test_sa_random import progress_choice


def positions(g, games=2, seed=0, every=7):
    """Positions met in play (a player who means to sell, so paintings, food
    and collections come up), every `every`-th and the last of each game."""
    return positions_in_play(g, progress_choice, games, seed, every)


def full_text(g, s):
    """The notation with every derived part written too (as a person copying
    the bag, the score track and the face-down pile would)."""
    v = s.to_json()
    names = notation.Names(notation.rules_of(g).deck)
    out = [ln for ln in s.to_notation().splitlines()
           if not ln.startswith(("  nutrition", "  food", "first", "day"))]
    out.insert(1, f"day {v['day']} round {v['round']}")
    out.append("bag " + " ".join(f"{c} {k}" for c, k in v["bag"].items() if k))
    deck = notation.rules_of(g).deck
    out.append("unseen " + names.names([deck.index_of(x) for x in v["face_down"]["unseen"]]))
    out.append(f"first player {v['first_player'] + 1}")
    for p, st in enumerate(v["studios"]):
        k = out.index(f"player {p + 1}")
        out[k + 1:k + 1] = [f"  stars {st['stars']}", f"  food {st['food_earned']}",
                            f"  nutrition {st['nutrition']}",
                            f"  {'alive' if st['alive'] else 'starved'}"]
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_shortest_notation_loads_back_to_the_same_position(n):
    """Every player count: the bag, the unseen canvases, stars, food, the
    carrot are never written, and the position comes back whole (Starving
    Artists has no hidden order: the bag is counts, the unseen pile a set)."""
    g = load(n, lastsupper=n == 4)
    for s in positions(g, seed=n):
        text = s.to_notation()
        words = {ln.split()[0] for ln in text.splitlines()[1:]}
        assert not words & {"bag", "unseen", "stars", "first"}, text
        assert "pending" not in words or s.to_json()["phase"] not in ("turn", "end", "setup")\
            or s.to_json()["pending"]["main_done"] or s.to_json()["pending"]["actions_left"] \
            or s.to_json()["pending"]["selling"] or s.to_json()["pending"]["adv_card"] \
            or n == 1, text     # solo: the day's actions left (0 too) are a turn's count
        back = g.state_from_notation(text)
        assert back.to_json() == s.to_json(), text
        assert back.legal_actions() == s.legal_actions()
        assert back.to_notation() == text
        full = full_text(g, s)
        assert g.state_from_notation(full).to_json() == s.to_json(), full


def test_a_turn_in_progress_needs_no_pending_line():
    """Between turns and at a turn's start, nothing about the turn's steps."""
    g = load(2)
    s = opening(g)
    text = s.to_notation()
    assert "pending" not in text and "bag" not in text and "unseen" not in text
    assert text.splitlines()[:3] == ["starving_artists", "day 1 round 1", "phase turn player 1"]


MUTATIONS = {
    # a derived part written wrong: (the line to add, what the refusal names, the value)
    "bag": lambda v, p: (f"bag red {v['bag']['red'] + 1}", "bag",
                         "bag " + " ".join(f"{c} {k}" for c, k in v["bag"].items() if k)),
    "stars": lambda v, p: (f"player {p + 1}\n  stars {v['studios'][p]['stars'] + 3}",
                           f"player {p + 1} stars", str(v["studios"][p]["stars"])),
    "food": lambda v, p: (f"player {p + 1}\n  food {v['studios'][p]['food_earned'] + 2}",
                          f"player {p + 1} food", str(v["studios"][p]["food_earned"])),
}


def _with(text, extra):
    """The notation with a line added (a player line merges into its section)."""
    lines = text.splitlines()
    if extra.startswith("player "):
        head, sub = extra.split("\n")
        k = lines.index(head)
        lines.insert(k + 1, sub)
    else:
        lines.append(extra)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("n", [1, 2, 4])
def test_every_wrong_derived_part_is_named_with_what_to_write(n):
    """Written wrong, each derived part is refused naming its line and the
    derived value; written wrong together, all of them are named at once."""
    g = load(n)
    for s in positions(g, seed=10 + n, every=23):
        v = s.to_json()
        p = len(v["studios"]) - 1
        text = s.to_notation()
        for name, make in MUTATIONS.items():
            extra, where, value = make(v, p)
            with pytest.raises(StateFormatError) as e:
                g.state_from_notation(_with(text, extra))
            assert where in str(e.value) and f"write {value}" in str(e.value), (name, str(e))
        both = text
        wanted = []
        for name, make in MUTATIONS.items():
            extra, where, value = make(v, p)
            both = _with(both, extra)
            wanted.append((where, value))
        with pytest.raises(StateFormatError) as e:
            g.state_from_notation(both)
        for where, value in wanted:
            assert where in str(e.value) and f"write {value}" in str(e.value), str(e.value)


def test_a_written_fact_play_cannot_reach_is_named_in_the_notations_words():
    """A player who never ate has the nutrition the days left them (I4); the
    carrot passes each evening (I5): both wrong at once, both named, with the
    line and the value to write."""
    g = load(2)
    s = opening(g)
    text = re.sub(r"^player 1$", "player 1\n  nutrition 3", s.to_notation(), flags=re.M)
    text += "first player 2\n"
    with pytest.raises(UnreachablePositionError) as e:
        g.state_from_notation(text)
    msg = str(e.value)
    assert re.search(r"line \d+ \(player 1 nutrition\).*write 5", msg), msg
    assert re.search(r"line \d+ \(first\).*write player 1", msg), msg


def test_names_and_refusals():
    """Canvases by title in any case or a unique prefix; a wrong name is
    refused with the closest titles; an unknown keyword with the closest."""
    g = load(2)
    s = opening(g)
    v = s.to_json()
    title = v["market"][0]["title"]
    text = s.to_notation()
    assert g.state_from_notation(text.replace(title, title.upper())).to_json() == v
    k = 4
    while any(m["title"].lower().startswith(title[:k].lower()) for m in v["market"][1:]) \
            or k < 4:
        k += 1
    short = text.replace(title, title[:max(k, 4)] if len(title) > 4 else title)
    assert g.state_from_notation(short).to_json() == v
    with pytest.raises(StateFormatError, match="the closest"):
        g.state_from_notation(text.replace(title, title[:-1] + "zz"))
    with pytest.raises(StateFormatError, match="did you mean 'market'"):
        g.state_from_notation(text.replace("market", "markte"))
    with pytest.raises(StateFormatError, match=r"unknown colour 'mauve'; write one of"):
        g.state_from_notation(text + "bag mauve 1\n")


def test_a_canvas_left_out_is_face_down_not_removed():
    """What the notation does not place is unseen; removing a canvas is
    written (a card left out is never silently out of the game)."""
    g = load(2)
    s = opening(g)
    back = g.state_from_notation(s.to_notation())
    assert back.to_json()["removed"] == []
    assert len(back.to_json()["face_down"]["unseen"]) == len(s.to_json()["face_down"]["unseen"])


def test_cubes_beyond_the_box_name_every_line_holding_them():
    g = load(2)
    s = opening(g)
    text = re.sub(r"^player (\d)\n  cubes [^\n]*$", r"player \1\n  cubes red 15", s.to_notation(),
                  flags=re.M)
    with pytest.raises(StateFormatError) as e:
        g.state_from_notation(text)
    assert "red cubes on the table; the box holds 15" in str(e.value)
    assert "player 1 cubes" in str(e.value) and "player 2 cubes" in str(e.value)


def test_a_flood_of_bad_names_is_refused_with_a_bounded_answer():
    """Thousands of unknown titles: the refusal lists the first ones and
    counts the rest (tablenotation.MAX_PROBLEMS), so a hostile text costs
    little and is answered briefly."""
    from easel.engine.tablenotation import MAX_PROBLEMS
    g = load(2)
    for key in ("removed", "unseen", "under"):
        text = f"{key} " + "; ".join(f"no such canvas {k}" for k in range(3000)) + "\n"
        with pytest.raises(StateFormatError) as e:
            g.state_from_notation(text)
        assert "more (the first" in str(e.value)
        assert str(e.value).count("no canvas 'no such") <= MAX_PROBLEMS
        assert len(str(e.value)) < 400 * MAX_PROBLEMS


@pytest.mark.parametrize("n", [1, 2])
def test_a_purchase_paid_for_without_its_slot_is_refused_by_name(n):
    """The price of a purchase is its market slot's (RULINGS.md §5, §12) and
    nothing else on the table says which canvas is bought: a pending payment
    for a purchase with its slot left out is refused naming the slot (it
    once failed with a KeyError, found by tests/test_loader_property.py)."""
    g = load(n)
    buys = [s for s in positions(g, games=6, seed=40 + n, every=1)
            if re.search(r"^pending .*pay_for=buy.* slot=\d", s.to_notation(), re.M)]
    assert buys, "no purchase being paid for in these games"
    for s in buys[:3]:
        text = re.sub(r" slot=\d", "", s.to_notation())
        with pytest.raises(StateFormatError, match=r"\(pending slot\): a purchase being paid "
                                                   r"for needs the market slot of its canvas; "
                                                   r"write slot=1, 2 or 3"):
            g.state_from_notation(text)
        assert g.state_from_notation(s.to_notation()).to_json() == s.to_json()
