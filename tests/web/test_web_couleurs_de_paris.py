"""Couleurs de Paris on the web table (server/web/games/couleurs_de_paris.js), in a real
browser on a real `easel serve` (tests/web/conftest.py): a person sets up the sample mid-game
position of the module by clicks on the table and its pickers only, from the game's initial
position (no typing into the notation box), and the page reads it back as the sample's
shortest form; a hint draws its ranked whole turn on the table; a refused notation marks the
part it names with the refusal's text; the phone shows the table without scrolling sideways;
an easel's card is drawn in its colours (couleurs_de_paris_cards.js) and a card just added to a
board is painted one click a space.

Screenshots: web-couleurs_de_paris-<what>-<desktop|phone>.png in $EASEL_SCREENSHOT_DIR (the
README's docs/images/web-couleurs_de_paris.png is the desktop hint one, renamed: the hint is
stopped after about a second)."""
from __future__ import annotations

import json
import os
import re
import time
from collections import Counter
from urllib.parse import quote

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from web_helpers import assert_clean, serve
from easel.engine.couleurs_de_paris.data import PAINT_COLOURS, PLACEHOLDER_PATH, load_data
from easel.engine.couleurs_de_paris.notation import _LETTER
from easel.engine.registry import load_game

GAME = "couleurs_de_paris"
MODULE = os.path.join(os.path.dirname(__file__), "..", "..", "server", "web", "games",
                      f"{GAME}.js")


def samples() -> dict:
    """The module's samples, read from its source (one per player count)."""
    src = open(MODULE, encoding="utf-8").read().split("const samples = {", 1)[1]
    return {int(n): text for n, text in re.findall(r"(\d): `(.*?)`", src, re.S)}


def parse(sample: str):
    """The sample's table-level lines and each player's section (what the clicks must make)."""
    top, players, section = {}, {}, None
    for raw in sample.strip().splitlines()[1:]:
        line = raw.strip()
        m = re.fullmatch(r"player (\d+)", line)
        if m:
            section = int(m.group(1))
            players[section] = {"paintings": []}
            continue
        keyword, _, rest = line.partition(" ")
        if section is None:
            top[keyword] = rest
        elif keyword == "painting":
            players[section]["paintings"].append(rest)
        else:
            players[section][keyword] = rest
    return top, players


class Clicks:
    """Clicks on the table's parts and its pickers, counted; each waits for the page to have
    read the text it wrote (the set-up view reads every edit with Engine.ReadPosition)."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def settle(self):
        # past the view's debounce (READ_DELAY_MS, 150 ms), then until the text is read
        self.page.wait_for_timeout(250)
        self.page.wait_for_function(
            "() => !document.querySelector('.reading')", timeout=20_000)

    def click(self, selector):
        self.page.click(selector)
        self.count += 1

    def part(self, name):
        self.click(f'[data-part="{name}"]')

    def press(self, label, times=1):
        for _ in range(times):
            self.click(f'.cdp-picker button[aria-label="{label}"]')

    def choose(self, group, text):
        self.click(f'.cdp-picker [aria-label="{group}"] button:text-is("{text}")')

    def card(self, name):       # the samples name every card by its printed id
        self.click(f'.cdp-picker .cdp-cards button[data-card="{name.lstrip("#")}"]')


def set_up(c: Clicks, sample: str):
    """Click the sample's position into the table, part by part, as a person copies a table."""
    top, players = parse(sample)
    if top.get("round", "1") != "1":
        c.part("round")
        c.press("round plus one", int(top["round"]) - 1)
    if "phase" in top:
        words = top["phase"].split()
        c.part("phase")
        c.choose("phase", words[0])
        if len(words) > 2 and words[2] != "1":
            c.choose("player to decide", f"player {words[2]}")
    if "first" in top:
        c.part("first")
        c.choose("first player", top["first"])
    if top.get("rotation", "0") != "0":
        c.part("rotation")
        c.choose("rotation", top["rotation"])
    if "pending" in top:           # a step under way: only its keys that are not derived
        c.part("pending")
        for key, value in re.findall(r"(\w+)=(\S+)", top["pending"]):
            if key in ("tool", "pay_min"):
                c.choose(f"pending {key}", value)
            elif key == "keep":
                for p, x in enumerate(value.split(",")):
                    if x != "-":
                        c.page.select_option(f'.cdp-picker select[aria-label="keep player {p + 1}"]', x)
                        c.count += 1
            else:
                c.press(f"{key} plus one", int(value))
    for e, name in enumerate(top.get("easels", "").split(";")):
        if name.strip() not in ("", "-"):
            c.part(f"easel {e + 1}")
            c.card(name.strip())
    # the assistants, space by space: one picker holds every player's standing and lying ones
    at = {}
    for p, sec in players.items():
        for how in ("standing", "lying"):
            spaces = [s.strip() for s in sec.get(how, "").split(";") if s.strip()]
            for where, k in Counter(spaces).items():
                at.setdefault(where, []).append((p, how, k))
    for where, rows in at.items():
        c.part(f"space {where}")
        for p, how, k in rows:
            c.press(f"player {p} {how} plus one", k)
    for p, sec in players.items():
        if "pigments" in sec:
            c.part(f"player {p} pigments")
            w = sec["pigments"].split()
            for colour, k in zip(w[::2], w[1::2]):
                c.press(f"{colour} plus one", int(k))
        if "tools" in sec or "bonus" in sec:
            c.part(f"player {p} tools")
            for tool, level in re.findall(r"(paint tube|palette|brush) (\d+)", sec.get("tools", "")):
                c.press(f"{tool} plus one", int(level) - 1)
            for tool, bonus in re.findall(r"(paint tube|palette|brush) (assistant|points)",
                                          sec.get("bonus", "")):
                c.choose(f"{tool} bonus", "6 points" if bonus == "points" else bonus)
        for line in sec["paintings"]:
            name, fill = (s.strip() for s in line.split(":"))
            c.part(f"player {p} painting add")
            c.card(name)        # the picker now shows the card's spaces, in its colours
            for j, f in enumerate(fill):
                if f != ".":    # one click: empty -> its colour; a second: -> white
                    c.click(f'.cdp-picker button[data-space="{j + 1}"]')
                    if f == "w":
                        c.click(f'.cdp-picker button[data-space="{j + 1}"]')


def shortest(sample: str) -> str:
    game = load_game(sample.splitlines()[0])
    return game.notation_of(game.state_from_notation(sample))


def open_setup(page, served, spec):
    page.goto(f"{served.url}/#/setup/{quote(spec)}")
    page.wait_for_selector(f'section.setup[data-game="{GAME}"] svg.cdp-svg')


def notation(page) -> str:
    return page.input_value("#notation-text")


def test_every_sample_is_its_own_shortest_form_and_loads():
    got = samples()
    assert sorted(got) == [2, 3, 4]
    for n, text in got.items():
        game = load_game(text.splitlines()[0])
        assert game.num_players() == n
        assert shortest(text) == text, n


@pytest.mark.parametrize("players", [2, 3])
def test_the_sample_is_set_up_by_clicks_and_a_hint_is_drawn(players, page, served, shot):
    sample = samples()[players]
    spec = sample.splitlines()[0]
    open_setup(page, served, spec)
    start = load_game(spec)
    assert notation(page) == start.notation_of(start.new_initial_state())
    c = Clicks(page)
    t0 = time.monotonic()
    set_up(c, sample)
    c.settle()
    try:
        page.wait_for_function("() => !document.querySelector('#refusals .refusal')",
                               timeout=20_000)
    except PlaywrightTimeout:       # say what the clicks made, against what they should
        refusals = page.locator("#refusals .refusal").all_inner_texts()
        shown = page.locator("section.setup .error").all_inner_texts()
        raise AssertionError(f"refused: {refusals}\nerrors shown: {shown}\n"
                             f"failed calls: {page.seen['failed']}\n"
                             f"console: {page.seen['console'][-5:]}\nclicked:\n"
                             f"{notation(page)}\nwanted:\n{shortest(sample)}") from None
    shorter = page.locator("button:has-text('Write it the shortest way')")
    if shorter.count():
        c.click("button:has-text('Write it the shortest way')")
        c.settle()
    elapsed = time.monotonic() - t0
    assert notation(page) == shortest(sample)
    print(f"\n{GAME} {players} players: set up by {c.count} clicks in {elapsed:.1f} s")
    # the table shows what was clicked: the easels' cards, the players' paintings
    top, players_ = parse(sample)
    for e, name in enumerate(top["easels"].split(";")):
        label = page.get_attribute(f'[data-part="easel {e + 1}"]', "aria-label")
        assert label.endswith("empty" if name.strip() == "-" else name.strip()), label
    if page.locator(".cdp-picker").count():
        page.click(".cdp-picker button.cdp-close")
    # a hint: its best whole turn drawn on the table, numbered, with its steps' texts beside
    page.click("section.hint button.ask")
    page.wait_for_selector("ol.candidates li.candidate", timeout=30_000)
    page.wait_for_selector("svg.cdp-svg g.cdp-step[data-step='1']", timeout=30_000)
    # Stop once a few reports have come (test_web_hint.py follows a hint to its budget): the
    # ranking stops refining, and the drawing is compared with it as it stands.
    page.wait_for_timeout(1_000)
    try:
        page.click("section.hint button.stop", timeout=2_000)
    except PlaywrightTimeout:
        pass            # settled already: Stop is disabled
    page.wait_for_selector("section.hint:not([data-state='running'])")
    page.wait_for_timeout(100)
    steps = page.locator("ol.cdp-steps li").all_inner_texts()
    best = page.locator("ol.candidates li.candidate.chosen .turn-text").inner_text()
    assert steps and steps[0] in best, (steps, best)
    target = page.locator("svg.cdp-svg g.cdp-step").first.get_attribute("data-target")
    assert page.locator(f'[data-part="{target}"]').count() or \
        page.locator(f'[data-part^="{target.rsplit(" ", 1)[0]}"]').count(), target
    shot(page, f"web-{GAME}-hint-desktop.png" if players == 2 else
         f"web-{GAME}-hint-{players}p-desktop.png")
    assert_clean(page, served)


def test_an_easel_shows_its_cards_colours_and_a_new_painting_is_painted_by_clicks(page, served,
                                                                                 shot):
    """A person copies the easels from the cards' colours: an easel's card is drawn as its 3x3
    spaces, each with its colour and letter (the shipped data, couleurs_de_paris_cards.js), and
    its value; a card just added to a board is painted one click a space, no list."""
    card = load_data().paintings[20]
    letters = "".join(_LETTER[PAINT_COLOURS[k]] for k in card.spaces)
    open_setup(page, served, GAME)
    page.click('[data-part="easel 1"]')
    # the picker's card buttons show each card's spaces too (letters on pale colours)
    label = page.get_attribute('.cdp-picker button[data-card="20"]', "aria-label")
    assert label == f"#20: {letters[:3]} {letters[3:6]} {letters[6:]}, {card.value} points", label
    page.click('.cdp-picker .cdp-cards button[data-card="20"]')
    easel = page.locator('svg.cdp-svg [data-part="easel 1"]')
    assert easel.locator("text.cdp-letter").all_text_contents() == list(letters)
    fills = easel.locator("g > rect").evaluate_all("els => els.map(e => e.getAttribute('fill'))")
    assert len(fills) == 9 and "#f7f3ea" not in fills, fills      # not the unknown card's blank
    # the same colour the same fill, another colour another fill: the letters are not all
    assert len(set(zip(letters, fills))) == len(set(letters)) == len(set(fills)), (letters, fills)
    assert f"{card.value} points" in easel.text_content()
    assert "once it is held" not in easel.text_content()
    # player 1 takes #6: its spaces are buttons at once, the first click paints its colour
    six = "".join(_LETTER[PAINT_COLOURS[k]] for k in load_data().paintings[6].spaces)
    page.click('[data-part="player 1 painting add"]')
    page.click('.cdp-picker .cdp-cards button[data-card="6"]')
    assert page.locator(".cdp-picker select").count() == 0
    assert page.locator(".cdp-picker button[data-space]").count() == 9
    page.click('.cdp-picker button[data-space="2"]')
    assert f"painting #6: .{six[1]}......." in notation(page)
    shot(page, f"web-{GAME}-easels-desktop.png")
    assert_clean(page, served)


def test_a_game_with_another_data_file_does_not_show_the_shipped_colours(page, tmp_path):
    """The page's card copy is the shipped data's: a game given another data file (here card #20
    all green) shows an easel's card by its printed id only, never the shipped card's colours,
    and learns a held card's colours from the position that loads."""
    with open(PLACEHOLDER_PATH, encoding="utf-8") as f:
        data = json.load(f)
    data["paintings"][20]["spaces"] = ["green"] * 9
    (tmp_path / "other.json").write_text(json.dumps(data), encoding="utf-8")
    # the sample's position without its game line: the game is the page's, data=other.json
    body = samples()[2].split("\n", 1)[1]
    with serve("--data-dir", str(tmp_path)) as other:
        open_setup(page, other, f"{GAME}(data=other.json)")
        page.fill("#notation-text", body)
        page.wait_for_selector(".setup[data-synced='true'] [data-part='player 1 painting 1']")
        assert not page.locator("#refusals .refusal").count()
        easel = page.locator('svg.cdp-svg [data-part="easel 1"]')
        assert easel.get_attribute("aria-label") == "easel 1: #20"
        assert easel.locator("text.cdp-letter").count() == 0
        assert "once it is held" in easel.text_content()
        held = page.locator('svg.cdp-svg [data-part="player 1 painting 1"] text.cdp-letter')
        assert "".join(held.all_text_contents()).lower() == "rbrwbrrbr"     # #6, from the view
        assert_clean(page, other)


# Mid-turn (reached in play: round 3, player 1 painting with one pigment painted so far): the
# step under way is the `pending` line, clicked like any other part.
MID_TURN = """couleurs_de_paris
round 3
phase paint player 1
first player 1
rotation 2
easels #24; #20; #18
pending painted=1
player 1
  pigments red 1 yellow 1 white 4
  tools brush 2
  standing acquire red; improve a tool
  lying paint
  painting #6: .........
  painting #30: .b.......
player 2
  pigments red 1 yellow 1 blue 1 white 9
  standing mix orange; improve a tool; acquire white
  painting #25: .........
"""


def test_a_step_under_way_is_set_up_by_clicks(page, served):
    assert shortest(MID_TURN) == MID_TURN
    open_setup(page, served, GAME)
    c = Clicks(page)
    set_up(c, MID_TURN)
    c.settle()
    page.wait_for_function("() => !document.querySelector('#refusals .refusal')", timeout=20_000)
    if page.locator("button:has-text('Write it the shortest way')").count():
        c.click("button:has-text('Write it the shortest way')")
        c.settle()
    assert notation(page) == MID_TURN
    label = page.get_attribute('[data-part="pending"]', "aria-label")
    assert label == "a step under way: painted=1", label


def test_a_refused_position_marks_the_part_it_names(page, served, shot):
    sample = samples()[2]
    open_setup(page, served, GAME)
    # pasted, not clicked: a person's copy with one pigment too many for the box
    bad = sample.replace("pigments red 2 orange 1 blue 1 white 6",
                         "pigments red 2 orange 1 blue 1 white 60")
    page.fill("#notation-text", bad)
    page.wait_for_selector("#refusals .refusal", timeout=20_000)
    fields = page.locator("#refusals .refusal").evaluate_all(
        "els => els.map(e => e.dataset.field)")
    assert any(f.startswith("player 2 pigments") or f.startswith("supply") for f in fields), fields
    marked = page.locator("svg.cdp-svg g.cdp-bad")
    assert marked.count() >= 1
    names = marked.evaluate_all("els => els.map(e => e.dataset.part)")
    assert "player 2 pigments" in names, names
    title = page.locator('svg.cdp-svg g.cdp-bad[data-part="player 2 pigments"] > title').text_content()
    assert "white" in title, title
    shot(page, f"web-{GAME}-refused-desktop.png")


def test_the_phone_shows_the_table_without_sideways_scrolling(phone, served, shot):
    sample = samples()[4]
    open_setup(phone, served, sample.splitlines()[0])
    phone.fill("#notation-text", sample)
    phone.wait_for_function(
        "() => document.querySelector('[data-part=\"easel 1\"]')"
        ".getAttribute('aria-label').endsWith('#5')", timeout=20_000)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    box = phone.locator("svg.cdp-svg").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    # a part opens its picker with the keyboard too
    phone.focus('[data-part="player 1 pigments"]')
    phone.keyboard.press("Enter")
    phone.wait_for_selector('.cdp-picker[aria-label="Player 1 pigments"]')
    shot(phone, f"web-{GAME}-setup-phone.png")
    assert_clean(phone, served)
