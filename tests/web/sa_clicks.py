"""Click a Starving Artists position into the web table's set-up view, part by part, as a person
copying a real table would: each part of the table (server/web/games/starving_artists.js) opened
by a click, its picker's buttons clicked, the picker closed. No typing anywhere.

`click_position(page, text, players)` returns the number of clicks it made."""
from __future__ import annotations

import re

COLOURS = ["red", "orange", "yellow", "green", "blue", "violet", "black", "wild"]


def read(text: str) -> dict:
    """The sample notation's lines, as the clicks need them (the grammar of ENCODING.md "Table
    notation", in the shortest form the writer gives)."""
    top, players, section = {}, {}, None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("starving_artists"):
            continue
        key, _, rest = line.partition(" ")
        if key == "player" and rest.isdigit():
            section = players.setdefault(int(rest), {"canvas": []})
            continue
        if section is not None and raw.startswith(" "):
            if key == "canvas":
                title, _, squares = rest.partition(":")
                section["canvas"].append((title.strip(), squares.split()))
            else:
                section[key] = rest
        else:
            section = None
            top[key] = rest
    return {"top": top, "players": players}


def cubes(rest: str) -> dict:
    words = rest.split()
    return {words[i]: int(words[i + 1]) for i in range(0, len(words) - 1, 2)}


def titles(rest: str) -> list[str]:
    return [t.strip() for t in rest.split(";") if t.strip()]


class Clicker:
    def __init__(self, page):
        self.page = page
        self.clicks = 0

    def part(self, part_id: str):
        """Open a part of the table (an SVG button)."""
        self.page.locator(f'[data-part="{part_id}"]').first.click()
        self.clicks += 1

    def pick(self, label: str):
        """A button of the open picker, by its accessible name."""
        picker = self.page.locator(".sa-picker")
        picker.get_by_role("button", name=label, exact=True).first.click()
        self.clicks += 1

    def done(self):
        self.pick("close the picker")

    def count(self, colour: str, n: int):
        if n <= 9:
            self.pick(f"{colour} {n}")
            return
        self.pick(f"{colour} 9")
        for _ in range(n - 9):
            self.pick(f"{colour} one more")

    def counts(self, part_id: str, values: dict):
        self.part(part_id)
        for colour, n in values.items():
            self.count(colour, n)
        self.done()

    def cards(self, part_id: str, names: list[str]):
        self.part(part_id)
        for name in names:
            self.pick(name)
        self.done()


def click_position(page, text: str) -> int:
    """Click the position `text` into the set-up table (which shows the initial position of
    the same game); returns the clicks made."""
    pos = read(text)
    top = pos["top"]
    c = Clicker(page)
    day = re.match(r"(\d+)(?: round (\d))?", top["day"])
    phase = re.match(r"(\w+)(?: player (\d+))?", top["phase"])
    c.part("phase")
    c.pick(f"phase {phase.group(1)}")
    if phase.group(2):
        c.pick(f"player {phase.group(2)} decides")
    c.done()
    c.part("day")
    c.pick(f"day {day.group(1)}")
    if day.group(2):
        c.pick(f"round {day.group(2)}")
    c.done()
    slots = [s.strip() for s in top["market"].split(";")]
    c.part("market:0")          # the picker moves on to the next slot after each title
    for name in slots:
        c.pick(name)
    c.done()
    if "pile" in top:
        c.counts("pile", cubes(top["pile"]))
    for key in ("under", "removed"):
        if key in top:
            c.cards(key, titles(top[key]))
    for p, sec in sorted(pos["players"].items()):
        if "paintings" in sec:   # before nutrition: a player who has eaten has it written
            c.cards(f"p{p}:paintings", titles(sec["paintings"]))
        if "nutrition" in sec:
            c.part(f"p{p}:nutrition")
            c.pick(f"nutrition {sec['nutrition']}")
            c.done()
        if "cubes" in sec:
            c.counts(f"p{p}:cubes", cubes(sec["cubes"]))
        if sec.get("free") == "used":
            c.part(f"p{p}:free")
        for k, (title, squares) in enumerate(sec["canvas"]):
            c.part(f"p{p}:add-canvas")
            c.pick(title)       # the picker closes once the canvas is in the studio
            first = True
            for sq, word in enumerate(squares):
                if word == ".":
                    continue
                if first:
                    c.part(f"p{p}:canvas:{k}:sq:{sq}")
                    first = False
                else:           # the square picker stays open: its square buttons move on
                    c.pick(f"square {sq + 1}")
                c.pick(f"{word} cube")
            if not first:
                c.done()
    return c.clicks
