"""Reading a game's data file (cards, boards): the file errors every game words alike.

Each game validates its own items (docs/adding-a-game.md, "Data"); opening the
file, the JSON syntax and the header every data file carries (`placeholder`,
`description`) are the same everywhere and live here. A data option names
any path, so the file is read as every file a user names is
(engine/userfiles.py): a regular file only, within DATA_FILES (1 MiB).
"""

from __future__ import annotations

import json

from easel.engine import userfiles
from easel.engine.errors import DataFileError


def read_json(path: str, what: str):
    """The JSON in `path`; `what` names the file in errors ("canvas file").
    The game's option check (kit.built_by) adds the option's name."""
    text = userfiles.read_text(path, what, userfiles.DATA_FILES, DataFileError)
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise DataFileError(f"{path}: not valid JSON: {e}") from None


def placeholder_header(data: dict, path: str) -> tuple[bool, str]:
    """The file's `placeholder` flag (guessed data) and `description`, checked."""
    placeholder = data.get("placeholder", False)
    if not isinstance(placeholder, bool):
        raise DataFileError(f"{path}: 'placeholder' must be true or false")
    description = data.get("description", "")
    if not isinstance(description, str):
        raise DataFileError(f"{path}: 'description' must be text")
    return placeholder, description
