"""The statements of a Van Gogh table notation, read into the parts of a
position, and the JSON view built from them with the derived parts derived
(notation_derive.py); the loader's refusals named by the line they come from."""
from __future__ import annotations

import difflib
import re

from easel.engine.errors import StateFormatError, UnreachablePositionError

from .notation_derive import (current_player_of, default_actor, default_inactive,
                              default_phase, default_steps, pending_at_rest,
                              possible_turn_players, starter_of, turn_player_of)
from .notation_words import ALIASES, CHAR_WORDS, KEYWORDS, POSTMAN_BITS, Stop, echo, short_piece
from .rules import (ANNA, BOX_PER_COLOUR, BOX_WHITES, CHARS, COLOURS, INACTIVE, N_CHARS,
                    N_COLOURS, N_PAINTINGS, ORIENTS, PHASES, WHITE, parse_piece)
from .rules import COLOUR_NAMES

# A Minigogh as the JSON view names it ("green-upright"), in a loader's refusal.
PIECE_WORDS = re.compile(r"\b(?:" + "|".join(COLOUR_NAMES) + r")-(?:" + "|".join(ORIENTS) + r")\b")


class Statements:
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
        kw = ALIASES.get(kw, kw)
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
            self.rd.bad(f"{kw} takes one value, {len(words)} written: write one, as "
                        f"'{kw} {words[0] if words else 'VALUE'}'")
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
            except Stop:
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
            except Stop:
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
            except Stop:
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
        bits = dict(POSTMAN_BITS)
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
        self.pend["card_slot"] = self.rd.int(words[0], "card-slot", 1, N_PAINTINGS)
        self.pend["card_resume"] = self.rd.phase(words[2], "card-slot ... then")

    def _eor(self, words, args, rest):
        tok = self.one("eor", words)
        self.pend["eor_char"] = "end" if tok.lower() == "end" else CHARS[self.rd.char(tok, "eor")]

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
            turns = f"{turn} turn{'s' if turn != 1 else ''}"
            rd.add(f"player {self.written['turn'] + 1} written, but the round's starter "
                   f"(player {starter + 1}, RULINGS.md R7) and {turns} played make it "
                   f"player {tp + 1}'s turn", f"{tp + 1} or leave it out",
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
            "round": top["round"], "turn": turn + 1, "first_starter": r.start,
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


def check_loads(rd, game, view, got):
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
            # ... and names a Minigogh as the JSON does (green-upright); the
            # notation writes its letters (GU).
            problem = PIECE_WORDS.sub(lambda m: short_piece(m.group(0)), problem)
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
