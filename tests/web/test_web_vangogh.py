"""Van Gogh's table on the web page (server/web/games/vangogh.js, issue #26),
in Chromium on a real `easel serve` (tests/web/conftest.py): a mid-game
position set up by clicks only from the initial position, a hint's turn drawn
on the table, a refused edit marked on the part it names, the phone viewport,
the keyboard, and every player count's sample position.

Screenshots go to $EASEL_SCREENSHOT_DIR (default: the test's tmp_path) as
web-vangogh-<what>-<desktop|phone>.png; docs/images/web-vangogh.png is
web-vangogh-hint-desktop.png from
    EASEL_SCREENSHOT_DIR=/tmp/shots python -m pytest tests/web/test_web_vangogh.py
"""
from __future__ import annotations

import json
import time
import urllib.parse

import pytest

from web_helpers import assert_clean
from easel.engine import registry
from easel.engine.vangogh import rules

# The set-up by clicks of the 3-player sample (docs/at-the-table.md's
# position), from NewGame's initial position: (what is clicked, a count of
# the clicks is reported). Parts are the table's data-part ids; picker
# buttons are named by their Minigogh code, card id or text.
CLICKS_3P = [
    ("part", "begin"),                                          # a turn begins: no set-up phase
    ("part", "painting:0"), ("card", 4),                        # Placeholder painting 5
    ("part", "painting:1"), ("card", 10),                       # Placeholder painting 11
    ("part", "painting:2"), ("card", 5),                        # Placeholder painting 6
    ("part", "space:0:0"), ("code", "BU"), ("part", "space:0:3"), ("code", "VD"),
    ("part", "space:1:2"), ("code", "GU"),
    ("part", "space:2:0"), ("code", "VU"), ("code", "PD"), ("code", "GS"),
    ("part", "space:2:4"), ("code", "YU"),
    ("part", "round"), ("button", "round 4"),
    ("part", "scores:0"), ("score", 1, "+10"), ("score", 1, "+1"), ("score", 1, "+1"),
    ("score", 2, "+10"), ("score", 2, "+10"), ("score", 2, "+1"), ("score", 2, "+1"),
    ("score", 3, "+10"), ("score", 3, "+5"), ("score", 3, "+1"),
    ("part", "token"), ("button", "player 2"),
    ("part", "char:5"), ("button", "chosen this round"),       # Eugene
    ("part", "framed"), ("card", 12),                           # Placeholder painting 13
    ("part", "table:0"), ("code", "BL"), ("code", "PD"), ("code", "GL"), ("code", "GU"),
    ("code", "VD"),
    ("part", "waiting:1:0"), ("code", "GS"),
    ("part", "waiting:2:0"), ("code", "YL"), ("code", "GS"),
    ("part", "waiting:3:0"), ("code", "YS"), ("code", "GL"),
    ("part", "active:0:0"), ("code", "YL"), ("code", "BL"), ("code", "PS"), ("code", "PD"),
    ("code", "GL"), ("code", "VU"), ("code", "VD"),
    ("part", "inactive:0:0"), ("button", ". (empty)"),
    ("part", "inactive:0:1"), ("code", "YS"),
    ("part", "inactive:0:2"), ("code", "YU"),
    ("part", "active:1:0"), ("code", "YS"), ("code", "BL"), ("code", "PD"), ("code", "VU"),
    ("part", "active:2:0"), ("code", "PU"),
]


LETTERS = {"yellow": "Y", "blue": "B", "pink": "P", "green": "G", "purple": "V", "white": "W",
           "lying down": "L", "sideway": "S", "upright": "U", "upside down": "D"}


def code(name):
    colour, orient = name.split("-", 1)
    return LETTERS[colour] + LETTERS[orient]


def clicks_for(spec, text):
    """The clicks that set up a position between turns from the initial one,
    derived from its JSON view the way a person reads the table: a picker
    moves on to the next space or slot by itself after each Minigogh."""
    game = registry.load_game(spec)
    v = game.state_from_notation(text).to_json()
    out = [("part", "begin")]
    for k, p in enumerate(v["paintings"]):
        out += [("part", f"painting:{k}"),
                ("card", p["card"]) if p["card"] >= 0 else ("button", "- (empty slot: the deck ran out)")]
    for k, p in enumerate(v["paintings"]):
        at = None                                   # the space the picker is on
        for s, x in enumerate(p.get("occupants") or []):
            if x is None:
                continue
            if at != s:
                out.append(("part", f"space:{k}:{s}"))
            if code(x)[1] != LETTERS[p["orientations"][s]]:
                out.append(("button", "another orientation (green's ability)"))
            out.append(("code", code(x)))
            at = s + 1
    if v["round"] != 1:
        out += [("part", "round"), ("button", f"round {v['round']}")]
    if any(v["scores"]):
        out.append(("part", "scores:0"))
        for p, score in enumerate(v["scores"]):
            for step in (10, 5, 1):
                out += [("score", p + 1, f"+{step}")] * (score // step)
                score %= step
    if v["token_holder"] >= 0:
        out += [("part", "token"), ("button", f"player {v['token_holder'] + 1}")]
    if v["ability_spent"]:
        out += [("part", "ability"), ("button", "spent")]
    if v["brush_used"]:
        out += [("part", "brush"), ("button", "used")]
    for c, ch in enumerate(v["characters"]):
        if ch["taken"]:
            out += [("part", f"char:{c}"), ("button", "chosen this round")]
    framed = [c for c in range(len(v["card_names"]))
              if c not in v["deck"] and c not in [p["card"] for p in v["paintings"]]]
    if framed:
        out += [("part", "framed")] + [("card", c) for c in framed]
    if v["table"]:
        out += [("part", "table:0")] + [("code", code(x)) for x in v["table"]]
    for c, ch in enumerate(v["characters"]):
        if ch["waiting"]:
            out += [("part", f"waiting:{c}:0")] + [("code", code(x)) for x in ch["waiting"]]
    for p, pal in enumerate(v["palettes"]):
        if pal["active"]:
            out += [("part", f"active:{p}:0")] + [("code", code(x)) for x in pal["active"]]
        for i, (x, o) in enumerate(zip(pal["inactive"], ("L", "S", "U"))):
            if x is None:
                out += [("part", f"inactive:{p}:{i}"), ("button", ". (empty)")]
            elif code(x) != LETTERS[pal["color"]] + o:
                out += [("part", f"inactive:{p}:{i}"), ("code", code(x))]
    return out


def samples(page, served):
    page.goto(served.url + "/")
    return page.evaluate("async () => (await import('/games/vangogh.js')).default.samples")


def shortest(spec, text):
    game = registry.load_game(spec)
    return game.notation_of(game.state_from_notation(text))


def open_setup(page, served, spec):
    if not hasattr(page, "read_texts"):
        watch_reads(page)
    page.goto(served.url + "/#/setup/" + urllib.parse.quote(spec))
    page.wait_for_selector(".vg-table svg")


def click(page, what):
    kind = what[0]
    if kind == "part":
        page.click(f'.vg-table [data-part="{what[1]}"]')
    elif kind == "code":
        page.click(f'.vg-picker [data-code="{what[1]}"]')
    elif kind == "card":
        page.click(f'.vg-picker [data-card="{what[1]}"]')
    elif kind == "button":
        page.click(f'.vg-picker button:text-is("{what[1]}")')
    elif kind == "score":
        page.click(f'.vg-picker button[data-player="{what[1]}"]:text-is("{what[2]}")')
    elif kind == "line":
        page.click(f'.vg-line:has(.vg-who:text-is("{what[1]}")) button:text-is("{what[2]}")')
    else:
        raise AssertionError(what)


def notation_box(page):
    return page.input_value("#notation-text")


def watch_reads(page):
    """Record the texts the page had Engine.ReadPosition read (and answered)."""
    page.read_texts = []

    def seen(response):
        if response.url.endswith("/easel.v1.Engine/ReadPosition"):
            page.read_texts.append(json.loads(response.request.post_data)["notation"]["text"])
    page.on("response", seen)


def wait_loaded(page, timeout=20.0):
    """The page read the text now in its box, and the loader took it."""
    text = notation_box(page)
    end = time.monotonic() + timeout
    while text not in page.read_texts:
        assert time.monotonic() < end, "the page never read its text"
        page.wait_for_timeout(50)
    page.wait_for_function(
        "() => !document.querySelector('.reading') && !document.querySelector('.refusals')")


def set_up_by_clicks(page, served, spec, clicks, view):
    """From NewGame's initial position, the clicks; then the page's text, written
    the shortest way (one more click), is the sample's shortest form. Prints
    the clicks and the time they took (the page's reads included)."""
    n = spec.split("=")[1].rstrip(")")
    want = shortest(spec, samples(page, served)[n])
    open_setup(page, served, spec)
    assert "phase setup_cards" in notation_box(page)
    start = time.monotonic()
    for what in clicks:
        click(page, what)
    wait_loaded(page)
    seconds = time.monotonic() - start
    page.click('button:text-is("Write it the shortest way")')
    assert notation_box(page) == want
    print(f"\n{spec} {view}: {len(clicks) + 1} clicks, {seconds:.1f} s")


def test_every_sample_is_a_reachable_position_in_its_shortest_form(page, served):
    got = samples(page, served)
    assert sorted(got) == ["1", "2", "3", "4", "5"]
    for n, text in got.items():
        spec = f"vangogh(players={n})"
        header, _, rest = text.partition("\n")
        assert header == spec
        assert shortest(spec, text) == rest          # loads, and is written the shortest way


def test_the_action_ids_the_turn_drawing_reads_are_the_games(page, served):
    # The table follows a hint's steps by their ids (ENCODING.md "Decision actions").
    page.goto(served.url + "/")
    ids = page.evaluate("async () => (await import('/games/vangogh.js')).ACTION_IDS")
    for name, value in ids.items():
        assert getattr(rules, name) == value, name
    words = page.evaluate("async () => (await import('/games/vangogh.js')).CHAR_WORDS")
    from easel.engine.vangogh.notation_words import CHAR_WORDS
    assert tuple(words) == CHAR_WORDS


@pytest.mark.parametrize("view", ["desktop", "phone"])
def test_set_up_the_3_player_sample_by_clicks_then_a_hint_is_drawn(view, page, phone, served, shot):
    p = page if view == "desktop" else phone
    set_up_by_clicks(p, served, "vangogh(players=3)", CLICKS_3P, view)
    # the table shows what was clicked, from the position the server read
    assert p.locator('[data-part="space:2:1"]').get_attribute("aria-label").endswith(
        "pink-upside down")
    assert "Player 3 · pink · to move" in p.inner_text(".vg-table")

    # a hint: the ranked turns come, the best one is drawn on the table
    p.click(".vg-picker .vg-close")
    p.click(".hint button.ask")
    p.wait_for_selector(".candidates .candidate", timeout=60_000)
    p.wait_for_selector(".vg-steps li")
    p.wait_for_selector(".vg-table .vg-mark.vg-target")
    steps = p.locator(".vg-steps li").all_inner_texts()
    assert steps and all("player 3" in s or "chance" in s for s in steps), steps
    assert p.locator(".vg-table .vg-stepbadge").count() >= 1
    try:        # the search stops itself once its leading turns are told apart
        p.wait_for_selector('.hint[data-state="settled"]', timeout=30_000)
    except Exception:
        p.click(".hint button.stop")
    path = shot(p, f"web-vangogh-hint-{view}.png")
    p.locator(".table-frame").screenshot(path=path)     # the table, the turn drawn and its steps
    assert p.evaluate("document.documentElement.scrollWidth") <= p.viewport_size["width"]
    assert_clean(p, served)


def test_a_refused_edit_is_marked_on_the_part_it_names(page, phone, served, shot):
    spec = "vangogh(players=3)"
    for p, view in ((page, "desktop"), (phone, "phone")):
        text = samples(p, served)["3"]
        open_setup(p, served, spec)
        p.fill("#notation-text", text)
        wait_loaded(p)
        p.fill("#notation-text", text.replace("palette 2: YS BL PD VU", "palette 2: YS BL PD XX"))
        p.wait_for_selector('.vg-refusal-mark[data-refused="palette:1"]')
        item = p.locator('.vg-refusals li[data-refused="palette:1"]').inner_text()
        assert "palette 2" in item and "'XX' is not a Minigogh" in item, item
        # the table still shows the rest of the text while it is refused
        assert p.locator('[data-part="active:1:3"]').get_attribute("aria-label").endswith("purple-upright")
        # the picker of the refused part says why too
        p.click('[data-part="active:1:0"]')
        assert "'XX' is not a Minigogh" in p.inner_text(".vg-picker .vg-refused-text")
        shot(p, f"web-vangogh-refused-{view}.png")
        assert p.evaluate("document.documentElement.scrollWidth") <= p.viewport_size["width"]
        assert_clean(p, served)         # a refusal is an answer, not an error


def test_parts_are_keyboard_buttons_and_pickers_offer_sensible_values(page, served):
    spec = "vangogh(players=3)"
    text = samples(page, served)["3"]
    open_setup(page, served, spec)
    page.fill("#notation-text", text)
    wait_loaded(page)
    # what the page derived, in the rulebook's words and colour order
    derived = page.inner_text(".derived")
    assert "Y3 B3 P1 G2 V4 (13 Minigoghs)" in derived, derived
    assert "2 of 3" in derived and "player 2" in derived          # turn of the round, starter
    space = page.locator('[data-part="space:0:1"]')         # painting 1, space 2: upright
    assert space.get_attribute("role") == "button" and space.get_attribute("tabindex") == "0"
    space.focus()
    page.keyboard.press("Enter")
    codes = page.locator(".vg-picker [data-code]").evaluate_all("bs => bs.map(b => b.dataset.code)")
    assert codes == ["YU", "BU", "PU", "GU", "VU", "WU"]   # the space's orientation only
    # The keyboard lands in the picker (moved there after it is drawn; on a
    # loaded machine a key pressed sooner would go to the space), and Escape
    # closes it. The predicate is a function, not a bare expression: Playwright
    # evaluates an expression again at every poll, which the page's CSP (no
    # 'unsafe-eval') refuses once the first check has failed.
    page.wait_for_function("() => document.activeElement && "
                           "document.activeElement.closest('.vg-picker') !== null")
    page.keyboard.press("Escape")
    page.wait_for_selector(".vg-picker", state="detached", timeout=5000)
    assert page.locator(".vg-picker").count() == 0
    # the paintings offered are those neither on offer nor framed
    page.click('[data-part="painting:0"]')
    cards = page.locator(".vg-picker [data-card]").evaluate_all("bs => bs.map(b => +b.dataset.card)")
    assert 10 not in cards and 5 not in cards and 12 not in cards and 4 in cards
    # an inactive space takes the palette's own colour only
    page.click('[data-part="inactive:1:0"]')
    codes = page.locator(".vg-picker [data-code]").evaluate_all("bs => bs.map(b => b.dataset.code)")
    assert codes == ["BL", "BS", "BU", "BD"]


@pytest.mark.parametrize("players", [1, 2, 4, 5])
def test_every_player_count_draws_its_sample(players, phone, served, shot):
    spec = f"vangogh(players={players})"
    text = samples(phone, served)[str(players)]
    open_setup(phone, served, spec)
    phone.fill("#notation-text", text)
    wait_loaded(phone)
    assert phone.locator(".vg-table [data-part^='palette:'], .vg-table [data-part^='active:']").count()
    assert phone.locator(".vg-table [data-part^='scores:']").count() == players
    if players == 1:
        assert "Brush: unused" in phone.inner_text(".vg-table")
    shot(phone, f"web-vangogh-{players}p-phone.png")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.parametrize("players", [1, 2, 4, 5])
def test_set_up_a_sample_by_clicks_derived_from_its_view(players, page, served):
    # The same set-up for the other player counts, its clicks read off the
    # sample's JSON view (clicks_for); the 3-player list above is that kind.
    spec = f"vangogh(players={players})"
    set_up_by_clicks(page, served, spec, clicks_for(spec, samples(page, served)[str(players)]),
                     "desktop")
    assert_clean(page, served)
