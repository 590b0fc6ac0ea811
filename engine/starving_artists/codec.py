"""Starving Artists text: moves as a player would say them ("work", "buy
canvas 2 (Bahamian View)", "pay blue", "paint yellow on Bahamian View",
"take violet from the pile", "sell Bahamian View"), chance outcomes as what
came out of the bag or the pile, and a readable table. Reads only the JSON
view (and the deck it names), so the core and the reference speak alike."""
from __future__ import annotations

from .deck import load_deck
from .rules import (BUY, CUBE_NAMES, DONE, MARKET, N_CUBES, NUM_ACTIONS, PAINT, PAINT_AT, PAY,
                    RESET, RETURN, SELL, STUDY, SUPPER, TAKE, TRADE, TRADES, WILD,
                    WORK, split_paint_at)


def _deck(view):
    return load_deck(view["deck"])


def _title(deck, i):
    return deck.label(i) if 0 <= i < len(deck.cards) else f"canvas #{i}"


def _square_name(cols):
    return "/".join(CUBE_NAMES[c] for c in cols)


def _paint_text(deck, i, cube, k):
    """'paint yellow on Bahamian View', naming the square when the canvas has
    squares of more than one colour set that take the cube (or a wild)."""
    head = f"paint {CUBE_NAMES[cube]} on {_title(deck, i)}"
    if not 0 <= i < len(deck.cards):
        return f"{head}, square {k + 1}"
    sq = deck.cards[i].squares
    if k >= len(sq):
        return f"{head}, square {k + 1} (no such square)"
    kinds = {cols for cols in sq if cube == WILD or cube in cols}
    if len(kinds) <= 1 and cube != WILD:
        return head
    return f"{head}, square {k + 1} ({_square_name(sq[k])})"


def action_to_string(view: dict, action: int) -> str:
    deck = _deck(view)
    ph = view["phase"]
    if view["current_player"] == -1:
        if ph == "canvas":
            return f"turn up {_title(deck, action)}"
        name = CUBE_NAMES[action] if 0 <= action < N_CUBES else f"cube {action}"
        return f"draw {name}"
    solo = view["players"] == 1
    if action == WORK:
        return "work"
    if action == PAINT:
        return "paint"
    if BUY <= action < BUY + MARKET:
        slot = action - BUY
        m = view["market"][slot]
        return f"buy canvas {slot + 1}" + (f" ({m['title']})" if m else "")
    if action == RESET:
        return "reset the market"
    if TRADE <= action < TRADE + 3:
        pay, take = TRADES[action - TRADE]
        return f"trade {pay} cubes for {take}"
    if action == DONE:
        return {"turn": "end the day" if solo else "end turn", "paint": "stop painting",
                "announce": "sell nothing more", "supper": "no last supper"}.get(ph, "done")
    if PAY <= action < TAKE:
        return f"pay {CUBE_NAMES[action - PAY]}"
    if TAKE <= action < RETURN:
        return f"take {CUBE_NAMES[action - TAKE]} from the pile"
    if RETURN <= action < STUDY:
        return f"return {CUBE_NAMES[action - RETURN]} to the bag"
    if STUDY <= action < SELL:
        give, want = divmod(action - STUDY, N_CUBES)
        return f"colour study: 4 {CUBE_NAMES[give]} for 1 {CUBE_NAMES[want]}"
    if SELL <= action < SUPPER:
        return f"sell {_title(deck, action - SELL)}"
    if SUPPER <= action < PAINT_AT:
        return f"last supper: discard {_title(deck, action - SUPPER)}"
    if PAINT_AT <= action < NUM_ACTIONS:
        return _paint_text(deck, *split_paint_at(action))
    return f"action {action}"


def _counts_text(counts):
    return ", ".join(f"{k} {v}" for k, v in counts.items() if v) or "-"


def state_to_string(view: dict) -> str:
    solo = view["players"] == 1
    cur = view["current_player"]
    # players count from 1, as in the notation (docs/table-notation.md)
    who = {-1: "chance", -4: "nobody (the game is over)"}.get(cur, f"player {cur + 1}")
    lines = [f"Starving Artists, {'solo' if solo else str(view['players']) + ' players'} — "
             f"day {view['day']}{'' if solo else ', round ' + str(view['round'])}, "
             f"phase {view['phase']}, to move: {who}"
             + ("" if solo else f", carrot: player {view['first_player'] + 1}")]
    lines.append(f"  bag: {_counts_text(view['bag'])}")
    lines.append(f"  payday pile: {_counts_text(view['payday_pile'])}")
    for slot, m in enumerate(view["market"]):
        if m is None:
            lines.append(f"  market {slot + 1} (costs {slot + 1}): -")
        else:
            lines.append(f"  market {slot + 1} (costs {slot + 1}): {m['title']} "
                         f"[{m['stars']} stars, food {m['food']}, paint {m['paint']}; "
                         f"{' '.join(m['squares'])}]")
    fd = view["face_down"]
    lines.append(f"  face down: {len(fd['unseen']) - fd['set_aside']} to draw"
                 + (f", {len(fd['known_under'])} known under" if fd["known_under"] else "")
                 + (f", {fd['set_aside']} set aside" if fd["set_aside"] else ""))
    for p, st in enumerate(view["studios"]):
        state = f"nutrition {st['nutrition']}" if st["alive"] else "starved"
        lines.append(f"  player {p + 1}: {state}; {st['stars']} stars, {len(st['paintings'])} "
                     f"paintings, food earned {st['food_earned']}; cubes: "
                     f"{_counts_text(st['cubes'])}")
        for cv in st["canvases"]:
            squares = " ".join(f"{sq}={c or '.'}" for sq, c in zip(cv["squares"], cv["cubes"]))
            lines.append(f"    {cv['title']} [{cv['stars']}*, food {cv['food']}, paint "
                         f"{cv['paint']}]: {squares}")
    if view["result"]:
        lines.append("  solo game " + ("won" if view["result"] > 0 else "lost"))
    return "\n".join(lines) + "\n"
