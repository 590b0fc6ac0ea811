"""What every game's table notation shares (docs/table-notation.md): reading
the lines (the game string header, comments, keywords in any case, player
sections), naming cards by title or printed id, and refusals that name every
wrong line and field with what to write.

A game's notation module keeps its own grammar and what it derives; this
module holds the reading and the refusing, so that the notations of the games
read and refuse alike.
"""
from __future__ import annotations

import difflib
import re

from easel.engine.errors import GameSpecError, StateFormatError, UnreachablePositionError

MAX_ECHO = 60           # characters of the person's text quoted back in a refusal
MAX_LINES = 2000        # lines of a notation read at most
MIN_PREFIX = 4          # letters of a title that name it when no other title starts so
MAX_PROBLEMS = 40       # problems a refusal lists; the rest are counted (a hostile text
                        # of thousands of bad names is refused at once, its answer bounded)


def echo(text) -> str:
    """The person's text, quoted and bounded (a refusal never echoes a whole line)."""
    text = str(text)
    return repr(text if len(text) <= MAX_ECHO else text[:MAX_ECHO] + "...")


def strip_comment(line: str) -> str:
    """The line without its comment. `#` opens a comment at the start of a
    line or before a space; `#12` (a printed id) and `Suspense #1` (a title)
    keep theirs."""
    m = re.search(r"(^|\s)#(\s|$)", line)
    return line[:m.start()] if m else line


def locate(where: str) -> tuple[int, str]:
    """(line, field) from a refusal's place as the readers write it: "line 4
    (painting 1)", "line 4", "round (not written)", "(palette 2, not written)",
    "(field)"; line 0 when the place names no line (a line not written, or
    several parts at once, as "player 1 painting X, player 2 ...")."""
    where = where.split(" (with ")[0]          # the second field a problem names (Reader.load)
    m = re.match(r"line (\d+)(?: \(([^()]*)\))?", where)
    if m:
        return int(m.group(1)), m.group(2) or ""
    field = re.sub(r",? ?\(?not written\)?$", "", where.strip())
    return 0, field.strip().strip("()").strip()


def structured(items) -> list[tuple[int, str, str]]:
    """A refusal's problems as (line, field, message) (StateFormatError.refusals):
    items as Refusals holds them, (where, problem, what to write or None)."""
    return [(*locate(where), problem + ("" if write is None else f"; write {write}"))
            for where, problem, write in items if where or problem]


class Line:
    """One line of a notation: its number, keyword (lower case) and words."""

    def __init__(self, no: int, words: list[str], rest: str, section):
        self.no, self.key, self.words, self.rest, self.section = (
            no, words[0].lower(), words[1:], rest, section)

    def __repr__(self):
        return f"<line {self.no}: {self.key} {' '.join(self.words)}>"


class Refusals:
    """Every problem of a notation, collected and raised at once: each names
    its line (or that it was not written) and field, what is wrong and what
    to write."""

    def __init__(self, game: str):
        self.game = game
        self.items: list[tuple[str, str, object]] = []
        self.more = 0

    @property
    def full(self) -> bool:
        return len(self.items) >= MAX_PROBLEMS

    def add(self, where: str, problem: str, write=None) -> None:
        if self.full:
            self.more += 1
            return
        self.items.append((where, problem, write))

    def __bool__(self):
        return bool(self.items)

    def raise_any(self, unreachable: bool = False) -> None:
        if not self.items:
            return
        texts = [f"{where}: {problem}" + ("" if write is None else f"; write {write}")
                 for where, problem, write in self.items]
        head = f"{self.game} notation: "
        message = head + (texts[0] if len(texts) == 1 else
                          f"{len(texts) + self.more} problems: " + "; ".join(
                              f"({k}) {t}" for k, t in enumerate(texts, start=1)))
        if self.more:
            message += f"; and {self.more} more (the first {MAX_PROBLEMS} are listed)"
        if unreachable:
            raise UnreachablePositionError(message, self.items, structured(self.items))
        raise StateFormatError(message, structured(self.items))


def split_lines(game, text: str, refusals: Refusals, sections=("player",), top=()):
    """The notation's lines as Line objects, the game string header checked.
    A line whose keyword is in `sections` opens a section that runs to the
    next such line or a table-level keyword (one of `top`)."""
    raw = text.splitlines()
    if len(raw) > MAX_LINES:
        raise StateFormatError(f"{game.name} notation: {len(raw)} lines; at most {MAX_LINES}")
    out, section = [], None
    for no, line in enumerate(raw, start=1):
        body = strip_comment(line).strip()
        if not body:
            continue
        words = body.split()
        head = words[0].lower()
        if head.startswith(game.name) or (not out and _is_game_name(head)):
            if out:
                refusals.add(f"line {no}", "the game string goes on the first line")
            check_header(game, body, no, refusals)
            continue
        if head in top:
            section = None
        item = Line(no, words, body[len(words[0]):].strip(), section)
        if head in sections:
            section = item
            item.section = None
        out.append(item)
    return out


def _is_game_name(word: str) -> bool:
    from easel.engine.registry import registered_games
    name = word.split("(")[0]
    return any(e.name == name for e in registered_games())


def same_game(game, body: str) -> bool:
    """Whether the game string `body` names `game`, options included. Raises
    GameSpecError (an unknown game or option: split_game_string checks both)
    or StateFormatError when `body` is no game string."""
    from easel.engine.registry import split_game_string
    entry, pairs = split_game_string(body)
    if entry.name != game.name:
        return False
    # Compared with the game string the game was named by (game.spec), not
    # its parameters: a server names a data file by its bare name to the
    # client but loads it by its own path (server/datafiles.py).
    _, named = split_game_string(game.spec)

    def options(given):
        params = {k: o.default for k, o in entry.options.items()}
        for key, value in given:
            params[key] = entry.options[key].parse(entry.name, key, value)
        return params
    return options(pairs) == options(named)


def check_header(game, body: str, no: int, refusals: Refusals) -> None:
    """The first line may be the game string; it must name the game read."""
    try:
        same = same_game(game, body)
    except (GameSpecError, StateFormatError) as e:
        refusals.add(f"line {no} (game)", f"{echo(body)} is not a game string ({e})", game.spec)
        return
    if not same:
        refusals.add(f"line {no} (game)", f"the notation is for {echo(body)}, the game read "
                                          f"is {game.spec}", f"{game.spec} or leave it out")


def unknown_keyword(line: Line, known, refusals: Refusals, where="") -> None:
    close = difflib.get_close_matches(line.key, known, n=1)
    refusals.add(f"line {line.no}", f"unknown keyword {echo(line.key)}{where}"
                 + (f"; did you mean {close[0]!r}?" if close else "")
                 + f" Keywords: {', '.join(known)}")


def name_index(names: list[str], ids: list[str]) -> dict:
    """Lower-case title and id -> card index, for `find_card`."""
    out = {}
    for i, (t, cid) in enumerate(zip(names, ids)):
        out.setdefault(t.lower(), i)
        out.setdefault(cid.lower(), i)
    return out


def find_card(text: str, names: list[str], ids: list[str], choices=None):
    """The index of the card `text` names (its title in any case, a prefix of
    at least four letters no other title starts with, or its printed id),
    else (None, the short list of what would be consistent). `choices`, when
    given, are the indices the name may stand for here."""
    key = " ".join(text.split()).lower()
    pool = list(range(len(names))) if choices is None else list(choices)
    exact = [i for i in pool if names[i].lower() == key or ids[i].lower() == key
             or ids[i].lower() == key.lstrip("#")]
    if len(exact) == 1:
        return exact[0], None
    if not exact and len(key) >= MIN_PREFIX:
        pre = [i for i in pool if names[i].lower().startswith(key)]
        if len(pre) == 1:
            return pre[0], None
        if pre:
            return None, "it begins " + ", ".join(names[i] for i in pre[:6]) + \
                (" ..." if len(pre) > 6 else "") + "; write more of the title"
    close = [names[i].lower() for i in pool if key and key in names[i].lower()][:4] or \
        difflib.get_close_matches(key, [names[i].lower() for i in pool], n=4, cutoff=0.5)
    if close:
        return None, "the closest: " + "; ".join(
            next(names[i] for i in pool if names[i].lower() == c) for c in close)
    return None, "the cards it could be: " + "; ".join(names[i] for i in pool[:6]) + \
        (" ..." if len(pool) > 6 else "")


def players_from_one(text: str) -> str:
    """A loader's message (players counted from 0, as the JSON view's indices)
    with its players counted from 1, as the notation counts them."""
    return re.sub(r"\b([Pp]layer) (\d+)\b", lambda m: f"{m.group(1)} {int(m.group(2)) + 1}",
                  text)


def int_word(word: str, lo: int, hi: int):
    """An integer from lo to hi written as a word, or None."""
    try:
        v = int(word)
    except ValueError:
        return None
    return v if lo <= v <= hi else None


class Reader:
    """Reads one notation: its lines sorted into table-level facts and player
    sections, and the checks every game makes of a word. A game's reader
    sets `game_name`, `names` (titles, ids, shown) and the keywords."""

    game_name = ""
    top_keys: tuple = ()
    section_keys: tuple = ()
    repeatable: tuple = ()          # section keywords written once per item (a card each)
    card_word = "card"

    def __init__(self, game, text, n: int, names):
        self.game, self.n, self.names = game, n, names
        self.out = Refusals(self.game_name)
        self.lines = split_lines(game, text, self.out, top=self.top_keys)
        self.placed: dict = {}          # card -> the line that put it on the table

    def bad(self, line, what, problem, write=None):
        self.out.add(f"line {line.no} ({what})", problem, write)

    def int(self, line, word, what, lo, hi):
        x = int_word(word, lo, hi)
        if x is None:
            self.bad(line, what, f"{echo(word)} is not a number from {lo} to {hi}")
        return x

    def counts(self, line, words, what, names, most, alias=None):
        """{name: count} from 'colour count ...' ('none' for nothing);
        alias(word) -> a name of `names` or None; most(name) the largest count."""
        out = {c: 0 for c in names}
        if [w.lower() for w in words] in (["none"], []):
            return out
        if len(words) % 2:
            self.bad(line, what, f"written as pairs, colour count: {names[0]} 2 {names[-1]} 1")
            return out
        for k in range(0, len(words), 2):
            c = (alias or (lambda w: w))(words[k].lower())
            if c not in out:
                self.bad(line, what, f"unknown colour {echo(words[k])}",
                         "one of " + ", ".join(names))
                continue
            x = self.int(line, words[k + 1], f"{what} {c}", 0, most(c))
            if x is not None:
                out[c] += x
        return out

    def card(self, line, text, what, place=True):
        """The card `text` names; placed on the table once (a second place is refused)."""
        if self.out.full:
            self.out.add("", "")        # counted: the refusal is certain, its list full
            return None
        c, hint = find_card(text, self.names.titles, self.names.ids)
        if c is None:
            self.bad(line, what, f"no {self.card_word} {echo(text)}; {hint}")
            return None
        if place:
            if c in self.placed:
                self.bad(line, what, f"{self.names.name(c)} is also on {self.placed[c]}",
                         f"each {self.card_word} once")
                return None
            self.placed[c] = f"line {line.no}"
        return c

    def sort(self):
        """(table-level line by keyword, per player index the section's lines by
        keyword, a list for the repeatable ones); what is not known is refused."""
        top, players = {}, {}
        for line in self.lines:
            if line.section is None and line.key == "player":
                p = int_word(line.words[0], 1, self.n) if len(line.words) == 1 else None
                if p is None:
                    self.bad(line, "player", f"{echo(line.rest)}: a player section opens "
                                             f"with 'player N', N from 1 to {self.n}")
                elif p - 1 in players:
                    self.bad(line, "player", f"player {p} has two sections", "one")
                else:
                    players[p - 1] = {"line": line}
                continue
            if line.section is not None and line.key in self.section_keys:
                p = int_word(line.section.words[0], 1, self.n) if line.section.words else None
                if p is None or p - 1 not in players:
                    continue            # its player line is refused already
                sec = players[p - 1]
                if line.key in self.repeatable:
                    sec.setdefault(line.key, []).append(line)
                elif line.key in sec:
                    self.bad(line, f"player {p} {line.key}", f"written twice (line "
                             f"{sec[line.key].no} too)", "it once")
                else:
                    sec[line.key] = line
                continue
            if line.key not in self.top_keys:
                unknown_keyword(line, self.top_keys + (
                    self.section_keys if line.section is not None else ()), self.out)
            elif line.key in top:
                self.bad(line, line.key, f"written twice (line {top[line.key].no} too)",
                         "it once")
            else:
                top[line.key] = line
        return top, players

    def load(self, view, load, words, value):
        """load(view) (the game's loader, invariants of play); its refusal is
        raised again in the notation's words: words(field) names the line,
        value(field, consistent) what to write."""
        try:
            load(view)
        except UnreachablePositionError as e:
            for fields, problem, consistent in e.problems:
                self.out.add(words(fields[0]) + "".join(f" (with {words(f)})"
                                                        for f in fields[1:2]),
                             players_from_one(problem), value(fields[0], consistent))
            self.out.raise_any(unreachable=True)
        except StateFormatError as e:
            # The loader names a JSON field ("<game> state: field 'x': ...",
            # engine/viewfields.py); the refusal names its notation line.
            m = re.search(r"state: field '([^']*)': (.*)", str(e), re.S)
            where = words(m.group(1)) if m else ""
            raise StateFormatError(f"{self.game_name} notation: {e}", [
                (*locate(where), m.group(2) if m else str(e))]) from None

    def written(self, field_key: str, head: str):
        """'line N (field)' for a table-level line, or 'field (not written)'."""
        ln = next((x for x in self.lines if x.section is None and x.key == head), None)
        return f"line {ln.no} ({field_key})" if ln is not None else f"{field_key} (not written)"

    def in_section(self, p: int, key: str, what: str, match=None):
        """'line N (what)' for player p's `key` line (the first whose text has
        `match`), or 'what (not written)'."""
        sec = [ln for ln in self.lines if ln.section is not None and ln.key == key
               and ln.section.words[:1] == [str(p + 1)]
               and (match is None or match.lower() in ln.rest.lower())]
        return f"line {sec[0].no} ({what})" if sec else f"{what} (not written)"
