"""Vendor the web page's one library, Preact with its hooks and htm, into
server/web/vendor/ from the npm registry (`npm pack`), pinned, with their
licences: the page has no build step and loads nothing from another origin.

    python tools/vendor_web.py          # writes server/web/vendor/, prints the SHA-256s

Each file is the package's own ES module build, unchanged but for one
import: hooks.mjs imports the bare name "preact", which a browser resolves
only through an import map, and the page's Content-Security-Policy
(script-src 'self') admits no inline script to hold one; so the import is
rewritten to the file beside it ("./preact.js"); the files are named .js,
which every Python maps to text/javascript (a module script must come with
a JavaScript type, and the server sends nosniff). vendor/README.md records
the versions and the registry's integrity strings; vendor/SHA256SUMS the
files' digests, which tests/web/test_web_vendor.py checks.
"""
from __future__ import annotations

import hashlib
import json
import pathlib
import subprocess
import tarfile
import tempfile

PACKAGES = {  # name: (version, [(file in the package, vendored name)], licence file)
    "preact": ("11.2.0", [("dist/preact.mjs", "preact.js"),
                          ("hooks/dist/hooks.mjs", "hooks.js")], "LICENSE"),
    "htm": ("3.1.1", [("dist/htm.mjs", "htm.js")], "LICENSE"),
}
REWRITES = {"hooks.js": [('from"preact"', 'from"./preact.js"')]}
VENDOR = pathlib.Path(__file__).resolve().parent.parent / "server" / "web" / "vendor"


def main() -> None:
    VENDOR.mkdir(parents=True, exist_ok=True)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, (version, files, licence) in PACKAGES.items():
            out = subprocess.run(["npm", "pack", "--json", f"{name}@{version}"], cwd=tmp,
                                 check=True, capture_output=True, text=True).stdout
            info = json.loads(out)[0]
            with tarfile.open(pathlib.Path(tmp) / info["filename"]) as tar:
                for inner, vendored in files + [(licence, f"{name}.LICENSE")]:
                    text = tar.extractfile(f"package/{inner}").read().decode()
                    for old, new in REWRITES.get(vendored, []):
                        assert text.count(old) == 1, (vendored, old)
                        text = text.replace(old, new)
                    (VENDOR / vendored).write_text(text)
                    digest = hashlib.sha256(text.encode()).hexdigest()
                    rows.append((vendored, name, version, info["integrity"], digest))
    # SHA256SUMS in sha256sum's own format (`sha256sum -c SHA256SUMS` in the folder)
    (VENDOR / "SHA256SUMS").write_text("".join(f"{r[4]}  {r[0]}\n" for r in rows))
    for row in rows:
        print(*row)


if __name__ == "__main__":
    main()
