"""The web page's tests: a real `easel serve` (a subprocess on free ports,
`--http 127.0.0.1:0`, its URL read from its stdout) and headless Chromium
(tests/browser.py: Debian's chromium driven by Playwright).

Fixtures:
  served   the server (session): .url (http://127.0.0.1:PORT), .grpc_port, .proc
  browser  Chromium (session)
  page     a page at 1280x800 (desktop); `phone`: at 390x844, touch, mobile
           Each records what it asked for and logged: page.seen["requests"]
           (URLs), page.seen["console"] ((type, text)), page.seen["errors"]
           (uncaught exceptions), page.seen["failed"] (URLs answered 4xx/5xx);
           `assert_clean(page, served)` checks that nothing went to another
           origin and nothing was logged as an error.
  shot     shot(page, "web-<game>-<what>-<desktop|phone>.png"): a screenshot in
           $EASEL_SCREENSHOT_DIR (default: the test's tmp_path); returns its path
Functions (tests/web/web_helpers.py: `from web_helpers import assert_clean, serve`):
serve(*args) starts another server (a context manager), e.g.
serve("--auth-token-file", path); assert_clean(page, served, refused=()).
"""
from __future__ import annotations

import os

import pytest

from browser import chromium
from web_helpers import DESKTOP, PHONE, ROOT, assert_clean, serve  # noqa: F401  (for the tests)


@pytest.fixture(scope="session")
def served():
    with serve() as s:
        yield s


@pytest.fixture(scope="session")
def browser():
    with chromium() as b:
        yield b


def _watched(context):
    page = context.new_page()
    page.seen = {"requests": [], "console": [], "errors": [], "failed": []}
    page.on("request", lambda r: page.seen["requests"].append(r.url))
    page.on("response", lambda r: r.status >= 400 and page.seen["failed"].append(r.url))
    page.on("console", lambda m: page.seen["console"].append((m.type, m.text)))
    page.on("pageerror", lambda e: page.seen["errors"].append(str(e)))
    return page


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport=DESKTOP)
    yield _watched(context)
    context.close()


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                  device_scale_factor=2)
    yield _watched(context)
    context.close()


@pytest.fixture
def shot(tmp_path):
    folder = os.environ.get("EASEL_SCREENSHOT_DIR") or str(tmp_path)
    os.makedirs(folder, exist_ok=True)

    def take(page, name):
        path = os.path.join(folder, name)
        page.screenshot(path=path, full_page=True)
        return path
    return take
