"""The hint panel in Chromium on a real `easel serve`, on games without a
module of their own (the generic table): a hint streams ranked whole turns
(win %, visits) with a progress bar, draws the chosen turn on the table,
stops on Stop keeping the last ranking, works by the keyboard, and says
readably when it fails; the page asks nothing of another origin and logs
no error; desktop and phone screenshots."""
from __future__ import annotations

import urllib.parse

import pytest

from web_helpers import assert_clean, serve

# Connect Four, o to move after x made an open three (columns 5, 5, 4, 4, 6): every
# move loses, so the leading moves are never told apart and the search runs
# to its cap: long enough to be stopped.
LOST = ["x in column 5", "o in column 5", "x in column 4", "o in column 4", "x in column 6"]
# Pig, two players, the first has banked 7 and the second is rolling.
PIG = ["roll", "Roll 4", "roll", "Roll 3", "stop", "roll", "Roll 5"]


def set_up(page, url, spec, steps):
    page.goto(f"{url}/#/setup/{urllib.parse.quote(spec)}")
    page.wait_for_selector(".next-steps button")
    page.fill("#notation-text", "\n".join(steps) + "\n")
    page.wait_for_selector(".setup[data-synced='true'] button.ask:not([disabled])")


@pytest.fixture(scope="module")
def slow():
    """A server whose default budget is long (the search runs until Stop). Its cap on
    iterations is raised with it: under the default cap of 1,000,000 the search of LOST
    ended in about 2.5 s, at times before the test's Stop; at 50,000,000 it runs about
    20 s on an idle machine (30 s at most)."""
    with serve("--default-iterations", "50000000", "--max-iterations", "50000000",
               "--default-seconds", "30") as s:
        yield s


@pytest.mark.parametrize("viewport", ["page", "phone"])
def test_a_hint_ranks_whole_turns_draws_the_chosen_and_stops(request, slow, viewport, shot):
    page = request.getfixturevalue(viewport)
    set_up(page, slow.url, "connect_four", LOST)
    page.click("button.ask")
    first = page.locator(".candidate").first
    first.wait_for()
    assert first.get_attribute("data-rank") == "1"
    assert "win " in first.inner_text() and "visits" in first.inner_text()
    assert first.locator("button").get_attribute("aria-pressed") == "true"
    # the best turn is drawn on the table
    page.wait_for_function("() => document.querySelector('.table-frame .turn li')?.textContent"
                           " === document.querySelector('.candidate .turn-text')?.textContent")
    assert page.get_attribute(".hint", "data-state") == "running"
    page.wait_for_function("() => document.querySelector('.hint progress')?.value > 0")
    # choose the second: the table draws its turn
    second = page.locator(".candidate").nth(1)
    second.locator("button").click()
    page.wait_for_function("() => document.querySelector('.table-frame .turn li')?.textContent"
                           " === document.querySelectorAll('.candidate .turn-text')[1]?.textContent")
    shot(page, f"web-generic-hint-{'desktop' if viewport == 'page' else 'phone'}.png")
    page.click("button.stop")
    page.wait_for_selector(".hint[data-state='stopped']")
    status = page.inner_text(".hint-status")
    assert status.endswith(": stopped"), status
    page.wait_for_timeout(600)                       # no report comes after Stop
    assert page.inner_text(".hint-status") == status
    assert page.locator(".candidate").count() >= 2   # the last ranking kept
    assert page.is_enabled("button.ask") and not page.is_enabled("button.stop")
    if viewport == "phone":
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    assert_clean(page, slow)


def test_a_hint_on_pig_settles_at_the_default_budget(page, served):
    set_up(page, served.url, "pig(players=2)", PIG)
    page.click("button.ask")
    page.locator(".candidate").first.wait_for()
    page.wait_for_selector(".hint[data-state='settled']", timeout=60_000)
    texts = page.locator(".candidate .turn-text").all_inner_texts()
    assert texts and all(t.split(";")[0].strip() in ("roll", "stop") for t in texts), texts
    assert page.evaluate("() => document.querySelector('.hint progress').value") == 1
    marks = page.evaluate("() => performance.getEntriesByType('mark').map(m => m.name)")
    assert {"hint-click", "hint-first", "hint-settled"} <= set(marks)
    assert_clean(page, served)


def test_a_hint_by_the_keyboard(page, slow):
    """Enter on Hint, Space on the second turn, Enter on Stop: real buttons."""
    set_up(page, slow.url, "connect_four", LOST)
    page.focus("button.ask")
    page.keyboard.press("Enter")
    page.locator(".candidate").nth(1).wait_for()
    page.focus(".candidate:nth-child(2) button")
    page.keyboard.press("Space")
    page.wait_for_selector(".candidate:nth-child(2).chosen")
    page.focus("button.stop")
    page.keyboard.press("Enter")
    page.wait_for_selector(".hint[data-state='stopped']")
    assert_clean(page, slow)


def test_a_failed_hint_says_why(browser):
    """The server gone between the set-up and the hint: the page says so."""
    context = browser.new_context()
    page = context.new_page()
    with serve() as s:
        set_up(page, s.url, "connect_four", ["x in column 5"])
    page.click("button.ask")
    error = page.locator(".hint .error")
    error.wait_for()
    assert "cannot be reached" in error.inner_text(), error.inner_text()
    assert page.get_attribute(".hint", "data-state") == "failed"
    context.close()


def _mid_game(spec: str, moves: int, seed: int) -> str:
    """The notation of a position reached by seeded random play."""
    import random
    from easel import engine
    game = engine.load_game(spec)
    state, rng = game.new_initial_state(), random.Random(seed)
    while moves > 0 and not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            moves -= 1
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    return game.notation_of(state)


def test_a_settled_hint_lists_a_few_turns_not_every_one(page):
    """A position with dozens of turns: the settled hint lists at most 8 (a
    settled hint once listed all 587 turns of a paint step, a page of
    64,000 px on a phone)."""
    spec = "vangogh(players=2)"
    text = _mid_game(spec, 20, 4)                    # 16 first steps to choose from
    with serve("--default-iterations", "3000") as s:
        page.goto(f"{s.url}/#/setup/{urllib.parse.quote(spec)}")
        page.wait_for_selector(".next-steps button, #notation-text")
        page.fill("#notation-text", text)
        page.wait_for_selector(".setup[data-synced='true'] button.ask:not([disabled])")
        page.click("button.ask")
        page.wait_for_selector(".hint[data-state='settled']", timeout=60_000)
        assert 2 <= page.locator(".candidate").count() <= 8
        assert_clean(page, s)
