"""Van Gogh table notation: a position as a person at the table writes it.

    round 4
    chosen Eugene
    token 2
    scores 12 22 16
    painting 1 Placeholder painting 5: BU . . VD .
    painting 2 Placeholder painting 11: . . GU . . .
    painting 3 Placeholder painting 6: VU PD GS . YU
    framed Placeholder painting 13
    table BL PD GL GU VD
    waiting DrGachet GS, MadameGinoux YL GS, Anna YS GL
    palette 1: YL BL PS PD GL VU VD / . YS YU
    palette 2: YS BL PD VU / BL BS BU
    palette 3: PU

The grammar is in ENCODING.md ("Table notation"), the rules every game's
notation shares in docs/table-notation.md. Only what the table shows is
written; the rest is derived: the bag and the white supply (the box minus
every visible Minigogh), the deck (every card neither open nor framed), the
turn number (characters chosen), whose turn it is (the round's starter, R7,
and the turn number), the round's starter, who may use Anna's ability, the
actor of a primary action, an untouched inactive area (R14). A derived part
written anyway is checked against the derived value. Players, painting slots,
spaces and inactive spaces count from 1, as in the action texts.

`read` returns the JSON view after the one validating loader
(view.state_from_view) has accepted it, so every form of a position passes
the same checks; every problem of the text is named at once, each with its
line, its keyword and what to write.
"""
from __future__ import annotations

import difflib
import re

from easel.engine.contract_ids import PLAYER_CHANCE, PLAYER_TERMINAL
from easel.engine.errors import GameSpecError, StateFormatError, UnreachablePositionError

from .fields import FIELDS
from .rules import (ANNA, BOX_PER_COLOUR, BOX_WHITES, CHARS, COLOURS, INACTIVE,
                    N_CHARS, N_COLOURS, N_PAINTINGS, ORIENTS, PHASES, WHITE,
                    code_of, parse_piece, piece_name, rules_of)

# One letter per colour (purple is V, violet: P is pink) and per orientation.
COLOUR_LETTERS = "YBPGVW"
ORIENT_LETTERS = "LSUD"
# Characters as one word each (the names with their spaces and dots removed).
CHAR_WORDS = tuple(re.sub(r"[^A-Za-z]", "", c) for c in CHARS)
_POSTMAN_BITS = (("paint", 1), ("restart", 2), ("epiphany", 4))
_CHANCE_PHASES = ("setup_cards", "setup_table", "setup_palette", "ginoux_draw", "roll",
                  "sec_draw", "refill", "card", "blue_draw", "eor")
# Characters whose action is a series of steps (phase step).
_STEP_CHARS = ("Van Gogh", "Dr. Gachet", "Postman", "Anna")
KEYWORDS = ("round", "turn", "chosen", "token", "ability", "brush", "scores", "painting",
            "framed", "table", "waiting", "palette", "phase", "doing", "actor", "steps",
            "used", "hand", "draws", "queue", "blue", "resume", "card-slot", "eor", "setup")
# Words read for a keyword: 'hat', the Starting Player token's name before
# the notation took the rulebook's word.
_ALIASES = {"hat": "token"}
MAX_ECHO = 40           # characters of the person's text quoted back in a refusal
MAX_LINES = 200         # a position takes about 15; more is not a position
MIN_PREFIX = 4          # letters of a title that name it when no other title starts so


def current_player_of(view: dict) -> int:
    """Who acts in the view's position: the chance player in a chance phase,
    the turn player in CHOOSE, the acting player in any other decision."""
    ph = view["phase"]
    if ph == "end":
        return PLAYER_TERMINAL
    if ph in _CHANCE_PHASES:
        return PLAYER_CHANCE
    if ph == "choose":
        return view["turn_player"]
    return view["pending"]["act_player"]


def pending_at_rest(r) -> dict:
    """The view's `pending` with every field at rest (fields.py): where a
    notation's lines do not say otherwise."""
    return FIELDS.rest_view("pending", r)


# --------------------------------------------------------------- derived
def starter_of(r, round_no, token_holder, anna_taken):
    """The round's starter where the rules fix it (R7): the first starter in
    round 1 and while nobody holds the token, else the token holder, unless
    Anna was chosen this round (the token then moved: the starter is whoever
    held it before, which the table no longer shows). None when not fixed."""
    if r.solo or round_no == 1 or token_holder < 0:
        return r.start
    if anna_taken:
        return None
    return token_holder


def turn_player_of(r, starter, turn):
    return (starter + min(turn, r.turns_per_round - 1)) % r.n


def possible_turn_players(r, turn, token_holder):
    """Whose turn it can be when Anna was chosen this round (round 2 on): the
    round began with the first starter or with a token holder other than the
    one who took Anna."""
    starters = {r.start} | {p for p in range(r.n) if p != token_holder}
    return sorted({turn_player_of(r, s, turn) for s in starters})


def default_actor(r, phase, act_char, act_primary, turn_player, ability_player):
    """Who performs what is under way, where that follows from the rest
    (ENCODING.md "Turn flow", "Ability windows"): -1 at a turn's start, the
    turn player for a primary action, the keep of waiting Minigoghs and the
    solo game, the owner for the blue ability. None where only the notation
    can say (a secondary action)."""
    if phase in ("blue_draw", "blue_orient", "blue_discard"):
        return ability_player
    if act_char is None:
        return turn_player if phase == "brush" else -1
    if act_primary or r.solo or phase == "wait_keep":
        return turn_player
    return None


def default_phase(act_char):
    return "choose" if act_char is None else ("step" if act_char in _STEP_CHARS else None)


def default_steps(r, phase, act_char, act_primary, used):
    """Steps left in phase step before any is written: a Postman's palette
    actions and a paint of Van Gogh or Anna count down from the action's
    steps (R16; ENCODING.md "Turn flow"); Dr. Gachet's reorients do not show."""
    if phase != "step" or act_char is None:
        return 0
    most = 1 if act_char == "Anna" or not (act_primary or r.solo) else 2
    if act_char == "Postman":
        return most - bin(used).count("1")
    if act_char == "Dr. Gachet":
        return most
    return most - (1 if used else 0)


def default_inactive(r, p):
    """A palette's inactive area as set up: the player's colour lying down,
    sideway, upright from left to right (R14)."""
    return [piece_name(code_of(r.colours[p], o)) for o in range(INACTIVE)]


# ------------------------------------------------------------------- write
def short_piece(name: str) -> str:
    code = parse_piece(name)
    return COLOUR_LETTERS[code // 4] + ORIENT_LETTERS[code % 4]


def _pieces(names) -> str:
    return " ".join(short_piece(x) for x in names) or "-"


def _colours(counts: dict) -> str:
    return " ".join(COLOUR_LETTERS[c] for c in range(N_COLOURS)
                    for _ in range(counts[COLOURS[c]])) or "-"


def _title(r, cid):
    """A card by its title; by its id (#id) where two cards share the title."""
    name = r.deck.cards[cid].name
    plain = (name.strip() == name and name not in ("", "-") and not name.startswith("#")
             and not re.search(r"[:,;]|\s#(\s|$)", name))
    if plain and sum(c.name.lower() == name.lower() for c in r.deck.cards) == 1:
        return name
    return f"#{cid}"


def write(game, view: dict, derived: bool = False) -> str:
    """The notation of `view`: the shortest form (every derived part and every
    line at its default left out), or with `derived` every part a person may
    write, derived ones included (the reader checks those)."""
    r = rules_of(game)
    taken = [ch["taken"] for ch in view["characters"]]
    lines = [f"round {view['round']}"]
    starter = starter_of(r, view["round"], view["token_holder"], taken[ANNA])
    if derived or starter is None:
        lines.append(f"turn {view['turn_player'] + 1}")
    chosen = [CHAR_WORDS[c] for c in range(N_CHARS) if taken[c]]
    if chosen or derived:
        lines.append("chosen " + (" ".join(chosen) or "-"))
    if view["token_holder"] >= 0 or derived:
        lines.append("token " + (str(view["token_holder"] + 1) if view["token_holder"] >= 0
                               else "-"))
    if view["ability_spent"] or derived:
        lines.append("ability " + ("spent" if view["ability_spent"] else "open"))
    if view["brush_used"] or (derived and r.solo):
        lines.append("brush " + ("used" if view["brush_used"] else "unused"))
    lines.append("scores " + " ".join(str(x) for x in view["scores"]))
    for slot, pv in enumerate(view["paintings"]):
        if pv["card"] < 0:
            lines.append(f"painting {slot + 1} -")
            continue
        line = f"painting {slot + 1} {_title(r, pv['card'])}"
        if derived or any(pv["occupants"]):
            line += ": " + " ".join(short_piece(x) if x else "." for x in pv["occupants"])
        lines.append(line)
    shown = set(view["deck"]) | {pv["card"] for pv in view["paintings"]}
    framed = [i for i in range(len(r.deck.cards)) if i not in shown]
    if framed:
        lines.append("framed " + ", ".join(_title(r, i) for i in framed))
    if view["table"] or derived:
        lines.append("table " + _pieces(view["table"]))
    waiting = [f"{CHAR_WORDS[c]} {_pieces(ch['waiting'])}"
               for c, ch in enumerate(view["characters"]) if ch["waiting"]]
    if waiting:
        lines.append("waiting " + ", ".join(waiting))
    for p, pal in enumerate(view["palettes"]):
        line = f"palette {p + 1}: {_pieces(pal['active'])}"
        if derived or pal["inactive"] != default_inactive(r, p):
            line += " / " + " ".join(short_piece(x) if x else "." for x in pal["inactive"])
        lines.append(line)
    lines += _write_pending(r, view, derived)
    return "\n".join(lines) + "\n"


def _write_pending(r, view, derived):
    """What is under way, each line only where it is not at its default."""
    pend = view["pending"]
    ph = view["phase"]
    out = []
    char = pend["act_char"]
    if derived or ph != default_phase(char):
        out.append(f"phase {ph}")
    if char is not None:
        out.append(f"doing {CHAR_WORDS[CHARS.index(char)]} "
                   f"{'primary' if pend['act_primary'] else 'secondary'}")
    actor = default_actor(r, ph, char, pend["act_primary"], view["turn_player"],
                          view["ability_player"])
    if pend["act_player"] != actor or (derived and pend["act_player"] >= 0):
        out.append(f"actor {pend['act_player'] + 1}" if pend["act_player"] >= 0 else "actor -")
    if pend["postman_used"]:
        out.append("used " + " ".join(w for w, bit in _POSTMAN_BITS
                                      if pend["postman_used"] & bit))
    base = pend["resume"] or (pend["card_resume"] if ph == "card" else ph)
    if pend["steps_left"] != default_steps(r, base, char, pend["act_primary"],
                                           pend["postman_used"]) or (derived and
                                                                    pend["steps_left"]):
        out.append(f"steps {pend['steps_left']}")
    if any(pend["hand"].values()):
        out.append("hand " + _colours(pend["hand"]))
    if pend["draws_left"]:
        out.append(f"draws {pend['draws_left']}")
    if any(pend["roll_queue"].values()):
        out.append("queue " + _colours(pend["roll_queue"]))
    if pend["blue_colour"] is not None:
        out.append("blue " + COLOUR_LETTERS[COLOURS.index(pend["blue_colour"])])
    if pend["resume"] is not None:
        out.append(f"resume {pend['resume']}")
    if pend["card_slot"] >= 0:
        out.append(f"card-slot {pend['card_slot'] + 1} then {pend['card_resume']}")
    if pend["eor_char"]:
        out.append("eor " + (CHAR_WORDS[pend["eor_char"]] if pend["eor_char"] < N_CHARS
                             else "end"))
    if pend["setup_k"]:
        out.append(f"setup {pend['setup_k']}")
    return out


# -------------------------------------------------------------------- read
def echo(text) -> str:
    """The person's text, quoted and bounded."""
    text = str(text)
    return repr(text if len(text) <= MAX_ECHO else text[:MAX_ECHO] + "...")


def strip_comment(line: str) -> str:
    """The line without its comment: `#` at the start or after a space and
    followed by a space or the end (docs/table-notation.md), so `#12` stays."""
    m = re.search(r"(^|\s)#(\s|$)", line)
    return line[:m.start()] if m else line


class _Stop(Exception):
    """A statement that cannot be read further (its problem is recorded)."""


class _Reader:
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
        raise _Stop

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
            except _Stop:
                pass
        if len(out) != len(toks):
            raise _Stop
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


def _lines(text):
    """(line number, keyword, words, text after the keyword) of each
    statement; a `;` also ends a statement (one line may hold several)."""
    for no, raw in enumerate(text.splitlines(), start=1):
        for part in strip_comment(raw).split(";"):
            body = part.strip()
            if body:
                head, _, rest = body.partition(" ")
                yield no, head, rest.strip()


def read(game, text) -> dict:
    """The JSON view of the position the notation `text` describes, checked by
    the loader; a StateFormatError names every problem at once."""
    if not isinstance(text, str):
        raise StateFormatError(f"vangogh notation must be text, got {type(text).__name__}")
    rd = _Reader(game)
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        raise StateFormatError(f"vangogh notation: {len(lines)} lines; a position takes at most "
                               f"{MAX_LINES} (limit MAX_LINES)")
    got = _Statements(rd)
    first = True
    for no, head, rest in _lines(text):
        rd.where = f"line {no} ({head.lower().rstrip(':')})"
        if head.lower().startswith("vangogh"):
            rd.where = f"line {no} (game)"
            if not first:
                rd.add("the game string goes on the first line", "it first, or leave it out")
            _check_header(rd, head + (" " + rest if rest else ""))
        else:
            try:
                got.statement(no, head, rest)
            except _Stop:
                pass
        first = False
    rd.where = ""
    view = got.view()
    if view is not None and not rd.problems:
        _check_loads(rd, game, view, got)
    _raise_any(rd)
    return view


def _check_header(rd, body):
    from easel.engine.registry import split_game_string
    game = rd.game
    try:
        entry, pairs = split_game_string(body)
        params = dict(game.params)
        for key, value in pairs:
            params[key] = entry.options[key].parse(entry.name, key, value)
        same = entry.name == game.name and params == game.params
    except (GameSpecError, StateFormatError, KeyError) as e:
        rd.add(f"{echo(body)} is not a game string ({e})", game.spec)
        return
    if not same:
        rd.add(f"the notation is for {echo(body)}, the game read is {game.spec}",
               f"{game.spec} or leave it out")


def _raise_any(rd):
    if not rd.problems:
        return
    texts = [(f"{where}: " if where else "") + problem
             + ("" if write is None else f"; write {write}")
             for where, problem, write in rd.problems]
    message = "vangogh notation: " + (texts[0] if len(texts) == 1 else
                                      f"{len(texts)} problems: " + "; ".join(
                                          f"({k}) {t}" for k, t in enumerate(texts, start=1)))
    raise StateFormatError(message)


class _Statements:
    """The position's parts as the statements give them."""

    def __init__(self, rd):
        self.rd = rd
        r = self.r = rd.r
        self.seen = {}
        self.lines = {}         # keyword -> line number, for refusals of derived parts
        self.taken = [0] * N_CHARS
        self.waiting = [[] for _ in range(N_CHARS)]
        self.paintings = [None] * N_PAINTINGS
        self.palettes = [None] * r.n
        self.framed = []
        self.pend = pending_at_rest(r)
        self.written = {}       # parts that may be derived: written value
        self.top = {"token_holder": -1, "ability_spent": 0, "brush_used": 0, "table": []}

    def statement(self, no, head, rest):
        rd = self.rd
        kw = head.lower().rstrip(":")
        kw = _ALIASES.get(kw, kw)
        args = rest.replace(",", " , ").split()
        if kw not in KEYWORDS:
            close = difflib.get_close_matches(kw, KEYWORDS, n=1)
            rd.bad(f"unknown keyword {echo(head)}",
                   (f"{close[0]!r}; " if close else "") + f"the keywords: {', '.join(KEYWORDS)}")
        words = [a for a in args if a != ","]
        keys = [kw]
        if kw in ("painting", "palette"):
            if not words:
                rd.bad(f"{kw}: its number is missing",
                       f"'{kw} K' with K from 1 to {N_PAINTINGS if kw == 'painting' else self.r.n}")
            keys = [(kw, words[0].rstrip(":").lower())]
        if kw == "waiting":
            keys = [("waiting", grp[0].lower()) for grp in _groups(args) if grp]
        if kw in ("painting", "palette"):
            rd.where = f"line {no} ({kw} {words[0].rstrip(':')})"
        for key in keys:
            if key in self.seen:
                rd.add(f"given twice (first on line {self.seen[key]})", "it once")
            self.seen[key] = no
        self.lines[kw] = no
        if kw in ("painting", "palette"):
            self.lines[f"{kw} {words[0].rstrip(':')}"] = no
        getattr(self, "_" + kw.replace("-", "_"))(words, args, rest)

    def one(self, kw, words):
        if len(words) != 1:
            self.rd.bad(f"{kw} takes one value, {len(words)} written")
        return words[0]

    def _round(self, words, args, rest):
        r = self.r
        self.top["round"] = self.rd.int(self.one("round", words), "round", 1,
                                        max(r.max_rounds, r.solo_rounds))

    def _turn(self, words, args, rest):
        self.written["turn"] = self.rd.player(self.one("turn", words),
                                              "turn (the player whose turn it is)")

    def _chosen(self, words, args, rest):
        if words == ["-"]:
            return
        for t in words:
            try:
                c = self.rd.char(t, "chosen")
            except _Stop:
                continue
            if self.taken[c]:
                self.rd.add(f"{CHAR_WORDS[c]} named twice", "each character once")
            self.taken[c] = 1

    def _token(self, words, args, rest):
        tok = self.one("token", words)
        self.top["token_holder"] = -1 if tok == "-" else self.rd.player(
            tok, "token (who holds the Starting Player token)")

    def _flag(self, kw, words, yes, no):
        word = self.one(kw, words).lower()
        if word not in (yes, no):
            self.rd.bad(f"{echo(word)} is not {yes} or {no}", f"'{kw} {yes}' or '{kw} {no}'")
        return int(word == yes)

    def _ability(self, words, args, rest):
        self.top["ability_spent"] = self._flag("ability", words, "spent", "open")

    def _brush(self, words, args, rest):
        self.top["brush_used"] = self._flag("brush", words, "used", "unused")

    def _scores(self, words, args, rest):
        n = self.r.n
        if len(words) != n:
            self.rd.bad(f"{len(words)} scores written for {n} players",
                        f"{n} numbers, player 1's first")
        self.top["scores"] = self.rd.each(
            words, lambda tok, what: self.rd.int(tok, what, 0, 100000), "score of player")

    def _painting(self, words, args, rest):
        rd, r = self.rd, self.r
        slot = rd.int(words[0].rstrip(":"), "painting slot", 1, N_PAINTINGS) - 1
        body = rest.split(None, 1)[1] if len(rest.split(None, 1)) > 1 else ""
        body = body.lstrip(":").strip()
        if body == "-":
            self.paintings[slot] = {"card": -1, "occupants": []}
            return
        if not body:
            rd.bad(f"painting {slot + 1}: the painting is missing",
                   f"'painting {slot + 1} TITLE: spaces', or 'painting {slot + 1} -' for an "
                   f"empty slot")
        if ":" in body:
            title, spaces = body.rsplit(":", 1)
        elif body.startswith("#"):
            title, _, spaces = body.partition(" ")
        else:
            title, spaces = body, ""
        cid = rd.card(title, f"painting {slot + 1}", self._unseen())
        card = r.deck.cards[cid]
        toks = spaces.split()
        size = len(card.orient)
        if not toks:
            toks = ["."] * size
        if len(toks) != size:
            rd.bad(f"painting {slot + 1}: {card.name} has {size} spaces, {len(toks)} written",
                   f"{size} spaces, '.' for an empty one, or none when all are empty")
        occ = rd.each(toks, rd.space, f"painting {slot + 1} space")
        self.paintings[slot] = {
            "card": cid, "name": card.name, "frame": list(card.frame),
            "orientations": [ORIENTS[o] for o in card.orient], "bonus": list(card.bonus),
            "occupants": occ}

    def _unseen(self):
        """Cards not yet named open or framed: the consistent choices."""
        used = set(self.framed) | {pv["card"] for pv in self.paintings if pv}
        return [c.id for c in self.r.deck.cards if c.id not in used]

    def _framed(self, words, args, rest):
        for title in rest.split(","):
            if not title.strip() or title.strip() == "-":
                continue
            try:
                cid = self.rd.card(title.strip(), "framed", self._unseen())
            except _Stop:
                continue
            if cid in self.framed:
                self.rd.add(f"{self.r.deck.cards[cid].name} named twice", "each painting once")
                continue
            self.framed.append(cid)

    def _table(self, words, args, rest):
        self.top["table"] = self.rd.pieces(words, "table Minigogh")

    def _waiting(self, words, args, rest):
        for grp in _groups(args):
            if not grp:
                continue
            try:
                c = self.rd.char(grp[0], "waiting")
                if self.waiting[c]:
                    self.rd.add(f"{CHAR_WORDS[c]} named twice", "each character once")
                self.waiting[c] = self.rd.pieces(grp[1:] or ["-"],
                                                 f"waiting on {CHAR_WORDS[c]}")
            except _Stop:
                continue

    def _palette(self, words, args, rest):
        rd, r = self.rd, self.r
        p = rd.player(words[0].rstrip(":"), "palette (the player)")
        body = rest.split(None, 1)[1] if len(rest.split(None, 1)) > 1 else ""
        body = body.lstrip(":")
        if body.count("/") > 1:
            rd.bad(f"palette {p + 1}: '/' written {body.count('/')} times",
                   f"the active Minigoghs, then '/' and the {INACTIVE} inactive spaces only "
                   f"where they are not as set up")
        act, _, ina = body.partition("/")
        active = rd.pieces(act.split(), f"palette {p + 1} active")
        if "/" in body:
            toks = ina.split()
            if len(toks) != INACTIVE:
                rd.bad(f"palette {p + 1}: {len(toks)} inactive spaces written",
                       f"{INACTIVE}, left to right, '.' when empty")
            inactive = rd.each(toks, rd.space, f"palette {p + 1} inactive space")
        else:
            inactive = default_inactive(r, p)
        self.palettes[p] = {"color": COLOURS[r.colours[p]],
                            "active": sorted(active, key=parse_piece), "inactive": inactive}

    def _phase(self, words, args, rest):
        self.top["phase"] = self.rd.phase(self.one("phase", words), "phase")

    def _doing(self, words, args, rest):
        if len(words) != 2 or words[1].lower() not in ("primary", "secondary"):
            self.rd.bad("doing: the character and whose action are missing",
                        "'doing CHARACTER primary' or 'doing CHARACTER secondary'")
        self.pend["act_char"] = CHARS[self.rd.char(words[0], "doing")]
        self.pend["act_primary"] = int(words[1].lower() == "primary")

    def _actor(self, words, args, rest):
        tok = self.one("actor", words)
        self.written["actor"] = -1 if tok == "-" else self.rd.player(tok, "actor")

    def _steps(self, words, args, rest):
        self.written["steps"] = self.rd.int(self.one("steps", words), "steps", 0, 3)

    def _used(self, words, args, rest):
        bits = dict(_POSTMAN_BITS)
        for t in words:
            if t.lower() not in bits:
                self.rd.add(f"used: {echo(t)} is not a palette action",
                            "paint, restart or epiphany")
                continue
            self.pend["postman_used"] |= bits[t.lower()]

    def _hand(self, words, args, rest):
        self.pend["hand"] = self.rd.colour_counts(words, "hand")

    def _draws(self, words, args, rest):
        self.pend["draws_left"] = self.rd.int(self.one("draws", words), "draws", 0, 3)

    def _queue(self, words, args, rest):
        self.pend["roll_queue"] = self.rd.colour_counts(words, "queue")

    def _blue(self, words, args, rest):
        self.pend["blue_colour"] = COLOURS[self.rd.colour(self.one("blue", words), "blue")]

    def _resume(self, words, args, rest):
        self.pend["resume"] = self.rd.phase(self.one("resume", words), "resume")

    def _card_slot(self, words, args, rest):
        if len(words) != 3 or words[1].lower() != "then":
            self.rd.bad("card-slot: the slot and the phase after it are missing",
                        "'card-slot K then PHASE'")
        self.pend["card_slot"] = self.rd.int(words[0], "card-slot", 1, N_PAINTINGS) - 1
        self.pend["card_resume"] = self.rd.phase(words[2], "card-slot ... then")

    def _eor(self, words, args, rest):
        tok = self.one("eor", words)
        self.pend["eor_char"] = N_CHARS if tok.lower() == "end" else self.rd.char(tok, "eor")

    def _setup(self, words, args, rest):
        self.pend["setup_k"] = self.rd.int(self.one("setup", words), "setup", 0, 2 * self.r.n)

    # ------------------------------------------------------ the view
    def view(self):
        """The JSON view, the derived parts derived; None (problems recorded)
        when a required part is missing or a derived part disagrees."""
        rd, r, top, pend = self.rd, self.r, self.top, self.pend
        n = r.n
        for need, write in (("round", "'round R'"),
                            ("scores", f"'scores' and {n} numbers, player 1's first")):
            if need not in top and need not in self.seen:
                rd.add(f"the '{need}' line is missing", write, where=f"({need})")
        for slot in range(N_PAINTINGS):
            if self.paintings[slot] is None and ("painting", str(slot + 1)) not in self.seen:
                rd.add(f"the 'painting {slot + 1}' line is missing",
                       f"'painting {slot + 1} TITLE: spaces' ('painting {slot + 1} -' for an "
                       f"empty slot)", where=f"(painting {slot + 1})")
        for p in range(n):
            if self.palettes[p] is None and ("palette", str(p + 1)) not in self.seen:
                rd.add(f"the 'palette {p + 1}' line is missing",
                       f"'palette {p + 1}: ' and the active Minigoghs", where=f"(palette {p + 1})")
        open_cards = [pv["card"] for pv in self.paintings if pv and pv["card"] >= 0]
        for slot, cid in enumerate(open_cards):
            if cid in open_cards[:slot]:
                rd.add(f"{r.deck.cards[cid].name} is on two slots", "each painting once",
                       where="(painting)")
        for cid in self.framed:
            if cid in open_cards:
                rd.add(f"{r.deck.cards[cid].name} is both open and framed",
                       "it on one line only", where=f"line {self.lines['framed']} (framed)")
        if "round" not in top:
            return None
        deck = [i for i in range(len(r.deck.cards))
                if i not in self.framed and i not in open_cards]
        taken = self.taken
        phase = top.get("phase") or default_phase(pend["act_char"])
        if phase is None:
            rd.add(f"the phase of {pend['act_char']}'s action is not written",
                   "'phase NAME': " + ", ".join(PHASES), where="(phase)")
            return None
        # The turn number (characters chosen, less the one under way, R8),
        # then whose turn it is (R7).
        tpr = r.turns_per_round
        in_turn = pend["act_char"] is not None and phase not in ("eor", "end")
        turn = sum(taken) - (1 if in_turn else 0)
        if not 0 <= turn <= tpr:
            rd.add(f"{sum(taken)} characters chosen; a round has {tpr} turns",
                   f"at most {tpr}", where=f"line {self.lines.get('chosen', '?')} (chosen)")
            return None
        holder = top["token_holder"]
        starter = starter_of(r, top["round"], holder, taken[ANNA])
        if starter is None:
            can = possible_turn_players(r, turn, holder)
            if "turn" not in self.written:
                rd.add("Anna was chosen this round, so the round's starter no longer shows "
                       "and whose turn it is must be written",
                       "'turn P' with P one of " + ", ".join(str(p + 1) for p in can),
                       where="(turn)")
                return None
            tp = self.written["turn"]
            if tp not in can:
                rd.add(f"player {tp + 1}: no round started by a possible starter is at this "
                       f"player's turn after {turn} turns",
                       " or ".join(str(p + 1) for p in can),
                       where=f"line {self.lines['turn']} (turn)")
                return None
            starter = (tp - min(turn, tpr - 1)) % n
        tp = turn_player_of(r, starter, turn)
        if "turn" in self.written and self.written["turn"] != tp:
            rd.add(f"player {self.written['turn'] + 1} written, but the round's starter "
                   f"(player {starter + 1}, RULINGS.md R7) and {turn} turn{'s' if turn != 1 else ''} "
                   f"played make it player {tp + 1}'s turn", f"{tp + 1} or leave it out",
                   where=f"line {self.lines['turn']} (turn)")
        ability_player = holder if taken[ANNA] and not r.solo and holder >= 0 else -1
        actor = default_actor(r, phase, pend["act_char"], pend["act_primary"], tp,
                              ability_player)
        if "actor" in self.written:
            if actor is not None and self.written["actor"] != actor:
                rd.add(f"{_who1(self.written['actor'])} written, but "
                       f"{_who1(actor)} performs this", f"{_seat1(actor)} or leave it out",
                       where=f"line {self.lines['actor']} (actor)")
            actor = self.written["actor"]
        elif actor is None:
            others = [str(p + 1) for p in range(n) if p != tp]
            rd.add("who performs the secondary action is not written",
                   "'actor P' with P one of " + ", ".join(others), where="(actor)")
            return None
        pend["act_player"] = actor
        if pend["act_char"] is not None and not pend["act_primary"] and not r.solo:
            pend["sec_k"] = (actor - tp) % n
        base = pend["resume"] or (pend["card_resume"] if phase == "card" else phase)
        pend["steps_left"] = self.written.get(
            "steps", default_steps(r, base, pend["act_char"], pend["act_primary"],
                                   pend["postman_used"]))
        bag, whites = self._box()
        if rd.problems or None in self.paintings or None in self.palettes:
            return None     # the derived parts above are checked, the rest needs every line
        view = {
            "players": n, "colors": [COLOURS[c] for c in r.colours],
            "phase": phase, "current_player": None,
            "round": top["round"], "turn": turn, "first_starter": r.start,
            "round_starter": starter, "turn_player": tp, "token_holder": holder,
            "ability_player": ability_player, "ability_spent": top["ability_spent"],
            "brush_used": top["brush_used"], "finished": len(self.framed),
            "scores": top["scores"], "bag": bag, "whites": whites,
            "table": sorted(top["table"], key=parse_piece),
            "characters": [{"name": CHARS[c], "taken": taken[c], "waiting": self.waiting[c]}
                           for c in range(N_CHARS)],
            "paintings": self.paintings, "deck": deck, "palettes": self.palettes,
            "pending": pend,
        }
        view["current_player"] = current_player_of(view)
        return view

    def _box(self):
        """The bag and the white supply: the box minus what is visible
        (RULINGS.md R1: 10 per colour besides the score token, 5 whites)."""
        rd, pend = self.rd, self.pend
        visible = [0] * (N_COLOURS + 1)
        where = [set() for _ in range(N_COLOURS + 1)]

        def see(name, line):
            c = parse_piece(name) // 4
            visible[c] += 1
            where[c].add(line)
        for x in self.top["table"]:
            see(x, "table")
        for c, w in enumerate(self.waiting):
            for x in w:
                see(x, "waiting")
        for slot, pv in enumerate(self.paintings):
            for x in (pv or {}).get("occupants", []):
                if x:
                    see(x, f"painting {slot + 1}")
        for p, pal in enumerate(self.palettes):
            for x in (pal["active"] + [y for y in pal["inactive"] if y]) if pal else []:
                see(x, f"palette {p + 1}")
        for c in range(N_COLOURS):
            k = pend["hand"][COLOURS[c]] + pend["roll_queue"][COLOURS[c]]
            visible[c] += k
            if k:
                where[c].add("hand/queue")
        if pend["blue_colour"] is not None:
            visible[COLOURS.index(pend["blue_colour"])] += 1
            where[COLOURS.index(pend["blue_colour"])].add("blue")
        bag = {}
        for c in range(N_COLOURS + 1):
            box = BOX_WHITES if c == WHITE else BOX_PER_COLOUR - 1
            name = "white" if c == WHITE else COLOURS[c]
            if visible[c] > box:
                rd.add(f"{visible[c]} {name} Minigoghs are written (on "
                       f"{', '.join(sorted(where[c]))}); the box has {box}"
                       + ("" if c == WHITE else " besides the score token"),
                       f"{visible[c] - box} fewer", where=f"({name} Minigoghs)")
            elif c < N_COLOURS:
                bag[COLOURS[c]] = box - visible[c]
        return bag, BOX_WHITES - visible[WHITE]


def _groups(args):
    """Comma-separated groups of words."""
    out = [[]]
    for a in args:
        if a == ",":
            out.append([])
        else:
            out[-1].append(a)
    return out


def _seat1(p):
    return "-" if p < 0 else str(p + 1)


def _who1(p):
    return "nobody" if p < 0 else f"player {p + 1}"


# --------------------------------------------- the loader's refusals, named as written
_FIELD_WORDS = (
    (r"scores", "scores"), (r"turn_player|round_starter|turn$|first_starter", "turn"),
    (r"characters\[(\d)\]\.waiting", "waiting"), (r"characters", "chosen"),
    (r"token_holder|ability_player", "token"), (r"ability_spent", "ability"),
    (r"brush_used", "brush"), (r"paintings\[(\d)\]", "painting"),
    (r"palettes\[(\d)\]", "palette"), (r"table", "table"), (r"round", "round"),
    (r"pending\.act_player|pending\.sec_k", "actor"),
    (r"pending\.act_char|pending\.act_primary", "doing"), (r"pending\.steps_left", "steps"),
    (r"pending\.postman_used", "used"), (r"pending\.hand", "hand"),
    (r"pending\.draws_left", "draws"), (r"pending\.roll_queue", "queue"),
    (r"pending\.blue_colour", "blue"), (r"pending\.resume", "resume"),
    (r"pending\.card_", "card-slot"), (r"pending\.eor_char", "eor"),
    (r"pending\.setup_k", "setup"), (r"deck|finished", "framed"), (r"phase", "phase"),
    (r"bag|whites", "the Minigoghs"), (r"current_player", "phase"),
)


def notation_field(field: str, lines: dict) -> str:
    """The notation's line and keyword for a JSON field the loader names."""
    for pattern, kw in _FIELD_WORDS:
        m = re.match(pattern, field)
        if not m:
            continue
        name = kw
        if kw in ("painting", "palette") and m.groups():
            name = f"{kw} {int(m.group(1)) + 1}"
        elif kw == "waiting" and m.groups():
            name = f"waiting {CHAR_WORDS[int(m.group(1))]}"
        no = lines.get(name, lines.get(kw) if kw not in ("painting", "palette") else None)
        return f"line {no} ({name})" if no else f"({name}, not written)"
    return f"({field})"


def _check_loads(rd, game, view, got):
    """The loader's checks (view.state_from_view: every invariant of play),
    its refusal named by the notation's line and keyword."""
    from .reference import VanGoghState
    from .view import state_from_view
    try:
        state_from_view(VanGoghState, game, view)
    except UnreachablePositionError as e:
        for fields, problem, consistent in e.problems:
            # The loader names seats as the JSON does (from 0); the notation
            # counts players from 1.
            problem = re.sub(r"\bplayer (\d)\b", lambda m: f"player {int(m.group(1)) + 1}",
                             problem)
            rd.add(f"{problem} (JSON field '{fields[0]}')",
                   None if consistent is None else str(consistent),
                   where=notation_field(fields[0], got.lines))
    except StateFormatError as e:
        text = str(e)
        m = re.match(r"vangogh state: field '([^']*)': (.*)", text, re.S)
        if m:
            rd.add(f"{m.group(2)} (JSON field '{m.group(1)}')",
                   where=notation_field(m.group(1), got.lines))
        else:
            rd.add(text)
