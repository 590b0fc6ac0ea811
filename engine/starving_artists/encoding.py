"""ENCODING.md's generated part: the state field list, from the field table
(fields.py). Prints it, or with --write puts it into ENCODING.md between its
markers; tests/starving_artists/test_sa_fields.py fails while ENCODING.md is stale.

    python -m easel.engine.starving_artists.encoding [--write]
"""
from __future__ import annotations

import argparse
from pathlib import Path

from easel.engine.fieldtable import replace_block

from .fields import FIELDS

PATH = Path(__file__).with_name("ENCODING.md")
BEGIN = "<!-- generated: python -m easel.engine.starving_artists.encoding -->"


def updated(text: str) -> str:
    """ENCODING.md's text with the field list as the table has it now."""
    return replace_block(text, FIELDS.markdown(), BEGIN)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m easel.engine.starving_artists.encoding",
                                 description="Print Starving Artists's state field list (ENCODING.md, "
                                             "\"State fields\") from the field table.")
    ap.add_argument("--write", action="store_true", help="write it into ENCODING.md")
    args = ap.parse_args(argv)
    if args.write:
        PATH.write_text(updated(PATH.read_text(encoding="utf-8")), encoding="utf-8")
    else:
        print(FIELDS.markdown(), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
