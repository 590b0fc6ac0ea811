"""The words of a Van Gogh table notation: the letters of the Minigoghs, the
characters' one-word names, the keywords, and the reader of each kind of
value, which records every problem with what to write instead of stopping
at the first (docs/table-notation.md, "Refusals")."""
from __future__ import annotations

import difflib
import re

from .rules import CHARS, COLOURS, N_COLOURS, PHASES, parse_piece, piece_name, rules_of

# One letter per colour (purple is V, violet: P is pink) and per orientation.
COLOUR_LETTERS = "YBPGVW"
ORIENT_LETTERS = "LSUD"
# Characters as one word each (the names with their spaces and dots removed).
CHAR_WORDS = tuple(re.sub(r"[^A-Za-z]", "", c) for c in CHARS)
POSTMAN_BITS = (("paint", 1), ("restart", 2), ("epiphany", 4))
KEYWORDS = ("round", "turn", "chosen", "token", "ability", "brush", "scores", "painting",
            "framed", "table", "waiting", "palette", "phase", "doing", "actor", "steps",
            "used", "hand", "draws", "queue", "blue", "resume", "card-slot", "eor", "setup")
# Words read for a keyword: 'hat', the Starting Player token's name before
# the notation took the rulebook's word.
ALIASES = {"hat": "token"}
# The limits every game's notation shares (engine/tablenotation.py): the
# characters of the person's text quoted back in a refusal, the letters of a
# title that name it when no other title starts so.
from easel.engine.tablenotation import MAX_ECHO, MIN_PREFIX  # noqa: E402


def short_piece(name: str) -> str:
    code = parse_piece(name)
    return COLOUR_LETTERS[code // 4] + ORIENT_LETTERS[code % 4]



def echo(text) -> str:
    """The person's text, quoted and bounded."""
    text = str(text)
    return repr(text if len(text) <= MAX_ECHO else text[:MAX_ECHO] + "...")


def strip_comment(line: str) -> str:
    """The line without its comment: `#` at the start or after a space and
    followed by a space or the end (docs/table-notation.md), so `#12` stays."""
    m = re.search(r"(^|\s)#(\s|$)", line)
    return line[:m.start()] if m else line


class Stop(Exception):
    """A statement that cannot be read further (its problem is recorded)."""


class Reader:
    """Reads the statements, recording every problem instead of stopping at
    the first: (where, what is wrong, what to write or None)."""

    def __init__(self, game):
        self.game = game
        self.r = rules_of(game)
        self.problems = []
        self.where = ""

    def add(self, problem, write=None, where=None):
        self.problems.append((self.where if where is None else where, problem, write))

    def bad(self, problem, write=None):
        self.add(problem, write)
        raise Stop

    def int(self, tok, what, lo, hi):
        if not re.fullmatch(r"-?\d+", tok or ""):
            self.bad(f"{what}: {echo(tok)} is not a whole number",
                     f"a number from {lo} to {hi}")
        v = int(tok)
        if not lo <= v <= hi:
            self.bad(f"{what}: {v} is out of range", f"a number from {lo} to {hi}")
        return v

    def player(self, tok, what):
        """A player, 1-based, as the 0-based seat."""
        return self.int(tok, what, 1, self.r.n) - 1

    def piece(self, tok, what):
        """A Minigogh: two letters (colour YBPGVW, orientation LSUD) or a full
        name such as blue-upright."""
        t = tok.upper()
        if len(t) == 2 and t[0] in COLOUR_LETTERS and t[1] in ORIENT_LETTERS:
            return piece_name(COLOUR_LETTERS.index(t[0]) * 4 + ORIENT_LETTERS.index(t[1]))
        try:
            return piece_name(parse_piece(tok))
        except ValueError:
            self.bad(f"{what}: {echo(tok)} is not a Minigogh",
                     f"a colour letter ({'/'.join(COLOUR_LETTERS)}: yellow, blue, pink, green, "
                     f"purple (violet), white) and an orientation letter "
                     f"({'/'.join(ORIENT_LETTERS)}: lying down, sideway, upright, upside down), "
                     f"e.g. BU")

    def each(self, toks, read, what):
        """read(tok, what N) of every token, every bad one recorded."""
        out = []
        for i, t in enumerate(toks):
            try:
                out.append(read(t, f"{what} {i + 1}"))
            except Stop:
                pass
        if len(out) != len(toks):
            raise Stop
        return out

    def pieces(self, toks, what):
        return [] if toks in ([], ["-"]) else self.each(toks, self.piece, what)

    def space(self, tok, what):
        return None if tok == "." else self.piece(tok, what)

    def colour(self, tok, what):
        t = tok.upper()
        if len(t) == 1 and t in COLOUR_LETTERS[:N_COLOURS]:
            return COLOUR_LETTERS.index(t)
        if tok.lower() in COLOURS:
            return COLOURS.index(tok.lower())
        self.bad(f"{what}: {echo(tok)} is not a colour",
                 f"one of {', '.join(COLOUR_LETTERS[:N_COLOURS])} ({', '.join(COLOURS)})")

    def colour_counts(self, toks, what):
        out = {c: 0 for c in COLOURS}
        if toks != ["-"]:
            for t in toks:
                out[COLOURS[self.colour(t, what)]] += 1
        return out

    def char(self, tok, what):
        low = tok.lower()
        for c, w in enumerate(CHAR_WORDS):
            if low == w.lower() or low == w.lower().removeprefix("dr").removeprefix("madame"):
                return c
        close = difflib.get_close_matches(low, [w.lower() for w in CHAR_WORDS], n=1)
        self.bad(f"{what}: unknown character {echo(tok)}",
                 (f"{CHAR_WORDS[[w.lower() for w in CHAR_WORDS].index(close[0])]}; "
                  if close else "") + f"the characters: {', '.join(CHAR_WORDS)}")

    def phase(self, tok, what):
        t = tok.lower().replace("-", "_")
        if t not in PHASES:
            close = difflib.get_close_matches(t, PHASES, n=1)
            self.bad(f"{what}: unknown phase {echo(tok)}",
                     (f"{close[0]}; " if close else "") + f"the phases: {', '.join(PHASES)}")
        return t

    def card(self, text, what, choices):
        """The card a title (any case, or a prefix of at least MIN_PREFIX
        letters no other title starts with) or a printed id (#id) names;
        `choices` are the cards that would be consistent here."""
        cards = self.r.deck.cards
        key = " ".join(text.split()).lower()
        if re.fullmatch(r"#\d+", key):
            cid = int(key[1:])
            if cid < len(cards):
                return cid
            self.bad(f"{what}: the deck file has no card {key}",
                     f"a title or an id from #0 to #{len(cards) - 1}")
        exact = [c.id for c in cards if c.name.lower() == key]
        if len(exact) == 1:
            return exact[0]
        if len(exact) > 1:
            self.bad(f"{what}: {len(exact)} cards are titled {echo(text)}",
                     " or ".join(f"#{i}" for i in exact))
        pre = [c.id for c in cards if c.name.lower().startswith(key)] \
            if len(key) >= MIN_PREFIX else []
        if len(pre) == 1:
            return pre[0]
        pool = [i for i in choices] or [c.id for c in cards]
        close = difflib.get_close_matches(key, [cards[i].name.lower() for i in pool], n=4,
                                          cutoff=0.5)
        if pre:
            hint = "more of the title: it begins " + "; ".join(cards[i].name for i in pre[:6])
        elif close:
            hint = "the closest: " + "; ".join(
                next(cards[i].name for i in pool if cards[i].name.lower() == c) for c in close)
        else:
            hint = ("the paintings not on the table begin: "
                    + "; ".join(cards[i].name for i in pool[:6])
                    + (" ..." if len(pool) > 6 else ""))
        self.bad(f"{what}: no painting titled {echo(text)}", hint)
