"""Headless Chromium for the tests that look at a page as a person would
(tests/tournament/test_report_browser.py, tests/web/):
Debian's /usr/bin/chromium driven by Playwright, never Playwright's own
browser download; tools/test-prereqs installs it (the README's test
command and .ci/run run it).

    @pytest.fixture(scope="module")
    def browser():
        with chromium() as b:
            yield b
"""
from __future__ import annotations

import contextlib
import os

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


@contextlib.contextmanager
def chromium():
    assert os.path.exists(CHROMIUM), (f"{CHROMIUM} is missing: tools/test-prereqs installs it "
                                      "(apt-get install chromium)")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()
