"""The page's vendored library and its packaging: every file of
server/web/vendor/ is the one its SHA256SUMS names (made by
tools/vendor_web.py from the npm registry, pinned); pyproject.toml's
package data takes every file of server/web/ (so an installed easel serves
the whole page), and git ignores none of them."""
from __future__ import annotations

import fnmatch
import hashlib
import os
import pathlib
import subprocess
import sys

if sys.version_info >= (3, 11):
    import tomllib
else:                       # pragma: no cover
    import tomli as tomllib

ROOT = pathlib.Path(__file__).resolve().parents[2]
WEB = ROOT / "server" / "web"
VENDOR = WEB / "vendor"


def test_every_vendored_file_has_the_digest_recorded():
    sums = {}
    for line in (VENDOR / "SHA256SUMS").read_text().splitlines():
        digest, name = line.split("  ", 1)
        sums[name] = digest
    assert set(sums) == {"preact.js", "hooks.js", "htm.js", "preact.LICENSE", "htm.LICENSE"}
    for name, digest in sums.items():
        assert hashlib.sha256((VENDOR / name).read_bytes()).hexdigest() == digest, name
    listed = set(sums) | {"SHA256SUMS", "README.md"}
    assert {p.name for p in VENDOR.iterdir()} == listed


def test_the_vendored_modules_import_nothing_but_each_other():
    """No bare import a browser cannot resolve, nothing from another origin."""
    import re
    for name in ("preact.js", "hooks.js", "htm.js"):
        text = (VENDOR / name).read_text()
        for spec in re.findall(r'(?:from|import)\s*"([^"]+)"', text):
            assert spec.startswith("./"), (name, spec)


def _web_files():
    return sorted(str(p.relative_to(ROOT / "server")) for p in WEB.rglob("*") if p.is_file()
                  and "__pycache__" not in p.parts)


def test_the_package_data_takes_every_file_of_the_page():
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = conf["tool"]["setuptools"]["package-data"]["easel.server"]
    for rel in _web_files():
        # setuptools' glob: '*' does not cross a folder
        assert any(fnmatch.fnmatch(rel, p) and rel.count("/") == p.count("/")
                   for p in patterns), f"pyproject.toml's package data misses {rel}"


def test_git_ignores_no_file_of_the_page():
    files = _web_files() + ["web/views/a.html", "web/games/a.html"]
    out = subprocess.run(["git", "check-ignore", "--no-index", *[f"server/{f}" for f in files]],
                         cwd=ROOT, capture_output=True, text=True)
    assert out.stdout == "", f"ignored by .gitignore: {out.stdout}"
