"""Game knowledge for Couleurs de Paris bots: plain functions over the state's
Python API (legal_actions, to_json, clone, apply_action), for either
implementation. Never the rules: they only choose among legal actions.

- `heuristic(state, rng)`: the rule of thumb the core's rollout policy uses
  (policy.pyx), without its random moves: act rather than lay
  down; gather what one's paintings still need; paint matching pigments onto
  the painting nearest completion, white only to finish one; take a painting
  while holding fewer than 2 unfinished; pay and discard what is least needed.
- `evaluate(state)`: every player's expected return, pairwise from `value`
  (points, plus progress on unfinished paintings, plus useful pigments):
  what the `greedy` bot scores the end of its turn by (engine/kit.py,
  Policies).
"""
from __future__ import annotations

from easel.engine.kit import pairwise_estimate

from .data import SPACES, SUPPLY_COLOURS
from .rules import (DISCARD, BONUS_ASSISTANT, BONUS_POINTS, IMITATE,
                    LAYDOWN, MIX, PAINT, PAINT_WHITE, PAY, STAND, STOP, TAKE, TOOL, USE,
                    rules_of)

_EPS = 1e-9
VALUE_SCALE = 8.0        # points: about one finished painting
_PRIMARY_IDX = (0, 2, 4)


def _needs(view, p):
    need = {c: 0 for c in SUPPLY_COLOURS}
    unfinished = 0
    for pv in view["boards"][p]["paintings"]:
        if pv["finished"]:
            continue
        unfinished += 1
        for colour, got in zip(pv["spaces"], pv["filled"]):
            if got is None:
                need[colour] += 1
    return need, unfinished


def _can_paint(view, p):
    pig = view["boards"][p]["pigments"]
    for pv in view["boards"][p]["paintings"]:
        if pv["finished"]:
            continue
        white_ok = pig["white"] > 0 and pv["filled"].count("white") < 3
        for colour, got in zip(pv["spaces"], pv["filled"]):
            if got is None and (white_ok or pig[colour] > 0):
                return True
    return False


def _kind_score(view, p, kind, need, unfinished):
    pig = view["boards"][p]["pigments"]
    supply = view["supply"]
    if kind in _PRIMARY_IDX:
        c = SUPPLY_COLOURS[kind]
        if supply[c] == 0:
            return 0.0
        return 2.0 + max(need[c] - pig[c], 0)
    if kind in MIX:
        c = SUPPLY_COLOURS[kind]
        if supply[c] == 0:
            return 0.0
        a, b = (SUPPLY_COLOURS[x] for x in MIX[kind])
        # the core's "a - 1" and "a + 1 mod 6" are the same two primaries
        return 1.0 + 2.0 * max(need[c] - pig[c], 0) * (pig[a] > 0) * (pig[b] > 0)
    if kind == 6:
        return 14.0 if (pig["orange"] and pig["green"] and pig["violet"]
                        and supply["black"]) else 0.0
    if kind == 7:
        return 4.0 if sum(v for c, v in pig.items() if c != "black") >= 5 else 0.5
    if kind == 8:
        return 9.0 if unfinished < 2 else 0.5
    if kind == 9:
        return 11.0 if _can_paint(view, p) else (3.0 if unfinished else 0.0)
    return {10: 2.0, 11: 2.5, 12: 0.5}.get(kind, 3.0)


def _painting(view, p, card):
    for pv in view["boards"][p]["paintings"]:
        if pv["card"] == card:
            return pv
    return None


def action_score(view, a, data):
    """The rule-of-thumb worth of legal action `a` for the player to move
    (`data`: the game's BoardData, for the cards on the easels)."""
    p = view["current_player"]
    need, unfinished = _needs(view, p)
    b = view["boards"][p]
    pig = b["pigments"]
    if a < USE:
        return _kind_score(view, p, a, need, unfinished)
    if a < LAYDOWN:
        return 10.0 + 0.1 * _kind_score(view, p, a - USE, need, unfinished)
    if a < TOOL:
        return 0.0
    if a < PAY:
        t = a - TOOL
        return 10.0 - list(b["tools"].values())[t] + (1.0 if t == 2 else 0.0)
    if a < BONUS_ASSISTANT:
        c = SUPPLY_COLOURS[a - PAY]
        return pig[c] - 3.0 * need[c] - (2.0 if c == "white" else 0.0)
    if a == BONUS_ASSISTANT:
        return 1.0 if view["round"] <= 8 else 0.0
    if a == BONUS_POINTS:
        return 0.5
    if a < IMITATE:
        card = data.paintings[view["easels"][a - TAKE]]
        return (sum(1 for c in card.spaces if pig[SUPPLY_COLOURS[c]] > 0)
                + card.value / 5.0)
    if a < PAINT:
        return _kind_score(view, p, a - IMITATE, need, unfinished)
    if a < STOP:
        white = a >= PAINT_WHITE
        card = (a - (PAINT_WHITE if white else PAINT)) // SPACES
        filled = sum(1 for x in _painting(view, p, card)["filled"] if x)
        if white:
            return 12.0 if filled == SPACES - 1 else 1.0 + 0.1 * filled
        return 10.0 + filled
    if a == STOP:
        return -1.0
    if a < DISCARD:
        return 0.0
    if a < STAND:
        c = SUPPLY_COLOURS[a - DISCARD]
        return pig[c] - 3.0 * need[c]
    return _kind_score(view, p, a - STAND, need, unfinished)


def heuristic(state, rng):
    view = state.to_json()
    data = rules_of(state.get_game()).data
    scored = [(action_score(view, a, data), a) for a in state.legal_actions()]
    top = max(v for v, _ in scored)
    return rng.choice([a for v, a in scored if v > top - _EPS])


def value(view, p):
    """The mover's worth of a position: points, half the value of each
    unfinished painting in proportion to its filled spaces, and 0.3 per
    pigment one's paintings still need (0.1 for the others)."""
    b = view["boards"][p]
    need, _ = _needs(view, p)
    v = float(view["scores"][p])
    for pv in b["paintings"]:
        if not pv["finished"]:
            v += pv["value"] * sum(1 for x in pv["filled"] if x) / (2.0 * SPACES)
    for c, k in b["pigments"].items():
        if c != "black":
            useful = min(k, need[c]) if c != "white" else min(k, 3)
            v += 0.3 * useful + 0.1 * (k - useful)
    return v


def evaluate(state):
    """Expected rank returns: a value VALUE_SCALE points ahead of another
    player reads as winning that pair about 7 times in 8."""
    view = state.to_json()
    return pairwise_estimate([value(view, p) for p in range(len(view["boards"]))],
                             VALUE_SCALE)
