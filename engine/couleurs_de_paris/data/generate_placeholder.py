"""Writes placeholder.json, the PLACEHOLDER board and painting data of Couleurs
de Paris (the real values are not published; RULINGS.md §0 lists what is
guessed). Run from anywhere: python generate_placeholder.py

The 32 paintings follow one rule so that anyone can regenerate them: space j
(0..8, row by row) of card k (0..31) needs colour
(k + j*(1 + k//6) + (j*j*k)//3) mod 6 (// rounds down) in the
order red, orange, yellow, green, blue, violet; a card's value is 4 + 1 per
primary space + 2 per secondary space."""
import json
import os

COLOURS = ("red", "orange", "yellow", "green", "blue", "violet")


def painting(k):
    spaces = [COLOURS[(k + j * (1 + k // 6) + (j * j * k) // 3) % 6] for j in range(9)]
    value = 4 + sum(1 if COLOURS.index(c) % 2 == 0 else 2 for c in spaces)
    return {"id": k, "name": f"painting {k}", "value": value, "spaces": spaces}


DATA = {
    "placeholder": True,
    "description": "PLACEHOLDER data for Couleurs de Paris: the wheel order, the lower "
                   "board's spaces, the tool tracks, the supply and the 32 paintings are "
                   "not published; these values follow engine/couleurs_de_paris/RULINGS.md "
                   "section 0 and data/generate_placeholder.py.",
    "wheel": ["red", "orange", "yellow", "green", "blue", "violet", "black", "improve",
              "take painting", "paint"],
    "lower_spaces": [0, 1, 2, 3, 2, 0, 1, 2, 3, 2],
    # Forbidden Action tiles: 3 players cover one space of each 3-space
    # position, 2 players two (4 tiles, as many as the box holds).
    "forbidden_tiles": {"2": [0, 0, 0, 2, 0, 0, 0, 0, 2, 0],
                        "3": [0, 0, 0, 1, 0, 0, 0, 0, 1, 0]},
    "tracks": {"paint tube": [3, 3, 4, 4, 5, 5, 6, 6],
               "palette": [2, 2, 3, 3, 4, 4, 5, 5],
               "brush": [2, 3, 3, 4, 4, 5, 5, 6]},
    "supply": {"red": 36, "orange": 26, "yellow": 36, "green": 26, "blue": 36,
               "violet": 26, "white": 20, "black": 5},
    "paintings": [painting(k) for k in range(32)],
}

if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "placeholder.json"), "w", encoding="utf-8") as f:
        # One line per list or painting, so that a diff shows what changed.
        lines = ["{"]
        items = list(DATA.items())
        for i, (key, value) in enumerate(items):
            end = "," if i < len(items) - 1 else ""
            if key == "paintings":
                lines.append(f' "{key}": [')
                for k, p in enumerate(value):
                    lines.append("  " + json.dumps(p) + ("," if k < len(value) - 1 else ""))
                lines.append(" ]" + end)
            else:
                lines.append(f" {json.dumps(key)}: {json.dumps(value)}{end}")
        lines.append("}")
        f.write("\n".join(lines) + "\n")
