"""Starving Artists' state, one row per field: the reference attribute, the C
field of `SAStateC` (state.pxd), where the JSON view shows it, its axes, its
JSON form and range, what a player knows of it, and what it means.

Everything that converts or checks a state field by field reads this table
(engine/fieldtable.py): the JSON view of the reference and of the core
(view.py, core.pyx), the view's field-by-field loader, the core's struct bytes
from a reference state and back, the reference's fields before setup (and so
the core's initial position), and the field list of ENCODING.md ("State
fields"), which

    python -m easel.engine.starving_artists.encoding --write

rewrites (tests/starving_artists/test_sa_fields.py fails while it is stale). The
table's order is the view's. Adding a field: declare it in state.pxd, add its
row here, write the rules that use it (reference.py and play.pyx).

Three things are kept in C in another form than the reference's: the cube on
each square (three bit masks per canvas: filled, wild, second colour of a split
square), the variable lists (with a C length field), and where each canvas is
(`loc`, one entry per canvas), which the view shows as the lists naming the
canvases (market, face down, removed, studios, paintings) and view.py reads
back from them.
"""
from __future__ import annotations

from easel.engine.fieldtable import (CACHE, DERIVED, PENDING, PUBLIC, Axis, Bound, CForm,
                                     Field, FieldTable, Flag, Int, Name, NameCounts, Ordinal, Shown,
                                     Value)

from .rules import (BOX, CUBE_NAMES, FULL, MARKET, MAX_CARDS, MAX_PLAYERS, MAX_SQUARES, N_CUBES,
                    PAY_FOR, PHASES, REMOVED, SOLD0, STUDIO0, UNSEEN, WILD, max_days)

BOX_CUBES = sum(BOX)


# ------------------------------------------------------------------ canvases
def canvas_id(r, i):
    """The printed id (the canvas file's `id`) naming canvas `i` in the view."""
    return r.deck.cards[i].id


def canvas_index(r, f, given, field):
    """The deck index of the canvas the view names by its printed id `given`;
    a refusal names the field and the ids that would be closest."""
    i = r.deck.index_of(given)
    if i >= 0:
        return i
    import difflib
    ids = [c.id for c in r.deck.cards]
    close = difflib.get_close_matches(given, ids, n=3, cutoff=0.5) if isinstance(given, str) \
        else []
    f.bad(field, f"must be the printed id of a canvas of the deck (the canvas file's 'id', "
                 f"e.g. {ids[0]!r}), got {given!r}"
                 + (f"; write one of: {', '.join(map(repr, close))}" if close else ""))


def canvas_view(r, cubes, i, with_cubes=True):
    """A canvas as the view shows it: its printed id, the card's facts and (in
    a studio) the cube on each square."""
    card = r.deck.cards[i]
    out = {"canvas": card.id, "title": card.title, "stars": card.stars, "food": card.food,
           "paint": card.paint,
           "squares": ["/".join(CUBE_NAMES[c] for c in cols) for cols in card.squares]}
    if with_cubes:
        out["cubes"] = [CUBE_NAMES[c] if c >= 0 else None for c in cubes[i]]
    return out


_CANVAS_LISTS = (("face_down", "unseen"), ("face_down", "known_under"), ("removed",),
                 ("pending", "selling"), ("pending", "order"))


def _recanvas(v, r, one):
    """A copy of the view `v` with every canvas it names turned by `one(x)`."""
    import copy
    v = copy.deepcopy(v)
    for m in v["market"]:
        if m is not None:
            m["canvas"] = one(m["canvas"])
    for path in _CANVAS_LISTS:
        *head, key = path
        box = v
        for k in head:
            box = box[k]
        box[key] = [one(x) for x in box[key]]
    for st in v["studios"]:
        for cv in st["canvases"]:
            cv["canvas"] = one(cv["canvas"])
        st["paintings"] = [one(x) for x in st["paintings"]]
    return v


def view_by_index(r, v):
    """The view `v` (canvases by printed id) with every canvas named by its
    deck index instead, `pending.adv_card` -1 for none: the form the rule
    code (the notation, the policies) counts in. The view itself never holds
    it (docs/table-notation.md: cards by what is printed on them)."""
    v = _recanvas(v, r, r.deck.index_of)
    adv = v["pending"]["adv_card"]
    v["pending"]["adv_card"] = -1 if adv is None else r.deck.index_of(adv)
    return v


def view_by_id(r, v):
    """The inverse of view_by_index: every canvas by its printed id."""
    cards = r.deck.cards
    v = _recanvas(v, r, lambda i: cards[i].id)
    adv = v["pending"]["adv_card"]
    v["pending"]["adv_card"] = None if adv < 0 else cards[adv].id
    return v


class MarketSlots(Value):
    """The market's slots: a canvas index or -1, shown as the canvas (its
    printed id and facts, no cubes) or null. Reading checks the title, where
    one is given."""
    axes = 1

    def write(self, v, ctx):
        return [canvas_view(ctx.r, None, i, False) if i >= 0 else None for i in v]

    def read(self, j, field, ctx):
        r, f = ctx.r, ctx.f
        if not isinstance(j, list) or len(j) != MARKET:
            f.bad(field, f"must list {MARKET} slots (null when empty)")
        out = [-1] * MARKET
        for slot, m in enumerate(j):
            sf = f"{field}[{slot}]"
            if m is None:
                continue
            if not isinstance(m, dict) or "canvas" not in m:
                f.bad(sf, "must be null or an object with 'canvas'")
            i = canvas_index(r, f, m["canvas"], f"{sf}.canvas")
            title = r.deck.cards[i].title
            if m.get("title", title) != title:
                f.bad(f"{sf}.title", f"canvas {m['canvas']!r} is {title!r}")
            out[slot] = i
        return out

    def limits(self, r):
        return -1, r.n_cards - 1

    def text(self):
        return ("list of 3: the canvas (printed id, title, stars, food, paint, squares) or "
                "null")


class Canvases(Value):
    """A list of canvas indices, each once at most, shown by the canvases'
    printed ids (where each canvas is, and so the other places naming it,
    view.py checks)."""
    axes = 1

    def __init__(self, what):
        self.what = what

    def write(self, v, ctx):
        cards = ctx.r.deck.cards
        return [cards[i].id for i in v]

    def read(self, j, field, ctx):
        nc = ctx.r.n_cards
        given = ctx.f.list(j, field, most=nc)
        return [canvas_index(ctx.r, ctx.f, x, f"{field}[{k}]") for k, x in enumerate(given)]

    def limits(self, r):
        return 0, r.n_cards - 1

    def text(self):
        return f"list of {self.what}"


class CanvasRef(Value):
    """One canvas index or -1, shown by the canvas's printed id or null."""
    noun = "canvases"

    def write(self, v, ctx):
        return ctx.r.deck.cards[v].id if v >= 0 else None

    def read(self, j, field, ctx):
        return -1 if j is None else canvas_index(ctx.r, ctx.f, j, field)

    def limits(self, r):
        return -1, r.n_cards - 1

    def text(self):
        return "a canvas's printed id (the canvas file's `id`) or null"


class SellingOrder(Value):
    """The collection order: empty, or the selling entries (pending.selling,
    read before) each once, in the order their paintings collect; stored as
    indices into selling, shown by the canvases' printed ids as selling is."""
    axes = 1

    def write(self, v, ctx):
        cards = ctx.r.deck.cards
        return [cards[ctx.s.selling[k]].id for k in v]

    def read(self, j, field, ctx):
        selling = list(ctx.s.selling)
        given = ctx.f.list(j, field, most=len(selling))
        order = [canvas_index(ctx.r, ctx.f, x, f"{field}[{k}]") for k, x in enumerate(given)]
        if order and sorted(order) != sorted(selling):
            ctx.f.bad(field, "must be empty or the canvases of pending.selling, each once")
        return [selling.index(i) for i in order]

    def limits(self, r):
        return 0, r.n_cards - 1

    def text(self):
        return "list of canvases' printed ids: empty or those of selling, each once"


class Cubes(CForm):
    """The cube on each square of every canvas (-1 empty), kept in C as three
    bit masks per canvas: the squares filled, those holding a wild, those
    holding the second colour of a split square."""
    c_fields = ("filled", "wildm", "altm")

    def pack(self, v, r):
        filled, wild, alt = [0] * MAX_CARDS, [0] * MAX_CARDS, [0] * MAX_CARDS
        for i, card in enumerate(r.deck.cards):
            for k, x in enumerate(v[i]):
                if x < 0:
                    continue
                filled[i] |= 1 << k
                if x == WILD:
                    wild[i] |= 1 << k
                elif len(card.squares[k]) > 1 and x == card.squares[k][1]:
                    alt[i] |= 1 << k
        return filled, wild, alt

    def unpack(self, parts, r):
        filled, wild, alt = parts["filled"], parts["wildm"], parts["altm"]
        out = []
        for i, card in enumerate(r.deck.cards):
            f, w, a = filled[i], wild[i], alt[i]
            out.append([-1 if not (f >> k) & 1 else WILD if (w >> k) & 1
                        else cols[1] if (a >> k) & 1 else cols[0]
                        for k, cols in enumerate(card.squares)])
        return out

    def rest(self, r):
        return [[-1] * len(card.squares) for card in r.deck.cards]


class Recounted(Value):
    """A derived number the view shows and the loader recounts from the rest
    (view.py compares the given value with its count): read as given."""
    noun = "numbers"

    def __init__(self, hi):
        self.hi = hi

    def write(self, v, ctx):
        return v

    def read(self, j, field, ctx):
        return j

    def limits(self, r):
        return 0, self.hi

    def text(self):
        return "integer, recounted on loading"


class IntUpTo(Value):
    """An integer from lo to `most(ctx)`, a bound the fields read before it set."""
    noun = "integers"

    def __init__(self, lo, most, hi, doc):
        self.lo, self.most, self.hi, self.doc = lo, most, hi, doc

    def write(self, v, ctx):
        return v

    def read(self, j, field, ctx):
        return ctx.f.int(j, field, self.lo, self.most(ctx))

    def limits(self, r):
        return self.lo, self.hi

    def text(self):
        return f"integer {self.lo}..{self.doc}"


class Collected(Value):
    """Cubes collected per selling entry: each at most the paint of the
    canvas it is for (pending.selling, read before)."""
    axes = 1

    def write(self, v, ctx):
        return list(v)

    def read(self, j, field, ctx):
        sel = ctx.s.selling
        got = ctx.f.list(j, field, most=len(sel))
        return [ctx.f.int(x, f"{field}[{k}]", 0, ctx.r.deck.cards[sel[k]].paint)
                for k, x in enumerate(got)]

    def limits(self, r):
        return 0, max((c.paint for c in r.deck.cards), default=0)

    def text(self):
        return "list of integers, one per selling entry, each 0..its canvas's paint"


# ------------------------------------------------------------------ shown
def _players_check(given, ctx):
    if given != ctx.r.n:
        return f"the state is for {given!r} players, the game for {ctx.r.n}"


def _deck_check(given, ctx):
    if given != ctx.r.deck.spec:
        return f"the state uses deck {given!r}, the game {ctx.r.deck.spec!r}"


def _set_aside_check(given, ctx):
    if given != ctx.r.set_aside:
        return f"the game sets aside {ctx.r.set_aside}"


def _at(where):
    """The canvases whose loc is `where(ctx)`, in deck order, by printed id."""
    def value(ctx):
        w, cards = where(ctx), ctx.r.deck.cards
        return [cards[i].id for i, x in enumerate(ctx.s.loc) if x == w]
    return value


def _studio_canvases(ctx):
    s, w = ctx.s, STUDIO0 + ctx.i
    return [canvas_view(ctx.r, s.cubes, i) for i, x in enumerate(s.loc) if x == w]


# ------------------------------------------------------------------ the table
AXES = (
    Axis("players", MAX_PLAYERS, lambda r: r.n, "one per player (seat order)", ref_doc="n"),
    Axis("cubes", N_CUBES, doc="cube colours: red, orange, yellow, green, blue, violet, "
                               "black, wild"),
    Axis("market", MARKET, doc="market slots; slot i costs i + 1 cubes"),
    Axis("cards", MAX_CARDS, lambda r: r.n_cards, "the deck's canvases, by index (a counted "
         "list: its entries, up to this many)", ref_doc="canvases"),
)

N_1 = Bound("n-1", lambda r: r.n - 1, "the last seat (n = players)")
N = Bound("n", lambda r: r.n, "players")
N_P1 = Bound("n+1", lambda r: r.n + 1, "players + 1")
DAYS = Bound("days", lambda r: max_days(r), "max_days (ENCODING.md \"Utilities and length\")")
RES_LO = Bound("lost", lambda r: -1 if r.solo else 0, "-1 solo (lost), else 0")
RES_HI = Bound("won", lambda r: 1 if r.solo else 0, "1 solo (won), else 0")
SETUP_DRAWS = Bound("n*start cubes", lambda r: r.n * r.start_cubes, "cubes dealt at setup")
DECK_FOOD = Bound("the deck's food", lambda r: sum(c.food for c in r.deck.cards),
                  "the food of all the deck's canvases")

_PLAYER_OR_NONE = Int(-1, N_1)
_FLAG = Int(0, 1)
_CUBES = NameCounts(CUBE_NAMES, "cube colour", BOX, hi_doc="the box's count of the colour")

ROWS = (
    Shown("players", lambda c: c.r.n, "number of players (1: solo); must be the game's",
          required=True, check=_players_check),
    Shown("deck", lambda c: c.r.deck.spec, "the deck option; must be the game's",
          required=True, check=_deck_check),
    Field("phase", "phase", PUBLIC, "the phase (\"Phases\")", value=Name(PHASES, "phase")),
    Shown("current_player", lambda c: c.s._current_player(), "who acts: a seat, -1 chance, "
          "-4 nobody (the end); must agree with the position", required=True),
    Field("day", "day", PUBLIC, "1-based day", value=Int(1, DAYS)),
    Field("round", "round", PUBLIC, "action round of the day (solo: unused)", value=Int(1, 2)),
    Field("first", "first_player", PUBLIC, "the carrot: the day's first player",
          value=Int(0, N_1)),
    Field("result", "result", PUBLIC, "solo: 1 won, -1 lost, 0 playing",
          value=Int(RES_LO, RES_HI)),
    Field("bag", "bag", DERIVED, "cubes in the bag", dims=("cubes",), value=_CUBES),
    Field("pile", "payday_pile", PUBLIC, "cubes in the payday pile", dims=("cubes",),
          value=_CUBES),
    Field("market", "market", PUBLIC, "the canvas in each slot, -1 empty (slot 2 is nearest "
          "the deck)", dims=("market",), value=MarketSlots(), empty=-1),
    Shown("face_down.unseen", _at(lambda c: UNSEEN), "canvases face down, unknown, by printed id (a set: "
          "no order is kept); where they are is `loc`", required=True),
    Field("queue", "face_down.known_under", PUBLIC, "known canvases under the face-down "
          "pile (put back by a reset), top first", dims=("cards",), value=Canvases("canvases' printed ids"), count="q_len"),
    Shown("face_down.set_aside", lambda c: c.r.set_aside, "solo: canvases set aside unseen "
          "(the option setaside); must be the game's", required=True, check=_set_aside_check),
    Shown("removed", _at(lambda c: REMOVED), "canvases out of the game, by printed id", required=True),
    Field("alive", "studios[].alive", PUBLIC, "not starved", dims=("players",), value=Flag()),
    Field("nutrition", "studios[].nutrition", PUBLIC, "the nutrition track, 5 full",
          dims=("players",), value=Int(0, FULL)),
    Field("studio", "studios[].cubes", PUBLIC, "cubes in the studio", dims=("players", "cubes"),
          value=_CUBES),
    Shown("studios[].canvases", _studio_canvases, "the canvases in the studio (deck order), "
          "each by its printed id (`canvas`) with its facts and the cube on each square (null empty)", required=True),
    Shown("studios[].paintings", _at(lambda c: SOLD0 + c.i), "the paintings sold, by printed id",
          required=True),
    Field("stars", "studios[].stars", DERIVED, "stars of the paintings sold (§24)",
          dims=("players",), value=Recounted(9 * MAX_CARDS)),
    Field("food", "studios[].food_earned", PUBLIC, "food earned (the last tie-break, §28)",
          dims=("players",), value=Int(0, DECK_FOOD)),
    Field("free_used", "studios[].free_action_used", PUBLIC, "the day's free action is spent "
          "(§13)", dims=("players",), value=Flag()),
    Field("actor", "pending.actor", PENDING, "the player deciding now (or drawing), -1 none",
          value=_PLAYER_OR_NONE, empty=-1),
    Field("turn_k", "pending.turn_k", PENDING, "players whose turn (or announcement) is "
          "over this round, a count: the turn player sits turn_k seats after the first", value=Int(0, N)),
    Field("main_done", "pending.main_done", PENDING, "the turn's action is taken",
          value=_FLAG),
    Field("actions_left", "pending.actions_left", PENDING, "solo: actions left today",
          value=Int(0, 2)),
    Field("dawn_k", "pending.dawn_k", PENDING, "dawn steps done, a count", value=Int(0, N_P1)),
    Field("dusk_k", "pending.dusk_k", PENDING, "solo dusk: 0 advance, 1 after the refill",
          value=_FLAG),
    Field("starved_today", "pending.starved_today", PENDING, "someone starved at this day's "
          "dawn (§26)", value=_FLAG),
    Field("setup_k", "pending.setup_k", PENDING, "setup draws done", value=Int(0, SETUP_DRAWS)),
    Field("draws_left", "pending.draws_left", PENDING, "cubes still to draw",
          value=Int(0, BOX_CUBES)),
    Field("draw_to", "pending.draw_to", PENDING, "who the drawn cubes go to, -1 the payday "
          "pile", value=_PLAYER_OR_NONE, empty=-1),
    Field("resume", "pending.resume", PENDING, "phase to return to after the draws",
          value=Name(PHASES, "phase", none=True), empty=-1),
    Field("paints_left", "pending.paints_left", PENDING, "cubes still to paint this action",
          value=Int(0, 4)),
    Field("pay_left", "pending.pay_left", PENDING, "cubes still to pay", value=Int(0, 9)),
    Field("pay_for", "pending.pay_for", PENDING, "what the payment is for",
          value=Name(PAY_FOR, "payment", none=True), empty=-1),
    Field("pay_arg", "pending.pay_arg", PENDING, "buy: the market slot; trade: the trade "
          "(both counted from 1, as the notation's slot=)",
          value=Ordinal(0, 2, none=True), empty=-1),
    Field("held", "pending.held", PENDING, "cubes paid into a trade, joining the pile after "
          "the take", dims=("cubes",), value=_CUBES),
    Field("take_left", "pending.take_left", PENDING, "cubes still to take in a trade",
          value=Int(0, 3)),
    Field("selling", "pending.selling", PENDING, "canvases announced for sale, in "
          "announcement order (each in a studio, once)", dims=("cards",), value=Canvases("canvases' printed ids"),
          count="n_selling"),
    Field("order", "pending.order", PENDING, "collection order: empty, or the canvases of "
          "selling, by printed id, in the order their paintings collect", dims=("cards",), value=SellingOrder(), count="n_order"),
    Field("got", "pending.got", PENDING, "cubes collected per selling entry, once collection "
          "starts", dims=("cards",), value=Collected(), count="n_order"),
    Field("coll_i", "pending.coll_i", PENDING, "the collection turn's place in order, "
          "an offset (0 the first; collection goes round the order)",
          value=IntUpTo(0, lambda c: max(len(c.s.selling) - 1, 0), MAX_CARDS,
                        "max(len(selling)-1, 0)")),
    Field("turn_taken", "pending.turn_taken", PENDING, "cubes taken this collection turn",
          value=Int(0, BOX_CUBES)),
    Field("turn_wild", "pending.turn_wild", PENDING, "a wild was taken this collection turn "
          "(§23)", value=_FLAG),
    Field("feed_k", "pending.feed_k", PENDING, "feeding: sellers fed so far, a count (the "
          "next is the seller after them)",
          value=Int(0, N)),
    Field("fed", "pending.fed", PENDING, "feeding: the seller at feed_k has eaten",
          value=_FLAG),
    Field("adv_card", "pending.adv_card", PENDING, "solo advance: the canvas leaving the "
          "market, by its printed id", value=CanvasRef(), empty=-1),
    Field("adv_k", "pending.adv_k", PENDING, "solo advance: squares of adv_card matched "
          "so far, a count",
          value=Int(0, MAX_SQUARES)),
    Field("loc", None, PUBLIC, "where each canvas is: 0 unseen, 1 known under the pile, "
          "2 market, 3 out of the game, 4+p in p's studio, 8+p sold by p",
          dims=("cards",), value=Int(0, SOLD0 + MAX_PLAYERS - 1),
          shown_by="the lists naming canvases; view.py reads it back from them"),
    Field("cubes", None, PUBLIC, "the cube on each square of each canvas, -1 empty",
          dims=("cards",), value=Int(-1, WILD), c_form=Cubes(),
          shown_by="`studios[].canvases[].cubes`"),
    Field("paintings", None, DERIVED, "paintings sold", dims=("players",),
          value=Int(0, MAX_CARDS), shown_by="the length of `studios[].paintings`"),
    Field("bag_total", None, CACHE, "cubes in the bag", sum_of="bag"),
    Field("pile_total", None, CACHE, "cubes in the payday pile", sum_of="pile"),
    Field("n_unseen", None, CACHE, "canvases face down and unknown", sum_of="loc",
          count_eq=UNSEEN),
)

FIELDS = FieldTable("starving_artists", AXES, ROWS)
