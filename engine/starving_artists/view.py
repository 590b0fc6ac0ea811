"""The JSON form of a Starving Artists state (`to_json`) and its loader (`from_json`).

The view shows the whole table as players name it (cube colours, canvas
titles, each square's colours and cube) and carries the phase machine's
pending fields, so it is a complete, loadable position. The loader checks
every field and raises StateFormatError naming the bad one; it also refuses
positions no game reaches: cubes that do not add up to the box's 150 per
colour, a canvas in two places, a completed canvas in the market, a starved
player holding paint, nutrition outside 0..5, a canvas with two wilds.
"""
from __future__ import annotations

from easel.engine.viewfields import ViewFields, is_int

from .rules import (BOX, CUBE_NAMES, END, FULL, IN_MARKET, MARKET, N_CUBES, PAY_FOR, PHASES,
                    QUEUE, REMOVED, SOLD0, STUDIO0, UNSEEN, WILD, parse_cube, rules_of)


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
    r = rules_of(game)
    n = r.n
    nc = r.n_cards
    _obj(view, "", _TOP)
    if view["players"] != n:
        _bad("players", f"the state is for {view['players']!r} players, the game for {n}")
    if view["deck"] != r.deck.spec:
        _bad("deck", f"the state uses deck {view['deck']!r}, the game {r.deck.spec!r}")
    s = cls(game)
    s.phase = _phase(view["phase"], "phase")
    s.day = _int(view["day"], "day", 1, 100000)
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
    unseen = _list(fd["unseen"], "face_down.unseen")
    for k, i in enumerate(unseen):
        place(i, UNSEEN, f"face_down.unseen[{k}]")
    s.queue = []
    for k, i in enumerate(_list(fd["known_under"], "face_down.known_under")):
        place(i, QUEUE, f"face_down.known_under[{k}]")
        s.queue.append(i)
    if r.solo and s.queue:
        _bad("face_down.known_under", "the solo game never puts canvases back")
    if len(unseen) < r.set_aside:
        _bad("face_down.unseen", f"the {r.set_aside} set-aside canvases are never turned up")
    for k, i in enumerate(_list(view["removed"], "removed")):
        place(i, REMOVED, f"removed[{k}]")
    studios = _list(view["studios"], "studios")
    if len(studios) != n:
        _bad("studios", f"must list {n} studios")
    for p, sv in enumerate(studios):
        f = f"studios[{p}]"
        _obj(sv, f, _STUDIO)
        s.alive[p] = _bool(sv["alive"], f"{f}.alive")
        s.nutrition[p] = _int(sv["nutrition"], f"{f}.nutrition", 1 if s.alive[p] else 0,
                              FULL if s.alive[p] else 0)
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
            if s.cubes[i].count(WILD) > 1:
                _bad(f"{cf}.cubes", "a canvas takes one wild at most")
        for k, i in enumerate(_list(sv["paintings"], f"{f}.paintings")):
            place(i, SOLD0 + p, f"{f}.paintings[{k}]")
        stars = sum(r.deck.cards[i].stars for i in range(nc) if s.loc[i] == SOLD0 + p)
        if sv["stars"] != stars:
            _bad(f"{f}.stars", f"the paintings hold {stars} stars, not {sv['stars']!r}")
        s.stars[p] = stars
        s.paintings[p] = sum(1 for i in range(nc) if s.loc[i] == SOLD0 + p)
        s.food[p] = _int(sv["food_earned"], f"{f}.food_earned", 0, 100000)
        s.free_used[p] = _bool(sv["free_action_used"], f"{f}.free_action_used")
        if not s.alive[p] and (sum(s.studio[p]) or any(s.loc[i] == STUDIO0 + p
                                                        for i in range(nc))):
            _bad(f"{f}.cubes", "a starved player's paint went back to the bag")
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
        if not all(c >= 0 for c in s.cubes[i]) and s.phase == ANNOUNCE_PH:
            _bad(f"pending.selling[{k}]", "only completed canvases are sold")
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
    _check_reachable(s, view)
    return s


ANNOUNCE_PH = PHASES.index("announce")


def cube_totals(s):
    """Cubes per colour wherever they are: bag, pile, trade hold, studios, canvases."""
    tot = [s.bag[c] + s.pile[c] + s.held[c] for c in range(N_CUBES)]
    for p in range(s.r.n):
        for c in range(N_CUBES):
            tot[c] += s.studio[p][c]
    for i in range(s.r.n_cards):
        if s.loc[i] >= STUDIO0 and s.loc[i] < SOLD0:
            for c in s.cubes[i]:
                if c >= 0:
                    tot[c] += 1
    return tot


def _check_reachable(s, view):
    r = s.r
    tot = cube_totals(s)
    for c in range(N_CUBES):
        if tot[c] != BOX[c]:
            _bad(f"bag.{CUBE_NAMES[c]}", f"{CUBE_NAMES[c]} cubes add up to {tot[c]}; the box "
                                         f"holds {BOX[c]}")
    filled = [x for x in s.market if x >= 0]
    if s.market != filled + [-1] * (MARKET - len(filled)) and s.phase not in (
            PHASES.index("advance"), PHASES.index("canvas"), PHASES.index("pay")):
        _bad("market", "canvases slide to the cheap end: an empty slot only at the deck's end")
    if s.phase == END and view["current_player"] != -4:
        _bad("current_player", "the game is over")
    if s.phase != END and s.r.solo and s.result:
        _bad("result", "a decided solo game is over")
    if not r.solo:
        if not any(s.alive) and s.phase != END:
            _bad("studios", "nobody is alive in a game that goes on")
        if s.phase not in (END,) and s.alive and not s.alive[s.first] and s.phase not in (
                PHASES.index("dawn"), PHASES.index("supper"), PHASES.index("draw")):
            _bad("first_player", "a starved player passes the carrot on at once")
    if s.actor >= 0 and not s.alive[s.actor]:
        _bad("pending.actor", f"player {s.actor} has starved")
    if s.phase in (PHASES.index("turn"), PHASES.index("paint"), PHASES.index("pay"),
                   PHASES.index("take"), PHASES.index("announce"), PHASES.index("collect"),
                   PHASES.index("supper"), PHASES.index("advance")) and s.actor < 0:
        _bad("pending.actor", f"phase {PHASES[s.phase]} needs a player to decide")
    cp = view["current_player"]
    if cp != s._current_player():
        _bad("current_player", f"the position is {s._current_player()}'s to play, not {cp!r}")
    if s.phase == PHASES.index("pay") and s.pay_for < 0:
        _bad("pending.pay_for", "a payment must say what it pays for")
    if s.phase == PHASES.index("advance") and s.adv_card < 0:
        _bad("pending.adv_card", "the market advance needs its canvas")
    _check_pending(s)
    try:
        legal = s._legal_actions() if s._current_player() >= 0 else [1]
    except (AssertionError, IndexError, ValueError) as e:
        _bad("phase", f"the pending fields do not make a position: {e}")
    if not legal:
        _bad("phase", f"nobody can act in phase {PHASES[s.phase]} with these fields")
    if s.phase in (PHASES.index("draw"),) and s.resume < 0:
        _bad("pending.resume", "a draw must say where play resumes")
    if s.phase == PHASES.index("canvas") and s.resume < 0:
        _bad("pending.resume", "a canvas draw must say where play resumes")
    if s.phase == PHASES.index("canvas") and -1 not in s.market:
        _bad("market", "a canvas is turned up only into an empty slot")
    if s.phase in (PHASES.index("dawn"), PHASES.index("feed"), PHASES.index("dusk")):
        _bad("phase", f"play never rests in phase {PHASES[s.phase]} (it settles at once)")
    if s.phase in (PHASES.index("draw"), PHASES.index("setup")) and (
            sum(s.bag) == 0 or (s.phase == PHASES.index("draw") and s.draws_left == 0)):
        _bad("pending.draws_left", "a draw needs cubes to draw and cubes in the bag")
    if s.phase == PHASES.index("canvas") and s._drawable() <= 0:
        _bad("face_down.unseen", "a canvas draw needs a face-down canvas to turn up")


def _check_pending(s):
    """The phase machine's pending fields agree with the phase: what a step
    needs (a canvas to pay for, cubes to pay or take, a painting to collect
    for, a square to match) is there, so that a loaded position plays on."""
    r = s.r
    n = r.n
    ph = PHASES[s.phase]
    p = s.actor
    if ph in ("draw", "canvas") and PHASES[s.resume] not in (
            ("turn", "dawn", "feed") if ph == "draw" else ("turn", "dawn", "dusk")):
        _bad("pending.resume", f"a {ph} resumes play in "
                               f"{'turn, dawn or feed' if ph == 'draw' else 'turn, dawn or dusk'}")
    if ph == "draw" and s.draw_to >= 0 and not s.alive[s.draw_to]:
        _bad("pending.draw_to", f"player {s.draw_to} has starved")
    if ph == "turn" and not r.solo and p != s._seat(s.turn_k):
        _bad("pending.actor", f"the turn is player {s._seat(s.turn_k)}'s (turn_k {s.turn_k})")
    if ph == "paint" and not 1 <= s.paints_left <= 4:
        _bad("pending.paints_left", "painting has 1 to 4 cubes left")
    if ph == "pay":
        if s.pay_left < 1 or sum(s.studio[p]) < s.pay_left:
            _bad("pending.pay_left", "a payment needs 1 or more cubes, and the cubes to pay")
        if s.pay_for == 0 and not (0 <= s.pay_arg < MARKET and s.market[s.pay_arg] >= 0
                                   and s.pay_left <= s.pay_arg + 1):
            _bad("pending.pay_arg", "a purchase names a market slot with a canvas it costs")
        if s.pay_for == 1 and not (0 <= s.pay_arg < len(r.trades)
                                   and 1 <= s.take_left == r.trades[s.pay_arg][1]):
            _bad("pending.pay_arg", "a trade names one of the game's trades and its take")
    if ph == "take" and not 1 <= s.take_left <= s._nonwild(s.pile):
        _bad("pending.take_left", "a trade takes 1 to 3 non-wild cubes the pile holds")
    if ph not in ("pay", "take") and (sum(s.held) or s.take_left):
        _bad("pending.held", "cubes are held only during a trade")
    if ph in ("announce", "feed", "collect") or s.selling:
        if r.solo and len(s.selling) > 1:
            _bad("pending.selling", "the solo game sells one canvas at a time")
        for k, i in enumerate(s.selling):
            owner = s.loc[i] - STUDIO0
            if not s.alive[owner] or (ph == "announce" and not all(c >= 0 for c in s.cubes[i])):
                _bad(f"pending.selling[{k}]", "only a living player's completed canvas is sold")
            if ph == "collect" and any(c >= 0 for c in s.cubes[i]):
                _bad(f"pending.selling[{k}]", "the paint of a canvas sold is back in the bag "
                                              "before the collection")
    if ph == "announce" and (r.solo or p != s._seat(s.turn_k)):
        _bad("pending.actor", "announcements go in turn order (turn_k)")
    if ph == "collect":
        m = len(s.selling)
        if not s.order or len(s.order) != m or not 0 <= s.coll_i < m:
            _bad("pending.order", "collection needs the order of the paintings sold")
        i = s.selling[s.order[s.coll_i]]
        if p != s.loc[i] - STUDIO0:
            _bad("pending.actor", "the painter of the painting at coll_i collects")
        if s._remaining(s.coll_i) <= 0 or s.turn_taken >= s._rate(s.coll_i):
            _bad("pending.turn_taken", "the collection turn has nothing left to take")
    if ph == "supper" and not (r.last_supper and s.day > 1 and s.nutrition[p] == 1
                               and s._sold_cards(p)):
        _bad("phase", "a Last Supper needs the option, day 2 on, nutrition 1 and a painting")
    if ph == "advance":
        sq = r.deck.cards[s.adv_card].squares
        if not 0 <= s.adv_k < len(sq) or len(sq[s.adv_k]) != 2 or not all(
                s.pile[c] > 0 for c in sq[s.adv_k]):
            _bad("pending.adv_k", "the advance asks at a split square whose two colours "
                                  "are both in the pile")
    if s.adv_card >= 0 and ph != "advance":
        _bad("pending.adv_card", "a canvas leaves the market only during the advance")
    if r.solo and ph == "turn" and p != 0:
        _bad("pending.actor", "the solo player is player 0")
