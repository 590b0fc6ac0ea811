"""What the web page's tests and benchmarks share (tests/web/conftest.py
makes fixtures of them): `serve(*args)`, a real `easel serve` on free ports
(a context manager yielding .url, .grpc_port, .proc, .log), and
`assert_clean(page, served, refused=())`."""
from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile

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
