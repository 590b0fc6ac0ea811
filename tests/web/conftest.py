"""The web page's tests: a real `easel serve` (a subprocess on free ports,
`--http 127.0.0.1:0`, its URL read from its stdout) and headless Chromium
(tests/browser.py: Debian's chromium driven by Playwright).

Fixtures:
  served   the server (session): .url (http://127.0.0.1:PORT), .grpc_port, .proc
  browser  Chromium (session)
  page     a page at 1280x800 (desktop); `phone`: at 390x844, touch, mobile
           Each records what it asked for and logged: page.seen["requests"]
           (URLs), page.seen["console"] ((type, text)), page.seen["errors"]
           (uncaught exceptions); `assert_clean(page, served)` checks that
           nothing went to another origin and nothing was logged as an error.
  shot     shot(page, "web-<game>-<what>-<desktop|phone>.png"): a screenshot in
           $EASEL_SCREENSHOT_DIR (default: the test's tmp_path); returns its path
Functions: serve(*args) starts another server (a context manager), e.g.
serve("--auth-token-file", path).
"""
from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile

import pytest

from browser import chromium

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


class Served:
    def __init__(self, proc, grpc_port, url, log):
        self.proc, self.grpc_port, self.url, self.log = proc, grpc_port, url, log


@contextlib.contextmanager
def serve(*args):
    """`easel serve` on free ports with the given extra arguments."""
    with tempfile.TemporaryDirectory(prefix="easel-web-") as tmp:
        log = open(os.path.join(tmp, "serve.log"), "w+")
        proc = subprocess.Popen(
            [sys.executable, "-c", "import sys; from easel.server.cli import main; sys.exit(main())",
             "serve", "--port", "0", "--http", "127.0.0.1:0", "--grace", "2",
             "--db", os.path.join(tmp, "matches.sqlite3"), *args],
            stdout=subprocess.PIPE, stderr=log, text=True, cwd=ROOT)
        try:
            line = proc.stdout.readline()
            if not line.startswith("listening on"):
                log.seek(0)
                raise AssertionError(f"easel serve did not start: {line!r} {log.read()[-2000:]}")
            http = proc.stdout.readline()
            assert http.startswith("http on "), http
            yield Served(proc, int(line.rsplit(":", 1)[1]), http.split()[-1].rstrip("/"), log)
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            log.close()


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


def _not_yet_written(url, served):
    """A game module games/index.js names that this tree does not have yet
    (the page falls back to the generic table; the browser logs the 404)."""
    prefix = served.url + "/games/"
    return url.startswith(prefix) and not os.path.exists(
        os.path.join(ROOT, "server", "web", "games", url[len(prefix):]))


def assert_clean(page, served, refused=()):
    """Nothing asked of another origin; no console error, no uncaught
    exception; no file missing but a game module not yet written, no call
    refused but of the methods in `refused` (e.g. "LegalActions" given a bad
    step: the browser logs the 400 as an error, the page shows the refusal)."""
    foreign = [u for u in page.seen["requests"]
               if not (u.startswith(served.url + "/") or u.startswith("data:"))]
    assert not foreign, foreign
    failed = [u for u in page.seen["failed"] if not _not_yet_written(u, served)
              and not any(u.endswith(f"/{m}") for m in refused)]
    assert not failed, failed
    errors = [m for m in page.seen["console"] if m[0] == "error"]
    allowed = len(page.seen["failed"]) - len(failed)
    errors = [m for m in errors if not (allowed and "status of 4" in m[1])]
    assert not errors, errors
    assert not page.seen["errors"], page.seen["errors"]


@pytest.fixture
def shot(tmp_path):
    folder = os.environ.get("EASEL_SCREENSHOT_DIR") or str(tmp_path)
    os.makedirs(folder, exist_ok=True)

    def take(page, name):
        path = os.path.join(folder, name)
        page.screenshot(path=path, full_page=True)
        return path
    return take
