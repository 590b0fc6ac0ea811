"""The JSON form of a Starving Artists state (`to_json`) and its loader (`from_json`).

The view shows the whole table as players name it (cube colours, canvas
titles, each square's colours and cube) and carries the phase machine's
pending fields, so it is a complete, loadable position. The loader reads
every field, raising StateFormatError naming the first one of a wrong type
or out of range or a canvas in two places; then consistency.check_position
refuses, in one error naming every field at fault, positions play cannot
reach (RULINGS.md, "Invariants of play").
"""
from __future__ import annotations

from easel.engine.viewfields import Problems, ViewFields, is_int

from .consistency import check_position, cube_holders
from .rules import (BOX, CUBE_NAMES, FULL, IN_MARKET, MARKET, N_CUBES, PAY_FOR, PHASES, QUEUE,
                    REMOVED, SOLD0, STUDIO0, UNSEEN, WILD, max_days, parse_cube, rules_of)


def _counts(v):
    return {CUBE_NAMES[c]: v[c] for c in range(N_CUBES)}


def _cube(c):
    return CUBE_NAMES[c] if c >= 0 else None


def _canvas(s, i, with_cubes=True):
    card = s.r.deck.cards[i]
    out = {"canvas": i, "title": card.title, "stars": card.stars, "food": card.food,
           "paint": card.paint,
           "squares": ["/".join(CUBE_NAMES[c] for c in cols) for cols in card.squares]}
    if with_cubes:
        out["cubes"] = [_cube(c) for c in s.cubes[i]]
    return out


def state_view(s) -> dict:
    r = s.r
    n = r.n
    nc = r.n_cards
    return {
        "players": n,
        "deck": r.deck.spec,
        "phase": PHASES[s.phase],
        "current_player": s._current_player(),
        "day": s.day, "round": s.round, "first_player": s.first,
        "result": s.result,
        "bag": _counts(s.bag),
        "payday_pile": _counts(s.pile),
        "market": [_canvas(s, i, False) if i >= 0 else None for i in s.market],
        "face_down": {"unseen": [i for i in range(nc) if s.loc[i] == UNSEEN],
                      "known_under": list(s.queue), "set_aside": r.set_aside},
        "removed": [i for i in range(nc) if s.loc[i] == REMOVED],
        "studios": [{
            "alive": bool(s.alive[p]), "nutrition": s.nutrition[p],
            "cubes": _counts(s.studio[p]),
            "canvases": [_canvas(s, i) for i in range(nc) if s.loc[i] == STUDIO0 + p],
            "paintings": [i for i in range(nc) if s.loc[i] == SOLD0 + p],
            "stars": s.stars[p], "food_earned": s.food[p],
            "free_action_used": bool(s.free_used[p]),
        } for p in range(n)],
        "pending": {
            "actor": s.actor, "turn_k": s.turn_k, "main_done": s.main_done,
            "actions_left": s.actions_left, "dawn_k": s.dawn_k, "dusk_k": s.dusk_k,
            "starved_today": s.starved_today, "setup_k": s.setup_k,
            "draws_left": s.draws_left, "draw_to": s.draw_to,
            "resume": PHASES[s.resume] if s.resume >= 0 else None,
            "paints_left": s.paints_left, "pay_left": s.pay_left,
            "pay_for": PAY_FOR[s.pay_for] if s.pay_for >= 0 else None,
            "pay_arg": s.pay_arg, "held": _counts(s.held), "take_left": s.take_left,
            "selling": list(s.selling), "order": list(s.order), "got": list(s.got),
            "coll_i": s.coll_i, "turn_taken": s.turn_taken, "turn_wild": s.turn_wild,
            "feed_k": s.feed_k, "fed": s.fed, "adv_card": s.adv_card, "adv_k": s.adv_k,
        },
    }


_TOP = ("players", "deck", "phase", "current_player", "day", "round", "first_player", "result",
        "bag", "payday_pile", "market", "face_down", "removed", "studios", "pending")
_STUDIO = ("alive", "nutrition", "cubes", "canvases", "paintings", "stars", "food_earned",
           "free_action_used")
_PENDING = ("actor", "turn_k", "main_done", "actions_left", "dawn_k", "dusk_k",
            "starved_today", "setup_k", "draws_left", "draw_to", "resume", "paints_left",
            "pay_left", "pay_for", "pay_arg", "held", "take_left", "selling", "order", "got",
            "coll_i", "turn_taken", "turn_wild", "feed_k", "fed", "adv_card", "adv_k")


_F = ViewFields("starving_artists")
_bad, _int, _bool, _obj = _F.bad, _F.int, _F.bool, _F.obj


def _list(v, field, hi=None):
    return _F.list(v, field, most=hi)


def _cube_counts(v, field):
    _obj(v, field, CUBE_NAMES)
    return [_int(v[c], f"{field}.{c}", 0, BOX[i]) for i, c in enumerate(CUBE_NAMES)]


def _phase(v, field, allow_none=False):
    return _F.choice(v, field, PHASES, "phase", allow_none)


def state_from_view(cls, game, view):
    """A reference state from a JSON view: each field is read and checked
    for its type and range here (the first bad one raises), then the fields
    are checked against each other (consistency.check_position), every
    disagreement collected into one error."""
    r = rules_of(game)
    n = r.n
    nc = r.n_cards
    _obj(view, "", _TOP)
    if view["players"] != n:
        _bad("players", f"the state is for {view['players']!r} players, the game for {n}")
    if view["deck"] != r.deck.spec:
        _bad("deck", f"the state uses deck {view['deck']!r}, the game {r.deck.spec!r}")
    s = cls(game)
    problems = Problems("starving_artists")
    s.phase = _phase(view["phase"], "phase")
    s.day = _int(view["day"], "day", 1, max_days(r))
    s.round = _int(view["round"], "round", 1, 2)
    s.first = _int(view["first_player"], "first_player", 0, n - 1)
    s.result = _int(view["result"], "result", -1 if r.solo else 0, 1 if r.solo else 0)
    s.bag = _cube_counts(view["bag"], "bag")
    s.pile = _cube_counts(view["payday_pile"], "payday_pile")
    placed = {}

    def place(i, where, field):
        if not is_int(i) or not 0 <= i < nc:
            _bad(field, f"must be a canvas index from 0 to {nc - 1}, got {i!r}")
        if i in placed:
            _bad(field, f"canvas {i} is also in {placed[i]}")
        placed[i] = field
        s.loc[i] = where

    market = _list(view["market"], "market")
    if len(market) != MARKET:
        _bad("market", f"must list {MARKET} slots (null when empty)")
    s.market = [-1] * MARKET
    for slot, m in enumerate(market):
        f = f"market[{slot}]"
        if m is None:
            continue
        if not isinstance(m, dict) or "canvas" not in m:
            _bad(f, "must be null or an object with 'canvas'")
        place(m["canvas"], IN_MARKET, f"{f}.canvas")
        s.market[slot] = m["canvas"]
        if m.get("title", r.deck.cards[m["canvas"]].title) != r.deck.cards[m["canvas"]].title:
            _bad(f"{f}.title", f"canvas {m['canvas']} is {r.deck.cards[m['canvas']].title!r}")
    fd = _obj(view["face_down"], "face_down", ("unseen", "known_under", "set_aside"))
    if fd["set_aside"] != r.set_aside:
        _bad("face_down.set_aside", f"the game sets aside {r.set_aside}")
    for k, i in enumerate(_list(fd["unseen"], "face_down.unseen")):
        place(i, UNSEEN, f"face_down.unseen[{k}]")
    s.queue = []
    for k, i in enumerate(_list(fd["known_under"], "face_down.known_under")):
        place(i, QUEUE, f"face_down.known_under[{k}]")
        s.queue.append(i)
    for k, i in enumerate(_list(view["removed"], "removed")):
        place(i, REMOVED, f"removed[{k}]")
    studios = _list(view["studios"], "studios")
    if len(studios) != n:
        _bad("studios", f"must list {n} studios")
    for p, sv in enumerate(studios):
        f = f"studios[{p}]"
        _obj(sv, f, _STUDIO)
        s.alive[p] = _bool(sv["alive"], f"{f}.alive")
        s.nutrition[p] = _int(sv["nutrition"], f"{f}.nutrition", 0, FULL)
        s.studio[p] = _cube_counts(sv["cubes"], f"{f}.cubes")
        for k, cv in enumerate(_list(sv["canvases"], f"{f}.canvases")):
            cf = f"{f}.canvases[{k}]"
            if not isinstance(cv, dict) or "canvas" not in cv or "cubes" not in cv:
                _bad(cf, "must be an object with 'canvas' and 'cubes'")
            place(cv["canvas"], STUDIO0 + p, f"{cf}.canvas")
            i = cv["canvas"]
            card = r.deck.cards[i]
            cubes = _list(cv["cubes"], f"{cf}.cubes")
            if len(cubes) != len(card.squares):
                _bad(f"{cf}.cubes", f"{card.title} has {len(card.squares)} squares")
            for q, x in enumerate(cubes):
                qf = f"{cf}.cubes[{q}]"
                if x is None:
                    continue
                try:
                    c = parse_cube(x)
                except ValueError as e:
                    _bad(qf, str(e))
                if c != WILD and c not in card.squares[q]:
                    _bad(qf, f"a {x} cube cannot lie on a "
                             f"{'/'.join(CUBE_NAMES[k] for k in card.squares[q])} square")
                s.cubes[i][q] = c
        for k, i in enumerate(_list(sv["paintings"], f"{f}.paintings")):
            place(i, SOLD0 + p, f"{f}.paintings[{k}]")
        stars = sum(r.deck.cards[i].stars for i in range(nc) if s.loc[i] == SOLD0 + p)
        if sv["stars"] != stars:
            problems.add(f"{f}.stars", "the stars of the paintings sold (§24)", stars)
        s.stars[p] = stars
        s.paintings[p] = sum(1 for i in range(nc) if s.loc[i] == SOLD0 + p)
        s.food[p] = _int(sv["food_earned"], f"{f}.food_earned", 0, 100000)
        s.free_used[p] = _bool(sv["free_action_used"], f"{f}.free_action_used")
    pend = _obj(view["pending"], "pending", _PENDING)

    def pint(key, lo, hi):
        return _int(pend[key], f"pending.{key}", lo, hi)
    s.actor = pint("actor", -1, n - 1)
    s.turn_k = pint("turn_k", 0, n)
    s.main_done = pint("main_done", 0, 1)
    s.actions_left = pint("actions_left", 0, 2)
    s.dawn_k = pint("dawn_k", 0, n + 1)
    s.dusk_k = pint("dusk_k", 0, 1)
    s.starved_today = pint("starved_today", 0, 1)
    s.setup_k = pint("setup_k", 0, n * r.start_cubes)
    s.draws_left = pint("draws_left", 0, 150)
    s.draw_to = pint("draw_to", -1, n - 1)
    s.resume = _phase(pend["resume"], "pending.resume", allow_none=True)
    s.paints_left = pint("paints_left", 0, 4)
    s.pay_left = pint("pay_left", 0, 9)
    pf = pend["pay_for"]
    if pf is not None and pf not in PAY_FOR:
        _bad("pending.pay_for", f"must be null or one of {', '.join(PAY_FOR)}")
    s.pay_for = PAY_FOR.index(pf) if pf is not None else -1
    s.pay_arg = pint("pay_arg", -1, 2)
    s.held = _cube_counts(pend["held"], "pending.held")
    s.take_left = pint("take_left", 0, 3)
    sel = _list(pend["selling"], "pending.selling", nc)
    for k, i in enumerate(sel):
        if not is_int(i) or not 0 <= i < nc or not STUDIO0 <= s.loc[i] < STUDIO0 + n:
            _bad(f"pending.selling[{k}]", "must be a canvas in a studio")
    if len(set(sel)) != len(sel):
        _bad("pending.selling", "a canvas is announced twice")
    s.selling = list(sel)
    order = _list(pend["order"], "pending.order", len(sel))
    if order and sorted(order) != list(range(len(sel))):
        _bad("pending.order", "must be empty or a permutation of the selling entries")
    s.order = list(order)
    got = _list(pend["got"], "pending.got", len(sel))
    if len(got) != len(order):
        _bad("pending.got", "must have one count per selling entry once collection starts")
    s.got = [_int(x, f"pending.got[{k}]", 0, r.deck.cards[sel[k]].paint)
             for k, x in enumerate(got)]
    s.coll_i = pint("coll_i", 0, max(len(sel) - 1, 0))
    s.turn_taken = pint("turn_taken", 0, 150)
    s.turn_wild = pint("turn_wild", 0, 1)
    s.feed_k = pint("feed_k", 0, n)
    s.fed = pint("fed", 0, 1)
    s.adv_card = pint("adv_card", -1, nc - 1)
    s.adv_k = pint("adv_k", 0, 16)
    if s.adv_card >= 0:
        if s.adv_card in placed:
            _bad("pending.adv_card", f"canvas {s.adv_card} is also in {placed[s.adv_card]}")
        s.loc[s.adv_card] = IN_MARKET
        placed[s.adv_card] = "pending.adv_card"
    missing = [i for i in range(nc) if i not in placed]
    if missing:
        _bad("face_down.unseen", f"canvases {missing[:8]} are nowhere")
    cp = view["current_player"]
    if cp != s._current_player():
        problems.add(["current_player", "phase", "pending.actor"],
                     "the player to move follows from the phase and the actor",
                     s._current_player())
    check_position(s, problems)
    return s


def cube_totals(s):
    """Cubes per colour wherever they are: bag, pile, trade hold, studios, canvases."""
    return [sum(k for _, k in cube_holders(s, c)) for c in range(N_CUBES)]
