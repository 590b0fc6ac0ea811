"""What a person types at `easel play`, read against the legal moves.

A move is the legal action whose text, as the game's codec writes it, is
typed in full or by any start of it that no other legal text shares (case,
and the amount of white space, ignored: `textio.normalise_text`), or by its
short form: the number the listing gives it (`?`), or a game's own short
form where one is natural (a Connect Four column). A full text wins over a
start of a longer one ("x1" is x1, whatever else begins with it), and a
short form over a start of a text. Where no text starts so, the starts of
its words in order do ("paint purple 1 4" for "Van Gogh: paint
purple-sideway on painting 1, space 4"), as long texts share their first
words. Anything else says what went wrong: a line several texts fit lists
them, an unknown text names the closest.

Words the session understands (`?`, `undo`, `hint`, `resign`, `quit`) are
read first and only whole, so that a move's text is never taken for one.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from easel.engine.textio import normalise_text, quote_text

# The session's own words; each must be typed whole ("h" is not "hint").
COMMANDS = {"?": "list", "help": "list", "moves": "list", "undo": "undo", "hint": "hint",
            "resign": "resign", "quit": "quit"}
# How many moves an ambiguous start or an unknown text lists.
LISTED = 12
# difflib's ratio from which a legal text is named as close to an unknown one
# (the same measure as textio's refusals).
CLOSE_ENOUGH = 0.6


@dataclass
class Reading:
    """What a typed line means. `kind`: "move" (`index` into the legal
    moves), "command" (`command`: list, undo, hint, resign, quit), "empty",
    "ambiguous" or "unknown" (`matches`: indices of the moves to show)."""
    kind: str
    index: int | None = None
    command: str | None = None
    matches: list[int] = field(default_factory=list)


def short_forms(count: int, own: list[str] | None = None) -> list[str]:
    """The short form of each of `count` legal moves: the game's own
    (`own`, one per move) where it gives them, else the listing number
    counted from 1."""
    if own is not None and len(own) == count and len(set(own)) == count:
        return list(own)
    return [str(i + 1) for i in range(count)]


def read(typed: str, texts: list[str], shorts: list[str]) -> Reading:
    """The meaning of `typed` when the legal moves are `texts` with short
    forms `shorts` (as `short_forms` gives them)."""
    wanted = normalise_text(typed)
    if not wanted:
        return Reading("empty")
    if wanted in COMMANDS:
        return Reading("command", command=COMMANDS[wanted])
    normal = [normalise_text(t) for t in texts]
    exact = [i for i, t in enumerate(normal) if t == wanted]
    if len(exact) == 1:
        return Reading("move", index=exact[0])
    for i, s in enumerate(shorts):
        if normalise_text(s) == wanted:
            return Reading("move", index=i)
    if exact:
        return Reading("ambiguous", matches=exact)
    starts = [i for i, t in enumerate(normal) if t.startswith(wanted)]
    if len(starts) == 1:
        return Reading("move", index=starts[0])
    if starts:
        return Reading("ambiguous", matches=starts)
    words = [i for i, t in enumerate(normal) if word_starts(wanted, t)]
    if len(words) == 1:
        return Reading("move", index=words[0])
    if words:
        return Reading("ambiguous", matches=words)
    return Reading("unknown", matches=closest(wanted, normal))


_WORD = re.compile(r"[^\W_]+")


def word_starts(wanted: str, text: str) -> bool:
    """Whether each word of `wanted` begins a word of `text`, in order
    ("paint purple 1 4" in "van gogh: paint purple-sideway on painting 1,
    space 4"; a word is a run of letters or digits). Taking each typed word
    at the first text word it begins leaves the most words for the rest, so
    one pass decides."""
    words = _WORD.findall(text)
    k = 0
    for w in _WORD.findall(wanted):
        while k < len(words) and not words[k].startswith(w):
            k += 1
        if k == len(words):
            return False
        k += 1
    return True


def closest(wanted: str, normal: list[str], limit: int = 3) -> list[int]:
    """Indices of the legal texts most like `wanted` (best first, at most
    `limit`): each text is compared whole and cut to the typed length, since
    a person types the start of a text; between equals, the one more like
    it whole comes first."""
    scored = []
    for i, t in enumerate(normal):
        whole = difflib.SequenceMatcher(None, wanted, t).ratio()
        score = max(whole, difflib.SequenceMatcher(None, wanted, t[:len(wanted)]).ratio())
        if score >= CLOSE_ENOUGH:
            scored.append((-score, -whole, i))
    return [i for _, _, i in sorted(scored)[:limit]]


def listing(texts: list[str], shorts: list[str], which=None, extra=None) -> list[str]:
    """Lines listing the moves `which` (default all): each move's short form,
    then its text (`extra`, per move, appended when given)."""
    which = range(len(texts)) if which is None else which
    width = max((len(shorts[i]) for i in which), default=0)
    return [f"  {shorts[i].rjust(width)}  {texts[i]}" + (extra[i] if extra else "")
            for i in which]


def explain(reading: Reading, typed: str, texts: list[str], shorts: list[str],
            extra=None) -> list[str]:
    """What to tell a person whose line was not one move: the lines to print
    (`extra` as for `listing`)."""
    shown = reading.matches[:LISTED]
    more = len(reading.matches) - len(shown)
    tail = [f"  ... and {more} more; type more of the move"] if more > 0 else []
    if reading.kind == "ambiguous":
        return ([f"{quote_text(typed.strip())} fits {len(reading.matches)} moves; type more "
                 f"of one, or its number:"] + listing(texts, shorts, shown, extra) + tail)
    head = f"{quote_text(typed.strip())} is not a move here ('?' lists them)"
    if not shown:
        return [head]
    return [head + "; the closest:"] + listing(texts, shorts, shown, extra)
