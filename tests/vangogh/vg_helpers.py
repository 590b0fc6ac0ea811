"""Helpers for the Van Gogh rule scenarios: build positions from the JSON
view, force chance outcomes, and name moves as the codec writes them."""
from __future__ import annotations

import random

from easel import engine
from easel.engine.vangogh.rules import (BOX_PER_COLOUR, BOX_WHITES, COLOURS, parse_piece)
from fieldtable_checks import twins  # noqa: F401  (the VG tests' twins, shared by every game)

IMPLS = ["reference"] + (["core"] if engine.game_entry("vangogh").has_core else [])


def load(spec, impl):
    return engine.load_game(spec, implementation=impl)


def to_decision(state, seed=0):
    """Play random chance outcomes until a decision (setup)."""
    return engine.play_chance(state, random.Random(seed))


def start(spec, impl, seed=0):
    return to_decision(load(spec, impl).new_initial_state(), seed)


def rebalance(view):
    """Set the bag and the whites so that every Minigogh of the box is somewhere."""
    counts = {c: 1 for c in COLOURS}
    whites = 0

    def add(name):
        nonlocal whites
        if name is None:
            return
        colour = name.split("-")[0]
        if colour == "white":
            whites += 1
        else:
            counts[colour] += 1
    for x in view["table"]:
        add(x)
    for pal in view["palettes"]:
        for x in pal["active"] + pal["inactive"]:
            add(x)
    for ch in view["characters"]:
        for x in ch["waiting"]:
            add(x)
    for pv in view["paintings"]:
        for x in pv["occupants"]:
            add(x)
    pend = view["pending"]
    for c in COLOURS:
        counts[c] += pend["hand"][c] + pend["roll_queue"][c]
    if pend["blue_colour"]:
        counts[pend["blue_colour"]] += 1
    for c in COLOURS:
        view["bag"][c] = BOX_PER_COLOUR - counts[c]
        assert view["bag"][c] >= 0, f"too many {c} Minigoghs in the scenario"
    view["whites"] = BOX_WHITES - whites
    assert view["whites"] >= 0
    return view


def edit(state, fn, balance=True):
    """A new state: the JSON view of `state`, changed by fn(view), reloaded
    (current_player follows the changed position)."""
    from easel.engine.vangogh.notation import current_player_of
    view = state.to_json()
    fn(view)
    if balance:
        rebalance(view)
    view["current_player"] = current_player_of(view)
    return state.get_game().state_from_json(view)


def frame_cards(view, k):
    """k paintings finished: k deck cards leave the deck (framed)."""
    for _ in range(k):
        view["deck"].pop()
    view["finished"] = k


def set_painting(view, slot, card, occupants=None):
    """Put deck card `card` on painting slot `slot` (taking it out of the deck)."""
    for pv in view["paintings"]:
        if pv["card"] == card:
            pv["card"] = -1
            pv["occupants"] = []
    if card in view["deck"]:
        view["deck"].remove(card)
    old = view["paintings"][slot]["card"]
    if old >= 0 and old not in view["deck"]:
        view["deck"].append(old)
        view["deck"].sort()
    size = len(CARD_ORIENTS[card])
    occ = list(occupants or [])
    view["paintings"][slot] = {"card": card, "occupants": occ + [None] * (size - len(occ))}


def _card_orients():
    from easel.engine.vangogh.deck import load_deck
    return [c.orient for c in load_deck().cards]


CARD_ORIENTS = _card_orients()


def act(state, text):
    """Apply a move given as the codec writes it."""
    state.apply_action(state.string_to_action(text))


def legal_texts(state):
    return [state.action_to_string(a) for a in state.legal_actions()]


def chance(state, outcome):
    """Force a chance outcome: a Minigogh name (draw+roll), a colour (draw),
    an orientation index (roll) or a card index."""
    if isinstance(outcome, str):
        if outcome in COLOURS:
            outcome = COLOURS.index(outcome)
        else:
            outcome = parse_piece(outcome)
    assert state.is_chance_node(), f"not a chance node: {state.to_json()['phase']}"
    state.apply_action(outcome)


def phase(state):
    return state.to_json()["phase"]


