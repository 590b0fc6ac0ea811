"""The placeholder page in a real browser: headless Chromium (Debian's
/usr/bin/chromium driven by Playwright, as tests/tournament/test_report_browser.py)
opens `/`, which calls ListGames over the HTTP face and lists every game,
under the server's Content-Security-Policy with no violation and no request
to another origin; with a token required, the page asks for it and then
lists the games. A screenshot goes to the test's tmp_path."""
from __future__ import annotations

import pytest

from browser import chromium
from easel import engine
from http_helpers import start


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


def _open(browser, url):
    page = browser.new_page()
    seen = {"requests": [], "console": []}
    page.on("request", lambda r: seen["requests"].append(r.url))
    page.on("console", lambda m: seen["console"].append((m.type, m.text)))
    page.goto(url)
    return page, seen


def test_the_page_lists_the_games_over_http(browser, tmp_path):
    srv, base = start()
    try:
        page, seen = _open(browser, base + "/")
        page.wait_for_selector("#games li")
        names = page.locator("#games li .detail").all_inner_texts()
        games = [e.name for e in engine.registered_games()]
        assert len(names) == len(games)
        assert all(any(f" {g}," in n for n in names) for g in games), names
        assert page.inner_text("#status") == f"{len(games)} games"
        page.screenshot(path=str(tmp_path / "page.png"))
        assert all(u.startswith(base) for u in seen["requests"]), seen["requests"]
        assert not [m for m in seen["console"] if m[0] == "error"], seen["console"]
        page.close()
    finally:
        srv.stop(grace=0)


def test_the_page_asks_for_a_token_when_the_server_wants_one(browser):
    srv, base = start(auth_token="s3cret")
    try:
        page, seen = _open(browser, base + "/")
        page.wait_for_selector("#token-form:not([hidden])")
        assert "ListGames failed" in page.inner_text("#status")
        page.fill("#token", "s3cret")
        page.click("#token-form button")
        page.wait_for_selector("#games li")
        assert page.locator("#token-form").is_hidden()
        page.close()
    finally:
        srv.stop(grace=0)
