"""Van Gogh at the table: each painting on offer with the orientation every
empty space needs (and its bonus), who sits where already, the characters
still to choose with the Minigoghs waiting on them, the table's Minigoghs,
and each player's EP and palette. Reads the JSON view (ENCODING.md)."""
from __future__ import annotations

from .layout import counts, grid, player_label


def table(view: dict, game, seat: int) -> list:
    holder = view["token_holder"]
    head = (f"round {view['round']}, turn of {player_label(view['turn_player'], seat)}; "
            f"starting player token: "
            f"{'nobody' if holder < 0 else player_label(holder, seat)}; "
            f"paintings finished: {view['finished']}, {len(view['deck'])} in the deck; "
            f"phase {view['phase']}")
    paintings = grid(["painting", "EP 1st/2nd/3rd", "spaces (needs, or who is there)"])
    for i, pv in enumerate(view["paintings"]):
        if pv["card"] < 0:
            paintings.add_row(str(i + 1), "", "(empty slot)")
            continue
        spaces = []
        for k, o in enumerate(pv["orientations"]):
            bonus = " +1" if pv["bonus"][k] else ""
            occupant = pv["occupants"][k]
            spaces.append(f"{k + 1} {occupant} [{o}]" if occupant else f"{k + 1} {o}{bonus}")
        paintings.add_row(f"{i + 1} {pv['name']}", "/".join(map(str, pv["frame"])),
                          "; ".join(spaces))
    chars = ", ".join(c["name"] + (" (taken)" if c["taken"] else "")
                      + (f" with {' + '.join(c['waiting'])}" if c["waiting"] else "")
                      for c in view["characters"])
    players = grid(["player", "EP", "active", "inactive (left first)"])
    for p, pal in enumerate(view["palettes"]):
        players.add_row(f"{player_label(p, seat)} {pal['color']}", str(view["scores"][p]),
                        _pieces(pal["active"]),
                        ", ".join(x or "." for x in pal["inactive"]))
    return [head, paintings, f"characters: {chars}",
            f"table: {_pieces(view['table'])}; bag: {counts(view['bag'])}; "
            f"whites: {view['whites']}", players]


def _pieces(names: list[str]) -> str:
    """Minigoghs by name, a repeated one once with its count ("blue-upright
    x2"), in the view's order; "-" for none."""
    seen: dict[str, int] = {}
    for x in names:
        seen[x] = seen.get(x, 0) + 1
    return ", ".join(x + (f" x{k}" if k > 1 else "") for x, k in seen.items()) or "-"
