"""Van Gogh's state, one row per field: the reference attribute, the C field
of `VanGoghStateC` (state.pxd), where the JSON view shows it, its axes, its
JSON form and range, what a player knows of it, and what it means.

Everything that converts or checks a state reads this table (engine/fieldtable.py):
the JSON view of the reference and of the core (view.py, core.pyx), the view's
loader, the core's struct bytes from a reference state, the fields at rest,
and the field list of ENCODING.md ("State fields"), which

    python -m easel.engine.vangogh.encoding --write

rewrites (tests/vangogh/test_fields.py fails while it is stale). The table's
order is the view's. Adding a field: declare it in state.pxd, add its row
here, write the rules that use it (reference.py and play.pyx).
"""
from __future__ import annotations

from easel.engine.fieldtable import (CACHE, DERIVED, OMIT, PENDING, PUBLIC, Axis, Bound, Field,
                                     FieldTable, IdSet, Int, Name, NameCounts, Ordinal, Shown,
                                     Value)

from .rules import (ACTIVE_CAP, BOX_PER_COLOUR, BOX_WHITES, CHARS, COLOURS, INACTIVE,
                    MAX_CARDS, MAX_PLAYERS, MAX_SPACES, N_CHARS, N_CODES, N_COLOURS,
                    N_PAINTINGS, ORIENTS, PHASES, TABLE_SIZE, WHITE, parse_piece, piece_name)


# --------------------------------------------------------------- Minigoghs
def _piece(ctx, v, field, allow_none=False):
    if v is None and allow_none:
        return -1
    try:
        return parse_piece(v)
    except ValueError as e:
        ctx.f.bad(field, str(e))


class Pieces(Value):
    """Counts per Minigogh code, shown as the list of their names (a multiset,
    in code order), at most `limit` of them."""
    axes = 1

    def __init__(self, limit, whites=True):
        self.limit, self.whites = limit, whites

    def write(self, v, ctx):
        return [piece_name(c) for c in range(N_CODES) for _ in range(v[c])]

    def read(self, j, field, ctx):
        if not isinstance(j, list) or len(j) > self.limit:
            ctx.f.bad(field, f"must be a list of at most {self.limit} Minigoghs")
        counts = [0] * N_CODES
        for i, x in enumerate(j):
            counts[_piece(ctx, x, f"{field}[{i}]")] += 1
        if not self.whites and any(counts[c] for c in range(N_CODES) if c // 4 == WHITE):
            ctx.f.bad(field, "whites never lie on the table: take the white out")
        return counts

    def limits(self, r):
        return 0, self.limit

    def text(self):
        return (f"list of at most {self.limit} Minigogh names"
                + ("" if self.whites else ", no white"))


class PieceSlots(Value):
    """Minigogh codes filling their slots from the first (-1 empty), shown as
    the list of the names present."""
    axes = 1

    def write(self, v, ctx):
        return [piece_name(x) for x in v if x >= 0]

    def read(self, j, field, ctx):
        k = ctx.shape[0]
        if not isinstance(j, list) or len(j) > k:
            ctx.f.bad(field, f"must be a list of at most {k} Minigoghs")
        return [_piece(ctx, x, f"{field}[{i}]") for i, x in enumerate(j)] + [-1] * (k - len(j))

    def limits(self, r):
        return -1, N_CODES - 1

    def text(self):
        return "list of Minigogh names, first slot first"


class Spaces(Value):
    """Spaces holding a Minigogh code or -1, shown as a list of names and
    nulls: every space of the axis, or (on_card) the spaces of the card on
    the painting slot (none for an empty slot)."""
    axes = 1

    def __init__(self, on_card=False):
        self.on_card = on_card

    def _size(self, ctx):
        if not self.on_card:
            return ctx.shape[0]
        card = ctx.s.painting[ctx.i]
        return len(ctx.r.deck.cards[card].orient) if card >= 0 else 0

    def write(self, v, ctx):
        return [piece_name(x) if x >= 0 else None for x in v[:self._size(ctx)]]

    def read(self, j, field, ctx):
        size = self._size(ctx)
        if not isinstance(j, list) or len(j) != size:
            ctx.f.bad(field, f"must list {size} spaces (null when empty)")
        codes = [_piece(ctx, x, f"{field}[{k}]", allow_none=True) for k, x in enumerate(j)]
        return codes + [-1] * (ctx.shape[0] - size)

    def limits(self, r):
        return -1, N_CODES - 1

    def text(self):
        return ("list of Minigogh names or null, one per space of the card" if self.on_card
                else "list of Minigogh names or null")


# ------------------------------------------------------------------ shown
def _card(ctx):
    card = ctx.s.painting[ctx.i]
    return ctx.r.deck.cards[card] if card >= 0 else None


def _card_fact(fact):
    def value(ctx):
        card = _card(ctx)
        return OMIT if card is None else fact(card)
    return value


def _players_check(given, ctx):
    if given != ctx.r.n:
        return f"the state is for {given!r} players, the game for {ctx.r.n}"


def _game_colours(r):
    return [COLOURS[c] for c in r.colours]


def _colors_check(given, ctx):
    if given != _game_colours(ctx.r):
        return f"{given!r} differ from the game's {_game_colours(ctx.r)!r}"


def _card_names(r):
    return [card.name for card in r.deck.cards]


def _card_names_check(given, ctx):
    if given != _card_names(ctx.r):
        return "differ from the names of the game's deck file (a position of another deck?)"


def _char_name_check(given, ctx):
    if given != CHARS[ctx.i]:
        return f"expected {CHARS[ctx.i]!r}, got {given!r}"


def _palette_colour_check(given, ctx):
    mine = COLOURS[ctx.r.colours[ctx.i]]
    if given != mine:
        return f"player {ctx.i} plays {mine}"


class NextCharacter(Value):
    """The end of round's progress (`eor_char`: the characters already
    checked, in the order of CHARS) shown as the notation's `eor` line shows
    it: the name of the next character to check, "end" when all are, null
    before the first (a count, never a character's index)."""

    END = "end"

    def write(self, v, ctx):
        return None if v == 0 else (CHARS[v] if v < N_CHARS else self.END)

    def read(self, j, field, ctx):
        if j is None:
            return 0
        return ctx.f.choice(j, field, CHARS + (self.END,), "character")

    def limits(self, r):
        return 0, N_CHARS

    def text(self):
        return 'character name, "end" or null'


# ------------------------------------------------------------------ the table
AXES = (
    Axis("players", MAX_PLAYERS, lambda r: r.n, "one per player (seat order)", ref_doc="n"),
    Axis("colours", N_COLOURS, doc="yellow, blue, pink, green, purple"),
    Axis("codes", N_CODES, doc="Minigogh codes: colour*4 + orientation, colour 0..5 "
                               "(5 white)"),
    Axis("chars", N_CHARS, doc="the characters, ENCODING.md \"Constants\""),
    Axis("slots", 2, doc="the Minigoghs waiting on one character"),
    Axis("paintings", N_PAINTINGS, doc="painting slots"),
    Axis("spaces", MAX_SPACES, doc="spaces of a painting card (a card uses the first ones)"),
    Axis("cards", MAX_CARDS, lambda r: len(r.deck.cards), "the deck file's cards, by id",
         ref_doc="cards"),
    Axis("inactive", INACTIVE, doc="inactive palette spaces, left to right (1, 3, 5 EP empty)"),
)

N_1 = Bound("n-1", lambda r: r.n - 1, "the last seat (n = players)")
SEC = Bound("max(n-1, 0)", lambda r: max(r.n - 1, 0), "the last seat, 0 solo")
ROUNDS = Bound("rounds", lambda r: max(r.max_rounds, r.solo_rounds),
               "the option maxrounds, or the solo game's 5 rounds if more")
TURNS = Bound("turns", lambda r: r.turns_per_round,
              "turns per round: 4 with 2 players, 3 solo, else n")
CARDS = Bound("cards", lambda r: len(r.deck.cards), "cards in the deck file")
LAST_CARD = Bound("cards-1", lambda r: len(r.deck.cards) - 1, "the last card id")

_PLAYER = Int(0, N_1)
_PLAYER_OR_NONE = Int(-1, N_1)
_FLAG = Int(0, 1)
_PHASE = Name(PHASES, "phase")
_PHASE_OR_NONE = Name(PHASES, "phase", none=True)

ROWS = (
    Shown("players", lambda c: c.r.n, "number of players (1: solo); must be the game's",
          required=True, check=_players_check),
    Shown("colors", lambda c: _game_colours(c.r), "player colours in seat order; must be "
          "the game's", required=True, check=_colors_check),
    Field("phase", "phase", PUBLIC, "the phase (\"Phases\")", value=_PHASE),
    Shown("current_player", lambda c: c.s._current_player(), "who acts: a seat, -1 chance, "
          "-4 nobody (the end); must agree with the position", required=True),
    Field("round", "round", PUBLIC, "1-based round number", value=Int(1, ROUNDS)),
    Field("turn", "turn", DERIVED, "the current turn within the round, counted from 1 "
          "(turns+1 between the last turn and the end of the round)", value=Ordinal(0, TURNS)),
    Field("first_starter", "first_starter", DERIVED, "starting player chosen at setup "
          "(option start)", value=_PLAYER),
    Field("round_starter", "round_starter", DERIVED, "who started this round", value=_PLAYER),
    Field("turn_player", "turn_player", PUBLIC, "who chose (or is choosing) the character "
          "of the current turn", value=_PLAYER),
    Field("token_holder", "token_holder", PUBLIC, "Starting Player token holder, -1 before "
          "anyone takes Anna", value=_PLAYER_OR_NONE, empty=-1),
    Field("ability_player", "ability_player", DERIVED, "who took Anna this round (their "
          "ability is usable this round), -1 none", value=_PLAYER_OR_NONE, empty=-1),
    Field("ability_spent", "ability_spent", PUBLIC, "that ability has been used this round",
          value=_FLAG),
    Field("brush_used", "brush_used", PUBLIC, "solo: the brush token's extra paint used "
          "this round", value=_FLAG),
    Field("finished", "finished", DERIVED, "paintings finished so far",
          value=Int(0, CARDS)),
    Field("score", "scores", PUBLIC, "EP", dims=("players",), value=Int(0, 100000)),
    Field("bag", "bag", DERIVED, "coloured Minigoghs in the bag",
          dims=("colours",), value=NameCounts(COLOURS, "colour", BOX_PER_COLOUR)),
    Field("whites", "whites", DERIVED, "white Minigoghs in the supply",
          value=Int(0, BOX_WHITES)),
    Field("table", "table", PUBLIC, "the table's inactive Minigoghs, counts per code",
          dims=("codes",), value=Pieces(TABLE_SIZE, whites=False)),
    Shown("characters[].name", lambda c: CHARS[c.i], "the character's name", check=_char_name_check),
    Field("char_taken", "characters[].taken", PUBLIC, "chosen this round",
          dims=("chars",), value=_FLAG),
    Field("char_wait", "characters[].waiting", PUBLIC, "codes of the Minigoghs waiting on "
          "the character (-1 empty)", dims=("chars", "slots"), value=PieceSlots(), empty=-1),
    Field("painting", "paintings[].card", PUBLIC, "card id (in the deck file) in the slot, "
          "-1 when empty (the deck ran out)", dims=("paintings",), value=Int(-1, LAST_CARD),
          empty=-1),
    Shown("paintings[].name", _card_fact(lambda card: card.name), "the card's name (not for "
          "an empty slot)"),
    Shown("paintings[].frame", _card_fact(lambda card: list(card.frame)), "the card's "
          "majority scores for places 1, 2, 3"),
    Shown("paintings[].orientations", _card_fact(lambda card: [ORIENTS[o] for o in card.orient]),
          "the orientation each space requires"),
    Shown("paintings[].bonus", _card_fact(lambda card: list(card.bonus)), "+1 EP per space"),
    Field("occ", "paintings[].occupants", PUBLIC, "code on each painting space, -1 empty "
          "(spaces past the card's size stay -1)", dims=("paintings", "spaces"),
          value=Spaces(on_card=True), empty=-1),
    Field("deck", "deck", DERIVED, "0/1 per card: still in the draw pile (a set: no order "
          "is kept)", dims=("cards",), value=IdSet("card")),
    Shown("card_names", lambda c: _card_names(c.r), "the deck file's card names by id (for "
          "the texts); optional, must be the game's", check=_card_names_check),
    Shown("palettes[].color", lambda c: COLOURS[c.r.colours[c.i]], "the player's colour",
          check=_palette_colour_check),
    Field("active", "palettes[].active", PUBLIC, "active area, counts per code (total <= 7, "
          "transiently 8 during the blue ability)", dims=("players", "codes"),
          value=Pieces(ACTIVE_CAP + 1)),
    Field("inactive", "palettes[].inactive", PUBLIC, "inactive spaces (codes, -1 empty)",
          dims=("players", "inactive"), value=Spaces(), empty=-1),
    Field("act_player", "pending.act_player", PENDING, "who performs the current primary or "
          "secondary action (or uses the blue ability or the brush)", value=_PLAYER_OR_NONE,
          empty=-1),
    Field("act_char", "pending.act_char", PENDING, "its character",
          value=Name(CHARS, "character", none=True), empty=-1),
    Field("act_primary", "pending.act_primary", PENDING, "1 primary, 0 secondary",
          value=_FLAG),
    Field("sec_k", "pending.sec_k", DERIVED, "the secondary action runs for player "
          "(turn_player + sec_k) % n, sec_k = 1..n-1", value=Int(0, SEC)),
    Field("steps_left", "pending.steps_left", PENDING, "steps left in STEP, takes left in "
          "EUGENE_TAKE, keeps left in GINOUX_KEEP", value=Int(0, 3)),
    Field("postman_used", "pending.postman_used", PENDING, "palette actions done in this "
          "Postman action, bits: 1 paint, 2 restart, 4 epiphany", value=Int(0, 7)),
    Field("hand", "pending.hand", PENDING, "Madame Ginoux: drawn colours not yet kept",
          dims=("colours",), value=NameCounts(COLOURS, "colour", 3)),
    Field("draws_left", "pending.draws_left", PENDING, "Madame Ginoux: draws still to make",
          value=Int(0, 3)),
    Field("roll_q", "pending.roll_queue", PENDING, "Madame Ginoux: kept colours waiting to "
          "be rolled (lowest colour first)", dims=("colours",),
          value=NameCounts(COLOURS, "colour", 2)),
    Field("blue_colour", "pending.blue_colour", PENDING, "colour drawn by the blue ability, "
          "waiting for its orientation", value=Name(COLOURS, "colour", none=True), empty=-1),
    Field("resume", "pending.resume", PENDING, "phase to return to after the blue ability "
          "or the brush", value=_PHASE_OR_NONE, empty=-1),
    Field("card_slot", "pending.card_slot", PENDING, "painting slot waiting for a new "
          "painting, counted from 1 as in the texts (\"onto painting 2\"), null none",
          value=Ordinal(0, N_PAINTINGS - 1, none=True), empty=-1),
    Field("card_resume", "pending.card_resume", PENDING, "phase to return to after CARD",
          value=_PHASE_OR_NONE, empty=-1),
    Field("eor_char", "pending.eor_char", PENDING, "end of round: the next character to "
          "check for a waiting Minigogh (null: none checked yet, \"end\": all checked)",
          value=NextCharacter()),
    Field("setup_k", "pending.setup_k", PENDING, "setup draws done in the current setup "
          "phase", value=Int(0, 10)),
    Field("n_active", None, CACHE, "Minigoghs in each active area", dims=("players",),
          sum_of="active"),
    Field("bag_total", None, CACHE, "Minigoghs in the bag", sum_of="bag"),
    Field("table_total", None, CACHE, "Minigoghs on the table", sum_of="table"),
    Field("deck_left", None, CACHE, "cards in the draw pile", sum_of="deck"),
)

FIELDS = FieldTable("vangogh", AXES, ROWS)

