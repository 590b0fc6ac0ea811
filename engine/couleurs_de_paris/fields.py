"""Couleurs de Paris's state, one row per field: the reference attribute, the
C field of `CdpStateC` (state.pxd), where the JSON view shows it, its axes,
its JSON form and range, what a player knows of it, and what it means.

Everything that converts or checks a state field by field reads this table
(engine/fieldtable.py): the JSON view of the reference and of the core
(view.py, core.pyx), the view's loader (view.py keeps only the checks across
fields), the core's struct bytes from a reference state and back, the
reference's fields before setup, and the field list of ENCODING.md ("State
fields"), which

    python -m easel.engine.couleurs_de_paris.encoding --write

rewrites (tests/couleurs_de_paris/test_cdp_fields.py fails while it is stale).
The table's order is the view's. The view shows some fields otherwise than
the state holds them: the assistants per player and location as the players
on each board space (`lower_board`, `upper_board`), the per-card fields as
each player's paintings; those Shown rows name the fields they stand for.
Adding a field: declare it in state.pxd, add its row here, write the rules
that use it (reference.py and play.pyx).
"""
from __future__ import annotations

from easel.engine.fieldtable import (CACHE, DERIVED, PENDING, PUBLIC, Axis, Bound, Field,
                                     FieldTable, IdSet, Int, Name, NameCounts, Ordinal, Shown,
                                     Value)

from .data import (ACTION_NAMES, MAX_PAINTINGS, POSITIONS, SPACES, SUPPLY_COLOURS, TOOLS,
                   TRACK_LEN)
from .rules import (CENTRE_NAMES, CHANCE_PHASES, END, MAX_ASSISTANTS, N_COLOURS, N_EASELS,
                    N_LOCATIONS, N_PAYABLE, N_TOOLS, PHASES, START_ASSISTANTS, kind_at)

MAX_PLAYERS = 4
BONUS_NAMES = (None, "assistant", "points")
# The most pigments of one colour a count in the view may hold (the largest
# box a data file gives; the box itself is checked across fields).
MOST_PIGMENTS = 211


# ------------------------------------------------------------------ values
class OptInt(Value):
    """An integer lo..hi, or null for -1 (none)."""
    noun = "items"

    def __init__(self, lo, hi):
        self.lo, self.hi = lo, hi

    def write(self, v, ctx):
        return None if v < 0 else v

    def read(self, j, field, ctx):
        if j is None:
            return -1
        return ctx.f.int(j, field, self.lo, _at(self.hi, ctx.r))

    def limits(self, r):
        return -1, _at(self.hi, r)

    def text(self):
        return f"integer {self.lo}..{getattr(self.hi, 'name', self.hi)} or null"


def _at(b, r):
    return b.of(r) if isinstance(b, Bound) else b


class Flag(Value):
    """0/1 shown as false/true."""

    def write(self, v, ctx):
        return bool(v)

    def read(self, j, field, ctx):
        return ctx.f.bool(j, field)

    def limits(self, r):
        return 0, 1

    def text(self):
        return "true or false"


class ToolBonus(Value):
    """Per tool the development bonus chosen (0 none, 1 assistant, 2 points),
    shown as {tool: null, "assistant" or "points"}."""
    axes = 1

    def write(self, v, ctx):
        return {TOOLS[t]: BONUS_NAMES[v[t]] for t in range(N_TOOLS)}

    def read(self, j, field, ctx):
        ctx.f.obj(j, field, TOOLS)
        out = []
        for name in TOOLS:
            v = j[name]
            if v not in BONUS_NAMES:
                ctx.f.bad(f"{field}.{name}", f"must be null, 'assistant' or 'points', got {v!r}")
            out.append(BONUS_NAMES.index(v))
        return out

    def limits(self, r):
        return 0, len(BONUS_NAMES) - 1

    def text(self):
        return "{tool: null, \"assistant\" or \"points\"}"


# -------------------------------------------- fields the view arranges otherwise
def _current_player(ctx):
    return ctx.s._current_player()


def _read_current_player(given, field, ctx):
    """`cur` is the player to move at a decision; at a chance node or the end
    the view shows who acts instead (view.py checks it against the phase)."""
    s = ctx.s
    if s.phase not in CHANCE_PHASES and s.phase != END:
        s.cur = ctx.f.int(given, field, 0, ctx.r.n - 1)


def _players_at(s, loc, field):
    return [q for q in range(s.r.n) for _ in range(field[q][loc])]


def _lower_board(ctx):
    s, r = ctx.s, ctx.r
    # positions count from 1 as a person counts them (docs/table-notation.md);
    # the list's order is the board's, position 1 first
    return [{"position": q + 1, "action": ACTION_NAMES[kind_at(r, s.rot, q)],
             "spaces": r.capacity[q],
             "standing": _players_at(s, q, s.stand),
             "lying": _players_at(s, q, s.lie)} for q in range(POSITIONS)]


def _upper_board(ctx):
    s = ctx.s
    return {CENTRE_NAMES[i]: {"standing": _players_at(s, POSITIONS + i, s.stand),
                              "lying": _players_at(s, POSITIONS + i, s.lie)}
            for i in range(len(CENTRE_NAMES))}


def _players_list(ctx, v, field):
    """Counts per player of a list of seats (one per assistant)."""
    n = ctx.r.n
    most = MAX_ASSISTANTS * n
    ctx.f.list(v, field)
    if len(v) > most:
        ctx.f.bad(field, f"lists {len(v)} assistants; at most {most} fit")
    counts = [0] * n
    for i, q in enumerate(v):
        counts[ctx.f.int(q, f"{field}[{i}]", 0, n - 1)] += 1
    return counts


def _read_people(ctx, v, field, loc):
    s = ctx.s
    st = _players_list(ctx, v["standing"], f"{field}.standing")
    li = _players_list(ctx, v["lying"], f"{field}.lying")
    for p in range(ctx.r.n):
        s.stand[p][loc], s.lie[p][loc] = st[p], li[p]


def _read_lower_board(given, field, ctx):
    """Who stands and lies on each position (the action facing it and its
    spaces follow from the rotation and the game: view.py compares them)."""
    f = ctx.f
    for q, lv in enumerate(f.list(given, field, POSITIONS)):
        lf = f"{field}[{q}]"
        f.obj(lv, lf, ("position", "action", "spaces", "standing", "lying"))
        if lv["position"] != q + 1:
            f.bad(f"{lf}.position", f"must be {q + 1} (positions count from 1, in list "
                                    f"order)")
        _read_people(ctx, lv, lf, q)


def _read_upper_board(given, field, ctx):
    f = ctx.f
    f.obj(given, field, CENTRE_NAMES)
    for i, name in enumerate(CENTRE_NAMES):
        uf = f"{field}.{name}"
        _read_people(ctx, f.obj(given[name], uf, ("standing", "lying")), uf, POSITIONS + i)


def _paintings(ctx):
    """The paintings player ctx.i holds, by card id: what each space needs and holds."""
    s, p = ctx.s, ctx.i
    data = ctx.r.data
    out = []
    for c in range(len(s.owner)):
        if s.owner[c] != p:
            continue
        card = data.paintings[c]
        filled = []
        for j in range(SPACES):
            if not s.fill[c] >> j & 1:
                filled.append(None)
            else:
                filled.append("white" if s.whites[c] >> j & 1 else SUPPLY_COLOURS[card.spaces[j]])
        out.append({"card": c, "name": card.name, "value": card.value,
                    "spaces": [SUPPLY_COLOURS[x] for x in card.spaces],
                    "filled": filled, "finished": bool(s.done[c])})
    return out


def _read_paintings(given, field, ctx):
    """owner, fill and whites from player ctx.i's paintings; done is derived
    (every space filled), view.py compares the view's `finished` with it."""
    s, p, f = ctx.s, ctx.i, ctx.f
    data = ctx.r.data
    ncards = len(data.paintings)
    for i, pv in enumerate(f.list(given, field)):
        pf = f"{field}[{i}]"
        f.obj(pv, pf, ("card", "filled", "finished"), optional=("name", "value", "spaces"))
        c = f.int(pv["card"], f"{pf}.card", 0, ncards - 1)
        card = data.paintings[c]
        shown = {"name": card.name, "value": card.value,
                 "spaces": [SUPPLY_COLOURS[x] for x in card.spaces]}
        for k, want in shown.items():
            if k in pv and pv[k] != want:
                f.bad(f"{pf}.{k}", f"painting {c} has {k} {want!r} in the data")
        if s.owner[c] >= 0:
            f.bad(f"{pf}.card", f"painting {c} is held twice")
        s.owner[c] = p
        for j, x in enumerate(f.list(pv["filled"], f"{pf}.filled", SPACES)):
            if x is None:
                continue
            if x == "white":
                s.whites[c] |= 1 << j
            elif x != SUPPLY_COLOURS[card.spaces[j]]:
                f.bad(f"{pf}.filled[{j}]", f"space {j + 1} needs "
                                           f"{SUPPLY_COLOURS[card.spaces[j]]} (or white), "
                                           f"got {x!r}")
            s.fill[c] |= 1 << j
        f.bool(pv["finished"], f"{pf}.finished")
        s.done[c] = 1 if s.fill[c] == (1 << SPACES) - 1 else 0


def removed(s) -> list:
    """The paintings out of the game: neither in the deck, on an easel nor held."""
    located = {c for c in range(len(s.owner)) if s.owner[c] >= 0}
    located |= {c for c in s.easel if c >= 0}
    return [c for c in range(len(s.deck)) if not s.deck[c] and c not in located]


def _players_check(given, ctx):
    if given != ctx.r.n:
        return f"the state is for {given!r} players, the game for {ctx.r.n}"


# ------------------------------------------------------------------ the table
AXES = (
    Axis("players", MAX_PLAYERS, lambda r: r.n, "one per player (seat order)", ref_doc="n"),
    Axis("colours", N_COLOURS, doc="red, orange, yellow, green, blue, violet, white, black"),
    Axis("tools", N_TOOLS, doc="paint tube, palette, brush"),
    Axis("locations", N_LOCATIONS, doc="lower-board positions 0..9, then the centre spaces "
                                       "(first player, imitator, rotate, white)"),
    Axis("easels", N_EASELS, lambda r: r.easels, "easels (3 with 2 players)",
         ref_doc="easels"),
    Axis("cards", MAX_PAINTINGS, lambda r: len(r.data.paintings), "the data file's "
         "paintings, by id", ref_doc="cards"),
)

N_1 = Bound("n-1", lambda r: r.n - 1, "the last seat (n = players)")
ROUNDS = Bound("maxrounds", lambda r: r.max_rounds, "the option maxrounds")
LAST_CARD = Bound("cards-1", lambda r: len(r.data.paintings) - 1, "the last painting id")

_PLAYER = Int(0, N_1)
_ASSISTANTS = Int(0, MAX_ASSISTANTS)
_MASK = Int(0, (1 << SPACES) - 1)

ROWS = (
    Shown("players", lambda c: c.r.n, "number of players; must be the game's", required=True,
          check=_players_check),
    Field("phase", "phase", PUBLIC, "the phase (\"Phases\")", value=Name(PHASES, "phase")),
    Shown("current_player", _current_player, "who acts: a seat, -1 chance, -4 nobody (the "
          "end); at a decision the field `cur`", required=True, fields=("cur",),
          read=_read_current_player),
    Field("round", "round", PUBLIC, "1-based round number", value=Int(1, ROUNDS)),
    Field("first", "first_player", PUBLIC, "holder of the 1st Player token", value=_PLAYER),
    Field("rot", "rotation", PUBLIC, "clockwise steps of the upper board (§1: at 0 red "
          "faces lower-board position 1)", value=Int(0, POSITIONS - 1)),
    Field("final", "final_round", DERIVED, "an end condition occurred: this is the last "
          "round (§23)", value=Flag()),
    Shown("lower_board", _lower_board, "per lower-board position, in board order: `position` "
          "(1..10, as a person counts), the `action` facing it, its usable `spaces`, the players `standing` and `lying` there (one entry per "
          "assistant)", required=True, fields=("stand", "lie"), read=_read_lower_board),
    Shown("upper_board", _upper_board, "per centre space (first player, imitator, rotate, "
          "white): the players `standing` and `lying` there", required=True,
          fields=("stand", "lie"), read=_read_upper_board),
    Field("fp_claim", "claims.first player", PUBLIC, "who takes the 1st Player token in "
          "phase 3 (§16), null none", value=OptInt(0, N_1), empty=-1),
    Field("rot_claim", "claims.rotate", PUBLIC, "who chooses to rotate 0 or 2 steps (§18), "
          "null none", value=OptInt(0, N_1), empty=-1),
    Field("supply", "supply", PUBLIC, "pigments in the supply", dims=("colours",),
          value=NameCounts(SUPPLY_COLOURS, "colour", MOST_PIGMENTS)),
    Field("easel", "easels", PUBLIC, "painting on each easel (easel 1 first), by its "
          "printed id (`#id` in the notation and the texts), null when empty",
          dims=("easels",), value=OptInt(0, LAST_CARD), empty=-1),
    Field("deck", "deck", DERIVED, "0/1 per painting: still in the deck (a set: no order "
          "is kept; the paintings neither on an easel, held nor removed)", dims=("cards",), value=IdSet("painting")),
    Shown("removed", lambda c: removed(c.s), "the paintings out of the game (derived; must "
          "agree)", required=True),
    Field("pig", "boards[].pigments", PUBLIC, "pigments per colour", dims=("players", "colours"),
          value=NameCounts(SUPPLY_COLOURS, "colour", MOST_PIGMENTS)),
    Field("tool", "boards[].tools", PUBLIC, "tool levels (1 = start space)",
          dims=("players", "tools"), value=NameCounts(TOOLS, "tool", TRACK_LEN, lo=1)),
    Field("bonus", "boards[].bonus", PUBLIC, "development bonus chosen per tool (§12)",
          dims=("players", "tools"), value=ToolBonus()),
    Field("hired", "boards[].assistants", PUBLIC, "assistants hired",
          dims=("players",), value=Int(START_ASSISTANTS, MAX_ASSISTANTS)),
    Field("to_place", "boards[].to_place", PUBLIC, "assistants still to place this round",
          dims=("players",), value=_ASSISTANTS),
    Shown("boards[].paintings", _paintings, "the paintings the player holds, by card id: "
          "`card`, `name`, `value`, the colour each of the 9 `spaces` needs, what `filled` "
          "each (a colour, \"white\" or null), `finished`", required=True,
          fields=("owner", "fill", "whites", "done"), read=_read_paintings),
    Field("stand", None, PUBLIC, "assistants standing, per player and location",
          dims=("players", "locations"), value=_ASSISTANTS),
    Field("lie", None, PUBLIC, "assistants lying down, per player and location",
          dims=("players", "locations"), value=_ASSISTANTS),
    Field("owner", None, PUBLIC, "who holds each painting, -1 nobody", dims=("cards",),
          value=Int(-1, N_1), empty=-1),
    Field("fill", None, PUBLIC, "bit j: space j of the painting holds a pigment",
          dims=("cards",), value=_MASK),
    Field("whites", None, PUBLIC, "bit j: that pigment is white", dims=("cards",),
          value=_MASK),
    Field("done", None, DERIVED, "the painting is finished (every space filled)",
          dims=("cards",), value=Int(0, 1)),
    Field("cur", None, PUBLIC, "the player to move at a decision", value=_PLAYER),
    Shown("scores", lambda c: [c.s.score(p) for p in range(c.r.n)], "running scores (§24; "
          "derived, must agree)", required=True),
    Field("tool_sel", "pending.tool", PENDING, "the tool being improved (§11)",
          value=Name(TOOLS, "tool", none=True), empty=-1),
    Field("pay_left", "pending.pay_left", PENDING, "pigments still to pay for it",
          value=Int(0, 2)),
    Field("pay_min", "pending.pay_min", PENDING, "the lowest colour the next payment may "
          "be (colours in non-decreasing order, §11)",
          value=Name(SUPPLY_COLOURS[:N_PAYABLE], "colour")),
    Field("paint_left", "pending.paint_left", PENDING, "pigments still to paint in this "
          "paint action (§15)", value=Int(0, 20)),
    Field("painted", "pending.painted", PENDING, "pigments painted in it so far",
          value=Int(0, 20)),
    Field("seat_k", "pending.seat_k", PENDING, "phase 3: seats done in turn order from the "
          "first player", value=Int(0, N_1)),
    Field("keep", "pending.keep", PENDING, "phase 3: the lower-board position (1..10) of the "
          "assistant each player stood up (§21), null none", dims=("players",),
          value=Ordinal(0, POSITIONS - 1, none=True), empty=-1),
    Field("deck_left", None, CACHE, "paintings in the deck", sum_of="deck"),
)

FIELDS = FieldTable("couleurs_de_paris", AXES, ROWS, strict_items=True)
