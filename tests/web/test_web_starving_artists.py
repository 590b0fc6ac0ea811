"""Starving Artists on the web table, in Chromium on a real `easel serve` (issue #26): a
mid-game position clicked in from the initial one (clicks only: the table's parts and their
pickers, tests/web/sa_clicks.py), for 2 players on the desktop and solo on a phone; a hint's
ranked turn drawn on the table; a refused position marked on the part it names; every sample
drawn at both sizes without a horizontal scroll; the parts work from the keyboard.

The clicks and seconds of each set-up are printed (run with -s to see them). Screenshots go to
$EASEL_SCREENSHOT_DIR as web-starving_artists-<what>-<desktop|phone>.png. The README's
docs/images/web-starving_artists.png is the set-up table with its hint, made by

    EASEL_SCREENSHOT_DIR=/tmp/shots python -m pytest tests/web/test_web_starving_artists.py -k two_players
    cp /tmp/shots/web-starving_artists-hint-desktop.png docs/images/web-starving_artists.png

(the committed one is quantized to 256 colours with Pillow, a third of the size)."""
from __future__ import annotations

import re
import time
import urllib.parse

import pytest

from web_helpers import assert_clean
from sa_clicks import click_position
from test_web_starving_artists_data import module_samples

SAMPLES = module_samples()


def open_setup(page, served, players):
    spec = f"starving_artists(players={players})"
    page.goto(f"{served.url}/#/setup/{urllib.parse.quote(spec)}")
    page.wait_for_selector(".setup[data-game='starving_artists'] svg.sa-svg")
    page.wait_for_function("() => document.querySelector('#notation-text').value.length > 0")


def settle(page):
    """Wait until the page has read the text (no read under way)."""
    page.wait_for_function("() => !document.querySelector('.reading')")
    page.wait_for_timeout(250)          # one read delay (views/setup.js READ_DELAY_MS) and more


def shortest(page):
    """The page's notation in the shortest form ReadPosition returns."""
    settle(page)
    assert page.locator(".refusal").count() == 0, page.locator(".refusals").inner_text()
    button = page.get_by_role("button", name="Write it the shortest way")
    if button.count():
        button.click()
        settle(page)
    return page.input_value("#notation-text")


def set_up_by_clicks(page, served, players):
    open_setup(page, served, players)
    before = page.input_value("#notation-text")
    assert before.startswith("starving_artists") and "phase setup" in before
    start = time.monotonic()
    clicks = click_position(page, SAMPLES[players])
    seconds = time.monotonic() - start
    assert shortest(page).strip() == SAMPLES[players].strip()
    print(f"\nstarving_artists players={players}: {clicks} clicks, {seconds:.1f} s")
    return clicks


def svg_texts(page, selector):
    """The text of SVG elements (inner_text is for HTML)."""
    return page.locator(selector).evaluate_all("els => els.map(e => e.textContent.trim())")


def no_horizontal_scroll(page):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


def test_two_players_set_up_by_clicks_then_a_hint_drawn_on_the_table(page, served, shot):
    clicks = set_up_by_clicks(page, served, 2)
    assert clicks < 100
    page.get_by_role("button", name="Hint", exact=True).click()
    page.locator(".candidates li").first.wait_for(timeout=30000)
    steps = page.locator(".sa-steps li")
    steps.first.wait_for()
    texts = steps.all_inner_texts()
    assert texts and all(re.match(rf"{k + 1}\s", t) for k, t in enumerate(texts)), texts
    # the turn is on the table: each numbered step that moves a cube or a canvas has its badge
    badges = svg_texts(page, "svg.sa-svg .sa-badge")
    moving = [k + 1 for k, t in enumerate(texts)
              if re.search(r"\b(paint \w+ on|buy canvas|pay|take|sell (?!nothing))", t)]
    assert moving and set(map(str, moving)) <= set(badges), (texts, badges)
    if page.locator(".hint button.stop").is_enabled():
        page.locator(".hint button.stop").click()
    shot(page, "web-starving_artists-hint-desktop.png")
    assert_clean(page, served)


def test_solo_set_up_by_clicks_on_a_phone(phone, served, shot):
    set_up_by_clicks(phone, served, 1)
    no_horizontal_scroll(phone)
    shot(phone, "web-starving_artists-solo-phone.png")
    assert_clean(phone, served)


@pytest.mark.parametrize("players", [3, 4])
def test_three_and_four_players_set_up_by_clicks(page, served, players):
    set_up_by_clicks(page, served, players)
    assert_clean(page, served)


def refuse(page, served, players, old, new):
    open_setup(page, served, players)
    page.fill("#notation-text", SAMPLES[players].replace(old, new))
    page.locator(".refusal").first.wait_for()
    settle(page)


def test_a_refused_square_is_marked_on_the_canvas_with_its_text(page, served, shot):
    refuse(page, served, 2, "canvas Goldfish: . . . . . yellow .",
           "canvas Goldfish: . . . . . red .")
    mark = page.locator('svg [data-refused="p2:canvas:0:sq:5"]')
    assert mark.count() == 1
    said = svg_texts(page, "svg .sa-refusal-text")
    assert any("red cube" in t for t in said), said
    shot(page, "web-starving_artists-refused-desktop.png")
    # the square's picker says it too, and mending it there clears the refusal
    page.locator('[data-part="p2:canvas:0:sq:5"]').click()
    assert "red cube" in page.locator(".sa-picker .sa-refusal").inner_text()
    page.locator(".sa-picker").get_by_role("button", name="yellow cube", exact=True).click()
    page.wait_for_selector(".refusal", state="detached")
    assert page.locator("svg .sa-refused").count() == 0
    assert_clean(page, served)


def test_a_refused_nutrition_is_marked_on_the_track(phone, served, shot):
    # player 2 has eaten nothing: day 5 fixes the nutrition at 1 (RULINGS.md I4)
    refuse(phone, served, 2, "player 2\n", "player 2\n  nutrition 4\n")
    assert phone.locator('svg [data-refused="p2:nutrition"]').count() == 1
    said = " ".join(svg_texts(phone, "svg .sa-refusal-text"))
    assert "1" in said and "nutrition" in phone.locator(".refusal").first.inner_text()
    no_horizontal_scroll(phone)
    shot(phone, "web-starving_artists-refused-phone.png")


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_sample_is_drawn_with_letters(request, served, shot, players, size):
    page = request.getfixturevalue({"desktop": "page", "phone": "phone"}[size])
    open_setup(page, served, players)
    page.fill("#notation-text", SAMPLES[players])
    settle(page)
    assert page.locator(".refusal").count() == 0
    for p in range(1, players + 1):
        assert page.locator(f'[data-part="p{p}:cubes"]').count() == 1
    # every cube and square carries its letter (the rulebook's colour-blind note)
    letters = set(svg_texts(page, "svg.sa-svg text"))
    assert set("ROYGBVKW") <= letters, letters
    no_horizontal_scroll(page)
    assert page.locator("svg.sa-svg").bounding_box()["width"] <= page.viewport_size["width"]
    shot(page, f"web-starving_artists-{players}p-{size}.png")
    assert_clean(page, served)


def test_the_parts_open_from_the_keyboard(page, served):
    open_setup(page, served, 2)
    part = page.locator('[data-part="pile"]')
    part.focus()
    page.keyboard.press("Enter")
    page.locator(".sa-picker[data-picker='cubes']").wait_for()
    page.locator(".sa-picker").get_by_role("button", name="blue one more").click()
    page.wait_for_function("() => document.querySelector('#notation-text').value.includes('pile blue 1')")
    page.locator('[data-part="day"]').focus()
    page.keyboard.press(" ")
    page.locator(".sa-picker[data-picker='day']").wait_for()


def test_derived_reads_canvases_by_deck_index_or_printed_id(page, served):
    """The JSON view names canvases by deck index today and by printed id after the numbering
    change (ENCODING.md "State fields"); what the page derived reads both the same."""
    from easel.engine.registry import load_game
    from easel.engine.starving_artists import deck as sa_deck
    game = load_game("starving_artists(players=2)")
    view = game.state_from_notation(SAMPLES[2]).to_json()
    cards = sa_deck.load_deck("38").cards
    by_id = dict(view, face_down=dict(view["face_down"], unseen=[
        i if isinstance(i, str) else cards[i].id for i in view["face_down"]["unseen"]]))
    by_index = dict(view, face_down=dict(view["face_down"], unseen=[
        i if isinstance(i, int) else next(c.index for c in cards if c.id == i)
        for i in view["face_down"]["unseen"]]))
    open_setup(page, served, 2)
    rows = page.evaluate("""async (views) => {
        const m = await import('/games/starving_artists.js');
        return views.map((v) => m.default.derived(v));
    }""", [by_index, by_id])
    assert rows[0] == rows[1]
    unseen = next(r["value"] for r in rows[0] if r["label"] == "unseen titles")
    titles = unseen.split("; ")
    assert len(titles) == len(view["face_down"]["unseen"]) and "Water Lilies" in titles
    assert next(r["value"] for r in rows[0] if r["label"] == "bag").startswith("R11 O11 Y15")


def test_a_read_only_table_draws_the_position_with_or_without_its_notation(page, served, shot):
    """Hint, play and review give the Table no set-up: it draws the position's notation, or the
    JSON view alone, the same, with nothing to click, and the turn it is given."""
    from easel.engine.registry import load_game
    game = load_game("starving_artists(players=2)")
    state = game.state_from_notation(SAMPLES[2])
    info = {"game": "starving_artists", "numPlayers": 2, "currentPlayer": 0,
            "state": state.to_json(), "notation": game.notation_of(state)}
    turn = [{"id": 0, "text": t, "player": 0, "isChance": False}
            for t in ("buy canvas 2 (Eagle Head)", "pay blue", "pay red", "end turn")]
    open_setup(page, served, 2)
    drawn = page.evaluate("""async ([info, turn]) => {
        const { h, render } = await import('/vendor/preact.js');
        const m = await import('/games/starving_artists.js');
        const out = [];
        for (const given of [info, { ...info, notation: undefined }]) {
            const box = document.createElement('div');
            box.className = 'read-only';
            document.body.append(box);
            render(h(m.default.Table, { info: given, setup: null, refusals: [], turn }), box);
            await new Promise((r) => setTimeout(r, 50));
            const texts = [...box.querySelectorAll('svg text')].map((e) => e.textContent);
            out.push({ texts, buttons: box.querySelectorAll('[role=button]').length,
                       badges: [...box.querySelectorAll('[data-part="market:1"] .sa-badge')]
                           .map((e) => e.textContent) });
        }
        return out;
    }""", [info, turn])
    with_notation, state_only = drawn
    assert with_notation == state_only, [(a, b) for a, b in zip(with_notation["texts"], state_only["texts"]) if a != b][:5]
    for title in ("Eagle Head", "Hall of Bulls", "Goldfish", "The Siesta"):
        assert title in with_notation["texts"]
    assert with_notation["buttons"] == 0
    assert with_notation["badges"] == ["1"]
    page.locator(".read-only").first.scroll_into_view_if_needed()
    shot(page, "web-starving_artists-read-only-desktop.png")


def test_on_a_phone_the_picker_opens_in_sight(phone, served):
    """A part clicked near the top of a long table opens its picker on the screen, not below the
    table (the frame clips its overflow, so the picker is a sheet fixed to the screen)."""
    open_setup(phone, served, 2)
    phone.locator('[data-part="market:0"]').click()
    box = phone.locator(".sa-picker").bounding_box()
    height = phone.viewport_size["height"]
    assert box["y"] >= 0 and box["y"] + box["height"] <= height + 1, (box, height)
    assert phone.locator(".sa-picker").get_by_role("button", name="Bahamian View").is_visible()
    phone.locator(".sa-picker").get_by_role("button", name="Bahamian View").click()
    phone.wait_for_function("() => document.querySelector('#notation-text').value"
                            ".includes('market Bahamian View; -; -')")
