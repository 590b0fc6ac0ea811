"""Van Gogh text: moves as a player would say them, chance outcomes as what
came out of the bag, and a readable table. Reads only the JSON view, so the
core and the reference speak alike."""
from __future__ import annotations

import json

from .rules import (ACTIVE_CAP, BLUE, BLUE_DISCARD, BLUE_ORIENT, BRUSH, CHARS, COLOURS, DONE,
                    EPIPHANY, KEEP, MAX_SPACES, N_CODES, N_PAINTINGS, ORIENTS, PAINT, PINK,
                    PINK_CYCLE, REORIENT, RESTART, TAKE, YELLOW, parse_piece, piece_name)

_DRAW_ROLL = ("setup_table", "setup_palette", "sec_draw", "refill", "eor")


def _actor_char(view):
    ch = view["pending"]["act_char"]
    return ch or "?"


def _card(view, cid: int) -> str:
    """A card by its name in the deck file (quoted as JSON text, so any name
    reads unambiguously) and its id there (#id, as in the table notation),
    which keeps the text unique when two cards share a name."""
    names = view.get("card_names") or ()
    if 0 <= cid < len(names) and names[cid]:
        return f"{json.dumps(names[cid], ensure_ascii=False)} (#{cid})"
    if names and cid >= len(names):
        return f"card #{cid} (not in the deck file)"
    return f"card #{cid}"


def _chance_to_string(view: dict, action: int) -> str:
    """Chance outcomes. A card is named by its name and its id in the deck
    file; "painting N" always means the table's slot N."""
    ph = view["phase"]
    pend = view["pending"]
    if ph in ("setup_cards", "card"):
        # the view counts the slot waiting from 1; setup fills slots in order
        slot = pend["setup_k"] + 1 if ph == "setup_cards" else pend["card_slot"]
        return f"deck: {_card(view, action)} onto painting {slot}"
    if ph == "roll":
        queue = pend["roll_queue"]
        colour = next((c for c in COLOURS if queue[c] > 0), None)
        if action >= len(ORIENTS):
            return f"roll: outcome {action} (not an orientation)"
        return f"roll {colour or '(nothing to roll)'}: {ORIENTS[action]}"
    if ph in ("ginoux_draw", "blue_draw"):
        if action >= len(COLOURS):
            return f"bag: outcome {action} (not a colour in the bag)"
        return f"bag: {COLOURS[action]}"
    if action >= len(COLOURS) * 4:
        return f"bag: outcome {action} (not a colour in the bag)"
    return f"bag: {COLOURS[action // 4]} rolled {ORIENTS[action % 4]}"


def _inactive(view, p, i):
    """The Minigogh on inactive space i (0-based) of player p's palette, named."""
    pal = view["palettes"][p]["inactive"] if 0 <= p < len(view["palettes"]) else []
    x = pal[i] if i < len(pal) else None
    return f"{x} on inactive space {i + 1}" if x else f"inactive space {i + 1} (empty)"


def action_to_string(view: dict, action: int) -> str:
    """Any id: a decision id in [0, NUM_ACTIONS) at a decision (or the end),
    a chance outcome id at a chance node; legal or not (texts of illegal ids
    describe them as if they were played here)."""
    ph = view["phase"]
    if view["current_player"] == -1:
        return _chance_to_string(view, action)
    p = view["current_player"]
    if p < 0:       # the game is over: describe for the turn player
        p = view["turn_player"]
    if action < 6:
        return f"choose {CHARS[action]}"
    if action == DONE:
        return "done"
    if PAINT <= action < REORIENT:
        src, sp = divmod(action - PAINT, MAX_SPACES)
        src, slot = divmod(src, N_PAINTINGS)
        if src < N_CODES:
            what = piece_name(src)
        else:
            left = next((x for x in view["palettes"][p]["inactive"] if x), None)
            what = f"inactive {left}" if left else "inactive (none left)"
        head = "brush" if ph == "brush" else _actor_char(view)
        return f"{head}: paint {what} on painting {slot + 1}, space {sp + 1}"
    if REORIENT <= action < RESTART:
        code, o = divmod(action - REORIENT, 4)
        return f"reorient {piece_name(code)} to {ORIENTS[o]}"
    if RESTART <= action < EPIPHANY:
        return f"restart {piece_name(action - RESTART)}"
    if action == EPIPHANY:
        return "epiphany"
    if TAKE <= action < KEEP:
        code = action - TAKE
        pal = view["palettes"][p]["active"] if 0 <= p < len(view["palettes"]) else []
        if ph == "eugene_take" and len(pal) >= ACTIVE_CAP:
            # Eugene's primary with a full palette: the excess returns (R16).
            return f"take {piece_name(code)} and return it to the bag"
        return f"take {piece_name(code)}"
    if KEEP <= action < YELLOW:
        return f"keep {COLOURS[action - KEEP]}"
    if YELLOW <= action < PINK:
        t, o = divmod(action - YELLOW, 4)
        what = f"yellow-{ORIENTS[t]}" if t < 4 else _inactive(view, p, t - 4)
        return f"yellow ability: {what} to {ORIENTS[o]}"
    if PINK <= action < BLUE:
        t = action - PINK
        if t < N_CODES:
            return f"pink ability: turn {piece_name(t)} to {ORIENTS[PINK_CYCLE[t % 4]]}"
        what = _inactive(view, p, t - N_CODES)
        x = view["palettes"][p]["inactive"][t - N_CODES] if 0 <= p < len(view["palettes"]) \
            else None
        to = f" to {ORIENTS[PINK_CYCLE[parse_piece(x) % 4]]}" if x else ""
        return f"pink ability: turn {what}{to}"
    if action == BLUE:
        return "blue ability: draw"
    if BLUE_ORIENT <= action < BLUE_DISCARD:
        return f"blue ability: place {ORIENTS[action - BLUE_ORIENT]}"
    if BLUE_DISCARD <= action < BRUSH:
        return f"blue ability: discard {piece_name(action - BLUE_DISCARD)}"
    if action == BRUSH:
        return "brush: paint once more"
    return f"action {action}"


def state_to_string(view: dict) -> str:
    # Players are named from 1, as in the table notation (docs/table-notation.md).
    cp = view["current_player"]
    mover = f"player {cp + 1}" if cp >= 0 else ("chance" if cp == -1 else "nobody")
    lines = [f"Van Gogh, {view['players']} player(s) — round {view['round']}, "
             f"turn {view['turn']}, phase {view['phase']}, to move: {mover}"]
    holder = view["token_holder"]
    lines.append(f"Starting Player token: {'nobody' if holder < 0 else f'player {holder + 1}'}; "
                 f"finished paintings: {view['finished']}; deck: {len(view['deck'])} cards")
    for i, pv in enumerate(view["paintings"]):
        if pv["card"] < 0:
            lines.append(f"  painting {i + 1}: (empty slot)")
            continue
        spaces = []
        for k, o in enumerate(pv["orientations"]):
            occ = pv["occupants"][k]
            bonus = "+1" if pv["bonus"][k] else ""
            spaces.append(f"{k + 1}:{o}{bonus}={occ or '.'}")
        lines.append(f"  painting {i + 1} [{pv['name']}, frame "
                     f"{'/'.join(map(str, pv['frame']))}]: " + "  ".join(spaces))
    lines.append("  table: " + (", ".join(view["table"]) or "-"))
    for c in view["characters"]:
        mark = " (taken)" if c["taken"] else ""
        wait = f" waiting: {', '.join(c['waiting'])}" if c["waiting"] else ""
        lines.append(f"  {c['name']}{mark}{wait}")
    bag = ", ".join(f"{k} {v}" for k, v in view["bag"].items())
    lines.append(f"  bag: {bag}; whites: {view['whites']}")
    for p, pal in enumerate(view["palettes"]):
        ina = ", ".join(x or "." for x in pal["inactive"])
        lines.append(f"  player {p + 1} ({pal['color']}): {view['scores'][p]} EP; active: "
                     f"{', '.join(pal['active']) or '-'}; inactive: {ina}")
    return "\n".join(lines) + "\n"
