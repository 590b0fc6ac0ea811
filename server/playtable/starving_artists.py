"""Starving Artists at the table: the market's canvases with the cubes each
needs, and each artist's food, stars, cubes and canvases in progress with
the squares still to paint. Reads the JSON view (ENCODING.md)."""
from __future__ import annotations

from .layout import counts, grid, player_label


def table(view: dict, game, seat: int) -> list:
    solo = view["players"] == 1
    head = (f"day {view['day']}" + ("" if solo else f", round {view['round']}, "
                                    f"carrot: {player_label(view['first_player'], seat)}")
            + f"; phase {view['phase']}")
    # numbered as the moves number them ("buy canvas 2 (Bahamian View)")
    market = grid(["canvas", "costs", "title", "stars", "food", "paint", "needs"])
    for slot, m in enumerate(view["market"]):
        if m is None:
            market.add_row(str(slot + 1), str(slot + 1), "-", "", "", "", "")
        else:
            market.add_row(str(slot + 1), str(slot + 1), m["title"], str(m["stars"]),
                           str(m["food"]), str(m["paint"]), " ".join(m["squares"]))
    players = grid(["player", "food", "stars", "paintings", "cubes"])
    canvases = []
    for p, st in enumerate(view["studios"]):
        food = str(st["nutrition"]) if st["alive"] else "starved"
        players.add_row(player_label(p, seat), food, str(st["stars"]),
                        str(len(st["paintings"])), counts(st["cubes"]))
        canvases += [f"{player_label(p, seat)}'s canvas {_canvas(cv)}" for cv in st["canvases"]]
    lines = [head, market, players] + canvases
    if view["result"]:
        lines.append("solo game " + ("won" if view["result"] > 0 else "lost"))
    return lines


def _canvas(cv: dict) -> str:
    """'Bahamian View (2 stars, food 2, paint 7) needs red blue blue': the
    squares without a cube yet."""
    left = [sq for sq, c in zip(cv["squares"], cv["cubes"]) if not c]
    return (f"{cv['title']} ({cv['stars']} stars, food {cv['food']}, paint {cv['paint']}) "
            + (f"needs {' '.join(left)}" if left else "is finished"))
