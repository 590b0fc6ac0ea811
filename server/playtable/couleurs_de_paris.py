"""Couleurs de Paris at the table: the wheel's actions with who stands at
each, the paintings on the easels with the colours each needs, and each
player's points, assistants, tools, pigments and paintings in progress with
the spaces still to fill. Reads the JSON view (ENCODING.md) and, for the
easels, the game's painting data (the data option)."""
from __future__ import annotations

from easel.engine.couleurs_de_paris.data import ACTION_NAMES, PAINT_COLOURS
from easel.engine.couleurs_de_paris.rules import LOCATION_NAMES, rules_of

from .layout import counts, grid, player_label


def table(view: dict, game, seat: int) -> list:
    head = (f"round {view['round']}, first player: "
            f"{player_label(view['first_player'], seat)}"
            + ("; last round" if view["final_round"] else "") + f"; phase {view['phase']}")
    wheel = "  ".join(_spot(lv) for lv in view["lower_board"])
    # The places in the words the moves use ("place assistant on mix
    # orange"): LOCATION_NAMES lists the wheel's actions, then the upper
    # board's places in the view's order.
    upper_names = LOCATION_NAMES[len(ACTION_NAMES):]
    upper = "  ".join(name + (f" ({_people(v)})" if _people(v) else "")
                      for name, v in zip(upper_names, view["upper_board"].values()))
    easels = grid(["easel", "painting", "value", "needs"])
    paintings = rules_of(game).data.paintings
    for e, card in enumerate(view["easels"]):
        if card is None:
            easels.add_row(str(e + 1), "-", "", "")
            continue
        p = paintings[card]
        label = f"painting {card}"      # as the moves' texts name it
        easels.add_row(str(e + 1), label if p.name == label else f"{label}: {p.name}",
                       str(p.value),
                       " ".join(PAINT_COLOURS[c] for c in p.spaces))
    tool_names = list(view["boards"][0]["tools"]) if view["boards"] else []
    players = grid(["player", "points", "assistants", f"tools ({', '.join(tool_names)})",
                    "pigments"])
    work = []
    for p, b in enumerate(view["boards"]):
        tools = ", ".join(str(v) for v in b["tools"].values())
        players.add_row(player_label(p, seat), str(view["scores"][p]), str(b["assistants"]),
                        tools, counts(b["pigments"]))
        work += [f"{player_label(p, seat)}'s {_in_progress(pv)}" for pv in b["paintings"]]
    return [head, f"wheel: {wheel}", f"upper board: {upper}",
            f"supply: {counts(view['supply'])}", easels, players] + work


def _people(place: dict) -> str:
    """Whose assistants are at a place, players counted from 1: "players
    1,2 lying 1"; "" when nobody's."""
    standing = ",".join(str(q + 1) for q in place["standing"])
    lying = ",".join(str(q + 1) for q in place["lying"])
    return " ".join(x for x in (f"players {standing}" if standing else "",
                                f"lying {lying}" if lying else "") if x)


def _spot(lv: dict) -> str:
    """A lower-board place: its action as the moves name it, its spaces and
    who is there."""
    name = LOCATION_NAMES[ACTION_NAMES.index(lv["action"])]
    if lv["spaces"] == 0:
        return f"{name} (forbidden)"
    who = _people(lv)
    return f"{name} ({lv['spaces']} space{'s' if lv['spaces'] > 1 else ''}" + (
        f"; {who})" if who else ")")


def _in_progress(pv: dict) -> str:
    left = [c for c, f in zip(pv["spaces"], pv["filled"]) if not f]
    state = "is finished" if pv["finished"] else (
        f"needs {' '.join(left)}" if left else "is filled")
    return f"painting {pv['card']} (value {pv['value']}) {state}"
