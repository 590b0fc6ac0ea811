"""Couleurs de Paris table notation as a person writes it (ENCODING.md "Table
notation", docs/table-notation.md): the supply, the deck, scores, the
assistants hired and the counters the phase fixes are left out and come back
the same; written anyway they are checked; a painting left out is in the
deck, never removed; a refusal names every wrong line and field and says what
to write."""
from __future__ import annotations

import re

import pytest

from easel.engine.errors import StateFormatError, UnreachablePositionError
from easel.engine.couleurs_de_paris import notation

from cdp_helpers import load, start
from reachable import positions_in_play


def positions(g, games=2, seed=0, every=9):
    """Positions met in random play, every `every`-th and the last of each game."""
    return positions_in_play(g, lambda s, rng: rng.choice(s.legal_actions()), games, seed, every)


def _counts(d):
    return " ".join(f"{c} {k}" for c, k in d.items() if k) or "none"


def full_text(g, s):
    """The notation with every derived part written too."""
    v = s.to_json()
    names = notation.Names(notation.rules_of(g).data)
    out = [ln for ln in s.to_notation().splitlines() if not ln.startswith(("first",))]
    out += [f"supply {_counts(v['supply'])}", f"deck {names.names(v['deck'])}",
            f"first player {v['first_player'] + 1}"]
    for p, b in enumerate(v["boards"]):
        k = out.index(f"player {p + 1}")
        out[k + 1:k + 1] = [f"  score {v['scores'][p]}", f"  assistants {b['assistants']}"]
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("n", [2, 3, 4])
def test_shortest_notation_loads_back_to_the_same_position(n):
    """Every player count: nothing derived is written, and the position comes
    back whole (the deck is a set and the supply counts: no hidden order)."""
    g = load(f"couleurs_de_paris(players={n})", "reference")
    for s in positions(g, seed=n):
        text = s.to_notation()
        words = {ln.split()[0] for ln in text.splitlines()[1:]}
        assert not words & {"supply", "deck", "score", "assistants"}, text
        back = g.state_from_notation(text)
        assert back.to_json() == s.to_json(), text
        assert back.legal_actions() == s.legal_actions()
        assert back.to_notation() == text
        full = full_text(g, s)
        assert g.state_from_notation(full).to_json() == s.to_json(), full


MUTATIONS = {
    "supply": lambda v, p, names: (
        f"supply red {v['supply']['red'] + 1}", "supply", f"supply {_counts(v['supply'])}"),
    "deck": lambda v, p, names: (
        "deck " + names.names(v["deck"][1:] or [v["removed"][0]] if v["removed"] or
                              v["deck"][1:] else [0]),
        "deck", f"deck {names.names(v['deck'])}"),
    "score": lambda v, p, names: (f"player {p + 1}\n  score {v['scores'][p] + 4}",
                                  f"player {p + 1} score", str(v["scores"][p])),
    "assistants": lambda v, p, names: (
        f"player {p + 1}\n  assistants {7 - v['boards'][p]['assistants'] if v['boards'][p]['assistants'] != 3 else 4}",  # noqa: E501
        f"player {p + 1} assistants", str(v["boards"][p]["assistants"])),
}


def _with(text, extra):
    lines = text.splitlines()
    if extra.startswith("player "):
        head, sub = extra.split("\n")
        lines.insert(lines.index(head) + 1, sub)
    else:
        lines.append(extra)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("n", [2, 4])
def test_every_wrong_derived_part_is_named_with_what_to_write(n):
    """Each derived part written wrong is refused naming its line and the
    derived value; written wrong together, all are named at once."""
    g = load(f"couleurs_de_paris(players={n})", "reference")
    names = notation.Names(notation.rules_of(g).data)
    for s in positions(g, seed=20 + n, every=41):
        v = s.to_json()
        p = n - 1
        text = s.to_notation()
        both, wanted = text, []
        for name, make in MUTATIONS.items():
            extra, where, value = make(v, p, names)
            if name == "deck" and extra == f"deck {names.names(v['deck'])}":
                continue
            with pytest.raises(StateFormatError) as e:
                g.state_from_notation(_with(text, extra))
            assert where in str(e.value) and f"write {value}" in str(e.value), (name, str(e))
            both = _with(both, extra)
            wanted.append((where, value))
        with pytest.raises(StateFormatError) as e:
            g.state_from_notation(both)
        for where, value in wanted:
            assert where in str(e.value) and f"write {value}" in str(e.value), str(e.value)


def test_a_painting_left_out_is_in_the_deck_not_removed():
    """The issue's complaint: a card left out of the deck list was treated as
    removed. Now nothing is written about the deck, and a card not on the
    table is in it; a removal is written (and checked against the half-turns
    so far, I4)."""
    s = start()
    g = s.get_game()
    back = g.state_from_notation(s.to_notation())
    assert back.to_json()["removed"] == [] and back.to_json()["deck"] == s.to_json()["deck"]
    with pytest.raises(UnreachablePositionError, match=r"line \d+ \(removed\)"):
        g.state_from_notation(s.to_notation() + "removed #5\n")


def test_facts_play_cannot_reach_are_named_in_the_notations_words():
    """A claim without its assistant (I8) and a first player other than the
    option's in round 1 (I2), both at once, each with its line and value."""
    s = start()
    g = s.get_game()
    text = s.to_notation() + "claims rotate player 2\nfirst player 2\n"
    with pytest.raises(UnreachablePositionError) as e:
        g.state_from_notation(text)
    msg = str(e.value)
    assert re.search(r"line \d+ \(first\).*write player 1", msg), msg
    assert re.search(r"line \d+ \(claims rotate\).*player 2 has no assistant lying", msg), msg


def test_names_spaces_and_refusals():
    """Paintings by #id or name; assistants by the action they face, in any
    case; a wrong space or keyword is refused with what would do."""
    s = start()
    g = s.get_game()
    text = s.to_notation()
    easel = s.to_json()["easels"][0]
    named = text.replace(f"#{easel};", f"Painting {easel};", 1)
    assert g.state_from_notation(named).to_json() == s.to_json()
    with pytest.raises(StateFormatError, match="no space 'the moon'; write one of acquire red"):
        g.state_from_notation(re.sub(r"^player 1$", "player 1\n  standing the moon", text,
                                     flags=re.M))
    with pytest.raises(StateFormatError, match="did you mean 'easels'"):
        g.state_from_notation(text.replace("easels", "easles"))
    with pytest.raises(StateFormatError, match="the notation is for 'vangogh'"):
        g.state_from_notation("vangogh\n" + text)
