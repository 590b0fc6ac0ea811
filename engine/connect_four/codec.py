"""Connect Four move text: 'x in column 4' drops an x in the fourth column
from the left. Columns count from 1, as a person counts them
(docs/table-notation.md); the action id is the column's index from 0."""
from __future__ import annotations

import re

MARKS = "xo"
# The form texts had before columns counted from 1 (OpenSpiel's, 'x3' for the
# fourth column): refused with the text to write, never read, since 'x3' read
# as a count from 1 would be another column (engine/textio.py asks for it).
_OLD_FORM = re.compile(r"\s*([xo])\s*(\d{1,2})\s*$", re.IGNORECASE)


def action_to_string(view: dict, action: int) -> str:
    p = view["current_player"]
    return (f"{MARKS[p]} in column {action + 1}" if p in (0, 1)
            else f"column {action + 1}")


def old_text_hint(view: dict, text: str):
    """What to write for a text in the old form ('x3'), or None."""
    m = _OLD_FORM.match(text)
    if not m:
        return None
    mark, col = m.group(1).lower(), int(m.group(2))
    return (f"{text.strip()!r} is the old form, which counted columns from 0; "
            f"write '{mark} in column {col + 1}'")


def state_to_string(view: dict) -> str:
    return "\n".join(view["board"]) + "\n"
