"""The play view in a real browser (issue #26, "play"): a match created by
the page's form on a real `easel serve`, played by clicks and typed move
starts against a level(1) bot to its end, a reload in the middle that goes
on from the match's event stream, table mode's draws entered by hand, a
hint, resigning, a painting game for a few moves, and the phone viewport.
Screenshots go to $EASEL_SCREENSHOT_DIR (default: the test's tmp_path) as
web-<game>-play-<desktop|phone>.png."""
from __future__ import annotations

import json
import urllib.request

import pytest

from web_helpers import assert_clean



@pytest.fixture
def web_url(served):
    return served.url + "/"


def rpc(base, service, method, request):
    """A unary call over the server's HTTP face, as curl would make it."""
    origin = base.split("/", 3)
    req = urllib.request.Request(f"{origin[0]}//{origin[2]}/easel.v1.{service}/{method}",
                                 data=json.dumps(request).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def new_match(page, web_url, game, seats=None, table=False, hints=True):
    """Fills the form at #/play and starts the match; returns its id."""
    page.goto(web_url + "#/play")
    page.wait_for_selector("form.new-match")
    page.fill("input[name=game]", game)
    page.wait_for_selector("select[name=seat1]")
    page.wait_for_function("() => !document.querySelector('form.new-match .error')")
    for i, spec in enumerate(seats or ["me", "level(1)"]):
        page.select_option(f"select[name=seat{i + 1}]", spec)
    if table:
        page.check("input[name=chance] >> nth=1")
    if not hints:
        page.uncheck("text=allow hints")
    page.click("form.new-match button[type=submit]")
    page.wait_for_selector(".match-view .whose strong")
    return page.url.rsplit("/", 1)[-1]


def wait_for_turn(page):
    """Until it is this page's move (buttons shown) or the match is over."""
    page.wait_for_selector("button.action, .result", timeout=60000)
    return page.locator(".result").count() == 0


# The steps in the move list, counted in the page.
STEPS_JS = ("[...document.querySelectorAll('.move-list li')].map(l => l.innerText)"
            ".map(t => t.slice(t.indexOf(': ') + 2).split('; ').length).reduce((a, b) => a + b, 0)")


def move_lines(page):
    return page.locator(".move-list li").all_inner_texts()


def steps_of(page):
    return sum(len(line.split(": ", 1)[1].split("; ")) for line in move_lines(page))


def play_first_moves(page, times):
    """Plays the first legal move `times` times, each once the page shows
    it is this page's move, until the move list shows the step."""
    for _ in range(times):
        assert wait_for_turn(page)
        before = steps_of(page)
        page.locator("button.action").first.click()
        page.wait_for_function(f"() => {STEPS_JS} > {before}")


def test_a_connect_four_match_is_played_to_its_end_against_a_level_1_bot(page, web_url, served, shot):
    match_id = new_match(page, web_url, "connect_four")
    assert page.inner_text(".whose") == "Your turn (seat 1 (you))."
    typed = 0
    for _ in range(30):
        if not wait_for_turn(page):
            break
        before = steps_of(page)
        texts = page.locator("button.action").all_inner_texts()
        # the filter box takes the shortest start no other move shares and
        # Enter plays the one move it names
        target = texts[len(texts) // 2]
        if typed == 0:
            page.focus("#move-filter")
        # by keyboard alone: the focus stays in the filter box while the bot moves
        assert page.evaluate("document.activeElement.id") == "move-filter"
        page.keyboard.type(target)
        assert page.locator("button.action").all_inner_texts() == [target]
        page.keyboard.press("Enter")
        typed += 1
        page.wait_for_function(f"() => document.querySelectorAll('.move-list li').length > {before}"
                               " || document.querySelector('.result')")
    page.wait_for_selector(".result")
    result = page.inner_text(".result")
    assert "won" in result or "draw" in result.lower(), result
    info = rpc(web_url, "Matches", "GetMatch", {"matchId": match_id})["match"]
    assert info["status"] == "MATCH_STATUS_FINISHED"
    # every step of the match is in the move list, as text, bots' moves too
    assert steps_of(page) == info["steps"]
    assert any("level(1)" in line for line in move_lines(page))
    assert typed >= 4
    assert page.locator(".position-table").count() == 1
    shot(page, "web-connect_four-play-desktop.png")
    assert_clean(page, served)


def test_a_reload_mid_match_goes_on_from_the_event_stream(page, web_url):
    match_id = new_match(page, web_url, "connect_four")
    play_first_moves(page, 2)
    assert wait_for_turn(page)
    lines = move_lines(page)
    assert len(lines) == 4
    # what this browser kept: the match id, its seat token and the steps seen
    kept = json.loads(page.evaluate(f"localStorage.getItem('easel-match:{match_id}')"))
    assert set(kept["seatTokens"]) == {"0"} and len(kept["steps"]) == 4
    requests = []
    page.on("request", lambda r: "WatchMatch" in r.url and requests.append(r.post_data_buffer))
    page.reload()
    assert wait_for_turn(page)
    assert move_lines(page) == lines
    # the stream was asked from the last step seen, not from the start
    body = requests[0][5:]
    assert json.loads(body)["fromStep"] == 4
    page.locator("button.action").first.click()
    page.wait_for_function("() => document.querySelectorAll('.move-list li').length >= 6"
                           " || document.querySelector('.result')")
    info = rpc(web_url, "Matches", "GetMatch", {"matchId": match_id})["match"]
    assert info["steps"] >= 5 and steps_of(page) == info["steps"]


def test_the_filter_names_what_is_wrong_with_a_typed_move(page, web_url):
    new_match(page, web_url, "connect_four")
    assert wait_for_turn(page)
    page.fill("#move-filter", "x")
    page.press("#move-filter", "Enter")
    assert "7 moves start so" in page.inner_text(".match-view .error")
    page.fill("#move-filter", "o9")
    assert page.locator("button.action").count() == 0
    page.press("#move-filter", "Enter")
    assert 'no legal move reads "o9"' in page.inner_text(".match-view .error")
    assert steps_of(page) == 0


def test_table_mode_takes_each_real_draw_from_the_person(page, web_url):
    match_id = new_match(page, web_url, "pig", table=True)
    assert wait_for_turn(page)
    page.fill("#move-filter", "r")
    page.press("#move-filter", "Enter")                    # roll
    page.wait_for_selector("text=Chance: enter the real draw from the table.")
    page.wait_for_function("() => document.querySelectorAll('button.action').length === 6")
    outcomes = page.locator("button.action").all_inner_texts()
    assert len(outcomes) == 6 and all("%" in o for o in outcomes), outcomes
    page.fill("#move-filter", "roll 4")
    page.press("#move-filter", "Enter")
    page.wait_for_function("() => (document.querySelector('.move-list')?.innerText || '').includes('*Roll 4')")
    record = rpc(web_url, "Matches", "GetMatch", {"matchId": match_id, "withRecord": True})
    steps = record["record"]["steps"]
    assert [s["text"] for s in steps[:2]] == ["roll", "Roll 4"]
    assert record["match"]["chance"] == "CHANCE_SOURCE_TABLE"


def test_a_hint_ranks_turns_and_resigning_ends_the_match(page, web_url):
    new_match(page, web_url, "connect_four")
    assert wait_for_turn(page)
    page.click(".match-hint button")
    page.wait_for_selector(".hint-list li")
    first = page.locator(".hint-list li").first.inner_text()
    assert "% to win" in first and "visits" in first
    # the chosen turn is drawn on the table (the generic table lists its steps)
    best = page.locator(".hint-list li button").first.inner_text()
    assert page.locator(".position-table ol.turn li").all_inner_texts() == [best]
    page.locator(".hint-list li button").nth(1).click()
    second = page.locator(".hint-list li button").nth(1).inner_text()
    assert page.locator(".position-table ol.turn li").all_inner_texts() == [second]
    page.click("text=Resign…")
    page.click("text=Yes, resign")
    page.wait_for_selector(".result")
    assert "(resignation)" in page.inner_text(".result")
    assert "level(1)" in page.inner_text(".result")
    assert page.locator("button.action").count() == 0


def test_a_painting_game_for_a_few_moves_on_a_phone(phone, web_url, served, shot):
    match_id = new_match(phone, web_url, "vangogh(players=2)")
    play_first_moves(phone, 3)
    assert wait_for_turn(phone)
    info = rpc(web_url, "Matches", "GetMatch", {"matchId": match_id})["match"]
    assert steps_of(phone) == info["steps"]
    assert phone.locator(".position-table").count() == 1
    assert phone.inner_text(".scores").startswith("Scores: seat 1 (you) ")
    # the phone shows the table and the moves without scrolling sideways
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, "web-vangogh-play-phone.png")
    assert_clean(phone, served)


def test_the_chooser_s_play_link_fills_the_form(page, web_url, served):
    page.goto(web_url)
    page.click("a[href='#/play/new/pig(players%3D3)']")
    page.wait_for_selector("select[name=seat3]")
    assert page.input_value("input[name=game]") == "pig(players=3)"
    assert page.locator("fieldset .seat").count() == 3
    page.fill("input[name=game]", "pig(nonsense=1)")
    page.wait_for_selector("form.new-match .error")
    assert "nonsense" in page.inner_text("form.new-match .error")
    assert page.is_disabled("form.new-match button[type=submit]")
    assert_clean(page, served, refused=("NewGame",))
