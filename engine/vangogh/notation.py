"""Van Gogh table notation: a position as a player would write down the table.

    round 2; turn 1; chosen VanGogh Anna; hat 1
    scores 14 9
    painting 1: #4 . YL BU . .
    painting 2: #11 . . . . . .
    painting 3: #0 GU . . .
    framed #7
    table YL GS PU VD VD
    waiting Gachet BL; waiting Postman YU PS
    palette 0: YL YL WU / . YS YU
    palette 1: BS / BL BS BU

The grammar, with more examples, is in ENCODING.md ("Table notation"). What
the table shows is written; what follows from it is derived: the bag is the
box minus every visible Minigogh, the white supply likewise, the deck is every
card neither open nor framed, the turn number is how many characters were
chosen this round. `read` returns the JSON view, which the one validating
loader (view.state_from_view) then checks, so every form of a position passes
the same checks.
"""
from __future__ import annotations

import re

from easel.engine.contract_ids import PLAYER_CHANCE, PLAYER_TERMINAL
from easel.engine.errors import StateFormatError

from .fields import FIELDS
from .rules import (ANNA, BOX_PER_COLOUR, BOX_WHITES, CHARS, COLOURS, INACTIVE, N_CHARS,
                    N_COLOURS, N_PAINTINGS, ORIENTS, PHASES, WHITE, parse_piece,
                    piece_name, rules_of)

# One letter per colour (purple is V, violet: P is pink) and per orientation.
COLOUR_LETTERS = "YBPGVW"
ORIENT_LETTERS = "LSUD"
# Characters as one word each (the names with their spaces and dots removed).
CHAR_WORDS = tuple(re.sub(r"[^A-Za-z]", "", c) for c in CHARS)
_POSTMAN_BITS = (("paint", 1), ("restart", 2), ("epiphany", 4))
_CHANCE_PHASES = ("setup_cards", "setup_table", "setup_palette", "ginoux_draw", "roll",
                  "sec_draw", "refill", "card", "blue_draw", "eor")
KEYWORDS = ("round", "turn", "chosen", "hat", "ability", "brush", "scores", "painting",
            "framed", "table", "waiting", "palette", "phase", "doing", "actor", "steps",
            "used", "hand", "draws", "queue", "blue", "resume", "card-slot", "eor", "setup")


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
    notation's last line does not say otherwise."""
    return FIELDS.rest_view("pending", r)


# ------------------------------------------------------------------- write
def short_piece(name: str) -> str:
    code = parse_piece(name)
    return COLOUR_LETTERS[code // 4] + ORIENT_LETTERS[code % 4]


def _pieces(names) -> str:
    return " ".join(short_piece(x) for x in names) or "-"


def _colours(counts: dict) -> str:
    return " ".join(COLOUR_LETTERS[c] for c in range(N_COLOURS)
                    for _ in range(counts[COLOURS[c]])) or "-"


def write(game, view: dict) -> str:
    r = rules_of(game)
    pend = view["pending"]
    chosen = [CHAR_WORDS[c] for c, ch in enumerate(view["characters"]) if ch["taken"]]
    head = [f"round {view['round']}", f"turn {view['turn_player']}",
            "chosen " + (" ".join(chosen) or "-"),
            "hat " + (str(view["token_holder"]) if view["token_holder"] >= 0 else "-")]
    if view["ability_spent"]:
        head.append("ability spent")
    if view["brush_used"]:
        head.append("brush used")
    lines = ["; ".join(head), "scores " + " ".join(str(x) for x in view["scores"])]
    for slot, pv in enumerate(view["paintings"]):
        if pv["card"] < 0:
            lines.append(f"painting {slot + 1}: -")
        else:
            spaces = " ".join(short_piece(x) if x else "." for x in pv["occupants"])
            lines.append(f"painting {slot + 1}: #{pv['card']} {spaces}")
    shown = set(view["deck"]) | {pv["card"] for pv in view["paintings"]}
    framed = [i for i in range(len(r.deck.cards)) if i not in shown]
    if framed:
        lines.append("framed " + " ".join(f"#{i}" for i in framed))
    lines.append("table " + _pieces(view["table"]))
    waiting = [f"waiting {CHAR_WORDS[c]} {_pieces(ch['waiting'])}"
               for c, ch in enumerate(view["characters"]) if ch["waiting"]]
    if waiting:
        lines.append("; ".join(waiting))
    for p, pal in enumerate(view["palettes"]):
        ina = " ".join(short_piece(x) if x else "." for x in pal["inactive"])
        lines.append(f"palette {p}: {_pieces(pal['active'])} / {ina}")
    # What is under way (absent where a turn begins).
    tail = []
    if view["phase"] != "choose":
        tail.append(f"phase {view['phase']}")
    if pend["act_char"] is not None:
        tail.append(f"doing {CHAR_WORDS[CHARS.index(pend['act_char'])]} "
                    f"{'primary' if pend['act_primary'] else 'secondary'}")
    if pend["act_player"] >= 0:
        tail.append(f"actor {pend['act_player']}")
    if pend["steps_left"]:
        tail.append(f"steps {pend['steps_left']}")
    if pend["postman_used"]:
        tail.append("used " + " ".join(w for w, bit in _POSTMAN_BITS if pend["postman_used"] & bit))
    if any(pend["hand"].values()):
        tail.append("hand " + _colours(pend["hand"]))
    if pend["draws_left"]:
        tail.append(f"draws {pend['draws_left']}")
    if any(pend["roll_queue"].values()):
        tail.append("queue " + _colours(pend["roll_queue"]))
    if pend["blue_colour"] is not None:
        tail.append("blue " + COLOUR_LETTERS[COLOURS.index(pend["blue_colour"])])
    if pend["resume"] is not None:
        tail.append(f"resume {pend['resume']}")
    if pend["card_slot"] >= 0:
        tail.append(f"card-slot {pend['card_slot'] + 1} then {pend['card_resume']}")
    if pend["eor_char"]:
        tail.append("eor " + (CHAR_WORDS[pend["eor_char"]] if pend["eor_char"] < N_CHARS
                              else "end"))
    if pend["setup_k"]:
        tail.append(f"setup {pend['setup_k']}")
    if tail:
        lines.append("; ".join(tail))
    return "\n".join(lines) + "\n"


# -------------------------------------------------------------------- read
class _Reader:
    def __init__(self, game, text):
        self.r = rules_of(game)
        self.text = text
        self.where = ""

    def bad(self, problem):
        where = f" in {self.where!r}" if self.where else ""
        raise StateFormatError(f"vangogh notation{where}: {problem}")

    def int(self, tok, what, lo, hi):
        if not re.fullmatch(r"-?\d+", tok or ""):
            self.bad(f"{what} must be an integer, got {tok!r}")
        v = int(tok)
        if not lo <= v <= hi:
            self.bad(f"{what} must be from {lo} to {hi}, got {v}")
        return v

    def player(self, tok, what):
        return self.int(tok, what, 0, self.r.n - 1)

    def piece(self, tok, what):
        """A Minigogh: two letters (colour YBPGVW, orientation LSUD) or a full
        name such as blue-upright."""
        t = tok.upper()
        if len(t) == 2 and t[0] in COLOUR_LETTERS and t[1] in ORIENT_LETTERS:
            return piece_name(COLOUR_LETTERS.index(t[0]) * 4 + ORIENT_LETTERS.index(t[1]))
        try:
            return piece_name(parse_piece(tok))
        except ValueError:
            self.bad(f"{what}: {tok!r} is not a Minigogh; write a colour letter "
                     f"({'/'.join(COLOUR_LETTERS)}: yellow, blue, pink, green, purple (violet), "
                     f"white) and an orientation letter ({'/'.join(ORIENT_LETTERS)}: lying down, "
                     f"sideway, upright, upside down), e.g. BU")

    def pieces(self, toks, what):
        if toks == ["-"]:
            return []
        return [self.piece(t, f"{what} {i + 1}") for i, t in enumerate(toks)]

    def space(self, tok, what):
        return None if tok == "." else self.piece(tok, what)

    def colour(self, tok, what):
        t = tok.upper()
        if len(t) == 1 and t in COLOUR_LETTERS[:N_COLOURS]:
            return COLOUR_LETTERS.index(t)
        if tok.lower() in COLOURS:
            return COLOURS.index(tok.lower())
        self.bad(f"{what}: {tok!r} is not a colour; colours: "
                 f"{', '.join(COLOUR_LETTERS[:N_COLOURS])} ({', '.join(COLOURS)})")

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
        self.bad(f"{what}: unknown character {tok!r}; characters: {', '.join(CHAR_WORDS)}")

    def phase(self, tok, what):
        t = tok.lower().replace("-", "_")
        if t not in PHASES:
            self.bad(f"{what}: unknown phase {tok!r}; phases: {', '.join(PHASES)}")
        return t

    def card(self, tok, what):
        if not tok.startswith("#"):
            self.bad(f"{what}: a card is written #id (its id in the deck file), got {tok!r}")
        return self.int(tok[1:], what, 0, len(self.r.deck.cards) - 1)


def _statements(text):
    for raw in re.split(r"[;\n]", text):
        line = raw.split("//")[0].strip()
        if line:
            yield line


def read(game, text) -> dict:
    """The JSON view of the position the notation `text` describes (raises
    StateFormatError naming the statement and the problem)."""
    if not isinstance(text, str):
        raise StateFormatError(f"vangogh notation must be text, got {type(text).__name__}")
    rd = _Reader(game, text)
    r = rd.r
    n = r.n
    seen = {}
    taken = [0] * N_CHARS
    waiting = [[] for _ in range(N_CHARS)]
    paintings = [None] * N_PAINTINGS
    palettes = [None] * n
    framed = []
    pend = pending_at_rest(r)
    top = {"phase": "choose", "token_holder": -1, "ability_spent": 0, "brush_used": 0,
           "table": []}
    for line in _statements(text):
        rd.where = line
        head, _, rest = line.partition(" ")
        kw = head.lower().rstrip(":")
        args = rest.replace(",", " ").split()
        if kw not in KEYWORDS:
            rd.bad(f"unknown statement {head!r}; statements start with one of: "
                   f"{', '.join(KEYWORDS)}")
        key = kw
        if kw in ("painting", "palette", "waiting"):
            if not args:
                rd.bad(f"{kw}: missing its number" if kw != "waiting" else
                       "waiting: missing the character")
            key = (kw, args[0].rstrip(":").lower())
        if key in seen:
            rd.bad(f"given twice (first as {seen[key]!r})")
        seen[key] = line

        def one(what, count=1):
            if len(args) != count:
                rd.bad(f"{what} takes {count} value{'s' if count > 1 else ''}, got {len(args)}")
            return args[0]

        if kw == "round":
            top["round"] = rd.int(one("round"), "round", 1, max(r.max_rounds, r.solo_rounds))
        elif kw == "turn":
            top["turn_player"] = rd.player(one("turn"), "turn (the player whose turn it is)")
        elif kw == "chosen":
            if args != ["-"]:
                for t in args:
                    c = rd.char(t, "chosen")
                    if taken[c]:
                        rd.bad(f"chosen: {CHAR_WORDS[c]} named twice")
                    taken[c] = 1
        elif kw == "hat":
            tok = one("hat")
            top["token_holder"] = -1 if tok == "-" else rd.player(tok, "hat (token holder)")
        elif kw in ("ability", "brush"):
            word = one(kw).lower()
            done = {"ability": ("spent", "open"), "brush": ("used", "unused")}[kw]
            if word not in done:
                rd.bad(f"{kw}: write '{kw} {done[0]}' or '{kw} {done[1]}', got {word!r}")
            top["ability_spent" if kw == "ability" else "brush_used"] = int(word == done[0])
        elif kw == "scores":
            if len(args) != n:
                rd.bad(f"scores: {n} players, {len(args)} scores given")
            top["scores"] = [rd.int(t, f"score of player {p}", 0, 100000)
                             for p, t in enumerate(args)]
        elif kw == "painting":
            slot = rd.int(args[0].rstrip(":"), "painting slot", 1, N_PAINTINGS) - 1
            body = args[1:]
            if body == ["-"]:
                paintings[slot] = {"card": -1, "occupants": []}
                continue
            if not body:
                rd.bad(f"painting {slot + 1}: write '#id' and its spaces, or '-' for an empty slot")
            cid = rd.card(body[0], f"painting {slot + 1}")
            card = r.deck.cards[cid]
            spaces = body[1:]
            if len(spaces) != len(card.orient):
                rd.bad(f"painting {slot + 1}: card #{cid} has {len(card.orient)} spaces, "
                       f"{len(spaces)} written ('.' for an empty space)")
            paintings[slot] = {
                "card": cid, "name": card.name, "frame": list(card.frame),
                "orientations": [ORIENTS[o] for o in card.orient], "bonus": list(card.bonus),
                "occupants": [rd.space(t, f"painting {slot + 1} space {k + 1}")
                              for k, t in enumerate(spaces)]}
        elif kw == "framed":
            for t in args:
                cid = rd.card(t, "framed")
                if cid in framed:
                    rd.bad(f"framed: card #{cid} named twice")
                framed.append(cid)
        elif kw == "table":
            top["table"] = rd.pieces(args, "table Minigogh")
        elif kw == "waiting":
            c = rd.char(args[0], "waiting")
            waiting[c] = rd.pieces(args[1:] or ["-"], f"waiting on {CHAR_WORDS[c]}")
        elif kw == "palette":
            p = rd.player(args[0].rstrip(":"), "palette (player)")
            body = " ".join(args[1:])
            if body.count("/") != 1:
                rd.bad(f"palette {p}: write the active Minigoghs, '/', then the "
                       f"{INACTIVE} inactive spaces ('.' when empty)")
            act, ina = (x.split() for x in body.split("/"))
            ina_sp = [rd.space(t, f"palette {p} inactive space {i + 1}") for i, t in enumerate(ina)]
            if len(ina_sp) != INACTIVE:
                rd.bad(f"palette {p}: {len(ina_sp)} inactive spaces written, a palette has "
                       f"{INACTIVE} ('.' when empty)")
            palettes[p] = {"color": COLOURS[r.colours[p]],
                           "active": sorted(rd.pieces(act or ["-"], f"palette {p} active"),
                                            key=parse_piece),
                           "inactive": ina_sp}
        elif kw == "phase":
            top["phase"] = rd.phase(one("phase"), "phase")
        elif kw == "doing":
            if len(args) != 2 or args[1].lower() not in ("primary", "secondary"):
                rd.bad("doing: write the character and 'primary' or 'secondary'")
            pend["act_char"] = CHARS[rd.char(args[0], "doing")]
            pend["act_primary"] = int(args[1].lower() == "primary")
        elif kw == "actor":
            pend["act_player"] = rd.player(one("actor"), "actor")
        elif kw == "steps":
            pend["steps_left"] = rd.int(one("steps"), "steps", 0, 3)
        elif kw == "used":
            words = dict(_POSTMAN_BITS)
            for t in args:
                if t.lower() not in words:
                    rd.bad(f"used: {t!r} is not a palette action (paint, restart, epiphany)")
                pend["postman_used"] |= words[t.lower()]
        elif kw == "hand":
            pend["hand"] = rd.colour_counts(args, "hand")
        elif kw == "draws":
            pend["draws_left"] = rd.int(one("draws"), "draws", 0, 3)
        elif kw == "queue":
            pend["roll_queue"] = rd.colour_counts(args, "queue")
        elif kw == "blue":
            pend["blue_colour"] = COLOURS[rd.colour(one("blue"), "blue")]
        elif kw == "resume":
            pend["resume"] = rd.phase(one("resume"), "resume")
        elif kw == "card-slot":
            if len(args) != 3 or args[1].lower() != "then":
                rd.bad("card-slot: write 'card-slot K then PHASE'")
            pend["card_slot"] = rd.int(args[0], "card-slot", 1, N_PAINTINGS) - 1
            pend["card_resume"] = rd.phase(args[2], "card-slot ... then")
        elif kw == "eor":
            tok = one("eor")
            pend["eor_char"] = N_CHARS if tok.lower() == "end" else rd.char(tok, "eor")
        elif kw == "setup":
            pend["setup_k"] = rd.int(one("setup"), "setup", 0, 2 * n)
    rd.where = ""
    for need in ("round", "turn", "scores"):
        if need not in seen:
            rd.bad(f"missing the '{need}' statement")
    for slot in range(N_PAINTINGS):
        if paintings[slot] is None:
            rd.bad(f"missing 'painting {slot + 1}: ...' ('-' for an empty slot)")
    for p in range(n):
        if palettes[p] is None:
            rd.bad(f"missing 'palette {p}: ...'")
    open_cards = [pv["card"] for pv in paintings if pv["card"] >= 0]
    for cid in framed:
        if cid in open_cards:
            rd.bad(f"card #{cid} is both open and framed")
    deck = [i for i in range(len(r.deck.cards)) if i not in framed and i not in open_cards]

    # Derived: the turn number, the round's starter, the Anna ability's owner.
    tpr = r.turns_per_round
    turn = sum(taken) - (1 if pend["act_char"] is not None else 0)
    if not 0 <= turn <= tpr:
        rd.bad(f"chosen: {sum(taken)} characters chosen, a round has {tpr} turns")
    tp = top["turn_player"]
    starter = (tp - min(turn, tpr - 1)) % n
    ability_player = (top["token_holder"] if taken[ANNA] and not r.solo
                      and top["token_holder"] >= 0 else -1)
    if pend["act_char"] is not None and not pend["act_primary"] and not r.solo:
        pend["sec_k"] = (pend["act_player"] - tp) % n
    # The bag and the white supply: the box minus what is visible.
    visible = [0] * (N_COLOURS + 1)

    def see(name):
        visible[parse_piece(name) // 4] += 1
    for x in top["table"]:
        see(x)
    for w in waiting:
        for x in w:
            see(x)
    for pv in paintings:
        for x in pv["occupants"]:
            if x:
                see(x)
    for pal in palettes:
        for x in pal["active"] + [y for y in pal["inactive"] if y]:
            see(x)
    for c in range(N_COLOURS):
        visible[c] += pend["hand"][COLOURS[c]] + pend["roll_queue"][COLOURS[c]]
    if pend["blue_colour"] is not None:
        visible[COLOURS.index(pend["blue_colour"])] += 1
    bag = {}
    for c in range(N_COLOURS):
        left = BOX_PER_COLOUR - 1 - visible[c]
        if left < 0:
            rd.bad(f"{visible[c]} {COLOURS[c]} Minigoghs are in play; the box has "
                   f"{BOX_PER_COLOUR - 1} besides the score token")
        bag[COLOURS[c]] = left
    whites = BOX_WHITES - visible[WHITE]
    if whites < 0:
        rd.bad(f"{visible[WHITE]} white Minigoghs are in play; the box has {BOX_WHITES}")
    view = {
        "players": n, "colors": [COLOURS[c] for c in r.colours],
        "phase": top["phase"], "current_player": None,
        "round": top["round"], "turn": turn, "first_starter": r.start,
        "round_starter": starter, "turn_player": tp, "token_holder": top["token_holder"],
        "ability_player": ability_player, "ability_spent": top["ability_spent"],
        "brush_used": top["brush_used"], "finished": len(framed),
        "scores": top["scores"], "bag": bag, "whites": whites,
        "table": sorted(top["table"], key=parse_piece),
        "characters": [{"name": CHARS[c], "taken": taken[c], "waiting": waiting[c]}
                       for c in range(N_CHARS)],
        "paintings": paintings, "deck": deck, "palettes": palettes, "pending": pend,
    }
    view["current_player"] = current_player_of(view)
    return view
