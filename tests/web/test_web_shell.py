"""The page's shell and set-up view in Chromium on a real `easel serve`:
the chooser lists every game with every player count (solo included); the
router opens the set-up view; a refused notation shows each refusal beside
the line it names; the table and the text follow each other; a game
without a notation is set up by its steps; a bearer token is asked for and
used (a hint too); nothing is asked of another origin and nothing is logged
as an error."""
from __future__ import annotations

import re
import urllib.parse

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from test_web_couleurs_de_paris import samples as cdp_samples
from web_helpers import assert_clean, serve


def open_setup(page, served, spec):
    page.goto(f"{served.url}/#/setup/{urllib.parse.quote(spec)}")
    page.wait_for_selector(".setup[data-synced='true'] #notation-text")


def test_the_chooser_lists_every_game_and_player_count(page, served, shot):
    page.goto(served.url + "/")
    page.wait_for_selector("#games li")
    from easel.server.positions import list_games
    for info in list_games():
        game = page.locator(f"li.game[data-game='{info.name}']")
        assert game.count() == 1, info.name
        specs = game.locator("a[data-spec]").evaluate_all("as => as.map(a => a.dataset.spec)")
        counts = range(info.min_players, info.max_players + 1)
        assert specs == ([f"{info.name}({info.players_option}={n})" for n in counts]
                         if info.players_option else [info.name]), specs
    assert page.locator("li.game[data-game='vangogh'] a[data-spec]").first.inner_text() == "Solo"
    assert page.locator("li.game[data-game='starving_artists'] a[data-spec]").first.inner_text() \
        == "Solo"
    shot(page, "web-chooser-desktop.png")
    page.click("li.game[data-game='starving_artists'] a[data-spec='starving_artists(players=1)']")
    page.wait_for_selector(".setup[data-game='starving_artists'] #notation-text")
    assert page.url.endswith("#/setup/starving_artists(players%3D1)")
    assert_clean(page, served)


def test_a_refused_notation_shows_each_refusal_beside_its_line(page, served, shot):
    open_setup(page, served, "starving_artists(players=1)")
    text = page.input_value("#notation-text")
    assert text.startswith("starving_artists(players=1)\nday 1\n"), text
    page.fill("#notation-text", text.replace("day 1", "day zz"))
    refusal = page.locator(".refusal[data-line='2']")
    refusal.wait_for()
    assert refusal.get_attribute("data-field") == "day"
    assert "'zz' is not a number" in refusal.inner_text()
    mark = page.locator(".gutter [data-line='2']")
    assert "refused" in mark.get_attribute("class")
    assert "'zz' is not a number" in mark.get_attribute("title")
    assert "refused" not in (page.locator(".gutter [data-line='1']").get_attribute("class") or "")
    assert page.get_attribute("#notation-text", "aria-invalid") == "true"
    shot(page, "web-setup-refused-desktop.png")
    # the refusal's button selects its line in the text
    refusal.locator("button.at-line").click()
    picked = page.evaluate("(() => { const t = document.querySelector('#notation-text');"
                           " return t.value.slice(t.selectionStart, t.selectionEnd); })()")
    assert picked == "day zz"
    # mended: the refusals go, the table comes back
    page.fill("#notation-text", text)
    page.wait_for_selector(".refusal", state="detached")
    assert page.get_attribute("#notation-text", "aria-invalid") == "false"
    assert_clean(page, served)


def test_a_read_that_fails_on_its_way_is_asked_again(page, served):
    """A ReadPosition answered 503 (a proxy, a busy server) or not at all (a dropped
    connection) is asked again (server/web/api.js callAgainOnFailure): the text is read, and
    the refusals of the text before it do not stay. A failure that names the request is not
    asked again, and a server that stays away is said to be."""
    open_setup(page, served, "starving_artists(players=1)")
    text = page.input_value("#notation-text")
    page.fill("#notation-text", text.replace("day 1", "day zz"))
    page.locator(".refusal[data-line='2']").wait_for()
    dropped = []

    def drop_two(route):
        if len(dropped) < 2:    # one 503, one connection reset; then through
            dropped.append(route.request.url)
            if len(dropped) == 1:
                route.fulfill(status=503, body="Service Unavailable")
            else:
                route.abort("connectionreset")
        else:
            route.continue_()
    page.route("**/easel.v1.Engine/ReadPosition", drop_two)
    page.fill("#notation-text", text)
    page.wait_for_selector(".refusal", state="detached", timeout=10_000)
    assert len(dropped) == 2
    page.wait_for_selector(".setup[data-synced='true']")
    assert page.locator(".setup .error").count() == 0
    page.unroute("**/easel.v1.Engine/ReadPosition")
    # always away: after its retries the page says so
    page.route("**/easel.v1.Engine/ReadPosition", lambda route: route.abort("connectionrefused"))
    page.fill("#notation-text", text.replace("day 1", "day 2"))
    page.wait_for_selector(".setup .error", timeout=15_000)
    assert page.inner_text(".setup .error").startswith("No answer: the server cannot be reached")


@pytest.mark.parametrize("spec, edit", [
    ("connect_four", lambda t: "# our game\n" + t),                   # steps (LegalActions)
    ("couleurs_de_paris", lambda t: t + "# the table tonight\n"),      # a notation
])
def test_a_drawn_hint_stays_when_the_same_position_is_read_again(page, served, spec, edit):
    """The turn a hint draws goes with its position: a text of the same position read again
    (a comment added; the shortest form written) keeps it, a text of another position does
    not. It was cleared by every read, and a hint that had stopped reporting never drew it
    again."""
    open_setup(page, served, spec)
    if spec == "connect_four":
        page.fill("#notation-text", "x in column 4\n")
        page.wait_for_selector(".setup[data-synced='true'] .next-steps")
    else:                           # the page's mid-game sample, a decision to hint
        page.fill("#notation-text", cdp_samples()[2])
        page.wait_for_timeout(300)
        page.wait_for_selector(".setup[data-synced='true']")
    page.click("section.hint button.ask")
    drawn = "section.setup .table-frame ol.turn li, section.setup .table-frame ol.cdp-steps li"
    page.wait_for_selector(drawn, timeout=30_000)
    try:
        page.click("section.hint button.stop", timeout=2_000)
    except PlaywrightTimeout:
        pass                        # settled already
    page.wait_for_selector("section.hint:not([data-state='running'])")
    before = page.locator(drawn).all_inner_texts()
    text = page.input_value("#notation-text")
    page.fill("#notation-text", edit(text))
    page.wait_for_timeout(300)      # past the read's debounce (READ_DELAY_MS)
    page.wait_for_selector(".setup[data-synced='true']")
    assert page.locator(drawn).all_inner_texts() == before
    page.fill("#notation-text", "x in column 3\n" if spec == "connect_four"
              else text.replace("round 4", "round 5"))
    page.wait_for_timeout(300)
    page.wait_for_selector(".setup[data-synced='true']")
    page.wait_for_selector(drawn, state="detached")     # another position: the hint is gone


def test_start_from_the_initial_position_and_shortest_form(page, served):
    open_setup(page, served, "couleurs_de_paris(players=2)")
    first = page.input_value("#notation-text")
    page.fill("#notation-text", "# our game\n" + first.replace("round 1", "ROUND 1"))
    page.get_by_role("button", name="Write it the shortest way").click()
    page.wait_for_function(f"() => document.querySelector('#notation-text').value === {first!r}")
    page.fill("#notation-text", "round 1\nnonsense here\n")
    page.locator(".refusal").first.wait_for()
    page.get_by_role("button", name="Start from the initial position").click()
    page.wait_for_selector(".refusal", state="detached")
    assert page.input_value("#notation-text") == first
    assert_clean(page, served)


def test_the_text_survives_a_reload(page, served):
    open_setup(page, served, "vangogh(players=2)")
    text = page.input_value("#notation-text").replace("round 1", "round 1 # kept")
    page.fill("#notation-text", text)
    page.wait_for_timeout(400)
    page.reload()
    page.wait_for_selector("#notation-text")
    assert page.input_value("#notation-text") == text


def test_a_game_without_notation_is_set_up_by_its_steps(page, served):
    open_setup(page, served, "pig(players=2)")
    assert "to move player 1" in " ".join(page.inner_text(".derived").split())
    page.get_by_role("button", name=re.compile("^roll")).first.click()
    page.wait_for_function(
        "() => document.querySelector('#notation-text').value.trim() === 'roll'")
    page.wait_for_selector(".next-steps button:has-text('Roll 1')")   # the die's outcomes next
    page.fill("#notation-text", "roll\nRoll 9\n")
    refusal = page.locator(".refusal[data-line='2']")
    refusal.wait_for()
    assert refusal.get_attribute("data-field") == "step 2"
    assert "Roll 9" in refusal.inner_text()
    assert_clean(page, served, refused=["LegalActions"])


def test_an_unknown_game_says_so(page, served):
    page.goto(f"{served.url}/#/setup/chess")
    page.wait_for_selector("text=This server has no game")


def test_the_page_asks_for_a_token_and_then_works(browser, tmp_path):
    (tmp_path / "token").write_text("s3cret\n")
    with serve("--auth-token-file", str(tmp_path / "token")) as s:
        context = browser.new_context()
        page = context.new_page()
        page.goto(s.url + "/#/setup/connect_four")
        page.wait_for_selector("#token-form")
        assert "bearer token" in page.inner_text("#status")
        page.fill("#token", "s3cret")
        page.click("#token-form button")
        page.wait_for_selector("#notation-text")
        page.wait_for_selector(".next-steps button")
        assert page.locator("#token-form").count() == 0
        page.fill("#notation-text", "x in column 5\no in column 5\n")   # and a hint streams with it
        page.wait_for_selector(".setup[data-synced='true'] button.ask:not([disabled])")
        assert page.inner_text(".hint-status") == "Ask for the best turns of player 1."
        page.click("button.ask")
        page.locator(".candidate").first.wait_for()
        context.close()
