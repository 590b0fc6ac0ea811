"""Whether a loaded Starving Artists position is one that play can reach.

view.state_from_view reads each field (type, range, structure) into a
reference state; `check_position` then checks the fields against each other
with the invariants play keeps (RULINGS.md, "Invariants of play", I1-I12),
collecting every one the position breaks into one error that names the
fields and, where one exists, the value that would agree with the rest. The
checks read the structured state only (never the JSON or the notation), so
every form of a position is held to the same rules. Last, the position must
be settled (settling would not move it: ENCODING.md "Settling") and have a
legal move or a chance outcome.

Where play could reach a position only through a long history the check is
not exact; it errs on the side of accepting (the action budget I8 counts
every turn as a buy or a paint action of four cubes, for instance).
"""
from __future__ import annotations

import copy

from easel.engine.viewfields import Problems

from .rules import (ADVANCE, ANNOUNCE, BOX, CANVAS, COLLECT, CUBE_NAMES, DAWN, DRAW, DUSK, END,
                    FEED, FULL, IN_MARKET, MARKET, N_CUBES, PAINT_CUBES, PAINT_P, PAY_BUY,
                    PAY_FOR, PAY_P, PAY_RESET, PAY_TRADE, PHASES, QUEUE, REMOVED, SETUP, SOLD0,
                    STUDIO0, SUPPER_P, TAKE_P, TURN, UNSEEN, WILD)

GAME = "starving_artists"
# A player's turn and the steps of its action (a draw or a canvas turned up
# resuming the turn belongs to it too).
TURN_STEPS = (TURN, PAINT_P, PAY_P, TAKE_P)
NEVER_REST = (DAWN, FEED, DUSK)


def _studio(p):
    return f"studios[{p}]"


class Where:
    """Which part of the day a position is in, from its phase and `resume`."""

    def __init__(self, s):
        ph, res = s.phase, s.resume
        self.setup = ph == SETUP or (ph == CANVAS and res == DAWN)
        self.dawn = (ph == DRAW and res == DAWN) or ph == SUPPER_P
        self.turn = ph in TURN_STEPS or (ph in (DRAW, CANVAS) and res == TURN)
        self.feed = ph == DRAW and res == FEED
        self.sale = self.feed or ph == COLLECT
        self.dusk = ph == ADVANCE or (ph == CANVAS and res == DUSK)
        self.end = ph == END


def check_position(s, problems: Problems | None = None) -> None:
    """Raise (UnreachablePositionError, a StateFormatError) listing every
    invariant the reference state `s` filled by the loader breaks."""
    out = problems if problems is not None else Problems(GAME)
    w = Where(s)
    _cubes(s, out)
    _canvases(s, w, out)
    _players(s, w, out)
    _day(s, w, out)
    _budget(s, w, out)
    _pending(s, w, out)
    _sale(s, w, out)
    _end(s, w, out)
    if not out:
        # Only a position whose fields agree is settled and asked for its
        # moves: the rules' functions assume the invariants above.
        _node(s, out)
    out.raise_any()


# -- I1: every cube is somewhere (§1) ------------------------------------------------------
def cube_holders(s, c, cards=None):
    """(field, count) of every place holding cubes of colour c (`cards`:
    each studio's canvases, when the caller has them)."""
    cards = cards if cards is not None else [s._studio_cards(p) for p in range(s.r.n)]
    name = CUBE_NAMES[c]
    held = [(f"bag.{name}", s.bag[c]), (f"payday_pile.{name}", s.pile[c]),
            (f"pending.held.{name}", s.held[c])]
    for p in range(s.r.n):
        held.append((f"{_studio(p)}.cubes.{name}", s.studio[p][c]))
    for p in range(s.r.n):
        # The view lists a studio's canvases by index.
        for k, i in enumerate(cards[p]):
            on = s.cubes[i].count(c)
            if on:
                held.append((f"{_studio(p)}.canvases[{k}].cubes", on))
    return held


def _cubes(s, out):
    cards = [s._studio_cards(p) for p in range(s.r.n)]
    for c in range(N_CUBES):
        held = cube_holders(s, c, cards)
        total = sum(k for _, k in held)
        if total != BOX[c]:
            want = s.bag[c] + BOX[c] - total
            out.add([f for f, k in held if k or ".canvases" not in f],
                    f"{CUBE_NAMES[c]} cubes add up to {total}; the box holds {BOX[c]} (§1, I1)",
                    f"bag.{CUBE_NAMES[c]} = {want}" if want >= 0 else None)
    for p in range(s.r.n):
        for k, i in enumerate(cards[p]):
            if s.cubes[i].count(WILD) > 1:
                out.add(f"{_studio(p)}.canvases[{k}].cubes", f"canvas {i} holds "
                        f"{s.cubes[i].count(WILD)} wilds; a canvas takes one wild at most "
                        f"(§2, I1)")


# -- I2: the canvases: the market, the face-down pile, removals --------------------------------
def _canvases(s, w, out):
    r = s.r
    filled = [x for x in s.market if x >= 0]
    if s.market != filled + [-1] * (MARKET - len(filled)) and s.phase not in (ADVANCE, CANVAS,
                                                                               PAY_P):
        out.add(["market", "phase"], "canvases slide to the cheap end: an empty slot only at "
                                     "the deck's end (§12, I2)")
    if -1 in s.market and s.phase not in (CANVAS, ADVANCE, SETUP) and (
            s._drawable() > 0 or s.queue):
        out.add(["market", "face_down.unseen", "phase"], "an empty market slot is refilled at once "
                "while a face-down canvas is left (§12, §15, §35, I2)")
    if r.solo and s.queue:
        out.add("face_down.known_under", "the solo game never puts canvases back (§15, I2)",
                [])
    if sum(1 for x in s.loc if x == UNSEEN) < r.set_aside:
        out.add("face_down.unseen", f"the {r.set_aside} set-aside canvases are never turned "
                                    f"up (§32, I2)")
    # The known canvases under the pile came from resets: 3 each, one free
    # action per player a day (§13, §15).
    if len(s.queue) > MARKET * r.n * s.day:
        out.add(["face_down.known_under", "day"],
                f"{len(s.queue)} canvases put back, but resets put back {MARKET} each, at "
                f"most one per player a day: at most {MARKET * r.n * s.day} by day {s.day} "
                f"(§15, I2)")
    removed = sum(1 for x in s.loc if x == REMOVED)
    if r.solo:
        # §35: each day ends by removing the cheapest canvas (an empty market
        # ends the game, §36); a Last Supper removes a painting too (§30).
        want = s.day - 1 + (1 if s.phase == CANVAS and s.resume == DUSK else 0)
        exact = not w.end and not r.last_supper
        if (removed != want and exact) or removed < s.day - 1:
            out.add(["removed", "day"], "the solo market loses one canvas at the end of each "
                    "day (§35" + (", and a Last Supper a painting, §30" if r.last_supper
                                  else "") + ", I2)", want if exact else None)
    elif removed and (s.day == 1 or (not r.last_supper and all(s.alive))):
        out.add(["removed", "day"], "canvases leave the game only with a starved player (§7) "
                                    "or a Last Supper (§30), both at a dawn from day 2 (I2)",
                [])
    if w.setup:
        _setup(s, out)


def _setup(s, out):
    """§4: the setup draws the starting cubes, from the first player on, and
    turns up the market; nothing else has happened."""
    r = s.r
    k = s.setup_k if s.phase == SETUP else r.n * r.start_cubes
    for j in range(r.n):
        p = s._seat(j)
        want = min(max(k - j * r.start_cubes, 0), r.start_cubes)
        if sum(s.studio[p]) != want:
            out.add([f"{_studio(p)}.cubes", "pending.setup_k", "phase"],
                    f"the setup has drawn {want} cubes for player {p} so far (§4, I2)")
    if sum(s.pile):
        out.add(["payday_pile", "phase"], "the first payday comes after the setup (§4, §6, I2)",
                "none")
    shown = sum(1 for x in s.market if x >= 0)
    if s.phase == SETUP and shown:
        out.add(["market", "phase"], "the market is turned up after the starting cubes (§4, "
                                     "I2)", [None] * MARKET)


# -- I3: the players: alive, nutrition, paintings, food earned ----------------------------------
def _players(s, w, out):
    r = s.r
    for p in range(r.n):
        f = _studio(p)
        if s.alive[p] != (s.nutrition[p] >= 1):
            out.add([f"{f}.alive", f"{f}.nutrition"], "a player starves exactly when their "
                    "nutrition falls below 1 (§7, I3)", s.nutrition[p] >= 1)
        if not s.alive[p]:
            if sum(s.studio[p]) or s._studio_cards(p):
                out.add([f"{f}.cubes", f"{f}.canvases", f"{f}.alive"],
                        "a starved player's paint went back to the bag and their canvases "
                        "left the game (§7, I3)")
            if s.free_used[p]:
                out.add([f"{f}.free_action_used", f"{f}.alive"], "a starved player takes no "
                        "action (§7, I3)", False)
        sold = s._sold_cards(p)
        eaten = sum(s._card(i).food for i in sold) + sum(
            s._card(i).food for i in _fed_selling(s, w, p))
        extra = sum(s._card(i).food for i in range(r.n_cards)
                    if s.loc[i] == REMOVED) if r.last_supper else 0
        if not eaten <= s.food[p] <= eaten + extra:
            out.add([f"{f}.food_earned", f"{f}.paintings"],
                    f"food earned is the food of the canvases sold (§19, §28)"
                    + (" and of paintings since discarded (§30)" if r.last_supper else "")
                    + f": {eaten}" + (f" to {eaten + extra}" if extra else "") + " (I3)",
                    eaten if not extra else None)


def _sellers(s):
    """Owners of the canvases announced, in turn order from the first player."""
    return s._sellers() if s.selling else []


def _fed_selling(s, w, p):
    """p's canvases being sold whose food p has eaten already (§18, §19)."""
    if not s.selling:
        return []
    sellers = _sellers(s)
    if w.feed:
        fed = sellers[:s.feed_k + 1]
    elif s.phase == COLLECT:
        fed = sellers
    else:
        fed = []
    return [i for i in s.selling if p in fed and s.loc[i] == STUDIO0 + p]


def _drops(s, w, p):
    """Nutrition drops p has had (§7, §8, §32): one each dawn from the second
    day on, once p's turn at that dawn has come."""
    d = s.day
    if d == 1:
        return 0
    if s.r.solo:
        done = s.phase != SUPPER_P
    elif s.phase == SUPPER_P:
        done = (p - s.first) % s.r.n < s.dawn_k - 1
    else:
        done = not (s.phase == DRAW and s.resume == DAWN)
    return d - 1 if done else d - 2


# -- I4-I7: what the day, its round and the carrot say --------------------------------------------
def _day(s, w, out):
    r = s.r
    n = r.n
    # I4: nutrition falls by one a dawn and rises only by food (§7, §19, §30).
    for p in range(n):
        if not s.alive[p]:
            # Starving takes FULL drops from a full track, the first at day
            # 2's dawn; it happens on the game's last day (§26), this one.
            f = f"{_studio(p)}.alive"
            if s.day < FULL + 1:
                out.add([f, "day"], f"a player starves at the earliest at day {FULL + 1}'s "
                                    f"dawn: {FULL} drops from a full track (§7, I4)")
            elif s.food[p] == 0 and not r.last_supper and s.day != FULL + 1:
                out.add(["day", f, f"{_studio(p)}.food_earned"],
                        f"player {p} never ate, so starved at day {FULL + 1}'s dawn, the "
                        f"game's last day (§7, §26, I4)", FULL + 1)
            continue
        fall = FULL - _drops(s, w, p)
        f = f"{_studio(p)}.nutrition"
        if s.nutrition[p] < fall:
            out.add([f, "day"], f"nutrition falls by 1 each dawn from day 2 and rises only by "
                                f"eating (§7, §19, §30): {fall} at the least by now (I4)", fall)
        elif s.food[p] == 0 and not r.last_supper and s.nutrition[p] != fall:
            out.add([f, "day", f"{_studio(p)}.food_earned"],
                    "nothing was eaten, so nutrition has fallen by 1 each dawn from day 2 (§7, "
                    "§19, I4)" + ("; the player would have starved" if fall < 1 else ""),
                    fall if fall >= 1 else None)
    # I5: the carrot passes each dusk and, when its holder starves, at once
    # (§7, §25); a starvation ends the game that day (§26).
    if not r.solo:
        base = (r.start + s.day - 1) % n
        want = base
        if not (w.dawn or (w.end and not any(s.alive))):
            want = next(((base + k) % n for k in range(n) if s.alive[(base + k) % n]), base)
        if s.first != want:
            out.add(["first_player", "day", "studios"],
                    f"the carrot starts with player {r.start} (option start) and passes "
                    f"clockwise each evening (§4, §25) and from a starved player at once (§7) "
                    f"(I5)", want)
    elif s.first != 0:
        out.add("first_player", "the solo player holds the carrot (§32, I5)", 0)
    # I6: the round of actions (§13).
    if r.solo:
        want_round = 1
    elif w.setup or (w.dawn and s.day == 1):
        want_round = 1
    elif w.dawn or w.end or s.phase in (ANNOUNCE, COLLECT) or w.feed:
        want_round = 2
    else:
        want_round = None
    if want_round is not None and s.round != want_round:
        out.add(["round", "phase"], f"in phase {PHASES[s.phase]} the day's round of actions "
                                    f"is {want_round} (§13, I6)", want_round)
    # I7: the free action is once a day, on one's own turn (§13).
    for p in range(n):
        if not s.free_used[p]:
            continue
        f = f"{_studio(p)}.free_action_used"
        offset = (p - s.first) % n
        if w.setup or w.dawn:
            out.add([f, "phase"], "free actions are renewed each dawn (§13, I7)", False)
        elif (not r.solo and w.turn and s.round == 1 and offset > s.turn_k):
            out.add([f, "pending.turn_k", "round"], f"player {p}'s first turn today has not "
                    f"come yet (§13, I7)", False)


# -- I8: what each player can have done by this day --------------------------------------------
def actions_taken_most(s, w, p):
    """The most actions (work, paint, buy: §9-§12) p can have taken so far:
    two a day (§13, §33), today's counted from the turn order."""
    r = s.r
    past = 2 * (s.day - 1)
    if w.setup or w.dawn:
        return past
    if r.solo:
        if w.turn or w.sale:
            return past + 2 - s.actions_left
        return past + 2
    if w.end and not any(s.alive):
        return past
    if w.turn:
        offset = (p - s.first) % r.n
        today = s.round - 1 + (1 if offset < s.turn_k or (offset == s.turn_k and s.main_done)
                               else 0)
        return past + today
    return past + 2


def _budget(s, w, out):
    """Each canvas in a studio or sold was bought by one action (§12); each
    paint action places at most 4 cubes (§10). In the regular game a sale
    happens at the end of a day (§16), so a painting sold was bought and
    painted by the actions of the days before."""
    r = s.r
    for p in range(r.n):
        f = _studio(p)
        held = s._studio_cards(p)
        sold = s._sold_cards(p)
        cubes = sum(1 for i in held if i not in s.selling for x in s.cubes[i] if x >= 0)
        cubes += sum(len(s._card(i).squares) for i in sold + [i for i in held if i in s.selling])
        need = len(held) + len(sold) + -(-cubes // PAINT_CUBES)
        most = actions_taken_most(s, w, p)
        if need > most:
            out.add([f"{f}.canvases", f"{f}.paintings", "day"],
                    f"player {p}'s {len(held) + len(sold)} canvases bought and {cubes} cubes "
                    f"painted take {need} actions (§10, §12), more than the {most} two a day "
                    f"allow by now (§13, I8)")
        if not r.solo and sold:
            sold_need = len(sold) + -(-sum(len(s._card(i).squares) for i in sold) // PAINT_CUBES)
            if sold_need > 2 * (s.day - 1):
                out.add([f"{f}.paintings", "day"],
                        f"player {p}'s {len(sold)} paintings were bought and painted ("
                        f"{sold_need} actions) before a day's end, when canvases are sold "
                        f"(§16): {2 * (s.day - 1)} actions by the end of day {s.day - 1} (I8)",
                        [])


# -- I9: the step under way (ENCODING.md "Small decisions", "Phases") --------------------------
def _pending(s, w, out):
    r = s.r
    n = r.n
    ph = s.phase
    p = s.actor
    name = PHASES[ph]

    def rest(field, value, shown=None):
        if getattr(s, field) != value:
            want = shown if shown is not None else value
            out.add([f"pending.{field}", "phase"], f"must be {want} in phase {name} (I9)", want)
    # -- who decides
    if ph in (TURN, PAINT_P, PAY_P, TAKE_P, ANNOUNCE, COLLECT, SUPPER_P, ADVANCE) and p < 0:
        out.add(["pending.actor", "phase"], f"phase {name} needs a player to decide (I9)")
    elif 0 <= p and not s.alive[p]:
        out.add(["pending.actor", f"{_studio(p)}.alive"], f"player {p} has starved (I9)")
    if r.solo:
        rest("turn_k", 0)
        if p not in (-1, 0):
            out.add("pending.actor", "the solo player is player 0 (I9)", 0)
        if (w.turn or w.sale or ph in (ADVANCE, SUPPER_P)) and p != 0:
            out.add(["pending.actor", "phase"], f"player 0 decides in phase {name} (I9)", 0)
        if w.setup or w.dawn and ph == DRAW or (ph == CANVAS and s.resume == DUSK):
            rest("actor", -1)
    else:
        if w.turn or ph == ANNOUNCE:
            want = s._seat(s.turn_k)
            if p != want:
                out.add(["pending.actor", "pending.turn_k", "first_player"],
                        f"turns go in turn order from the first player: turn_k {s.turn_k} is "
                        f"player {want}'s (§13, §17, I9)", want)
        else:
            rest("turn_k", 0)
        if ph == SUPPER_P:
            want = s._seat(s.dawn_k - 1) if s.dawn_k >= 1 else -1
            if p != want:
                out.add(["pending.actor", "pending.dawn_k"], "each player's dawn comes in turn "
                        "order from the first player (§7, I9)", want)
        if w.setup or (w.dawn and ph == DRAW) or w.feed or w.end:
            rest("actor", -1)
        if ph == ANNOUNCE and p >= 0 and not any(s._complete(i) for i in s._studio_cards(p)):
            out.add(["pending.actor", f"{_studio(p)}.canvases"],
                    f"player {p} has no completed canvas to announce; announcing passes over "
                    f"such players (§17, I9)")
    # -- the day's steps
    if not ph == SETUP:
        rest("setup_k", 0)
    elif s.setup_k >= n * r.start_cubes:
        out.add("pending.setup_k", "the setup draws stop after the starting cubes (§4, I9)")
    want_dawn = (1 if not r.solo else 2) if (ph == DRAW and s.resume == DAWN) else None
    if want_dawn is not None:
        rest("dawn_k", want_dawn)
    elif ph == SUPPER_P:
        if r.solo:
            rest("dawn_k", 0)
        elif not 1 <= s.dawn_k <= n:
            out.add(["pending.dawn_k", "phase"], f"a Last Supper is decided at a player's "
                                                 f"dawn, 1 to {n} (§30, I9)")
    else:
        rest("dawn_k", 0)
    rest("dusk_k", 1 if (ph == CANVAS and s.resume == DUSK) else 0)
    if ph not in (DRAW, CANVAS):
        rest("resume", -1, "null")
    if ph != DRAW:
        rest("draws_left", 0)
        rest("draw_to", -1)
    else:
        _draw(s, w, out)
    if ph != PAINT_P:
        rest("paints_left", 0)
    elif not 1 <= s.paints_left <= PAINT_CUBES:
        out.add("pending.paints_left", "painting has 1 to 4 cubes left (§10, I9)")
    if ph != PAY_P:
        rest("pay_left", 0)
        rest("pay_arg", -1)
        if s.pay_for >= 0:
            out.add(["pending.pay_for", "phase"], f"must be null in phase {name} (I9)", "null")
    else:
        _pay(s, out)
    if ph == TAKE_P:
        trades = [t for t, (pay, take) in enumerate(r.trades) if pay == sum(s.held)]
        if not trades or not 1 <= s.take_left <= r.trades[trades[0]][1]:
            out.add(["pending.take_left", "pending.held"],
                    f"a trade takes 1 to 3 cubes after paying 2, 5 or 9, held until the take "
                    f"ends (§14, I9)")
        elif s.take_left > s._nonwild(s.pile):
            out.add(["pending.take_left", "payday_pile"], "a trade is offered only when the "
                    "pile holds its whole take in cubes other than wilds (§14, I9)")
    elif not (ph == PAY_P and s.pay_for == PAY_TRADE):
        rest("take_left", 0)
        if sum(s.held):
            out.add(["pending.held", "phase"], "cubes are held only during a trade (§14, I9)",
                    "none")
    if ph != ADVANCE:
        rest("adv_card", -1)
        rest("adv_k", 0)
    # -- the counters of the turn
    if not r.solo:
        rest("actions_left", 0)
        if w.turn:
            if ph in (PAINT_P,) or (ph == DRAW) or (ph == PAY_P and s.pay_for == PAY_BUY):
                rest("main_done", 1)
            elif ph == CANVAS and not (s.main_done or s.free_used[p]):
                out.add(["pending.main_done", "phase"], "a canvas is turned up in a turn after "
                        "a purchase or a reset (§12, §15, I9)")
        else:
            rest("main_done", 0)
    else:
        rest("main_done", 0)
        if w.turn and (ph in (PAINT_P, DRAW, CANVAS) or (ph == PAY_P and s.pay_for == PAY_BUY)):
            if s.actions_left > 1:
                out.add(["pending.actions_left", "phase"], f"the action under way is one of "
                        f"the day's two (§33, I9)", 1)
        elif not (w.turn or w.sale):
            rest("actions_left", 0)
    if (ph == TAKE_P or (ph == PAY_P and s.pay_for in (PAY_TRADE, PAY_RESET))) and p >= 0 \
            and not s.free_used[p]:
        out.add([f"{_studio(p)}.free_action_used", "phase"], "a trade or reset under way is "
                "the day's free action (§13, I9)", True)
    if ph == SUPPER_P and not (r.last_supper and s.day > 1 and p >= 0 and s.nutrition[p] == 1
                               and s._sold_cards(p)):
        out.add(["phase", "pending.actor"], "a Last Supper needs the option, day 2 on, "
                                            "nutrition 1 and a painting (§30, I9)")
    if ph == ADVANCE:
        sq = r.deck.cards[s.adv_card].squares if s.adv_card >= 0 else ()
        if not 0 <= s.adv_k < len(sq) or len(sq[s.adv_k]) != 2 or not all(
                s.pile[c] > 0 for c in sq[s.adv_k]):
            out.add(["pending.adv_k", "pending.adv_card"], "the advance asks at a split square "
                    "whose two colours are both in the pile (§35, I9)")
    elif s.adv_card >= 0:
        out.add(["pending.adv_card", "phase"], "a canvas leaves the market only during the "
                                               "advance (§35, I9)", -1)


def _draw(s, w, out):
    """A draw from the bag: the payday pile at dawn (§6), work (§9) or the
    cubes of excess food (§19)."""
    if s.resume == DAWN:
        most, to = 4, -1
    elif s.resume == TURN:
        most, to = 3, s.actor
    elif s.resume == FEED:
        sellers = _sellers(s)
        to = sellers[s.feed_k] if s.feed_k < len(sellers) else -2
        food = sum(s._card(i).food for i in s.selling if s.loc[i] == STUDIO0 + to)
        most = 4 * food
        if to >= 0 and s.nutrition[to] != FULL:
            out.add([f"{_studio(to)}.nutrition", "phase"], "cubes for excess food are drawn "
                    "once nutrition is full (§19, I9)", FULL)
    else:
        out.add(["pending.resume", "phase"], "a draw resumes play at dawn, in a turn or in "
                                             "feeding (I9)")
        return
    if s.draw_to != to:
        out.add(["pending.draw_to", "pending.resume"], f"this draw is for "
                f"{'the payday pile' if to == -1 else f'player {to}'} (§6, §9, §19, I9)",
                to if to >= -1 else None)
    if not 1 <= s.draws_left <= most:
        out.add(["pending.draws_left", "pending.resume"], f"this draw has 1 to {most} cubes "
                                                          f"left (§6, §9, §19, I9)")


def _pay(s, out):
    r = s.r
    p = s.actor
    if s.pay_for < 0:
        out.add(["pending.pay_for", "phase"], "a payment must say what it pays for (I9)")
        return
    if s.pay_left < 1 or (p >= 0 and sum(s.studio[p]) < s.pay_left):
        out.add(["pending.pay_left", f"{_studio(max(p, 0))}.cubes"],
                "a payment needs 1 or more cubes, and the cubes to pay (§12, §14, §15, I9)")
    if s.pay_for == PAY_BUY:
        if not (0 <= s.pay_arg < MARKET and s.market[s.pay_arg] >= 0
                and s.pay_left <= s.pay_arg + 1):
            out.add(["pending.pay_arg", "pending.pay_left", "market"],
                    "a purchase names a market slot with a canvas it costs (§5, §12, I9)")
    elif s.pay_for == PAY_TRADE:
        if not 0 <= s.pay_arg < len(r.trades):
            out.add("pending.pay_arg", "a trade names one of the game's trades (§14, I9)")
            return
        pay, take = r.trades[s.pay_arg]
        if s.take_left != take:
            out.add(["pending.take_left", "pending.pay_arg"], f"this trade takes {take} "
                                                              f"(§14, I9)", take)
        if s.pay_left > pay or sum(s.held) != pay - s.pay_left:
            out.add(["pending.held", "pending.pay_left"], f"this trade pays {pay}: paid "
                    f"(held) + left to pay = {pay} (§14, I9)")
    else:
        if s.pay_arg != -1:
            out.add("pending.pay_arg", "a reset names no slot (I9)", -1)
        if s.pay_left > 2:
            out.add("pending.pay_left", "a reset costs 2 cubes (§15, I9)")


# -- I10: selling (§16-§24, §34) ---------------------------------------------------------------
def _sale(s, w, out):
    r = s.r
    ph = s.phase
    if not (ph == ANNOUNCE or w.sale):
        for key, empty in (("selling", []), ("order", []), ("got", []), ("coll_i", 0),
                           ("turn_taken", 0), ("turn_wild", 0), ("feed_k", 0), ("fed", 0)):
            if getattr(s, key) != empty:
                out.add([f"pending.{key}", "phase"], f"a sale is not under way in phase "
                                                     f"{PHASES[ph]} (I10)", empty)
        return
    if ph != COLLECT:
        for key in ("order", "got"):
            if getattr(s, key):
                out.add([f"pending.{key}", "phase"], "collection has not started (I10)", [])
        for key in ("coll_i", "turn_taken", "turn_wild"):
            if getattr(s, key):
                out.add([f"pending.{key}", "phase"], "collection has not started (I10)", 0)
    if not w.feed and (s.feed_k or s.fed):
        out.add(["pending.feed_k", "pending.fed", "phase"], "feeding never rests but for its "
                                                            "draws (I10)", 0)
    if r.solo and len(s.selling) > 1:
        out.add("pending.selling", "the solo game sells one canvas at a time (§34, I10)")
    if w.sale and not s.selling:
        out.add(["pending.selling", "phase"], "a sale needs its canvases (I10)")
        return
    owners = [s.loc[i] - STUDIO0 for i in s.selling]
    offsets = [(q - s.first) % r.n for q in owners]
    if offsets != sorted(offsets):
        out.add(["pending.selling", "first_player"], "canvases are announced in turn order "
                                                     "from the first player (§17, I10)")
    sellers = _sellers(s)
    for k, i in enumerate(s.selling):
        q = owners[k]
        cleared = not any(c >= 0 for c in s.cubes[i])
        fed = ph == COLLECT or (w.feed and sellers.index(q) < s.feed_k)
        if not s.alive[q]:
            out.add(f"pending.selling[{k}]", "only a living player's canvas is sold (§17, I10)")
        elif fed and not cleared:
            out.add([f"pending.selling[{k}]", f"{_studio(q)}.canvases"], "the paint of a "
                    "canvas sold is back in the bag once its painter has eaten (§20, I10)")
        elif not fed and not s._complete(i):
            out.add([f"pending.selling[{k}]", f"{_studio(q)}.canvases"], "only completed "
                    "canvases are sold (§16, I10)")
        if ph == ANNOUNCE and (q - s.first) % r.n > s.turn_k:
            out.add(["pending.selling", "pending.turn_k"], f"player {q} has not announced yet "
                                                           f"(§17, I10)")
    if w.feed:
        if not s.fed or s.feed_k >= len(sellers):
            out.add(["pending.feed_k", "pending.fed"], "a draw in feeding is for the seller "
                    "at feed_k, who has eaten (§19, I10)")
    if ph == COLLECT:
        _collect(s, out)


def _collect(s, out):
    m = len(s.selling)
    if len(s.order) != m:
        out.add(["pending.order", "pending.selling"], "collection needs the order of the "
                                                      "paintings sold (§21, I10)")
        return
    n, first = s.r.n, s.first

    def key(k):
        i = s.selling[k]
        return (-s._card(i).paint, (s.loc[i] - STUDIO0 - first) % n, k)
    want = sorted(range(m), key=key)
    if s.order != want:
        out.add(["pending.order", "pending.selling"], "paintings collect by paint value, "
                "ties in turn order from the first player, then announcement order (§21, "
                "§22, I10)", [s.r.deck.cards[s.selling[k]].id for k in want])
        return
    if not 0 <= s.coll_i < m:
        out.add("pending.coll_i", f"a position in the collection order, 0 to {m - 1} (I10)")
        return
    i = s.selling[s.order[s.coll_i]]
    if s.actor != s.loc[i] - STUDIO0:
        out.add(["pending.actor", "pending.coll_i"], "the painter of the painting at coll_i "
                                                      "collects (§21, I10)", s.loc[i] - STUDIO0)
    if s._remaining(s.coll_i) <= 0 or s.turn_taken >= s._rate(s.coll_i):
        out.add(["pending.turn_taken", "pending.got", "pending.coll_i"],
                "the collection turn has nothing left to take (§21, I10)")
    got = s.got[s.order[s.coll_i]]
    if s.turn_taken > got or s.turn_wild > s.turn_taken:
        out.add(["pending.turn_taken", "pending.turn_wild", "pending.got"],
                "cubes taken this collection turn are among those the painting got, a wild "
                "among them (§21, §23, I10)")
    if not any(s._takeable(c) for c in range(N_CUBES)):
        out.add(["payday_pile", "phase"], "collection ends when nothing in the pile can be "
                                          "taken (§21, §23, I10)")


# -- I11: the end of the game (§26, §27, §36) -----------------------------------------------------
def _end(s, w, out):
    r = s.r
    famous = [p for p in range(r.n) if s._famous(p)]
    dead = [p for p in range(r.n) if not s.alive[p]]
    if bool(s.starved_today) != bool(dead):
        out.add(["pending.starved_today", "studios"], "a starvation ends the game at that day's "
                "end, so someone has starved exactly on the day it happened (§26, I11)",
                1 if dead else 0)
    if r.solo:
        if w.end and not s.result:
            out.add(["result", "phase"], "a solo game ends won or lost (§36, I11)")
        if not w.end and s.result:
            out.add(["result", "phase"], "a decided solo game is over (§36, I11)", 0)
        if not w.end and famous:
            out.add(["studios[0].paintings", "phase"], "the solo game is won at once when a "
                    "sale reaches the goal (§36, I11)")
        if s.result > 0 and not famous:
            out.add(["result", "studios[0].paintings"], "a solo win needs the goal's stars or "
                                                        "paintings (§36, I11)")
        return
    if not w.end and famous:
        out.add(["studios", "phase"], f"player {famous[0]} has the stars or paintings for fame; "
                                      f"the game ended at the end of that day (§27, I11)")
    if w.end and not famous and not dead:
        out.add(["phase", "studios"], "the game ends after a starvation (§26) or when someone "
                                      "is famous (§27) (I11)")
    if not w.end and dead and not any(s.alive):
        out.add(["phase", "studios"], "nobody is alive: the game is over (§26, I11)")


# -- I12: settled, with a move or an outcome (ENCODING.md "Settling") -----------------------------
def _node(s, out):
    from .view import state_view
    if s.phase in NEVER_REST:
        out.add("phase", f"play never rests in phase {PHASES[s.phase]} (it settles at once, "
                         f"I12)")
        return
    try:
        # A copy of the position's own fields; the game and its rules are
        # shared, not copied (a deep copy of the deck would cost ten times
        # the whole check).
        probe = copy.copy(s)
        for key, value in vars(s).items():
            if isinstance(value, list):     # of small integers, or of lists of them
                setattr(probe, key, [list(x) if isinstance(x, list) else x for x in value])
        before = state_view(probe)
        probe._settle()
        after = state_view(probe)
    except (AssertionError, IndexError, ValueError, KeyError) as e:
        out.add("phase", f"phase {PHASES[s.phase]} cannot go on from this position "
                         f"({type(e).__name__}: {e}; I12)")
        return
    if before != after:
        moved = [k for k in before if before[k] != after[k]]
        out.add(["phase"] + [k for k in moved if k != "phase"],
                f"phase {PHASES[s.phase]} is not where play stops: settling moves it on "
                f"(changes {', '.join(moved)}; ENCODING.md 'Settling', I12)")
        return
    player = s._current_player()
    if player >= 0 and not s._legal_actions():
        out.add(["phase", "pending.actor"], f"player {player} would have no legal move (I12)")
    elif player == -1:
        outcomes = s._chance_outcomes()
        if not outcomes or abs(sum(pr for _, pr in outcomes) - 1.0) > 1e-9:
            out.add("phase", "a chance node with no outcome (I12)")
    if s.phase == CANVAS and s._drawable() <= 0:
        out.add(["face_down.unseen", "phase"], "a canvas draw needs a face-down canvas to turn "
                                               "up (§12, I12)")
