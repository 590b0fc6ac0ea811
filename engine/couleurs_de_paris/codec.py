"""Couleurs de Paris text: moves as a player names them ("place assistant on
mix orange", "paint green on painting #12, space 5", "pay red"), chance
outcomes as the card turned up, and a readable table. A painting is named by
its printed id, `#12`, as the table notation names it; players, easels,
spaces and lower-board positions count from 1. Reads only the JSON
view, so the core and the reference speak alike."""
from __future__ import annotations

from .data import SPACES, SUPPLY_COLOURS, TOOLS
from .rules import (BONUS_ASSISTANT, BONUS_POINTS, DISCARD, IMITATE, LAYDOWN, LOCATION_NAMES,
                    NUM_ACTIONS, PAINT, PAINT_WHITE, PAY, PLACE, RESERVED, ROTATE_0, ROTATE_2,
                    STAND, STOP, TAKE, TOOL, USE)


def _location(i):
    return LOCATION_NAMES[i] if 0 <= i < len(LOCATION_NAMES) else None


def _space_colour(view, card, space):
    """The colour a space needs, when the painting is on the table."""
    for b in view["boards"]:
        for pv in b["paintings"]:
            if pv["card"] == card:
                return pv["spaces"][space]
    return None


def action_to_string(view: dict, action: int) -> str:
    if view["current_player"] == -1:
        return f"turn up painting #{action}"
    a = action
    if PLACE <= a < USE and _location(a - PLACE):
        return f"place assistant on {_location(a - PLACE)}"
    if USE <= a < LAYDOWN and _location(a - USE):
        return f"act on {_location(a - USE)}"
    if LAYDOWN <= a < TOOL and _location(a - LAYDOWN):
        return f"lay down from {_location(a - LAYDOWN)} without acting"
    if TOOL <= a < TOOL + 3:
        return f"improve {TOOLS[a - TOOL]}"
    if PAY <= a < PAY + 7:
        return f"pay {SUPPLY_COLOURS[a - PAY]}"
    if a == BONUS_ASSISTANT:
        return "bonus: hire an assistant"
    if a == BONUS_POINTS:
        return "bonus: 6 points"
    if TAKE <= a < TAKE + 4:
        e = a - TAKE
        easels = view["easels"]
        card = easels[e] if e < len(easels) else None
        what = f"painting #{card}" if card is not None else "the painting"
        return f"take {what} from easel {e + 1}"
    if IMITATE <= a < IMITATE + 10:
        return f"imitate {LOCATION_NAMES[a - IMITATE]}"
    if PAINT <= a < STOP:
        white = a >= PAINT_WHITE
        card, space = divmod(a - (PAINT_WHITE if white else PAINT), SPACES)
        colour = "white" if white else (_space_colour(view, card, space) or "its colour")
        return f"paint {colour} on painting #{card}, space {space + 1}"
    if a == STOP:
        return "stop painting"
    if a == ROTATE_0:
        return "rotate the board 0 steps"
    if a == ROTATE_2:
        return "rotate the board 2 steps"
    if DISCARD <= a < DISCARD + 7:
        return f"discard {SUPPLY_COLOURS[a - DISCARD]}"
    if STAND <= a < STAND + 10:
        return f"stand assistant facing {LOCATION_NAMES[a - STAND]}"
    if RESERVED <= a < NUM_ACTIONS:
        return f"reserved action {a} (bonus cards and painter tiles, not in play)"
    return f"unused action {a}"


def state_to_string(view: dict) -> str:
    n = view["players"]
    cur = view["current_player"]
    who = {-1: "chance", -4: "game over"}.get(cur, f"player {cur + 1}")
    lines = [f"Couleurs de Paris, {n} players — round {view['round']}, phase {view['phase']}, "
             f"to move: {who}; first player: player {view['first_player'] + 1}"
             + ("; LAST ROUND" if view["final_round"] else "")]
    spots = []
    for lv in view["lower_board"]:
        if lv["spaces"] == 0:
            spots.append(f"{lv['position']}:{lv['action']}(forbidden)")
            continue
        # players by their number from 1, lying ones after a '_'
        people = "".join(str(q + 1) for q in lv["standing"]) + "".join(
            f"_{q + 1}" for q in lv["lying"])
        spots.append(f"{lv['position']}:{lv['action']}[{lv['spaces']}]{people}")
    lines.append("  lower board: " + "  ".join(spots))
    lines.append("  upper board: " + "  ".join(
        f"{k}:" + "".join(str(q + 1) for q in v["standing"])
        + "".join(f"_{q + 1}" for q in v["lying"])
        for k, v in view["upper_board"].items()))
    lines.append("  supply: " + ", ".join(f"{k} {v}" for k, v in view["supply"].items()))
    lines.append("  easels: " + ", ".join("-" if c is None else f"#{c}" for c in view["easels"])
                 + f"; deck {len(view['deck'])}; removed {len(view['removed'])}")
    for p, b in enumerate(view["boards"]):
        pig = ", ".join(f"{k} {v}" for k, v in b["pigments"].items() if v)
        tools = " ".join(f"{k} {v}" for k, v in b["tools"].items())
        lines.append(f"  player {p + 1}: {view['scores'][p]} points; {b['assistants']} assistants; "
                     f"{tools}; pigments: {pig or '-'}")
        for pv in b["paintings"]:
            cells = " ".join((f or ".")[:2] if f else "." for f in pv["filled"])
            mark = " finished" if pv["finished"] else ""
            lines.append(f"    painting #{pv['card']} (value {pv['value']}){mark}: {cells}")
    return "\n".join(lines) + "\n"
