"""The Starving Artists table notation: the table as a person writes it down,
and back (ENCODING.md, "Table notation"; the rules every game's notation
shares: docs/table-notation.md).

`write(game, view) -> str` writes the shortest form: what is derived (the
bag, the unseen canvases, stars, food earned, the carrot, the round where the
phase fixes it, the turn's counters) and what is at its default (an empty
studio, no sold paintings, no `pending` line between turns) is left out.
`read(game, text) -> view` accepts derived parts written anyway and checks
them, fills the rest, and loads the view (view.state_from_view, which checks
the invariants of play, RULINGS.md I1-I12), so that every refusal, its own or
the loader's, names the notation's lines and fields and what to write.
"""
from __future__ import annotations

import re

from easel.engine.errors import StateFormatError
from easel.engine.tablenotation import Reader, echo, find_card, int_word

from .rules import (BOX, CUBE_NAMES, FULL, MARKET, PAY_FOR, PHASES, max_days, parse_cube,
                    rules_of)

GAME = "starving_artists"# The keywords of the derived parts: checked when written, never written
# (tests/test_notation.py).
DERIVED = ("bag", "unseen", "stars", "first", "alive", "starved")
TOP = ("day", "round", "phase", "first", "market", "pile", "under", "removed", "result",
       "pending", "bag", "unseen", "player")
SECTION = ("nutrition", "cubes", "canvas", "paintings", "free", "food", "stars", "alive",
           "starved")
# The pending keys a notation may write (the JSON view's, less `actor`, which
# the phase line names; `slot` is a purchase's market slot, 1-based).
PENDING = ("resume", "pay_for", "slot", "held", "pay_left", "take_left", "paints_left", "draws_left",
           "draw_to", "main_done", "actions_left", "turn_k", "dawn_k", "dusk_k",
           "starved_today", "setup_k", "selling", "order", "got", "coll_i", "turn_taken",
           "turn_wild", "feed_k", "fed", "adv_card", "adv_k")
TURNISH = ("turn", "paint", "pay", "take")
SALE = ("announce", "feed", "collect")
RESULT = {"won": 1, "lost": -1}


# -- the deck's names ------------------------------------------------------------------------

class Names:
    """Canvases by title (the id of the canvas file where two share a title)."""

    def __init__(self, deck):
        self.titles = [c.title for c in deck.cards]
        self.ids = [c.id for c in deck.cards]
        low = [t.lower() for t in self.titles]
        self.shown = [t if low.count(t.lower()) == 1 and not set(t) & set(";:=")
                      else "#" + cid for t, cid in zip(self.titles, self.ids)]

    def name(self, i):
        return self.shown[i]

    def names(self, idx):
        return "; ".join(self.shown[i] for i in idx) or "none"


def _cube_name(word):
    try:
        return CUBE_NAMES[parse_cube(word)]
    except ValueError:
        return None


def _cubes(counts) -> str:
    return " ".join(f"{c} {counts[c]}" for c in CUBE_NAMES if counts[c]) or "none"


# -- what is derived, in the order the reader derives it ----------------------------------------

def _where(ph, resume):
    """The part of the day (consistency.Where, on the view's names)."""
    return {"setup": ph == "setup" or (ph == "canvas" and resume == "dawn"),
            "dawn": (ph == "draw" and resume == "dawn") or ph == "supper",
            "turn": ph in TURNISH or (ph in ("draw", "canvas") and resume == "turn"),
            "feed": ph == "draw" and resume == "feed",
            "end": ph == "end"}


def round_of(r, v):
    """The round where the phase fixes it (RULINGS.md I6), else None."""
    pend = v["pending"]
    w = _where(v["phase"], pend["resume"])
    if r.solo or w["setup"] or (w["dawn"] and v["day"] == 1):
        return 1
    if w["dawn"] or w["end"] or v["phase"] in ("announce", "collect") or w["feed"]:
        return 2
    return None


def base_first(r, day):
    return 0 if r.solo else (r.start + day - 1) % r.n


def first_of(r, v):
    """The carrot (I5): it passes each evening, and from a starved player at once."""
    base = base_first(r, v["day"])
    if r.solo:
        return 0
    alive = [st["alive"] for st in v["studios"]]
    w = _where(v["phase"], v["pending"]["resume"])
    if w["dawn"] or (w["end"] and not any(alive)):
        return base
    return next(((base + k) % r.n for k in range(r.n) if alive[(base + k) % r.n]), base)


def nutrition_of(r, v, p, first):
    """Nutrition of a player who never ate: 5 less a drop a dawn from day 2 (I4)."""
    d, ph, pend = v["day"], v["phase"], v["pending"]
    if d == 1:
        drops = 0
    else:
        if r.solo:
            done = ph != "supper"
        elif ph == "supper":
            done = (p - first) % r.n < pend["dawn_k"] - 1
        else:
            done = not (ph == "draw" and pend["resume"] == "dawn")
        drops = d - 1 if done else d - 2
    return max(FULL - drops, 0)


def sellers(r, v, first):
    owners = {_owner(v, i) for i in v["pending"]["selling"]}
    return [(first + k) % r.n for k in range(r.n) if (first + k) % r.n in owners]


def _owner(v, i):
    for p, st in enumerate(v["studios"]):
        if any(cv["canvas"] == i for cv in st["canvases"]):
            return p
    return -1


def food_of(r, v, p, first):
    """Food earned: the food of the canvases sold, and of those being sold whose
    painter has eaten (I3)."""
    cards = r.deck.cards
    eaten = sum(cards[i].food for i in v["studios"][p]["paintings"])
    ph, pend = v["phase"], v["pending"]
    if pend["selling"] and (ph == "collect" or _where(ph, pend["resume"])["feed"]):
        sel = sellers(r, v, first)
        fed = sel if ph == "collect" else sel[:pend["feed_k"] + 1]
        if p in fed:
            eaten += sum(cards[i].food for i in pend["selling"] if _owner(v, i) == p)
    return eaten


def pending_default(r, v, key, first):
    """The value of pending `key` a person need not write (the rest of `v`
    known): fixed by the phase, derived from the rest, or the usual one."""
    ph, pend = v["phase"], v["pending"]
    res, actor = pend.get("resume"), pend["actor"]
    w = _where(ph, res)
    if key == "resume":
        return None
    if key == "held":
        return {c: 0 for c in CUBE_NAMES}
    if key == "pay_for":
        return None
    if key == "pay_arg":
        if pend["pay_for"] == "trade":
            paid = sum(pend["held"].values()) + pend["pay_left"]
            return next((t for t, (pay, _) in enumerate(r.trades, start=1) if pay == paid), 1)
        return None
    if key == "pay_left":
        return 0 if ph != "pay" else (pend["pay_arg"] if pend["pay_for"] == "buy" else
                                      2 if pend["pay_for"] == "reset" else 1)
    if key == "take_left":
        trade = pend["pay_arg"]                   # counted from 1, as the view counts it
        if ph == "pay" and pend["pay_for"] == "trade" and trade and 1 <= trade <= len(r.trades):
            return r.trades[trade - 1][1]
        return 1 if ph == "take" else 0
    if key == "paints_left":
        return 4 if ph == "paint" else 0
    if key == "draws_left":
        return 0 if ph != "draw" else 4 if res in ("dawn", "feed") else 3
    if key == "main_done":
        if r.solo or not w["turn"]:
            return 0
        return 1 if ph in ("paint", "draw", "canvas") or (
            ph == "pay" and pend["pay_for"] == "buy") else 0
    if key == "actions_left":
        if not r.solo or not (w["turn"] or ph in SALE):
            return 0
        return 1 if ph in ("paint", "draw", "canvas") or (
            ph == "pay" and pend["pay_for"] == "buy") else 2
    if key == "turn_k":
        return (actor - first) % r.n if (w["turn"] or ph == "announce") and actor >= 0 and \
            not r.solo else 0
    if key == "dawn_k":
        if ph == "draw" and res == "dawn":
            return 2 if r.solo else 1
        return (actor - first) % r.n + 1 if ph == "supper" and not r.solo and actor >= 0 else 0
    if key == "dusk_k":
        return 1 if ph == "canvas" and res == "dusk" else 0
    if key == "starved_today":
        return 0 if all(st["alive"] for st in v["studios"]) else 1
    if key == "setup_k":
        return sum(sum(st["cubes"].values()) for st in v["studios"]) if ph == "setup" else 0
    if key == "draw_to":
        if ph != "draw" or res == "dawn":
            return -1
        if res == "turn":
            return actor
        sel = sellers(r, v, first)
        return sel[pend["feed_k"]] if pend["feed_k"] < len(sel) else -1
    if key == "selling":
        return []
    if key == "order":
        if ph != "collect":
            return []
        sel = pend["selling"]
        return [sel[k] for k in sorted(range(len(sel)), key=lambda k: (
            -r.deck.cards[sel[k]].paint, (_owner(v, sel[k]) - first) % r.n, k))]
    if key == "got":
        return [0] * len(pend["selling"]) if ph == "collect" else []
    if key == "fed":
        return 1 if w["feed"] else 0
    if key == "adv_card":
        return -1
    return 0        # coll_i, turn_taken, turn_wild, feed_k, adv_k


# The order the reader fills the pending fields in: each default depends only
# on fields before it (and on the table, the studios' cubes and canvases).
FILL_EARLY = ("resume", "pay_for", "held", "pay_left", "pay_arg", "take_left", "paints_left",
              "draws_left", "main_done", "actions_left", "dusk_k", "selling", "coll_i",
              "turn_taken", "turn_wild", "feed_k", "fed", "adv_card", "adv_k", "got")
FILL_LATE = ("dawn_k", "turn_k", "starved_today", "setup_k", "draw_to", "order")


# -- writing ---------------------------------------------------------------------------------

def _pending_words(r, v, names, first):
    pend = v["pending"]
    out = []
    for key in FILL_EARLY + FILL_LATE:
        value = pend[key]
        if key == "pay_arg" and pend["pay_for"] == "buy":
            if value != pending_default(r, v, key, first):
                out.append(f"slot={value}")
            continue
        if value == pending_default(r, v, key, first):
            continue
        if key in ("selling", "order"):
            text = names.names(value)
        elif key == "adv_card":
            text = names.name(value) if value >= 0 else "none"
        elif key == "held":
            text = ",".join(f"{c}:{k}" for c, k in value.items() if k) or "none"
        elif key == "got":
            text = ",".join(map(str, value)) or "none"
        elif key == "draw_to":
            text = "pile" if value < 0 else str(value + 1)
        elif value is None:
            text = "none"
        else:
            text = str(value)
        out.append(f"{key}={text}")
    return out


def write(game, view) -> str:
    r = rules_of(game)
    names = Names(r.deck)
    from .fields import view_by_index   # the notation counts canvases by deck index
    v = view_by_index(r, view)
    first = v["first_player"]
    pend = v["pending"]
    lines = [game.spec]
    rnd = round_of(r, v)
    lines.append(f"day {v['day']}" + (f" round {v['round']}" if rnd != v["round"] else ""))
    actor = pend["actor"]
    lines.append(f"phase {v['phase']}" + (f" player {actor + 1}" if actor >= 0 else ""))
    if first != first_of(r, v):
        lines.append(f"first player {first + 1}")
    if v["result"]:
        lines.append(f"result {'won' if v['result'] > 0 else 'lost'}")
    lines.append("market " + "; ".join(names.name(m["canvas"]) if m else "-"
                                       for m in v["market"]))
    if any(v["payday_pile"].values()):
        lines.append(f"pile {_cubes(v['payday_pile'])}")
    if v["face_down"]["known_under"]:
        lines.append(f"under {names.names(v['face_down']['known_under'])}")
    if v["removed"]:
        lines.append(f"removed {names.names(v['removed'])}")
    words = _pending_words(r, v, names, first)
    if words:
        lines.append("pending " + " ".join(words))
    for p, st in enumerate(v["studios"]):
        lines.append(f"player {p + 1}")
        if st["nutrition"] != nutrition_of(r, v, p, first):
            lines.append(f"  nutrition {st['nutrition']}")
        if any(st["cubes"].values()):
            lines.append(f"  cubes {_cubes(st['cubes'])}")
        for cv in st["canvases"]:
            lines.append(f"  canvas {names.name(cv['canvas'])}: "
                         + " ".join(c or "." for c in cv["cubes"]))
        if st["paintings"]:
            lines.append(f"  paintings {names.names(st['paintings'])}")
        if st["free_action_used"]:
            lines.append("  free used")
        if st["food_earned"] != food_of(r, v, p, first):
            lines.append(f"  food {st['food_earned']}")
    return "\n".join(lines) + "\n"


# -- reading ---------------------------------------------------------------------------------

class _Reader(Reader):
    game_name = GAME
    top_keys = TOP
    section_keys = SECTION
    repeatable = ("canvas",)
    card_word = "canvas"

    def __init__(self, game, text):
        self.r = rules_of(game)
        super().__init__(game, text, self.r.n, Names(self.r.deck))

    def cubes(self, line, words, what):
        return self.counts(line, words, what, CUBE_NAMES,
                           lambda c: BOX[CUBE_NAMES.index(c)], _cube_name)

    def canvases(self, line, rest, what):
        if rest.strip().lower() in ("", "none", "-"):
            return []
        out = [self.card(line, t.strip(), what) for t in rest.split(";")]
        return [i for i in out if i is not None]


def read(game, text) -> dict:
    """A JSON view from the notation, with the derived parts derived and
    checked; refused with every wrong line and field named (Refusals)."""
    if not isinstance(text, str):
        raise StateFormatError(f"{GAME} notation must be text, got {type(text).__name__}")
    rd = _Reader(game, text)
    top, players = rd.sort()
    by_index = _build(rd, top, players)     # canvases by deck index, as the notation counts
    rd.out.raise_any()
    from .fields import view_by_id
    from .reference import StarvingArtistsState
    from .view import state_from_view
    view = view_by_id(rd.r, by_index)
    rd.load(view, lambda v: state_from_view(StarvingArtistsState, game, v),
            lambda f: _words(rd, by_index, f), lambda f, c: _value(rd, by_index, f, c))
    return view


def _build(rd, top, players):
    r = rd.r
    n = r.n
    v = {"players": n, "deck": r.deck.spec}
    # -- day, round, phase and who decides
    day_line = top.get("day")
    v["day"], written_round = 1, None
    if day_line is None:
        rd.out.add("day", "not written", "day D (D from 1)")
    else:
        w = day_line.words
        v["day"] = rd.int(day_line, w[0] if w else "", "day", 1, max_days(r)) or 1
        if len(w) == 3 and w[1].lower() == "round":
            written_round = (day_line, rd.int(day_line, w[2], "round", 1, 2))
        elif len(w) != 1:
            rd.bad(day_line, "day", f"{echo(day_line.rest)}: expected day D [round R]")
    if "round" in top:
        ln = top["round"]
        written_round = (ln, rd.int(ln, ln.words[0] if ln.words else "", "round", 1, 2))
    ph_line = top.get("phase")
    v["phase"], actor = "turn", -1
    if ph_line is None:
        rd.out.add("phase", "not written", "phase NAME [player P], NAME one of "
                   + ", ".join(PHASES))
    else:
        w = [x.lower() for x in ph_line.words]
        if not w or w[0] not in PHASES:
            rd.bad(ph_line, "phase", f"unknown phase {echo(' '.join(w[:1]))}",
                   "one of " + ", ".join(PHASES))
        else:
            v["phase"] = w[0]
        if len(w) == 3 and w[1] == "player":
            actor = (rd.int(ph_line, w[2], "phase player", 1, n) or 1) - 1
        elif len(w) != 1:
            rd.bad(ph_line, "phase", f"{echo(ph_line.rest)}: expected phase NAME [player P]")
    v["result"] = 0
    if "result" in top:
        ln = top["result"]
        word = (ln.words or [""])[0].lower()
        if word not in RESULT or not r.solo:
            rd.bad(ln, "result", f"{echo(word)}: only a finished solo game has a result",
                   "won or lost" if r.solo else "nothing (leave the line out)")
        else:
            v["result"] = RESULT[word]
    # -- the canvases on the table
    market = []
    if "market" not in top:
        rd.out.add("market", "not written", "market A; B; C (titles, - for an empty slot)")
        market = [None] * MARKET
    else:
        ln = top["market"]
        slots = [x.strip() for x in ln.rest.split(";")]
        if len(slots) != MARKET:
            rd.bad(ln, "market", f"{len(slots)} slots written; the market has {MARKET} "
                                 f"(slot 1 costs 1 cube), separated by ';', - when empty")
        for k, t in enumerate(slots[:MARKET]):
            i = None if t in ("-", "") else rd.card(ln, t, f"market slot {k + 1}")
            market.append(i)
        market += [None] * (MARKET - len(market))
    v["market"] = [None if i is None else _card(r, i) for i in market]
    under = rd.canvases(top["under"], top["under"].rest, "under") if "under" in top else []
    removed = (rd.canvases(top["removed"], top["removed"].rest, "removed")
               if "removed" in top else [])
    v["payday_pile"] = (rd.cubes(top["pile"], top["pile"].words, "pile") if "pile" in top
                        else {c: 0 for c in CUBE_NAMES})
    # -- pending (what is not derived)
    pend = {"actor": actor}
    written = _read_pending(rd, top.get("pending"), pend)
    v["pending"] = pend
    # -- the studios
    studios = []
    for p in range(n):
        sec = players.get(p, {})
        st = {"cubes": {c: 0 for c in CUBE_NAMES}, "canvases": [], "paintings": [],
              "free_action_used": False}
        if "cubes" in sec:
            st["cubes"] = rd.cubes(sec["cubes"], sec["cubes"].words, f"player {p + 1} cubes")
        for ln in sec.get("canvas", []):
            _read_canvas(rd, ln, p, st)
        if "paintings" in sec:
            st["paintings"] = rd.canvases(sec["paintings"], sec["paintings"].rest,
                                          f"player {p + 1} paintings")
        if "free" in sec:
            word = (sec["free"].words or [""])[0].lower()
            if word not in ("used", "open"):
                rd.bad(sec["free"], f"player {p + 1} free", f"{echo(word)}", "used or open")
            st["free_action_used"] = word == "used"
        studios.append(st)
    v["studios"] = studios
    if v["phase"] == "pay" and pend.get("pay_for") == "buy" and "pay_arg" not in written:
        # The price of a purchase is its market slot's (§5, §12), and nothing else
        # on the table says which canvas is being paid for.
        rd.bad(top["pending"], "pending slot", "a purchase being paid for needs the market "
               "slot of its canvas", "slot=1, 2 or 3")
        pend["pay_arg"] = 1         # refused above; the defaults below read a slot
    for key in FILL_EARLY:
        if key not in written:
            pend[key] = pending_default(r, v, key, base_first(r, v["day"]))
    # Nutrition (derived for whoever never ate), whether alive, then the carrot.
    first0 = base_first(r, v["day"])
    pend["dawn_k"] = written.get("dawn_k", pending_default(r, v, "dawn_k", first0))
    for p, st in enumerate(studios):
        sec = players.get(p, {})
        st["nutrition"] = nutrition_of(r, v, p, first0)
        if "nutrition" in sec:
            x = rd.int(sec["nutrition"], (sec["nutrition"].words or [""])[0],
                       f"player {p + 1} nutrition", 0, FULL)
            st["nutrition"] = st["nutrition"] if x is None else x
        st["alive"] = st["nutrition"] >= 1
        for word in ("alive", "starved"):
            if word in sec and st["alive"] != (word == "alive"):
                rd.bad(sec[word], f"player {p + 1} {word}", f"nutrition {st['nutrition']} "
                       f"says the player is {'alive' if st['alive'] else 'starved'} (§7)",
                       f"{'alive' if st['alive'] else 'starved'} or leave it out")
    first = first_of(r, v)
    if "first" in top:
        ln = top["first"]
        w = [x.lower() for x in ln.words]
        x = rd.int(ln, w[-1] if w else "", "first", 1, n)
        if x is not None and x - 1 != first:
            if r.solo:
                rd.bad(ln, "first", "the solo player holds the carrot (§32)", "player 1")
            else:
                first = x - 1
    v["first_player"] = first
    if "dawn_k" not in written:
        pend["dawn_k"] = pending_default(r, v, "dawn_k", first)
    for key in FILL_LATE:
        if key not in written:
            pend[key] = pending_default(r, v, key, first)
    # -- the round, food earned and stars: derived, checked when written
    rnd = round_of(r, v)
    if written_round is None:
        if rnd is None:
            rd.out.add("day (round)", f"in phase {v['phase']} the round of actions is "
                       "not fixed: write which", "day D round 1 or day D round 2")
        v["round"] = rnd or 1
    else:
        ln, x = written_round
        if x is not None and rnd is not None and x != rnd:
            rd.bad(ln, "round", f"in phase {v['phase']} the day's round of actions is "
                                f"{rnd} (§13)", f"round {rnd} or leave it out")
        v["round"] = x or rnd or 1
    for p, st in enumerate(studios):
        sec = players.get(p, {})
        food = food_of(r, v, p, first)
        if "food" in sec:
            x = rd.int(sec["food"], (sec["food"].words or [""])[0], f"player {p + 1} food",
                       0, 100000)
            if x is not None and x != food and not r.last_supper:
                rd.bad(sec["food"], f"player {p + 1} food", f"the paintings sold give {food} "
                       "food (§19)", f"{food} or leave it out")
            elif x is not None:
                food = x
        st["food_earned"] = food
        st["stars"] = sum(r.deck.cards[i].stars for i in st["paintings"])
        if "stars" in sec:
            x = rd.int(sec["stars"], (sec["stars"].words or [""])[0],
                       f"player {p + 1} stars", 0, 100000)
            if x is not None and x != st["stars"]:
                rd.bad(sec["stars"], f"player {p + 1} stars", f"{x} written, the paintings "
                       f"owned give {st['stars']} (§24)", f"{st['stars']} or leave it out")
    # -- the bag and the unseen canvases: the box less the table
    _derive_hidden(rd, v, top, under, removed, players)
    v["current_player"] = -4 if v["phase"] == "end" else (
        -1 if v["phase"] in ("setup", "draw", "canvas") else actor)
    order = ("players", "deck", "phase", "current_player", "day", "round", "first_player",
             "result", "bag", "payday_pile", "market", "face_down", "removed", "studios",
             "pending")
    v["removed"] = removed
    st_keys = ("alive", "nutrition", "cubes", "canvases", "paintings", "stars",
               "food_earned", "free_action_used")
    v["studios"] = [{k: st[k] for k in st_keys} for st in studios]
    from .fields import FIELDS       # the view's pending keys, in the view's order
    v["pending"] = {k: pend[k] for k in FIELDS.layout.children["pending"].children}
    return {k: v[k] for k in order}


def _card(r, i, cubes=None):
    """A canvas as the JSON view shows it (view.py)."""
    card = r.deck.cards[i]
    out = {"canvas": i, "title": card.title, "stars": card.stars, "food": card.food,
           "paint": card.paint,
           "squares": ["/".join(CUBE_NAMES[c] for c in cols) for cols in card.squares]}
    if cubes is not None:
        out["cubes"] = cubes
    return out


def _read_canvas(rd, ln, p, st):
    r = rd.r
    title, colon, cubes = ln.rest.partition(":")
    what = f"player {p + 1} canvas"
    if not colon:
        rd.bad(ln, what, "a canvas line is 'canvas TITLE: cube-or-. per square'")
        return
    i = rd.card(ln, title.strip(), what)
    if i is None:
        return
    card = r.deck.cards[i]
    words = cubes.split()
    what = f"player {p + 1} canvas {rd.names.name(i)}"
    shape = " ".join("/".join(CUBE_NAMES[c] for c in sq) for sq in card.squares)
    if len(words) != len(card.squares):
        rd.bad(ln, what, f"{len(words)} squares written; it has {len(card.squares)} ({shape})",
               "one cube colour or . per square")
        words = (words + ["."] * len(card.squares))[:len(card.squares)]
    out = []
    for q, x in enumerate(words):
        if x == ".":
            out.append(None)
            continue
        try:
            c = parse_cube(x)
        except ValueError:
            rd.bad(ln, f"{what} square {q + 1}", f"unknown colour {echo(x)}",
                   "/".join(CUBE_NAMES[k] for k in card.squares[q]) + ", wild or .")
            out.append(None)
            continue
        if c != len(CUBE_NAMES) - 1 and c not in card.squares[q]:
            rd.bad(ln, f"{what} square {q + 1}", f"a {CUBE_NAMES[c]} cube cannot lie on a "
                   f"{'/'.join(CUBE_NAMES[k] for k in card.squares[q])} square",
                   "/".join(CUBE_NAMES[k] for k in card.squares[q]) + ", wild or .")
            out.append(None)
            continue
        out.append(CUBE_NAMES[c])
    st["canvases"].append(_card(r, i, out))


_PAIR = re.compile(r"(\w+)=")


def _read_pending(rd, ln, pend):
    """The pending keys written (the rest are derived later); `pend` gets them."""
    written = {}
    if ln is None:
        return written
    parts = _PAIR.split(" " + ln.rest)
    if parts[0].strip():
        rd.bad(ln, "pending", f"{echo(parts[0].strip())}: expected key=value ...")
    r = rd.r
    for k in range(1, len(parts), 2):
        key, text = parts[k].lower(), parts[k + 1].strip()
        what = f"pending {key}"
        if key not in PENDING:
            import difflib
            close = difflib.get_close_matches(key, PENDING, n=1)
            rd.bad(ln, what, f"unknown key {echo(key)}" + (f"; did you mean {close[0]}?"
                                                            if close else ""),
                   "one of " + ", ".join(PENDING))
            continue
        low = text.lower()
        none = low in ("none", "-", "")
        if key in ("resume",):
            val = None if none else low
            if val is not None and val not in PHASES:
                rd.bad(ln, what, f"unknown phase {echo(text)}", "dawn, turn, feed or dusk")
                continue
        elif key == "pay_for":
            val = None if none else low
            if val is not None and val not in PAY_FOR:
                rd.bad(ln, what, f"{echo(text)}", "one of " + ", ".join(PAY_FOR))
                continue
        elif key == "slot":
            x = rd.int(ln, text, what, 1, MARKET)
            if x is None:
                continue
            key, val = "pay_arg", x
        elif key == "held":
            val = rd.cubes(ln, [] if none else re.split(r"[:,\s]+", text), what)
        elif key in ("selling", "order"):
            val = [] if none else [rd.card(ln, t.strip(), what, place=False)
                                   for t in text.split(";")]
            if None in val:
                continue
        elif key == "adv_card":
            val = -1 if none else rd.card(ln, text, what)
            if val is None:
                continue
        elif key == "got":
            xs = [] if none else [int_word(x, 0, 150) for x in text.split(",")]
            if None in xs:
                rd.bad(ln, what, f"{echo(text)}: a comma-separated list of counts")
                continue
            val = xs
        elif key == "draw_to":
            val = -1 if low == "pile" else rd.int(ln, text, what, 1, r.n)
            if val is None:
                continue
            val = val - 1 if low != "pile" else -1
        else:
            val = rd.int(ln, text, what, 0, 150)
            if val is None:
                continue
        if key in written:
            rd.bad(ln, what, "written twice", "it once")
        written[key] = val
        pend[key] = val
    return written


def _derive_hidden(rd, v, top, under, removed, players):
    """The bag is the box less every cube on the table (§1, I1); the unseen
    canvases are the deck less every canvas on the table. Written anyway,
    they are checked."""
    r, names = rd.r, rd.names
    holders = {c: [] for c in CUBE_NAMES}

    def hold(counts, where):
        for c in CUBE_NAMES:
            if counts[c]:
                holders[c].append((where, counts[c]))
    hold(v["payday_pile"], _at(top.get("pile"), "pile"))
    hold(v["pending"]["held"], _at(top.get("pending"), "pending held"))
    for p, st in enumerate(v["studios"]):
        sec = players.get(p, {})
        hold(st["cubes"], _at(sec.get("cubes"), f"player {p + 1} cubes"))
        for cv in st["canvases"]:
            on = {c: cv["cubes"].count(c) for c in CUBE_NAMES}
            hold(on, f"player {p + 1} canvas {names.name(cv['canvas'])}")
    bag = {}
    for k, c in enumerate(CUBE_NAMES):
        total = sum(x for _, x in holders[c])
        bag[c] = BOX[k] - total
        if bag[c] < 0:
            rd.out.add(", ".join(w for w, _ in holders[c]),
                       f"{total} {c} cubes on the table; the box holds {BOX[k]} (§1)",
                       f"{total - BOX[k]} {c} fewer among them")
            bag[c] = 0
    if "bag" in top:
        wrote = rd.cubes(top["bag"], top["bag"].words, "bag")
        if wrote != bag:
            rd.bad(top["bag"], "bag", "the bag is the box less the table (§1)",
                   f"bag {_cubes(bag)} or leave it out")
    v["bag"] = bag
    on_table = set(rd.placed)
    unseen = [i for i in range(r.n_cards) if i not in on_table]
    if "unseen" in top:
        ln = top["unseen"]
        wrote = set()
        for t in ([] if ln.rest.strip().lower() in ("", "none", "-") else ln.rest.split(";")):
            if rd.out.full:
                break
            i, hint = find_card(t.strip(), names.titles, names.ids)
            if i is None:
                rd.bad(ln, "unseen", f"no canvas {echo(t.strip())}; {hint}")
            else:
                wrote.add(i)
        if wrote != set(unseen):
            rd.bad(ln, "unseen", "the unseen canvases are the deck less the table",
                   f"unseen {names.names(unseen)} or leave it out")
    v["face_down"] = {"unseen": unseen, "known_under": under, "set_aside": r.set_aside}


def _at(line, what):
    return f"line {line.no} ({what})" if line is not None else what


# -- the loader's refusals, in the notation's words -----------------------------------------------

_FIELD = re.compile(r"studios\[(\d+)\]\.?(\w*)(?:\[(\d+)\])?")


def _words(rd, view, field):
    """A view field as the notation names it, with its line when written."""
    m = _FIELD.match(field)
    if m:
        p = int(m.group(1))
        key = {"food_earned": "food", "free_action_used": "free", "canvases": "canvas",
               "alive": "nutrition"}.get(m.group(2), m.group(2))
        what, match = f"player {p + 1} {key}".strip(), None
        if key == "canvas" and m.group(3) is not None:
            match = rd.names.name(view["studios"][p]["canvases"][int(m.group(3))]["canvas"])
            what += f" {match}"
        return rd.in_section(p, key, what, match)
    name = {"first_player": "first", "payday_pile": "pile", "face_down.unseen": "unseen",
            "face_down.known_under": "under", "current_player": "phase",
            "pending.actor": "phase"}.get(field, field)
    if name.startswith("pending."):
        key = name.split(".")[1]
        ln = next((x for x in rd.lines if x.section is None and x.key == "pending"), None)
        return (f"line {ln.no} (pending {key})" if ln is not None and key in ln.rest
                else f"pending {key} (not written)")
    head = name.split(".")[0]
    return rd.written(name, "day" if head == "round" else head)


def _value(rd, view, field, consistent):
    """The loader's consistent value, as the notation writes it."""
    if consistent is None:
        return None
    if consistent == "null":
        return "none (leave it out)"
    if field in ("first_player", "pending.actor") and isinstance(consistent, int):
        return f"player {consistent + 1}"
    if field == "removed" and isinstance(consistent, int):
        return f"{consistent} canvases on the removed line (titles)"
    if field in ("removed", "face_down.known_under") and isinstance(consistent, list):
        return rd.names.names(consistent)
    if field.endswith(".alive"):
        return "nutrition 1 or more" if consistent else "nutrition 0"
    if isinstance(consistent, bool):
        return "used" if consistent else "open (leave it out)"
    return consistent
