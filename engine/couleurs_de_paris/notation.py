"""The Couleurs de Paris table notation: the table as a person writes it down,
and back (ENCODING.md, "Table notation"; the rules every game's notation
shares: docs/table-notation.md).

`write(game, view) -> str` writes the shortest form: the supply and the deck
(the box less the table), scores, the last-round flag, the assistants hired
(from the bonus track), those left to place, the first player and rotation
of round 1 and the step counters the phase fixes are left out, and so are
empty sections. `read(game, text) -> view` accepts derived parts written
anyway and checks them, fills the rest and loads the view (view.py, which
checks the invariants of play, RULINGS.md I1-I13); every refusal, its own or
the loader's, names the notation's lines and fields and what to write.
"""
from __future__ import annotations

import re

from easel.engine.contract_ids import PLAYER_CHANCE, PLAYER_TERMINAL
from easel.engine.errors import StateFormatError
from easel.engine.tablenotation import Reader, echo, find_card, int_word

from .data import ACTION_NAMES, POSITIONS, SPACES, SUPPLY_COLOURS, TOOLS
from .rules import (BRUSH, CENTRE_NAMES, CHANCE_PHASES, LOCATION_NAMES, N_WHEEL, PHASES,
                    START_ASSISTANTS, amount, kind_at, position_of, rules_of)

GAME = "couleurs_de_paris"# The keywords of the derived parts: checked when written, never written
# (tests/test_notation.py).
DERIVED = ("supply", "deck", "score", "assistants")
TOP = ("round", "phase", "first", "rotation", "claims", "easels", "removed", "pending",
       "supply", "deck", "player")
SECTION = ("pigments", "tools", "bonus", "painting", "standing", "lying", "assistants",
           "place", "score")
PENDING = ("tool", "pay_left", "pay_min", "painted", "paint_left", "seat_k", "keep")
_LETTER = {"red": "r", "orange": "o", "yellow": "y", "green": "g", "blue": "b",
           "violet": "v", "white": "w", "black": "k"}
_COLOUR = {v: k for k, v in _LETTER.items()}
BONUS = ("assistant", "points")
# The centre spaces as the action texts name them (rules.LOCATION_NAMES).
CENTRE_WORDS = dict(zip(CENTRE_NAMES, LOCATION_NAMES[N_WHEEL:]))


class Names:
    """Paintings by name, or `#id` (the id printed on the card, the data file's)."""

    def __init__(self, data):
        self.titles = [c.name for c in data.paintings]
        self.ids = [str(c.id) for c in data.paintings]
        low = [t.lower() for t in self.titles]
        # The placeholder data names a painting by its id ("painting 12"): the
        # printed id is then the shorter name.
        self.shown = [t if low.count(t.lower()) == 1 and not set(t) & set(";:=,")
                      and t != f"painting {cid}" else f"#{cid}"
                      for t, cid in zip(self.titles, self.ids)]

    def name(self, c):
        return self.shown[c]

    def names(self, cards):
        return "; ".join(self.shown[c] for c in cards) or "none"


def _counts(counts) -> str:
    return " ".join(f"{c} {k}" for c, k in counts.items() if k) or "none"


def _location_words(r, view, p, how):
    """Where player p's assistants stand (or lie), by the action they face."""
    out = []
    for q, lv in enumerate(view["lower_board"]):
        out += [LOCATION_NAMES[kind_at(r, view["rotation"], q)]] * lv[how].count(p)
    for name in CENTRE_NAMES:
        out += [CENTRE_WORDS[name]] * view["upper_board"][name][how].count(p)
    return out


# -- what is derived ------------------------------------------------------------------------

def first_default(r, v):
    return r.first if v["round"] == 1 else None


START_PIGMENTS = {"red": 1, "yellow": 1, "blue": 1}       # §3


def pigments_default(v, p):
    """A player who has not acted in round 1 holds the starting pigments (§3, I9)."""
    lying = sum(lv["lying"].count(p) for lv in v["lower_board"]) + sum(
        u["lying"].count(p) for u in v["upper_board"].values())
    start = v["round"] == 1 and (v["phase"] in ("deal", "place") or not lying)
    return {c: START_PIGMENTS.get(c, 0) if start else 0 for c in SUPPLY_COLOURS}


def hired_of(b):
    return START_ASSISTANTS + sum(1 for t in TOOLS if b["bonus"][t] == "assistant")


def to_place_of(r, v, p):
    if v["phase"] != "place":
        return 0
    on = sum(lv["standing"].count(p) + lv["lying"].count(p) for lv in v["lower_board"]) + sum(
        u["standing"].count(p) + u["lying"].count(p) for u in v["upper_board"].values())
    return max(v["boards"][p]["assistants"] - on, 0)


def pending_default(r, v, key, cur):
    ph, pend = v["phase"], v["pending"]
    if key == "tool":
        return None
    if key == "pay_left":
        return 2 if ph == "pay" else 0
    if key == "pay_min":
        return "red"
    if key == "painted":
        return 0
    if key == "paint_left":
        if ph != "paint" or cur < 0:
            return 0
        return amount(r, BRUSH, v["boards"][cur]["tools"]["brush"]) - pend["painted"]
    if key == "seat_k":
        return (cur - v["first_player"]) % r.n if ph in ("discard", "stand") and cur >= 0 \
            else 0
    return [None] * r.n         # keep


def _score(b, data):
    total = 6 * b["pigments"]["black"]
    for t in TOOLS:
        total += 10 if b["tools"][t] == 8 else (6 if b["bonus"][t] == "points" else 0)
    for pv in b["paintings"]:
        if pv["finished"]:
            total += data.paintings[pv["card"]].value - 2 * pv["filled"].count("white")
    return total


# -- writing ---------------------------------------------------------------------------------

def write(game, view) -> str:
    r = rules_of(game)
    names = Names(r.data)
    v = view
    cur = v["current_player"]
    lines = [game.spec, f"round {v['round']}",
             f"phase {v['phase']}" + (f" player {cur + 1}" if cur >= 0 else "")]
    if v["first_player"] != first_default(r, v):
        lines.append(f"first player {v['first_player'] + 1}")
    if v["rotation"]:
        lines.append(f"rotation {v['rotation']}")
    claims = [f"{what} player {v['claims'][key] + 1}"
              for key, what in (("first player", "first"), ("rotate", "rotate"))
              if v["claims"][key] is not None]
    if claims:
        lines.append("claims " + " ".join(claims))
    lines.append("easels " + "; ".join("-" if c is None else names.name(c)
                                       for c in v["easels"]))
    if v["removed"]:
        lines.append(f"removed {names.names(v['removed'])}")
    words = []
    for key in PENDING:
        value = v["pending"][key]
        if value == pending_default(r, v, key, cur):
            continue
        if key == "keep":
            value = ",".join("-" if x is None else str(x) for x in value)
        words.append(f"{key}={'none' if value is None else value}")
    if words:
        lines.append("pending " + " ".join(words))
    for p, b in enumerate(v["boards"]):
        lines.append(f"player {p + 1}")
        if b["pigments"] != pigments_default(v, p):
            lines.append(f"  pigments {_counts(b['pigments'])}")
        if any(b["tools"][t] != 1 for t in TOOLS):
            lines.append("  tools " + " ".join(f"{t} {b['tools'][t]}" for t in TOOLS
                                               if b["tools"][t] != 1))
        if any(b["bonus"].values()):
            lines.append("  bonus " + " ".join(f"{t} {b['bonus'][t]}" for t in TOOLS
                                               if b["bonus"][t]))
        if b["to_place"] != to_place_of(r, v, p):
            lines.append(f"  place {b['to_place']}")
        for how in ("standing", "lying"):
            where = _location_words(r, v, p, how)
            if where:
                lines.append(f"  {how} " + "; ".join(where))
        for pv in b["paintings"]:
            lines.append(f"  painting {names.name(pv['card'])}: "
                         + "".join(_LETTER[x] if x else "." for x in pv["filled"]))
    return "\n".join(lines) + "\n"


# -- reading ---------------------------------------------------------------------------------

class _Reader(Reader):
    game_name = GAME
    top_keys = TOP
    section_keys = SECTION
    repeatable = ("painting",)
    card_word = "painting"

    def __init__(self, game, text):
        self.r = rules_of(game)
        super().__init__(game, text, self.r.n, Names(self.r.data))

    def player(self, line, words, what):
        """'player P' (or 'P') -> P - 1."""
        w = [x.lower() for x in words]
        if len(w) == 2 and w[0] == "player":
            w = w[1:]
        x = int_word(w[0], 1, self.r.n) if len(w) == 1 else None
        if x is None:
            self.bad(line, what, f"{echo(' '.join(words))}", f"player P, P from 1 to "
                                                             f"{self.r.n}")
            return None
        return x - 1

    def counts(self, line, words, what):
        return super().counts(line, words, what, SUPPLY_COLOURS,
                              lambda c: self.r.supply[SUPPLY_COLOURS.index(c)])


def read(game, text) -> dict:
    """A JSON view from the notation, the derived parts derived and checked;
    refused with every wrong line and field named (Refusals)."""
    if not isinstance(text, str):
        raise StateFormatError(f"{GAME} notation must be text, got {type(text).__name__}")
    rd = _Reader(game, text)
    top, players = rd.sort()
    view = _build(rd, top, players)
    rd.out.raise_any()
    from .reference import CouleursState
    from .view import state_from_view
    rd.load(view, lambda v: state_from_view(CouleursState, game, v),
            lambda f: _words(rd, f), lambda f, c: _value(rd, f, c))
    return view


def _build(rd, top, players):
    r = rd.r
    n = r.n
    data = r.data
    v = {"players": n}
    # -- round, phase, who decides, first player, rotation, claims
    v["round"] = 1
    if "round" not in top:
        rd.out.add("round", "not written", "round R (R from 1)")
    else:
        ln = top["round"]
        v["round"] = rd.int(ln, (ln.words or [""])[0], "round", 1, r.max_rounds) or 1
    v["phase"], cur = "place", -1
    ln = top.get("phase")
    if ln is None:
        rd.out.add("phase", "not written", "phase NAME [player P], NAME one of "
                   + ", ".join(PHASES))
    else:
        w = [x.lower() for x in ln.words]
        if not w or w[0] not in PHASES:
            rd.bad(ln, "phase", f"unknown phase {echo(' '.join(w[:1]))}",
                   "one of " + ", ".join(PHASES))
        else:
            v["phase"] = w[0]
        if len(w) == 3 and w[1] == "player":
            cur = rd.player(ln, w[1:], "phase player")
            cur = 0 if cur is None else cur
        elif len(w) != 1:
            rd.bad(ln, "phase", f"{echo(ln.rest)}: expected phase NAME [player P]")
    chance = PHASES.index(v["phase"]) in CHANCE_PHASES
    if v["phase"] == "end":
        v["current_player"] = PLAYER_TERMINAL
    elif chance:
        v["current_player"] = PLAYER_CHANCE
    else:
        if cur < 0 and ln is not None:
            rd.bad(ln, "phase player", f"in phase {v['phase']} a player decides",
                   f"phase {v['phase']} player P")
        v["current_player"] = max(cur, 0)
    if (chance or v["phase"] == "end") and cur >= 0:
        rd.bad(ln, "phase player", f"nobody decides in phase {v['phase']}",
               f"phase {v['phase']}")
    v["first_player"] = first_default(r, v)
    if "first" in top:
        ln = top["first"]
        x = rd.player(ln, ln.words, "first")
        if x is not None:
            v["first_player"] = x
    if v["first_player"] is None:
        rd.out.add("first (not written)", "after round 1 the 1st Player token has moved "
                   "(§21): write who holds it", "first player P")
        v["first_player"] = r.first
    v["rotation"] = 0
    if "rotation" in top:
        ln = top["rotation"]
        v["rotation"] = rd.int(ln, (ln.words or [""])[0], "rotation", 0, POSITIONS - 1) or 0
    v["claims"] = {"first player": None, "rotate": None}
    if "claims" in top:
        ln = top["claims"]
        w = [x.lower() for x in ln.words]
        for k in range(0, len(w), 3):
            part = w[k:k + 3]
            key = {"first": "first player", "rotate": "rotate"}.get(part[0])
            x = rd.player(ln, part[1:], f"claims {part[0]}") if key and len(part) == 3 \
                else None
            if key is None or len(part) != 3:
                rd.bad(ln, "claims", f"{echo(' '.join(part))}", "claims [first player P] "
                                                                "[rotate player P]")
            elif x is not None:
                v["claims"][key] = x
    # -- the paintings on the table
    easels = []
    if "easels" not in top:
        rd.out.add("easels", "not written", "easels A; B; C (names or #id, - when empty)")
        easels = [None] * r.easels
    else:
        ln = top["easels"]
        slots = [x.strip() for x in ln.rest.split(";")]
        if len(slots) != r.easels:
            rd.bad(ln, "easels", f"{len(slots)} easels written; the game has {r.easels}, "
                                 f"separated by ';', - when empty")
        easels = [None if t in ("-", "") else rd.card(ln, t, f"easel {e + 1}")
                  for e, t in enumerate(slots[:r.easels])]
        easels += [None] * (r.easels - len(easels))
    v["easels"] = easels
    removed = []
    if "removed" in top:
        ln = top["removed"]
        if ln.rest.strip().lower() not in ("", "none", "-"):
            removed = sorted(c for c in (rd.card(ln, t.strip(), "removed")
                                         for t in ln.rest.split(";")) if c is not None)
    # -- the boards
    lower = [{"position": q + 1, "action": ACTION_NAMES[kind_at(r, v["rotation"], q)],
              "spaces": r.capacity[q], "standing": [], "lying": []} for q in range(POSITIONS)]
    upper = {name: {"standing": [], "lying": []} for name in CENTRE_NAMES}
    boards = []
    for p in range(n):
        sec = players.get(p, {})
        b = {"pigments": {c: 0 for c in SUPPLY_COLOURS}, "tools": {t: 1 for t in TOOLS},
             "bonus": {t: None for t in TOOLS}, "paintings": []}
        if "tools" in sec:
            _tools(rd, sec["tools"], p, b)
        if "bonus" in sec:
            _bonus(rd, sec["bonus"], p, b)
        for how in ("standing", "lying"):
            if how in sec:
                _places(rd, sec[how], p, how, v["rotation"], lower, upper)
        for ln in sec.get("painting", []):
            pv = _painting(rd, ln, p)
            if pv is not None:
                b["paintings"].append(pv)
        b["paintings"].sort(key=lambda pv: pv["card"])
        b["assistants"] = hired_of(b)
        if "assistants" in sec:
            ln = sec["assistants"]
            x = rd.int(ln, (ln.words or [""])[0], f"player {p + 1} assistants", 3, 6)
            if x is not None and x != b["assistants"]:
                rd.bad(ln, f"player {p + 1} assistants", f"the bonus track has hired "
                       f"{b['assistants'] - START_ASSISTANTS} beyond the first "
                       f"{START_ASSISTANTS} (§3, §12)", f"{b['assistants']} or leave it out")
        boards.append(b)
    v["lower_board"], v["upper_board"], v["boards"] = lower, upper, boards
    for p, b in enumerate(boards):
        sec = players.get(p, {})
        b["pigments"] = pigments_default(v, p)
        if "pigments" in sec:
            b["pigments"] = rd.counts(sec["pigments"], sec["pigments"].words,
                                      f"player {p + 1} pigments")
        b["to_place"] = to_place_of(r, v, p)
        if "place" in sec:
            ln = sec["place"]
            x = rd.int(ln, (ln.words or [""])[0], f"player {p + 1} place", 0, 6)
            if x is not None:
                b["to_place"] = x
    # -- pending
    pend = {}
    written = _read_pending(rd, top.get("pending"), pend)
    v["pending"] = pend
    for key in PENDING:
        if key not in written:
            pend[key] = pending_default(r, v, key, cur)
    # -- derived: the supply, the deck, scores, the last round
    _derive_hidden(rd, v, top, removed, players)
    for p, b in enumerate(boards):
        sec = players.get(p, {})
        score = _score(b, data)
        if "score" in sec:
            ln = sec["score"]
            x = rd.int(ln, (ln.words or [""])[0], f"player {p + 1} score", 0, 100000)
            if x is not None and x != score:
                rd.bad(ln, f"player {p + 1} score", f"{x} written, the board gives {score} "
                       f"(§24)", f"{score} or leave it out")
    v["scores"] = [_score(b, data) for b in boards]
    v["final_round"] = (max((sum(1 for pv in b["paintings"] if pv["finished"])
                             for b in boards), default=0) >= 2
                        or (v["supply"]["black"] == 0 and r.supply[7] > 0))
    v["removed"] = removed
    boards[:] = [{k: b[k] for k in ("pigments", "tools", "bonus", "assistants", "to_place",
                                    "paintings")} for b in boards]
    order = ("players", "phase", "current_player", "round", "first_player", "rotation",
             "final_round", "lower_board", "upper_board", "claims", "supply", "easels", "deck",
             "removed", "boards", "scores", "pending")
    return {k: v[k] for k in order}


def _tools(rd, ln, p, b):
    w = ln.rest.lower().split()
    k = 0
    while k < len(w):
        name = next((t for t in TOOLS if w[k:k + len(t.split())] == t.split()), None)
        if name is None:
            rd.bad(ln, f"player {p + 1} tools", f"unknown tool {echo(w[k])}",
                   "tools paint tube L palette L brush L (levels 1 to 8; 1 left out)")
            return
        k += len(name.split())
        x = rd.int(ln, w[k] if k < len(w) else "", f"player {p + 1} tools {name}", 1, 8)
        if x is not None:
            b["tools"][name] = x
        k += 1


def _bonus(rd, ln, p, b):
    w = ln.rest.lower().split()
    k = 0
    while k < len(w):
        name = next((t for t in TOOLS if w[k:k + len(t.split())] == t.split()), None)
        k += len(name.split()) if name else 1
        what = w[k] if k < len(w) else ""
        if name is None or what not in BONUS:
            rd.bad(ln, f"player {p + 1} bonus", f"{echo(ln.rest)}",
                   "bonus TOOL assistant|points ... (tools: paint tube, palette, brush)")
            return
        b["bonus"][name] = what
        k += 1


def _places(rd, ln, p, how, rot, lower, upper):
    r = rd.r
    low = [x.lower() for x in LOCATION_NAMES]
    for t in ln.rest.split(";"):
        key = " ".join(t.split()).lower()
        if key not in low:
            rd.bad(ln, f"player {p + 1} {how}", f"no space {echo(t.strip())}",
                   "one of " + ", ".join(LOCATION_NAMES))
            continue
        loc = low.index(key)
        if loc < N_WHEEL:
            lower[position_of(r, rot, loc)][how].append(p)
        else:
            upper[CENTRE_NAMES[loc - N_WHEEL]][how].append(p)
    for spot in list(lower) + list(upper.values()):
        spot[how].sort()


def _painting(rd, ln, p):
    data = rd.r.data
    title, colon, spaces = ln.rest.rpartition(":")
    what = f"player {p + 1} painting"
    if not colon:
        rd.bad(ln, what, "a painting line is 'painting NAME: 9 letters' (r o y g b v, w "
                         "white, . empty)")
        return None
    c = rd.card(ln, title.strip(), what)
    if c is None:
        return None
    card = data.paintings[c]
    want = "".join(_LETTER[SUPPLY_COLOURS[x]] for x in card.spaces)
    what = f"player {p + 1} painting {rd.names.name(c)}"
    letters = spaces.strip().lower()
    if len(letters) != SPACES or any(ch not in (".", "w", want[j])
                                     for j, ch in enumerate(letters)):
        rd.bad(ln, what, f"{echo(letters)}: one letter per space, the space's colour "
                         f"({want}), w (white) or . (empty)",
               "".join(ch if j < len(letters) and letters[j] in (".", "w", ch) else "."
                       for j, ch in enumerate(want)))
        return None
    filled = [None if ch == "." else _COLOUR[ch] for ch in letters]
    return {"card": c, "name": card.name, "value": card.value,
            "spaces": [SUPPLY_COLOURS[x] for x in card.spaces], "filled": filled,
            "finished": None not in filled}


_PAIR = re.compile(r"(\w+)=")


def _read_pending(rd, ln, pend):
    written = {}
    if ln is None:
        return written
    n = rd.r.n
    parts = _PAIR.split(" " + ln.rest)
    if parts[0].strip():
        rd.bad(ln, "pending", f"{echo(parts[0].strip())}: expected key=value ...")
    for k in range(1, len(parts), 2):
        key, text = parts[k].lower(), parts[k + 1].strip().lower()
        what = f"pending {key}"
        if key not in PENDING:
            rd.bad(ln, what, f"unknown key {echo(key)}", "one of " + ", ".join(PENDING))
            continue
        if key == "tool":
            val = None if text in ("none", "-") else text
            if val is not None and val not in TOOLS:
                rd.bad(ln, what, f"{echo(text)}", "one of " + ", ".join(TOOLS))
                continue
        elif key == "pay_min":
            if text not in SUPPLY_COLOURS[:7]:
                rd.bad(ln, what, f"{echo(text)}", "a colour other than black")
                continue
            val = text
        elif key == "keep":
            xs = [None if x.strip() in ("-", "none") else int_word(x.strip(), 1, POSITIONS)
                  for x in text.split(",")]
            if len(xs) != n or any(x is None and t.strip() not in ("-", "none")
                                   for x, t in zip(xs, text.split(","))):
                rd.bad(ln, what, f"{echo(text)}", f"{n} entries, a lower-board position 1 "
                                                  f"to {POSITIONS} or -, comma-separated")
                continue
            val = xs
        else:
            val = rd.int(ln, text, what, 0, 20)
            if val is None:
                continue
        written[key] = val
        pend[key] = val
    return written


def _derive_hidden(rd, v, top, removed, players):
    """The supply is the box less the table (§3, I1); the deck is every
    painting not on the table (a painting left out is in the deck, never
    removed: `removed` is written). Written anyway, they are checked."""
    r, names = rd.r, rd.names
    holders = {c: [] for c in SUPPLY_COLOURS}
    for p, b in enumerate(v["boards"]):
        sec = players.get(p, {})
        for c in SUPPLY_COLOURS:
            if b["pigments"][c]:
                ln = sec.get("pigments")
                holders[c].append((f"line {ln.no} (player {p + 1} pigments)"
                                   if ln else f"player {p + 1} pigments", b["pigments"][c]))
        for pv in b["paintings"]:
            if pv["finished"]:
                continue
            for c in SUPPLY_COLOURS:
                k = pv["filled"].count(c)
                if k:
                    holders[c].append((f"player {p + 1} painting {names.name(pv['card'])}", k))
    supply = {}
    for k, c in enumerate(SUPPLY_COLOURS):
        total = sum(x for _, x in holders[c])
        supply[c] = r.supply[k] - total
        if supply[c] < 0:
            rd.out.add(", ".join(w for w, _ in holders[c]),
                       f"{total} {c} pigments on the table; the box holds {r.supply[k]} (§3)",
                       f"{total - r.supply[k]} {c} fewer among them")
            supply[c] = 0
    if "supply" in top:
        wrote = rd.counts(top["supply"], top["supply"].words, "supply")
        if wrote != supply:
            rd.bad(top["supply"], "supply", "the supply is the box less the table (§3)",
                   f"supply {_counts(supply)} or leave it out")
    v["supply"] = supply
    deck = [c for c in range(len(r.data.paintings)) if c not in rd.placed]
    if "deck" in top:
        ln = top["deck"]
        wrote = set()
        for t in ([] if ln.rest.strip().lower() in ("", "none", "-") else ln.rest.split(";")):
            if rd.out.full:
                break
            c, hint = find_card(t.strip(), names.titles, names.ids)
            if c is None:
                rd.bad(ln, "deck", f"no painting {echo(t.strip())}; {hint}")
            else:
                wrote.add(c)
        if wrote != set(deck):
            rd.bad(ln, "deck", "the deck is every painting not on the table",
                   f"deck {names.names(deck)} or leave it out")
    v["deck"] = deck


# -- the loader's refusals, in the notation's words -----------------------------------------------

_BOARD = re.compile(r"boards\[(\d+)\]\.?(\w*)")


def _words(rd, field):
    """A view field as the notation names it, with its line when written."""
    m = _BOARD.match(field)
    if m:
        p = int(m.group(1))
        key = {"to_place": "place", "paintings": "painting"}.get(m.group(2), m.group(2))
        return rd.in_section(p, key, f"player {p + 1} {key}".strip())
    if field.startswith(("lower_board", "upper_board")):
        return "the players' standing and lying lines"
    if field == "boards":
        return "the players' sections"
    name = {"first_player": "first", "current_player": "phase",
            "claims.first player": "claims first", "claims.rotate": "claims rotate"
            }.get(field, field)
    return rd.written(name, name.split(".")[0].split()[0])


def _value(rd, field, consistent):
    if consistent is None:
        return None
    if consistent == "null":
        return "nothing there (leave it out)"
    if field in ("first_player", "current_player") and isinstance(consistent, int) \
            and consistent >= 0:
        return f"player {consistent + 1}"
    if field == "removed" and isinstance(consistent, list):
        return rd.names.names(consistent)
    if field.startswith("pending.keep") and consistent == "null":
        return "-"
    return consistent
