"""ENCODING.md's generated part: the state field list, from the field table
(fields.py). Prints it, or with --write puts it into ENCODING.md between its
markers; tests/vangogh/test_fields.py fails while ENCODING.md is stale.

    python -m easel.engine.vangogh.encoding [--write]
"""
from __future__ import annotations

from pathlib import Path

from easel.engine.fieldtable import EncodingDoc

from .fields import FIELDS

DOC = EncodingDoc(FIELDS, Path(__file__).with_name("ENCODING.md"), "easel.engine.vangogh.encoding",
                  "Van Gogh's")
PATH, BEGIN, updated, main = DOC.path, DOC.begin, DOC.updated, DOC.main

if __name__ == "__main__":
    raise SystemExit(main())
